import { foundryTable } from "./adapter.js";
import { setting } from "./settings.js";
import { getState, isAutomationClient, saveState, serialized } from "./state.js";
import * as runtime from "./runtime.js";

/**
 * Follow the rules turn by turn (FOUNDRY.md 7: combatTurnChange runs on every client after the update; only the
 * active GM acts). Ends the previous combatant's turn, starts a new round, then the new turn.
 */
export function onCombatTurnChange(combat, prior, current) {
  if (!isAutomationClient() || !setting("automation")) return undefined;
  return serialized(async () => {
    const surprise = getState(combat);
    if (!surprise || surprise.done) return;
    const table = foundryTable(combat, surprise);
    const order = orderOf(combat);
    if (prior?.combatantId && combat.combatants.has(prior.combatantId) && isStepForward(prior, current)) {
      await runtime.turnEnded(table, surprise, prior.combatantId, prior.round);
    }
    if (current.round !== prior?.round && await runtime.roundStarted(table, surprise, current.round)) {
      // The order changed under the round's first turn: the round starts again there, as a change of its own.
      await saveState(combat, surprise);
      if (game.combats.has(combat.id)) await combat.update({ turn: 0 });
      return;
    }
    const id = current.combatantId;
    const passes = id && combat.combatants.has(id) ? await runtime.turnStarted(table, surprise, id, current.round) : false;
    await saveState(combat, surprise);
    // A game system may re-roll and re-sort the order as the round begins (ARS rollInitEachRound, then turn 0): a
    // skip sent while it does would land on another combatant's turn, so only a turn whose order held is skipped;
    // the system's own change of turn then starts the right one.
    const held = game.combats.has(combat.id) && combat.combatant?.id === id && combat.round === current.round
      && orderOf(combat) === order;
    if (passes && setting("skipSurprisedTurns") && held) await combat.nextTurn();
  });
}

/** Tell whether a change of turn moved on (a later turn, or a new round), not back or to a re-sorted order's top */
function isStepForward(prior, current) {
  return current.round > prior.round || (current.round === prior.round && (current.turn ?? -1) > (prior.turn ?? -1));
}

/** The combat's turn order with its initiative values, as one comparable text */
function orderOf(combat) {
  return combat.turns.map((combatant) => `${combatant.id}:${combatant.initiative ?? ""}`).join(",");
}
