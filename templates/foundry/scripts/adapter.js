// The Foundry side of the table runtime (the Table contract in table.js): statuses are ActiveEffects on the
// combatants' actors, cards are chat messages carrying the Foundry rolls behind them, and the turn order is the
// combatants' initiative.
import { STATUSES } from "./constants.js";
import { postCard } from "./chat.js";
import { format, localize, t } from "./i18n.js";
import { setStatus } from "./statuses.js";

/** Return the actor behind a member of the surprise, even after his combatant left the combat */
export function actorOf(combat, surprise, id, known = {}) {
  if (Object.prototype.hasOwnProperty.call(known, id)) return known[id];
  const combatant = combat?.combatants?.get(id);
  if (combatant) return combatant.actor ?? null;
  const actorId = surprise.actors?.[id];
  return actorId ? game.actors.get(actorId) ?? null : null;
}

/** Remember which actor stands behind each member, for the clean-up after combatants are removed */
export function actorRefs(combat, scenario) {
  const refs = {};
  for (const key of ["a", "b"]) {
    for (const member of scenario.sides[key].members) refs[member.name] = combat.combatants.get(member.name)?.actor?.id ?? null;
  }
  return refs;
}

/**
 * Show or hide a status on a member's actor. On V13 a status counted in rounds gets that duration on its effect,
 * ending at turn 0 of round from + left: the moment the runtime lifts it too, so an expiry module such as Times Up
 * agrees. On V14 core expires effects itself, at turn events anchored to whoever's turn it was when the effect was
 * made, and leaves them on the actor inactive (docs/dev/foundry.md §8): the module's effects get no core duration there, and
 * the runtime removes them itself, as on V13. The world-wide expiryAction is never touched.
 */
async function markActor(combat, surprise, id, status, on, lasts, known) {
  const actor = actorOf(combat, surprise, id, known);
  if (!actor) {
    // Told once, when the status is first shown; a refresh on an actor deleted since says nothing.
    if (on && !(surprise.applied[id] ?? []).includes(status)) {
      const label = STATUSES.find((entry) => entry.id === status).label;
      ui.notifications.warn(format("Notify.NoActor", { name: surprise.labels[id] ?? id, status: localize(label) }));
    }
    return false;
  }
  const result = await setStatus(actor, status, on);
  if (on && result && game.release.generation < 14 && Number.isInteger(lasts?.from)) {
    await result.update({ duration: { combat: combat.id, rounds: lasts.left, startRound: lasts.from, startTurn: 0 } });
  }
  return Boolean(result);
}

/** Round to hundredths: initiative values are shown in the tracker */
const hundredths = (value) => Math.round(value * 100) / 100;

/**
 * Give the listed combatants initiative values that sort the tracker into that order, each close to his Sequence:
 * his Sequence plus a fraction that keeps ties in order, raised above the next one's where the order demands it.
 * Resolves true when the current turn is no longer the first of the round.
 */
async function arrangeInitiative(combat, order) {
  const values = new Map();
  let after = -Infinity;
  for (let index = order.length - 1; index >= 0; index -= 1) {
    const { id, sequence } = order[index];
    const tie = (order.length - index) / (order.length + 1);
    const value = hundredths(sequence + tie > after ? sequence + tie : Math.floor(after) + 1 + tie);
    values.set(id, value);
    after = value;
  }
  const updates = order.filter(({ id }) => combat.combatants.has(id)).map(({ id }) => ({ _id: id, initiative: values.get(id) }));
  await combat.updateEmbeddedDocuments("Combatant", updates);
  return Boolean(combat.started) && combat.turn !== 0;
}

/**
 * Return the table adapter of one combat and the surprise played in it; `known` gives the actors of combatants that
 * just left the combat, by id.
 */
export function foundryTable(combat, surprise, known = {}) {
  const rolls = [];
  return {
    t,
    async roll(count, sides, purpose) {
      const roll = await new Roll(`${count}d${sides}`).evaluate();
      rolls.push({ roll, purpose });
      return roll.dice[0].results.map((result) => result.result);
    },
    mark: (id, status, on, lasts = null) => markActor(combat, surprise, id, status, on, lasts, known),
    async post({ title, lines, details = [], record = {} }) {
      await postCard({ title, lines, details, rolls: rolls.splice(0), record });
    },
    arrange: (order) => arrangeInitiative(combat, order),
  };
}
