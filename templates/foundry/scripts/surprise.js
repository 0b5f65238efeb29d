import { LOG_PREFIX } from "./constants.js";
import { actorRefs, foundryTable } from "./adapter.js";
import { localize, t } from "./i18n.js";
import { buildScenario } from "./inputs.js";
import { dropState, getState, isAutomationClient, saveState, serialized } from "./state.js";
import * as runtime from "./runtime.js";
import * as Table from "./table.js";

/** Tell the user why nothing happened. */
function refuse(key) {
  ui.notifications.warn(localize(key));
  return null;
}

/**
 * Resolve a surprise in a combat from a scenario in the shape api.draft returns (its members carry their combatant
 * ids): roll, post the card, apply the statuses, and store the surprise the turn-by-turn automation follows.
 * Returns the rules outcome, or null (and the GM is told why).
 */
export async function resolveSurprise(draft, combat = game.combat) {
  if (!game.user.isGM) return refuse("Notify.GMOnly");
  if (!combat) return refuse("Notify.NoCombat");
  const { scenario, problem } = buildScenario(draft, t);
  if (problem) {
    ui.notifications.warn(problem);
    return null;
  }
  return serialized(async () => {
    const previous = getState(combat);
    if (previous) await Table.clearMarks(foundryTable(combat, previous), previous);
    const surprise = { ...Table.newSurprise(scenario), actors: actorRefs(combat, scenario) };
    // The surprise comes before round 1, or before the next round of a combat already running.
    await runtime.resolve(foundryTable(combat, surprise), surprise, combat.started ? combat.round + 1 : 1);
    await saveState(combat, surprise);
    return surprise.outcome;
  });
}

/** Remove the module's statuses and surprise from a combat. */
export async function clearSurprise(combat = game.combat) {
  if (!game.user.isGM) return refuse("Notify.GMOnly");
  if (!combat) return refuse("Notify.NoCombat");
  return serialized(async () => {
    const surprise = getState(combat);
    if (!surprise) return false;
    await Table.clearMarks(foundryTable(combat, surprise), surprise);
    await dropState(combat);
    return true;
  });
}

/**
 * Clean up after a deleted combat: its statuses would otherwise never be removed. The hook runs on every client;
 * only the active GM acts, after any turn of the automation still running.
 */
export function onDeleteCombat(combat) {
  if (!isAutomationClient()) return undefined;
  return serialized(async () => {
    const surprise = getState(combat);
    if (!surprise) return;
    try {
      await Table.clearMarks(foundryTable(combat, surprise), surprise);
    } catch (error) {
      console.error(`${LOG_PREFIX}clean-up after a deleted combat failed`, error);
    }
  });
}

/**
 * A combatant removed from a running surprise leaves it: the statuses the module applied to him go (read from the
 * removed combatant's own actor, which may be a token's), and the automation no longer waits for his turns. The
 * hook runs on every client; only the active GM acts. A combat deleted as a whole is onDeleteCombat's.
 */
export function onDeleteCombatant(combatant) {
  const combat = combatant.parent;
  if (!isAutomationClient() || !combat) return undefined;
  return serialized(async () => {
    if (!game.combats.has(combat.id)) return;
    const surprise = getState(combat);
    if (!surprise || !Object.prototype.hasOwnProperty.call(surprise.labels, combatant.id)) return;
    const table = foundryTable(combat, surprise, { [combatant.id]: combatant.actor ?? null });
    await runtime.left(table, surprise, combatant.id);
    await saveState(combat, surprise);
  });
}
