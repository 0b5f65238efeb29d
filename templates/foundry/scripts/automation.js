import { foundryTable } from "./adapter.js";
import { setting } from "./settings.js";
import { getState, isAutomationClient, saveState, serialized, storedState } from "./state.js";
import * as runtime from "./runtime.js";

/**
 * Tell whether a turn change begins a round: the round number changed, or the turn went back to the first one under
 * the number the round before carried, which only the AD&D renumbering does (a one-segment surprise in round 1 is
 * followed by the first normal round, round 1 again: see onPreUpdateCombat).
 */
function roundBegan(surprise, prior, current) {
  if (current.round !== prior?.round) return true;
  const wrapped = current.turn === 0 && (prior?.turn ?? 0) > 0;
  return wrapped && runtime.nextRoundNumber(surprise, current.round + 1) === current.round;
}

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
    if (prior?.combatantId && combat.combatants.has(prior.combatantId)) {
      await runtime.turnEnded(table, surprise, prior.combatantId);
    }
    if (roundBegan(surprise, prior, current) && await runtime.roundStarted(table, surprise)) {
      // The order changed under the round's first turn: the round starts again there, as a change of its own.
      await saveState(combat, surprise);
      if (game.combats.has(combat.id)) await combat.update({ turn: 0 });
      return;
    }
    const id = current.combatantId;
    const passes = id && combat.combatants.has(id) ? await runtime.turnStarted(table, surprise, id) : false;
    await saveState(combat, surprise);
    if (passes && setting("skipSurprisedTurns") && game.combats.has(combat.id)) await combat.nextTurn();
  });
}

/**
 * Give the round about to begin the number the rules give it (the AD&D surprise segments are no rounds of the
 * fight). preUpdateCombat runs on the client that advances the combat, GM or player, before the update is sent
 * (FOUNDRY.md 7), so the tracker, the game system and every module see the right number in one change.
 */
export function onPreUpdateCombat(combat, changed) {
  if (!("round" in changed) || !(changed.round > combat.round)) return;
  const surprise = storedState(combat);
  if (surprise && !surprise.done) changed.round = runtime.nextRoundNumber(surprise, changed.round);
}
