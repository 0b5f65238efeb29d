// A rules scenario's sides, members and options, read the same way by the rules, the odds and the table runtime.
import { DEFAULT_OPTIONS, SIDE_KEYS } from "./config.js";

/** Return the opposing side's key */
export const other = (side) => (side === "a" ? "b" : "a");

/** Return a scenario's rules options: its own options over the defaults */
export const scenarioOptions = (scenario) => ({ ...DEFAULT_OPTIONS, ...(scenario.options ?? {}) });

/** Return every member of a scenario, side a first, in listed order */
export const membersOf = (scenario) => SIDE_KEYS.flatMap((key) => scenario.sides[key].members);

/** Return every member with his side key, side a first, in listed order */
export const membersWithSides = (scenario) =>
  SIDE_KEYS.flatMap((key) => scenario.sides[key].members.map((member) => [key, member]));

/** Tell whether an optional field was given (neither missing nor null) */
export const given = (value) => value !== undefined && value !== null;
