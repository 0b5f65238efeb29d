import { MODULE_ID } from "./constants.js";
import { format, localize } from "./i18n.js";
import { setting } from "./settings.js";

const HTML_ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escape text for HTML: names and translations never reach chat as markup. */
export const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);

/** Create one chat message of a card: a title and plain-text lines (escaped here), to everyone or to the GMs. */
function createCard(title, lines, { toGM = false, rolls = [], record = null } = {}) {
  const body = lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("");
  return ChatMessage.create({
    content: `<div class="${MODULE_ID}-card"><h3>${escapeHtml(title)}</h3>${body}</div>`,
    speaker: ChatMessage.getSpeaker({ alias: localize("Chat.Speaker") }),
    rolls: rolls.map((entry) => entry.roll),
    whisper: toGM ? ChatMessage.getWhisperRecipients("GM").map((user) => user.id) : [],
    flags: record ? { [MODULE_ID]: record } : {},
  });
}

/**
 * Post a chat card by the world setting: what happened to everyone and the rolls, targets and attributes behind it
 * to the GMs alone ("split", the default), all of it to everyone ("public"), or all of it to the GMs ("gm").
 * `record` is stored in the flags of the message that carries the details (players' clients never receive a
 * whisper), so the card can be read back, and tested, as data.
 */
export async function postCard({ title, lines, details = [], rolls = [], record = {} }) {
  const mode = setting("chatVisibility");
  if (mode !== "split") return createCard(title, [...lines, ...details], { toGM: mode === "gm", rolls, record });
  const secret = details.length > 0 || rolls.length > 0;
  if (lines.length) await createCard(title, lines, { record: secret ? null : record });
  if (secret) await createCard(format("Chat.ForGM", { title }), details, { toGM: true, rolls, record });
  return null;
}
