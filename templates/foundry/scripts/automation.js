import { foundryTable } from "./adapter.js";
import { setting } from "./settings.js";
import { getState, isAutomationClient, saveState, serialized, storedState } from "./state.js";
import * as runtime from "./runtime.js";

/**
 * Tell whether a turn change begins a round: the round number changed, or the turn went back to the first one under
 * the number the round before carried, which only the AD&D renumbering does (a one-segment surprise in round 1 is
 * followed by the first normal round, round 1 again: see onPreUpdateCombat). A turn back to the first one of an
 * order just re-sorted (ARS re-rolls initiative, then sets turn 0) begins no round.
 */
function roundBegan(surprise, prior, current, resorted) {
  if (current.round !== prior?.round) return true;
  const wrapped = current.turn === 0 && (prior?.turn ?? 0) > 0 && !resorted;
  return wrapped && runtime.nextRoundNumber(surprise, current.round + 1) === current.round;
}

/**
 * Follow the rules turn by turn (docs/dev/foundry.md §7: combatTurnChange runs on every client after the update; only the
 * active GM acts). Ends the previous combatant's turn, starts a new round, then the new turn.
 */
export function onCombatTurnChange(combat, prior, current) {
  if (!isAutomationClient() || !setting("automation")) return undefined;
  return serialized(async () => {
    const surprise = getState(combat);
    if (!surprise || surprise.done) return;
    const table = foundryTable(combat, surprise);
    const order = orderOf(combat);
    const resorted = lastOrders.has(combat.id) && lastOrders.get(combat.id) !== order;
    lastOrders.set(combat.id, order);
    const began = roundBegan(surprise, prior, current, resorted);
    if (prior?.combatantId && combat.combatants.has(prior.combatantId) && (began || isStepForward(prior, current))) {
      await runtime.turnEnded(table, surprise, prior.combatantId);
    }
    if (began && await runtime.roundStarted(table, surprise)) {
      // The order changed under the round's first turn: the round starts again there, as a change of its own.
      await saveState(combat, surprise);
      if (game.combats.has(combat.id)) await combat.update({ turn: 0 });
      return;
    }
    const id = current.combatantId;
    const passes = id && combat.combatants.has(id) ? await runtime.turnStarted(table, surprise, id) : false;
    await saveState(combat, surprise);
    // A game system may re-roll and re-sort the order as the round begins (ARS rollInitEachRound, then turn 0): a
    // skip sent while it does would land on another combatant's turn, so only a turn whose order held is skipped;
    // the system's own change of turn then starts the right one.
    const held = game.combats.has(combat.id) && combat.combatant?.id === id && combat.round === current.round
      && orderOf(combat) === order;
    if (passes && setting("skipSurprisedTurns") && held) await combat.nextTurn();
  });
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
 * Give the round about to begin the number the rules give it (the AD&D surprise segments are no rounds of the
 * fight). preUpdateCombat runs on the client that advances the combat, GM or player, before the update is sent
 * (docs/dev/foundry.md §7), so the tracker, the game system and every module see the right number in one change.
 */
export function onPreUpdateCombat(combat, changed) {
  if (!("round" in changed) || !(changed.round > combat.round)) return;
  const surprise = storedState(combat);
  if (surprise && !surprise.done) changed.round = runtime.nextRoundNumber(surprise, changed.round);
}
