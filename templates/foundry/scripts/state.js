import { FLAG, LOG_PREFIX, MODULE_ID } from "./constants.js";
import { foundryTable } from "./adapter.js";
import * as Table from "./table.js";

/** Return the surprise stored on a combat, to read only, or null. */
export const storedState = (combat) => combat?.getFlag(MODULE_ID, FLAG) ?? null;

/**
 * Return a working copy of the surprise stored on a combat, or null. A copy, because changing the stored flag
 * object in place would leave the later setFlag with nothing to save.
 */
export const getState = (combat) => {
  const stored = combat?.getFlag(MODULE_ID, FLAG);
  return stored ? foundry.utils.deepClone(stored) : null;
};

/**
 * Store the surprise on a combat (the whole object; the module never deletes keys inside it). A combat deleted
 * while a step was running, even while this very update was on its way, cannot keep it: the statuses are removed
 * instead, since the clean-up after the deletion read the surprise from before that step.
 */
export async function saveState(combat, surprise) {
  try {
    if (game.combats.has(combat.id)) return await combat.setFlag(MODULE_ID, FLAG, surprise);
  } catch (error) {
    if (game.combats.has(combat.id)) throw error;
  }
  return Table.clearMarks(foundryTable(combat, surprise), surprise);
}

/** Remove the surprise from a combat. */
export const dropState = (combat) => combat.unsetFlag(MODULE_ID, FLAG);

let queue = Promise.resolve();

/**
 * Run async tasks one after another: a turn change may arrive while the previous one is still rolling, and both
 * read and write the same surprise.
 */
export function serialized(task) {
  const run = queue.then(task);
  queue = run.catch((error) => console.error(`${LOG_PREFIX}automation failed`, error));
  return run;
}

/** Tell whether this client runs the automation: exactly one, the active GM. */
export const isAutomationClient = () => Boolean(game.users.activeGM?.isSelf);
