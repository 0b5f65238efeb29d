import { MODULE_ID } from "./constants.js";
import { escapeHtml } from "./chat.js";
import { openSurpriseDialog } from "./dialog.js";
import { localize } from "./i18n.js";

/** Add a Surprise button to the Combat Tracker header for the GM (V12 passes jQuery, V13 an element). */
export function addTrackerButton(app, html) {
  if (!game.user.isGM || !game.combat) return;
  const root = typeof HTMLElement !== "undefined" && html instanceof HTMLElement ? html : html?.[0];
  const header = root?.querySelector(".combat-tracker-header, .encounter-controls, header");
  if (!header || header.querySelector(`.${MODULE_ID}-button`)) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = `${MODULE_ID}-button`;
  button.innerHTML = `<i class="fas fa-bolt"></i> ${escapeHtml(localize("Dialog.TrackerButton"))}`;
  button.addEventListener("click", () => openSurpriseDialog(game.combat));
  header.append(button);
}
