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
    if (prior?.combatantId && combat.combatants.has(prior.combatantId)) {
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
    if (passes && setting("skipSurprisedTurns") && game.combats.has(combat.id)) await combat.nextTurn();
  });
}
