// Chat messages: the session's messages of a card as Foundry chat messages, escaped, with the rolls behind them.
import { MODULE_ID } from "../common/config.js";
import { localize } from "./i18n.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["Chat.Speaker"];

const HTML_ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escape text for HTML: names and translations never reach chat as markup */
export const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);

/**
 * Create the chat message of one message of a card: a title and plain-text lines (escaped here), to everyone or to
 * the GMs, with the Foundry rolls behind it. The records go into the message's flags (players' clients never
 * receive a whisper), so the card can be read back, and tested, as data.
 */
export function postMessage({ title, lines, gm, records }, rolls = []) {
  const body = lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("");
  return ChatMessage.create({
    content: `<div class="${MODULE_ID}-card"><h3>${escapeHtml(title)}</h3>${body}</div>`,
    speaker: ChatMessage.getSpeaker({ alias: localize("Chat.Speaker") }),
    rolls,
    whisper: gm ? ChatMessage.getWhisperRecipients("GM").map((user) => user.id) : [],
    flags: records.length ? { [MODULE_ID]: { records } } : {},
  });
}
