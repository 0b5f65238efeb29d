// Which combatants have no place in a combat's order yet, because their initiative is being rolled (common/follow.js,
// rule 6): one whose initiative was cleared (the tracker's Reset Initiative, a game system's re-roll) until he has one
// again, and, where the game system re-rolls every initiative as a round begins (ARS), every combatant from the change
// of round until his new initiative is set: the order the tracker shows meanwhile is the last round's, or half re-rolled.
// Kept on the client that plays the automation; the hooks feed it as they run, before the session looks at the combat.
import { gameSystemAdapter } from "./game-systems/registry.js";

/** Combat id -> {rolling: the ids of its combatants being rolled, toTop: ARS has yet to set the turn to the top} */
const states = new Map();

/** Return a combat's state, made on first use */
function stateOf(combat) {
  if (!states.has(combat.id)) states.set(combat.id, { rolling: new Set(), toTop: false });
  return states.get(combat.id);
}

/** Note a change of the combat's round (updateCombat) */
export function roundChanged(combat) {
  if (!gameSystemAdapter().rerollsAsRoundChanges(combat)) return;
  states.set(combat.id, { rolling: new Set(combat.combatants.map((combatant) => combatant.id)), toTop: true });
}

/** Note a change of a combatant's initiative (updateCombatant): cleared, it is being rolled; set, it has its place */
export function initiativeChanged(combatant, changed) {
  const combat = combatant.parent;
  if (!combat || !("initiative" in changed)) return;
  const { rolling } = stateOf(combat);
  if (changed.initiative === null) rolling.add(combatant.id);
  else rolling.delete(combatant.id);
}

/** Return the ids of the combatants in the order whose place is being rolled, in the order's order */
export function unplaced(combat) {
  const { rolling } = stateOf(combat);
  return combat.started ? combat.turns.filter((combatant) => rolling.has(combatant.id)).map((combatant) => combatant.id) : [];
}

/**
 * Tell whether the order is rolled but its turn not yet set: after each roll of its re-roll ARS sets the turn to the
 * top (docs/dev/foundry.md §11), while the tracker still shows the turn that kept the last current combatant.
 */
export function settingTurn(combat) {
  const state = stateOf(combat);
  if (!state.toTop || state.rolling.size) return false;
  if (combat.turn === 0) state.toTop = false;
  return state.toTop;
}

/** Forget a combat */
export function forget(combat) {
  states.delete(combat.id);
}
