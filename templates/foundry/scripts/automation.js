import { foundryRoller } from "./dice.js";
import { setting } from "./settings.js";
import { getState, isAutomationClient, saveState, serialized } from "./state.js";
import * as runtime from "./runtime.js";

/**
 * Follow the rules turn by turn (FOUNDRY.md 7: combatTurnChange runs on every client after the update;
 * only the active GM acts). Ends the previous combatant's turn, starts a new round, then the new turn.
 */
export function onCombatTurnChange(combat, prior, current) {
  if (!isAutomationClient() || !setting("automation")) return undefined;
  return serialized(async () => {
    const state = getState(combat);
    if (!state || state.done) return;
    const rolls = [];
    const roller = foundryRoller(rolls);
    const previous = prior?.combatantId ? combat.combatants.get(prior.combatantId) : null;
    if (previous) await runtime.onTurnEnd(combat, state, previous);
    if (current.round !== prior?.round && await runtime.onRoundStart(combat, state, current.round)) {
      await saveState(combat, state); // the round restarted at another turn, which comes as its own change
      return;
    }
    const combatant = current.combatantId ? combat.combatants.get(current.combatantId) : null;
    const passes = combatant ? await runtime.onTurnStart(combat, state, combatant, roller, rolls) : false;
    await saveState(combat, state);
    if (passes && setting("skipSurprisedTurns") && game.combats.has(combat.id)) await combat.nextTurn();
  });
}
