// Surprise as a combat begins: when the GM begins a combat with combatants on both sides, the surprise dialog opens
// first, and the combat begins after the roll, or at once when the GM skips the surprise (world setting
// surpriseAtCombatStart). The Surprise button and the macro stay as they are.
import { openSurpriseDialog } from "./dialog.js";
import { defaultSide } from "./sheets.js";
import { storedState } from "./host.js";
import { setting } from "./settings.js";

/** The combats whose beginning this client lets through: the GM rolled or skipped the surprise */
const beginning = new Set();

/** Tell whether a change of a combat begins it: round 0 becoming round 1 or more (docs/dev/foundry.md §7) */
const begins = (combat, changed) => "round" in changed && (combat.round ?? 0) === 0 && changed.round >= 1;

/** Tell whether the combat has combatants on both sides, as the draft puts them */
function bothSides(combat) {
  const sides = new Set((combat.turns ?? []).map(defaultSide));
  return sides.has("a") && sides.has("b");
}

/** Open the dialog, then begin the combat once the GM rolled or skipped the surprise (not when he closed it) */
async function surpriseThenBegin(combat) {
  const outcome = await openSurpriseDialog(combat, { beginning: true });
  if (!outcome || !game.combats.has(combat.id)) return;
  beginning.add(combat.id);
  try {
    await combat.startCombat();
  } finally {
    beginning.delete(combat.id);
  }
}

/**
 * preUpdateCombat: hold back the beginning of a combat until the surprise is rolled. The hook runs on the client that
 * asks for the update, before it is sent, and returning false cancels it (docs/dev/foundry.md §7); combatStart, which
 * fires before it, cannot cancel. A combat whose surprise was already rolled, one without two sides, a player's
 * client and a world that turned the setting off begin as they would without the module.
 */
export function holdCombatStart(combat, changed) {
  if (!begins(combat, changed) || beginning.has(combat.id)) return undefined;
  if (!game.user.isGM || !setting("surpriseAtCombatStart") || storedState(combat) || !bothSides(combat)) return undefined;
  surpriseThenBegin(combat).catch((error) => console.error(error));
  return false;
}
