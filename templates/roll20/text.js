// Text in chat: the script's strings in the GM's language, and cards, buttons and prompts that nothing in a name or a
// translation can turn into markup, rolls, queries or attribute references.
import { COMMAND, DEFAULT_LANGUAGE, SCRIPT_NAME, STRINGS } from "../common/config.js";
import { fill, formatNumber } from "../common/format.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["Dialog.Title", "Format.Part"];

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

/** The characters a roll query's prompt keeps at most: a label and whose value it is */
const PROMPT_LENGTH = 60;

/**
 * Keep only characters that are safe inside a roll query's prompt: letters, digits, the label's colon and parentheses,
 * and punctuation beyond ASCII, which no Roll20 syntax uses (a Chinese label's ：and （）, „…“); a longer prompt is
 * cut after a whole word
 */
export function promptText(text) {
  const kept = [...String(text).replace(/[^\p{L}\p{N} _.'():-]/gu, (ch) => (ch > "\u007f" && /\p{P}/u.test(ch) ? ch : " "))
    .replace(/\s+/g, " ").trim()];
  if (kept.length <= PROMPT_LENGTH) return kept.join("") || "?";
  const cut = kept.slice(0, PROMPT_LENGTH - 1).join("");
  return `${cut.includes(" ") ? cut.slice(0, cut.lastIndexOf(" ")) : cut}…`;
}

/** Translate a string of the script, filling {placeholders}, numbers written as the language writes them */
export function t(key, data = {}) {
  const text = STRINGS[language()]?.[key] ?? STRINGS[DEFAULT_LANGUAGE][key] ?? key;
  return fill(text, data, language());
}

/** Write a number as the script's language writes it */
export const number = (value) => formatNumber(value, language());

/**
 * Fill a catalogue string with ready HTML (a bold name, a button, a value in red): the string's own words escaped,
 * each part put in as it is, so that a translation brings its punctuation and never markup
 */
export function markup(key, parts) {
  const names = Object.keys(parts);
  const marked = t(key, Object.fromEntries(names.map((name, index) => [name, `\u0000${index}\u0000`])));
  return HE(marked).replace(/\u0000(\d+)\u0000/g, (mark, index) => parts[names[Number(index)]]);
}

export const STYLE = {
  box: "border:1px solid #555;border-radius:4px;background:#f4f1ea;padding:4px;margin:2px 0;",
  title: "font-weight:bold;border-bottom:1px solid #555;margin-bottom:3px;",
  line: "margin:1px 0;",
  button: "display:inline-block;border:1px solid #555;border-radius:3px;background:#e6dcc6;color:#222;padding:0 4px;margin:1px;",
  missing: "color:#a00;font-weight:bold;",
};

/** A clickable chat button running a command (its label escaped here; the command built by the script) */
export const button = (label, command) => `<a style="${STYLE.button}" href="${command}">${HE(shortName(label, 80))}</a>`;

/**
 * The most a chat message of the script holds, in UTF-8 bytes of what it gives sendChat. Roll20 documents no limit;
 * this is the budget the script keeps to (docs/dev/roll20.md §6.1).
 */
export const CHAT_LIMIT = 16384;

/** Room a card leaves for the command in front of it: `/w "Display Name" ` (docs/dev/roll20.md §6.1) */
const PREFIX_ROOM = 256;

/** The most a line of text takes in a card, escaped: a longer text goes on over several lines */
const TEXT_LINE_BYTES = 2048;

/** Count the UTF-8 bytes of a text (a lone surrogate as the 3 bytes of the character replacing it) */
export function utf8Length(text) {
  let bytes = 0;
  for (const ch of String(text)) {
    const code = ch.codePointAt(0);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/**
 * Shorten a name a card shows to its first and last characters around an ellipsis: "Goblin ... 2" and
 * "Goblin ... 3" (common/draft.js gives repeated names a number at the end) stay apart
 */
export function shortName(name, most = 24) {
  const chars = [...String(name)];
  if (chars.length <= most) return chars.join("");
  const tail = Math.min(8, Math.floor(most / 3));
  return `${chars.slice(0, most - tail - 1).join("")}…${chars.slice(chars.length - tail).join("")}`;
}

/**
 * Escape texts as lines of a card, each line at most `most` bytes: a text too long for one line goes on over the next
 * ones, never cut short
 */
export function textLines(texts, most = TEXT_LINE_BYTES) {
  const lines = [];
  for (const text of texts) {
    let line = "";
    let bytes = 0;
    for (const ch of String(text)) {
      const html = HE(ch);
      const size = utf8Length(html);
      if (bytes + size > most && line) {
        lines.push(line);
        line = "";
        bytes = 0;
      }
      line += html;
      bytes += size;
    }
    lines.push(line);
  }
  return lines;
}

/** Lines of a card: ready HTML (a button), then a text after it on as many lines as it takes */
export const after = (html, text) => textLines([text]).map((line, index) => (index === 0 ? `${html} ${line}` : line));

/** Write one chat message of a card: its escaped title and lines of ready HTML */
const message = (title, lines) =>
  `<div style="${STYLE.box}"><div style="${STYLE.title}">${HE(title)}</div>${lines.map((l) => `<div style="${STYLE.line}">${l}</div>`).join("")}</div>`;

/**
 * Build a chat card from a title and lines of ready HTML, as the chat messages it takes: as many lines in each as fit
 * the script's budget (CHAT_LIMIT), each message after the first numbered in its title ("Title (2/3)"). Every line
 * must fit a message by itself (textLines makes them so); one that does not is a fault of the script, and throws.
 */
export function card(title, lines) {
  const heading = shortName(title, 120);
  const numbered = (part, parts) => t("Format.Part", { title: heading, part, parts });
  const budget = CHAT_LIMIT - PREFIX_ROOM - utf8Length(message(numbered(999, 999), []));
  const lineBytes = utf8Length(message("", [""])) - utf8Length(message("", []));
  const groups = [[]];
  let used = 0;
  for (const line of lines) {
    const size = lineBytes + utf8Length(line);
    if (size > budget) throw new Error(`a line of the card "${heading}" is longer than a chat message may be`);
    if (used + size > budget && groups.at(-1).length) {
      groups.push([]);
      used = 0;
    }
    groups.at(-1).push(line);
    used += size;
  }
  if (groups.length === 1) return [message(heading, groups[0])];
  return groups.map((group, index) => message(numbered(index + 1, groups.length), group));
}

/** Whisper the messages of a card to the GM */
export const toGM = (messages) => {
  for (const html of messages) sendChat(SCRIPT_NAME, `/w gm ${html}`, null, { noarchive: true });
};

/** Whisper the messages of a card to one player by display name (quoted: names have spaces) */
export function toPlayer(playerid, messages) {
  const player = getObj("player", playerid);
  if (!player) return toGM(messages);
  const name = player.get("_displayname").replace(/"/g, "'");
  for (const html of messages) sendChat(SCRIPT_NAME, `/w "${name}" ${html}`, null, { noarchive: true });
  return undefined;
}

/** Post the messages of a card to everyone */
export const toAll = (messages) => {
  for (const html of messages) sendChat(SCRIPT_NAME, `/direct ${html}`);
};

/** Whisper the GM a card of the script's title with one text */
export const notice = (text) => toGM(card(t("Dialog.Title"), textLines([text])));
