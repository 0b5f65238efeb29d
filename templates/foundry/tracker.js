// The Surprise button of the Combat Tracker, where each tracker has its controls.
import { MODULE_ID, SURPRISE_MACRO } from "../common/config.js";
import { escapeHtml } from "./chat.js";
import { openSurpriseDialog } from "./dialog.js";
import { format, localize } from "./i18n.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["Dialog.TrackerButton", "Notify.NoTrackerPlace"];

/**
 * Where the trackers have their controls, the first found taking the button (docs/dev/foundry.md §10, §11): core V13
 * and V14, and GURPS Game Aid, which keeps core's tracker, have two rows of control buttons in the encounter controls;
 * ARS's own tracker has the encounter controls row alone, its links in it.
 */
const PLACES = [
  ".encounter-controls .control-buttons.right",
  ".encounter-controls .control-buttons",
  ".encounter-controls",
];

/** Whether the GM was told, on this client, that the tracker has no place for the button */
let toldNoPlace = false;

/**
 * Add a Surprise button to the Combat Tracker's controls for the GM; a tracker without a place for it gets none, and
 * the GM is told once where the macro is instead. The tracker may be popped out into a window of its own, whose nodes
 * fail `instanceof HTMLElement` of this one: the root is not tested against that class, and the button is made by the
 * root's own document.
 */
export function addTrackerButton(app, html) {
  if (!game.user.isGM || !game.combat) return;
  const root = html?.jquery ? html[0] : html;
  const place = PLACES.map((selector) => root?.querySelector?.(selector)).find(Boolean);
  if (!place) {
    if (!toldNoPlace) ui.notifications.info(format("Notify.NoTrackerPlace", SURPRISE_MACRO));
    toldNoPlace = true;
    return;
  }
  if (place.querySelector(`.${MODULE_ID}-button`)) return;
  const button = root.ownerDocument.createElement("button");
  button.type = "button";
  button.className = `${MODULE_ID}-button`;
  button.innerHTML = `<i class="fas fa-bolt"></i> ${escapeHtml(localize("Dialog.TrackerButton"))}`;
  button.addEventListener("click", () => openSurpriseDialog(game.combat));
  place.append(button);
}
