// A rules scenario's sides, members and options, read the same way by the rules, the odds and the table runtime.
import { DEFAULT_OPTIONS, SIDE_KEYS } from "./config.js";

/** Return the opposing side's key */
export const other = (side) => (side === "a" ? "b" : "a");

/**
 * Return a scenario's rules options: its own options over the campaign's (DEFAULT_OPTIONS). The one place the JS side
 * fills options: the rules, odds and runtimes read a scenario's options through it and hand them to their helpers,
 * which take no default; a scenario built from a draft carries them whole (draft.js), so its file says them.
 */
export const scenarioOptions = (scenario) => ({ ...DEFAULT_OPTIONS, ...(scenario.options ?? {}) });

/** Return every member of a scenario, side a first, in listed order */
export const membersOf = (scenario) => SIDE_KEYS.flatMap((key) => scenario.sides[key].members);

/** Return every member with his side key, side a first, in listed order */
export const membersWithSides = (scenario) =>
  SIDE_KEYS.flatMap((key) => scenario.sides[key].members.map((member) => [key, member]));

/** Tell whether an optional field was given (neither missing nor null) */
export const given = (value) => value !== undefined && value !== null;

// Lookups by key, built once per list: a turn at the table looks its combatant up, not searches every member. A list
// is indexed as it stands when first looked up in, so only lists no one changes in place are indexed (the runtimes
// replace a list they change).
const named = new WeakMap();
const sets = new WeakMap();
const members = new WeakMap();

/** Return the entry of a list whose name is name, the first one (as find would) */
export function entryNamed(list, name) {
  if (!named.has(list)) {
    const index = new Map();
    for (const entry of list) if (!index.has(entry.name)) index.set(entry.name, entry);
    named.set(list, index);
  }
  return named.get(list).get(name);
}

/** Tell whether a list holds a value (as includes would) */
export function listed(list, value) {
  if (!sets.has(list)) sets.set(list, new Set(list));
  return sets.get(list).has(value);
}

/** Return the member of a scenario with this name, side a first (as a search of membersOf would) */
export function memberNamed(scenario, name) {
  const sides = SIDE_KEYS.map((key) => scenario.sides[key].members);
  const known = members.get(scenario);
  if (!known || known.sides.some((list, index) => list !== sides[index])) {
    const index = new Map();
    for (const list of sides) for (const member of list) if (!index.has(member.name)) index.set(member.name, member);
    members.set(scenario, { sides, index });
  }
  return members.get(scenario).index.get(name);
}
