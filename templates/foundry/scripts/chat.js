import { MODULE_ID } from "./constants.js";
import { localize } from "./i18n.js";
import { setting } from "./settings.js";

const HTML_ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escape text for HTML: names and translations never reach chat as markup. */
export const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);

/**
 * Post a chat card: a title, plain-text lines (escaped here) and the rolls behind them.
 * `record` is stored in the message flags so the card can be read back (and tested) as data.
 */
export async function postCard({ title, lines, rolls = [], record = {} }) {
  const body = lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("");
  const whisper = setting("chatVisibility") === "gm" ? ChatMessage.getWhisperRecipients("GM").map((u) => u.id) : [];
  return ChatMessage.create({
    content: `<div class="${MODULE_ID}-card"><h3>${escapeHtml(title)}</h3>${body}</div>`,
    speaker: ChatMessage.getSpeaker({ alias: localize("Chat.Speaker") }),
    rolls: rolls.map((entry) => entry.roll),
    whisper,
    flags: { [MODULE_ID]: record },
  });
}
