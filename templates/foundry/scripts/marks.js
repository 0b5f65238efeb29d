import { STATUSES } from "./constants.js";
import { format, localize } from "./i18n.js";
import { setStatus } from "./statuses.js";

/** Return the actor behind a combatant of the surprise, even after the combatant left the combat. */
export function actorOf(combat, state, id) {
  const combatant = combat?.combatants?.get(id);
  if (combatant) return combatant.actor ?? null;
  const actorId = state.actors?.[id];
  return actorId ? game.actors.get(actorId) ?? null : null;
}

/**
 * Switch one of the module's statuses on a combatant's actor and remember what the module applied, so it
 * only ever removes its own statuses (a game system may show the same one for other reasons).
 * `lasts` ({startRound, rounds}) gives the effect the duration it really has, ending at turn 0 of round
 * startRound + rounds: the moment the module removes it too, so an expiry module such as Times Up agrees.
 */
export async function mark(combat, state, id, status, active, lasts = null) {
  const actor = actorOf(combat, state, id);
  if (active && !actor) {
    const label = STATUSES.find((entry) => entry.id === status).label;
    ui.notifications.warn(format("Notify.NoActor", { name: state.labels[id] ?? id, status: localize(label) }));
    return;
  }
  const applied = new Set(state.applied[id] ?? []);
  if (active) {
    const result = await setStatus(actor, status, true);
    if (result) applied.add(status);
    if (lasts && typeof result === "object") {
      await result.update({ duration: { combat: combat.id, rounds: lasts.rounds, startRound: lasts.startRound, startTurn: 0 } });
    }
  } else if (applied.has(status)) {
    await setStatus(actor, status, false);
    applied.delete(status);
  }
  state.applied[id] = [...applied];
}

/** Remove every status the module applied during a surprise. */
export async function clearMarks(combat, state) {
  for (const [id, statuses] of Object.entries(state.applied ?? {})) {
    for (const status of statuses) await mark(combat, state, id, status, false);
  }
}

/** Remember which actor stands behind each member, for clean-up after combatants are removed. */
export function actorRefs(combat, scenario) {
  const refs = {};
  for (const key of ["a", "b"]) {
    for (const member of scenario.sides[key].members) {
      refs[member.name] = combat.combatants.get(member.name)?.actor?.id ?? null;
    }
  }
  return refs;
}
