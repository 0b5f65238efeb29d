// Text in chat: the script's strings in the GM's language, and cards, buttons and prompts that nothing in a name or a
// translation can turn into markup, rolls, queries or attribute references.
import { COMMAND, DEFAULT_LANGUAGE, SCRIPT_NAME, STRINGS } from "../common/config.js";
import { fill, formatNumber } from "../common/format.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["Dialog.Title"];

/** The command every chat command of the script starts with: the campaign's ([roll20] command) */
export { COMMAND };

/** The languages the script speaks, in the campaign's order; the campaign's default_language until a GM picks one */
export const LANGUAGES = Object.keys(STRINGS);
export { DEFAULT_LANGUAGE };

/** The language the script speaks now: the one a GM chose (config --language), else the campaign's default */
export function language() {
  const chosen = state[SCRIPT_NAME]?.config?.language;
  return LANGUAGES.includes(chosen) ? chosen : DEFAULT_LANGUAGE;
}

const HTML_ESCAPES = {
  "&": "&amp;", "<": "&lt;", ">": "&gt;", "'": "&#39;", '"': "&quot;", "@": "&#64;", "|": "&#124;",
  "{": "&#123;", "}": "&#125;", "[": "&#91;", "]": "&#93;", "%": "&#37;", "#": "&#35;", "?": "&#63;",
  "*": "&#42;", "\n": "<br>",
};

/** Escape any text for chat HTML so nothing in it runs as markup, roll, query or attribute syntax */
export const HE = (text) => String(text).replace(/[&<>'"@|{}[\]%#?*\n]/g, (ch) => HTML_ESCAPES[ch]);

/** Keep only characters that are safe inside a roll query's prompt */
export const promptText = (text) => String(text).replace(/[^\p{L}\p{N} _.'-]/gu, " ").trim().slice(0, 40) || "?";

/** Translate a string of the script, filling {placeholders}, numbers written as the language writes them */
export function t(key, data = {}) {
  const text = STRINGS[language()]?.[key] ?? STRINGS[DEFAULT_LANGUAGE][key] ?? key;
  return fill(text, data, language());
}

/** Write a number as the script's language writes it */
export const number = (value) => formatNumber(value, language());

export const STYLE = {
  box: "border:1px solid #555;border-radius:4px;background:#f4f1ea;padding:4px;margin:2px 0;",
  title: "font-weight:bold;border-bottom:1px solid #555;margin-bottom:3px;",
  line: "margin:1px 0;",
  button: "display:inline-block;border:1px solid #555;border-radius:3px;background:#e6dcc6;color:#222;padding:0 4px;margin:1px;",
  missing: "color:#a00;font-weight:bold;",
};

/** A clickable chat button running a command (its label escaped here; the command built by the script) */
export const button = (label, command) => `<a style="${STYLE.button}" href="${command}">${HE(label)}</a>`;

/** Build a chat card from an escaped title and lines of ready HTML */
export const card = (title, lines) =>
  `<div style="${STYLE.box}"><div style="${STYLE.title}">${HE(title)}</div>${lines.map((l) => `<div style="${STYLE.line}">${l}</div>`).join("")}</div>`;

/** Whisper HTML to the GM */
export const toGM = (html) => sendChat(SCRIPT_NAME, `/w gm ${html}`, null, { noarchive: true });

/** Whisper HTML to one player by display name (quoted: names have spaces) */
export function toPlayer(playerid, html) {
  const player = getObj("player", playerid);
  if (!player) return toGM(html);
  return sendChat(SCRIPT_NAME, `/w "${player.get("_displayname").replace(/"/g, "'")}" ${html}`, null, { noarchive: true });
}

/** Post HTML to everyone */
export const toAll = (html) => sendChat(SCRIPT_NAME, `/direct ${html}`);

/** Whisper the GM a card of the script's title with one line of text */
export const notice = (text) => toGM(card(t("Dialog.Title"), [HE(text)]));
