// The combat's hooks as session calls: every change of the combat (a turn, a round, a re-sort, a combatant added or
// removed) is a look at the table the session reconciles with what it played (common/follow.js); a round about to
// begin gets the number the rules give it; a deleted combatant or combat leaves.
import { nextRoundNumber } from "../common/session.js";
import { LOG_PREFIX } from "./constants.js";
import { combatSession, isAutomationClient, serialized, storedState } from "./host.js";

/** Return what the combat shows now, as the session reads it; forward is the direction of the change, where known */
const lookAt = (combat, forward) => ({
  order: combat.turns.map((combatant) => combatant.id),
  current: combat.started && Number.isInteger(combat.turn) ? combat.turn : -1,
  round: combat.round,
  forward,
  rotating: false,
});

/** The combat's state that a skip must find unchanged: the current combatant, the round and the order */
const signature = (combat) => JSON.stringify([combat.combatant?.id ?? null, combat.round, combat.turns.map((c) => c.id)]);

/**
 * Let the session follow a combat after a change (docs/dev/foundry.md §7: the hooks run on every client after the
 * update; only the active GM acts). Passes on the turn of one who may not act, unless the table changed meanwhile (a
 * game system re-sorting as the round begins: its own change of turn starts the right one).
 */
function follow(combat, forward) {
  if (!isAutomationClient() || !combat) return undefined;
  return serialized(async () => {
    if (!game.combats.has(combat.id)) return;
    const before = signature(combat);
    const step = await combatSession(combat).observe(lookAt(combat, forward));
    if (!game.combats.has(combat.id)) return;
    if (step.restart) await combat.update({ turn: 0 });
    else if (step.skip && signature(combat) === before) await combat.nextTurn();
  });
}

/** The direction of an update, as nextTurn, nextRound and their reverse give it (docs/dev/foundry.md §7); else null */
const directionOf = (options) => (options?.direction > 0 ? true : options?.direction < 0 ? false : null);

/** A change of turn or round */
export function onUpdateCombat(combat, changed, options) {
  if ("turn" in changed || "round" in changed) follow(combat, directionOf(options));
}

/** A combatant's initiative changed (the order is sorted again), or one joined */
export function onUpdateCombatant(combatant, changed) {
  if ("initiative" in changed) follow(combatant.parent, null);
}

/** A combatant joined the combat */
export const onCreateCombatant = (combatant) => follow(combatant.parent, null);

/**
 * Give the round about to begin the number the rules give it (the AD&D surprise segments are no rounds of the
 * fight). preUpdateCombat runs on the client that advances the combat, GM or player, before the update is sent
 * (docs/dev/foundry.md §7), so the tracker, the game system and every module see the right number in one change.
 */
export function onPreUpdateCombat(combat, changed) {
  if ("round" in changed && changed.round > combat.round) changed.round = nextRoundNumber(storedState(combat), changed.round);
}

/**
 * Clean up after a deleted combat: its statuses would otherwise never be removed. The hook runs on every client;
 * only the active GM acts, after any turn of the automation still running.
 */
export function onDeleteCombat(combat) {
  if (!isAutomationClient()) return undefined;
  return serialized(async () => {
    try {
      await combatSession(combat).clear();
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
    await combatSession(combat, { [combatant.id]: combatant.actor ?? null }).left(combatant.id);
  });
}
