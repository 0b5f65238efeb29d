// Compare what the web page did with each vector's expected outcome, rebuilt by the same functions as for the other
// runners (tests/js/outcomes.mjs).
//   node tests/web/compare_vectors.mjs PLAYED.json
// PLAYED.json: [{vector: VECTOR.json, played: {records, ids, turns, afterTrigger, end} | {error}}], statuses as
// [name, statuses] pairs. Prints one JSON line
// per vector: {vector, ok, diff?, error?}.
import { readFile } from "node:fs/promises";
import { firstDiff, renamed } from "../js/compare.mjs";
import { rebuildOutcome, resolveRecord } from "../js/outcomes.mjs";

const [playedFile] = process.argv.slice(2);
const entries = JSON.parse(await readFile(playedFile, "utf8"));

/** Rebuild the vector's expected shape from the page's records and what its tracker showed */
function rebuild(scenario, played) {
  const nameOf = new Map(played.ids);
  const records = played.records.map((record) => renamed(record, nameOf));
  const resolved = resolveRecord(records);
  const byName = (pairs) => Object.fromEntries(pairs);
  const turns = played.turns.map((turn) => ({ ...turn, statuses: byName(turn.statuses) }));
  const observed = { turns, afterTrigger: byName(played.afterTrigger), end: byName(played.end) };
  return rebuildOutcome(scenario, resolved.outcome, records, observed);
}

for (const { vector: file, played } of entries) {
  const vector = JSON.parse(await readFile(file, "utf8"));
  try {
    if (played.error) throw new Error(played.error);
    const diff = firstDiff(rebuild(vector.scenario, played), vector.expected);
    console.log(JSON.stringify({ vector: vector.name, ok: !diff, ...(diff ? { diff } : {}) }));
  } catch (error) {
    console.log(JSON.stringify({ vector: vector.name, ok: false, error: String(error?.stack ?? error) }));
  }
}
