import { LOG_PREFIX } from "./constants.js";
import { foundryRoller } from "./dice.js";
import { localize } from "./i18n.js";
import { buildScenario, labelsOf } from "./inputs.js";
import { actorRefs, clearMarks } from "./marks.js";
import { dropState, getState, isAutomationClient, saveState, serialized } from "./state.js";
import * as runtime from "./runtime.js";

/**
 * Resolve a surprise in a combat from dialog input: roll, post the card, apply statuses, and store
 * the state that the turn-by-turn automation follows. Returns the rules outcome, or null.
 */
export async function resolveSurprise(input, combat = game.combat) {
  if (!game.user.isGM) return refuse("Notify.GMOnly");
  if (!combat) return refuse("Notify.NoCombat");
  const { scenario, problem } = buildScenario(input);
  if (problem) {
    ui.notifications.warn(problem);
    return null;
  }
  return serialized(async () => {
    const previous = getState(combat);
    if (previous) await clearMarks(combat, previous);
    const state = { scenario, labels: labelsOf(scenario), actors: actorRefs(combat, scenario), applied: {}, done: false };
    const rolls = [];
    await runtime.resolve(combat, state, foundryRoller(rolls), rolls);
    await saveState(combat, state);
    return state.outcome;
  });
}

/** Remove the module's statuses and surprise state from a combat. */
export async function clearSurprise(combat = game.combat) {
  if (!game.user.isGM) return refuse("Notify.GMOnly");
  if (!combat) return refuse("Notify.NoCombat");
  return serialized(async () => {
    const state = getState(combat);
    if (!state) return false;
    await clearMarks(combat, state);
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
    const state = getState(combat);
    if (!state) return;
    try {
      await clearMarks(combat, state);
    } catch (error) {
      console.error(`${LOG_PREFIX}clean-up after a deleted combat failed`, error);
    }
  });
}

/** Tell the user why nothing happened. */
function refuse(key) {
  ui.notifications.warn(localize(key));
  return null;
}
