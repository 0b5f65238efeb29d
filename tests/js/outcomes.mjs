// Rebuild a vector's expected outcome from what a generated runtime did at the (emulated) table, the same way for
// every runner. `observed` holds {turns: [{round, name, passed, statuses}], afterTrigger, end}, statuses by member
// name in the module's own terms (surprised, unaware, prone, sleep); `records` are the runtime's turn records
// {member, turn} in the order it wrote them. Names are data ("constructor" is a fine name): results are built from
// Maps, and statuses are read as own properties only. Every runner ends a vector with playedOut and rebuilds it with
// rebuildOutcome; what differs by rules system is its test tail, tests/js/systems/<id>.js, found here by its id.
import { readdirSync } from "node:fs";

const SYSTEMS_FOLDER = new URL("./systems/", import.meta.url);
const TAILS = new Map(await Promise.all(readdirSync(SYSTEMS_FOLDER).filter((file) => file.endsWith(".js")).sort()
  .map(async (file) => [file.slice(0, -".js".length), await import(new URL(file, SYSTEMS_FOLDER))])));

/** Return a rules system's test tail, or throw naming the file it lacks */
function tail(system) {
  const found = TAILS.get(system);
  if (!found) throw new Error(`no test tail for the rules system ${JSON.stringify(system)}: tests/js/systems/<id>.js`);
  return found;
}

/** How many rounds a system's surprise takes before the first normal round */
export function surpriseRounds(system, surprise) {
  return tail(system).surpriseRounds(surprise);
}

/** Tell whether every member has recovered or never will */
export function settled(system, surprise) {
  return tail(system).settled(surprise);
}

/** Tell whether the surprise has played out by `round`, with the first normal round after it seen in full */
export function playedOut(system, surprise, round) {
  return Boolean(surprise) && tail(system).playedOut(surprise, round);
}

/** Return the resolve record among a runtime's records, or throw `missing` */
export function resolveRecord(records, missing = "no resolve card was posted") {
  const resolved = records.find((record) => record.type === "resolve");
  if (!resolved) throw new Error(missing);
  return resolved;
}

/** Rebuild a vector's expected shape from the resolve record's outcome, the runtime's records and what it did */
export function rebuildOutcome(scenario, outcome, records, observed) {
  return tail(scenario.system).rebuildOutcome(scenario, outcome, records, observed);
}
