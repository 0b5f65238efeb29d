// The Surprise button of the Combat Tracker.
import { MODULE_ID } from "../common/config.js";
import { escapeHtml } from "./chat.js";
import { openSurpriseDialog } from "./dialog.js";
import { localize } from "./i18n.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["Dialog.TrackerButton"];

/**
 * Add a Surprise button to the Combat Tracker's encounter controls for the GM (docs/dev/foundry.md §10). The tracker may be
 * popped out into a window of its own, whose nodes fail `instanceof HTMLElement` of this one: the root is not tested
 * against that class, and the button is made by the root's own document.
 */
export function addTrackerButton(app, html) {
  if (!game.user.isGM || !game.combat) return;
  const root = html?.jquery ? html[0] : html;
  const controls = root?.querySelector?.(".encounter-controls");
  const row = controls?.querySelector(".control-buttons.right") ?? controls?.querySelector(".control-buttons");
  if (!row || row.querySelector(`.${MODULE_ID}-button`)) return;
  const button = root.ownerDocument.createElement("button");
  button.type = "button";
  button.className = `${MODULE_ID}-button`;
  button.innerHTML = `<i class="fas fa-bolt"></i> ${escapeHtml(localize("Dialog.TrackerButton"))}`;
  button.addEventListener("click", () => openSurpriseDialog(game.combat));
  row.append(button);
}
