// A surprise being played at the table, and the bookkeeping every system's table runtime shares: who is named how, and
// which statuses the module applied, so that it only ever removes its own.
import { list } from "./format.js";
import { membersOf } from "./scenario.js";

/**
 * The table as the runtime sees it (the session builds it from its host, session.js).
 * @typedef {object} RuntimeTable
 * @property {(id: string, status: string, on: boolean, lasts?: Lasts | null) => Promise<boolean>} mark
 *   Show or hide a status on a combatant. Resolves true when showing it applied it (false when the combatant
 *   is gone, or the VTT already showed it for its own reasons); the runtime then never removes what it did
 *   not apply.
 * @property {(card: Card) => Promise<void>} post  Post a card (the session decides who sees which part of it).
 * @property {(key: string, data?: Record<string, unknown>) => string} t  Translate a catalogue key, filling {names},
 *   numbers written as the language writes them.
 * @property {() => string} language  The language t translates to, for a number written outside t (common/format.js).
 * @property {Roller} roll  Roll dice for the rules core.
 * @property {InitiativeRoller} [rollInitiative]  Where the VTT's game system has an Initiative roll of its own (dnd5e):
 *   roll a combatant's through it.
 * @property {(order: Array<{id: string, sequence: number}>) => Promise<boolean>} arrange
 *   Put the turn order into this order, combatants not listed after them. Resolves true when the turn that had
 *   just begun is no longer the current one (the VTT then starts the right turn as a change of its own).
 */

/**
 * A game system's own Initiative roll: `await rollInitiative(id, kind, bonus)`, kind "normal" or "disadvantage", bonus
 * the Initiative bonus the surprise plays with. Returns the d20 faces and the total the game system rolled (its
 * bonuses and tiebreaker in it), or null where it cannot roll for this combatant with that bonus: the rules core rolls.
 * @typedef {(id: string, kind: string, bonus: number) => Promise<{rolls: number[], total: number} | null>} InitiativeRoller
 */

/**
 * How long a status lasts, for the VTT to show (a badge) or to expire (an effect duration).
 * @typedef {object} Lasts
 * @property {number} left  what is still to come, the current one included: rounds or segments, or GURPS seconds
 * @property {number} [from]  the table round the count starts in; given only where `left` counts rounds
 */

/**
 * A chat card.
 * @typedef {object} Card
 * @property {string} title
 * @property {string[]} lines  what happened, for the whole table: plain text, the host escapes it
 * @property {string[]} [details]  the rolls, targets and attributes behind it: the GM's unless the table shows all
 * @property {object} [record]  what the card says, kept with it as data
 */

/**
 * The dice: `await roll(count, sides, purpose)` returns the faces.
 * @typedef {(count: number, sides: number, purpose: object) => Promise<number[]>} Roller
 */

/**
 * A surprise being played: the scenario, the members' display labels by id, the statuses the module applied by
 * id, and whatever the system's runtime keeps (outcome, tracks, segments). Plain JSON, so any VTT can store it.
 * @typedef {object} Surprise
 * @property {object} scenario
 * @property {Record<string, string>} labels
 * @property {Record<string, string[]>} applied
 * @property {boolean} done
 */

/**
 * How a surprise changes, for a host that stores only what changed (Foundry, FOUNDRY_STORE in foundry/stored.js): the
 * parts fixed when it is resolved, and the parts kept by member id, of which an event changes only the members it
 * names (its steps' members and those it marks, session.js); a runtime adds its own (its MEMBER_PARTS). Every other
 * part is small and may change at any event; checked on every conformance vector (tests/js/session_vectors.mjs).
 */
const FIXED_PARTS = ["scenario", "labels", "outcome"];
const MEMBER_PARTS = ["applied"];
/** The objects, by their path, whose entries never change once there: an event adds entries or drops the object */
const ADDED_ONLY = ["held.cards"];
/** The lists of member ids, by their path, that grow an id a turn: a host storing what changed keeps them by id */
const GROWING_LISTS = ["follow.started"];
/** The parts whose lists are replaced when they change, never changed in place: a host may tell them by identity */
const REPLACED_ONLY = ["follow"];

/** Return a fresh surprise for a scenario whose members are named by their combatant ids */
function newSurprise(scenario) {
  const labels = {};
  for (const member of membersOf(scenario)) labels[member.name] = member.label ?? member.name;
  return { scenario, labels, applied: {}, done: false };
}

/** List members' labels as one text, as the table's language joins a list; `nobody` names an empty list */
function names(table, surprise, ids, nobody = null) {
  const text = list(ids.map((id) => surprise.labels[id] ?? "?"), table.language());
  return text || (nobody ? table.t(nobody) : "");
}

/** Show or hide a status, remembering what the module applied so that it only ever removes its own */
async function mark(table, surprise, id, status, on, lasts = null) {
  const applied = new Set(surprise.applied[id] ?? []);
  if (on) {
    if (await table.mark(id, status, true, lasts)) applied.add(status);
  } else if (applied.has(status)) {
    await table.mark(id, status, false);
    applied.delete(status);
  }
  surprise.applied[id] = [...applied];
}

/** Remove every status the module applied to one combatant */
async function unmarkAll(table, surprise, id) {
  for (const status of surprise.applied[id] ?? []) await mark(table, surprise, id, status, false);
  delete surprise.applied[id];
}

/** Remove every status the module applied during a surprise */
async function clearMarks(table, surprise) {
  for (const id of Object.keys(surprise.applied ?? {})) await unmarkAll(table, surprise, id);
}

export { ADDED_ONLY, FIXED_PARTS, GROWING_LISTS, MEMBER_PARTS, REPLACED_ONLY, clearMarks, mark, names, newSurprise, unmarkAll };
