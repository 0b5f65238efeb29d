// Run conformance vectors against the JS rules core, with the dice scripted, every group in this one process.
//   node tests/js/run_vectors.mjs GROUPS.json
// GROUPS.json: [{module, vectors: [VECTOR.json, ...]}], each module an ES module that exports resolve (the rules core
// as Foundry loads it, or as the Roll20 bundle holds it). Prints one JSON line per vector and group:
// {"group", "vector", "ok", "diff"?, "error"?}. Exits 0 once it ran, failures included.
import { readFile } from "node:fs/promises";
import { resolve as resolvePath } from "node:path";
import { pathToFileURL } from "node:url";
import { firstDiff } from "./compare.mjs";
import { scriptedDice } from "./dice.mjs";

/** Play one vector and return its report line */
async function runVector(rules, file) {
  const vector = JSON.parse(await readFile(file, "utf8"));
  const report = { vector: vector.name ?? file, ok: false };
  try {
    const dice = scriptedDice(vector.dice);
    const diff = firstDiff(await rules.resolve(vector.scenario, dice.roll), vector.expected);
    if (diff !== null) report.diff = diff;
    else if (dice.left().length > 0) report.error = `${dice.left().length} scripted faces were never rolled`;
    else report.ok = true;
  } catch (error) {
    report.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  return report;
}

const [groupsFile] = process.argv.slice(2);
for (const [index, group] of JSON.parse(await readFile(groupsFile, "utf8")).entries()) {
  const rules = await import(pathToFileURL(resolvePath(group.module)).href);
  if (typeof rules.resolve !== "function") throw new Error(`${group.module} exports no resolve function`);
  for (const file of group.vectors) console.log(JSON.stringify({ group: index, ...(await runVector(rules, file)) }));
}
