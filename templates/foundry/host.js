// The Foundry host of the table session (common/session.js): statuses are ActiveEffects on the combatants' actors, cards
// are chat messages carrying the Foundry rolls behind them, the turn order is the combatants' initiative, and the
// surprise is kept in a flag of its combat.
import { MODULE_ID, STATUSES } from "../common/config.js";
import { membersOf } from "../common/scenario.js";
import { queued, tableSession } from "../common/session.js";
import { postMessage } from "./chat.js";
import { FLAG, LOG_PREFIX } from "./constants.js";
import { gameSystemAdapter } from "./game-systems/registry.js";
import { format, language, localize, t } from "./i18n.js";
import { setting } from "./settings.js";
import { setStatus } from "./statuses.js";
import { copyOf, storedAsLists, storedChanges, storedForm, workingForm } from "./stored.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["Notify.NoActor", "{status}"];

/** Return the surprise stored on a combat, to read only, or null: as stored (stored.js), its growing lists by id */
export const storedState = (combat) => combat?.getFlag(MODULE_ID, FLAG) ?? null;

/** Return a copy of the surprise stored on a combat as the session plays it, or null */
export const playedState = (combat) => {
  const stored = storedState(combat);
  return stored ? workingForm(stored) : null;
};

/**
 * The surprise of each combat as the host last stored it, by combat id: the working copy the session changes and a
 * copy of what is stored (the base), with the revision that stored them. The next event goes on with them as long as
 * the stored revision is theirs; after another client's write, or a step that failed before it saved, the host reads
 * the stored surprise again.
 */
const kept = new Map();

/** Return a working copy of the surprise stored on a combat, or null: never the stored flag, changed in place */
function workingCopy(combat) {
  const stored = storedState(combat);
  const entry = kept.get(combat.id);
  kept.delete(combat.id); // lent to this event: a step that fails before it saves leaves it out
  if (!stored) return null;
  if (entry && entry.revision === stored.revision) {
    lent.set(combat.id, entry);
    return entry.surprise;
  }
  const surprise = workingForm(stored);
  // A surprise stored before its growing lists were kept by id is written whole once, in today's form
  lent.set(combat.id, { revision: stored.revision, surprise, base: storedAsLists(stored) ? null : workingForm(stored) });
  return surprise;
}

/** The working copies lent to the event being played, by combat id */
const lent = new Map();

/** The path of the surprise's flag in a combat update */
const FLAG_PATH = `flags.${MODULE_ID}.${FLAG}`;

/**
 * Write the surprise on a combat: what the event changed (stored.js), or the whole of it where no copy of what is
 * stored is at hand (a new surprise, one stored in an earlier form, one another client wrote). A whole write replaces
 * what was stored, which an update would merge into instead.
 */
async function write(combat, surprise, changed) {
  const entry = lent.get(combat.id);
  lent.delete(combat.id);
  const revision = (storedState(combat)?.revision ?? 0) + 1;
  surprise.revision = revision;
  const update = entry?.base && entry.surprise === surprise && changed
    ? storedChanges(FLAG_PATH, entry.base, surprise, changed) : null;
  if (update) {
    await combat.update(update);
    kept.set(combat.id, { revision, surprise, base: entry.base });
    return;
  }
  if (storedState(combat)) await combat.unsetFlag(MODULE_ID, FLAG);
  await combat.setFlag(MODULE_ID, FLAG, storedForm(surprise));
  kept.set(combat.id, { revision, surprise, base: copyOf(surprise) });
}

/**
 * Store the surprise on a combat, or drop it. A combat deleted while a step was running, even while this very update
 * was on its way, cannot keep it: false, and the session removes the statuses instead, since the clean-up after the
 * deletion read the surprise from before that step.
 */
async function store(combat, surprise, changed) {
  kept.delete(combat.id);
  try {
    if (game.combats.has(combat.id)) {
      await (surprise ? write(combat, surprise, changed) : combat.unsetFlag(MODULE_ID, FLAG));
      return true;
    }
  } catch (error) {
    kept.delete(combat.id);
    if (game.combats.has(combat.id)) throw error;
  }
  return surprise === null;
}

/** Return the actor behind a member of the surprise, even after his combatant left the combat */
function actorOf(combat, surprise, id, known) {
  if (Object.prototype.hasOwnProperty.call(known, id)) return known[id];
  const combatant = combat?.combatants?.get(id);
  if (combatant) return combatant.actor ?? null;
  const actorId = surprise.actors?.[id];
  return actorId ? game.actors.get(actorId) ?? null : null;
}

/** Remember which actor stands behind each member, for the clean-up after combatants are removed */
export function actorRefs(combat, scenario) {
  const refs = {};
  for (const member of membersOf(scenario)) refs[member.name] = combat.combatants.get(member.name)?.actor?.id ?? null;
  return refs;
}

/**
 * Show or hide a status on a member's actor. On V13 a status counted in rounds gets that duration on its effect,
 * ending at turn 0 of round from + left: the moment the runtime lifts it too, so an expiry module such as Times Up
 * agrees. On V14 core expires effects itself, at turn events anchored to whoever's turn it was when the effect was
 * made, and leaves them on the actor inactive (docs/dev/foundry.md §8): the module's effects get no core duration there,
 * and the runtime removes them itself, as on V13. The world-wide expiryAction is never touched.
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
 * Give the listed combatants initiative values that sort the tracker into that order: each his Sequence as it is
 * (a total the GM recognises, a dnd5e tiebreaker's hundredths kept) where it sorts above the next one's, else the next
 * one's raised by a hundredth (a tie, which the tracker would otherwise break by name, or the rules putting a lower
 * Sequence first). Resolves true when the current turn is no longer the first of the round.
 */
async function arrangeInitiative(combat, order) {
  const values = new Map();
  let after = -Infinity;
  for (let index = order.length - 1; index >= 0; index -= 1) {
    const { id, sequence } = order[index];
    const own = hundredths(sequence);
    const value = own > after ? own : hundredths(after + 0.01);
    values.set(id, value);
    after = value;
  }
  const updates = order.filter(({ id }) => combat.combatants.has(id)).map(({ id }) => ({ _id: id, initiative: values.get(id) }));
  await combat.updateEmbeddedDocuments("Combatant", updates);
  return Boolean(combat.started) && combat.turn !== 0;
}

/** The dice rolled in each combat since its last card that carries dice: a card may sum up several events' turns */
const pendingRolls = new Map();

/** Return the dice rolled in a combat and not yet shown */
function rollsOf(combat) {
  if (!pendingRolls.has(combat.id)) pendingRolls.set(combat.id, []);
  return pendingRolls.get(combat.id);
}

/**
 * Return the host of one combat: `known` gives the actors of combatants that just left it, by id.
 * @returns {import("../common/session.js").Host}
 */
export function foundryHost(combat, known = {}) {
  const rolls = rollsOf(combat);
  return {
    t,
    language,
    async roll(count, sides) {
      const roll = await new Roll(`${count}d${sides}`).evaluate();
      rolls.push(roll);
      return roll.dice[0].results.map((result) => result.result);
    },
    async rollInitiative(id, kind, bonus) {
      const rolled = await gameSystemAdapter().rollInitiative?.(combat, id, kind, bonus);
      if (!rolled) return null;
      rolls.push(rolled.roll);
      return { rolls: rolled.rolls, total: rolled.total };
    },
    mark: (id, status, on, lasts, surprise) => markActor(combat, surprise, id, status, on, lasts, known),
    arrange: (order) => arrangeInitiative(combat, order),
    async send(message) {
      await postMessage(message, message.dice ? rolls.splice(0) : []);
    },
    load: () => workingCopy(combat),
    peek: () => playedState(combat),
    save: (surprise, changed) => store(combat, surprise, changed),
    turnOrder: () => ({ round: combat.started ? combat.round : 0 }),
    settings: () => ({ automation: setting("automation"), skip: setting("skipSurprisedTurns"), cards: setting("chatVisibility") }),
  };
}

/** Return the table session of a combat */
export const combatSession = (combat, known = {}) => tableSession(foundryHost(combat, known));

/** Tell whether this client runs the automation: exactly one, the active GM */
export const isAutomationClient = () => Boolean(game.users.activeGM?.isSelf);

/** Run the work of the table one event at a time; a failure goes to the console */
export const serialized = (task) => queued(task, (error) => console.error(`${LOG_PREFIX}automation failed`, error));
