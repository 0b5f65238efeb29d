// The combat's hooks as session calls: a change of turn, a round about to begin, a combatant or a combat deleted.
import { nextRoundNumber } from "../common/session.js";
import { combatSession, isAutomationClient, serialized, storedState } from "./host.js";
import { LOG_PREFIX } from "./constants.js";
import { setting } from "./settings.js";

/**
 * Tell whether a turn change begins a round: the round number changed, or the turn went back to the first one under
 * the number the round before carried, which only the AD&D renumbering does (a one-segment surprise in round 1 is
 * followed by the first normal round, round 1 again: see onPreUpdateCombat). A turn back to the first one of an
 * order just re-sorted (ARS re-rolls initiative, then sets turn 0) begins no round.
 */
function roundBegan(surprise, prior, current, resorted) {
  if (current.round !== prior?.round) return true;
  const wrapped = current.turn === 0 && (prior?.turn ?? 0) > 0 && !resorted;
  return wrapped && nextRoundNumber(surprise, current.round + 1) === current.round;
}

/** Tell whether a change of turn moved on to a later turn of the round, not back or to a re-sorted order's top */
function isStepForward(prior, current) {
  return current.round === prior?.round && (current.turn ?? -1) > (prior?.turn ?? -1);
}

/** The turn order each combat had at its last change of turn, to tell a re-sort (ARS re-rolls) from a new round */
const lastOrders = new Map();

/** The combat's turn order with its initiative values, as one comparable text */
function orderOf(combat) {
  return combat.turns.map((combatant) => `${combatant.id}:${combatant.initiative ?? ""}`).join(",");
}

/**
 * Follow the rules turn by turn (docs/dev/foundry.md §7: combatTurnChange runs on every client after the update; only
 * the active GM acts): the previous combatant's turn ends, a round may begin, then the new turn.
 */
export function onCombatTurnChange(combat, prior, current) {
  if (!isAutomationClient() || !setting("automation")) return undefined;
  return serialized(async () => {
    const surprise = storedState(combat);
    if (!surprise || surprise.done) return;
    const order = orderOf(combat);
    const resorted = lastOrders.has(combat.id) && lastOrders.get(combat.id) !== order;
    lastOrders.set(combat.id, order);
    const began = roundBegan(surprise, prior, current, resorted);
    const present = (id) => Boolean(id) && combat.combatants.has(id);
    const ended = present(prior?.combatantId) && (began || isStepForward(prior, current)) ? prior.combatantId : null;
    const id = current.combatantId;
    const step = await combatSession(combat).follow({ ended, roundBegan: began, started: present(id) ? id : null });
    if (step.restart) {
      // The order changed under the round's first turn: the round starts again there, as a change of its own.
      if (game.combats.has(combat.id)) await combat.update({ turn: 0 });
      return;
    }
    // A game system may re-roll and re-sort the order as the round begins (ARS rollInitEachRound, then turn 0): a
    // skip sent while it does would land on another combatant's turn, so only a turn whose order held is skipped;
    // the system's own change of turn then starts the right one.
    const held = game.combats.has(combat.id) && combat.combatant?.id === id && combat.round === current.round
      && orderOf(combat) === order;
    if (step.skip && held) await combat.nextTurn();
  });
}

/**
 * Give the round about to begin the number the rules give it (the AD&D surprise segments are no rounds of the
 * fight). preUpdateCombat runs on the client that advances the combat, GM or player, before the update is sent
 * (docs/dev/foundry.md §7), so the tracker, the game system and every module see the right number in one change.
 */
export function onPreUpdateCombat(combat, changed) {
  if (!("round" in changed) || !(changed.round > combat.round)) return;
  changed.round = nextRoundNumber(storedState(combat), changed.round);
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
