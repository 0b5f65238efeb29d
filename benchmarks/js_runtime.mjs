// Time the table session and runtime in Node as a tracker moves the turns, for the benchmarks:
//   node js_runtime.mjs COMMON SYSTEM SCENARIO.json ROUNDS [STORE]  ->  one line of JSON: {resolve_ms, ms, turns, messages}
// COMMON: a build's scripts/common folder; SCENARIO: a rules scenario. The host keeps the surprise as an object, or
// with STORE = "json" as JSON text, loaded and saved at every turn as a VTT stores it; the dice are seeded.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { bareHost, filledDraft, seeded } from "../tools/harness/bare_table.mjs";

const [common, system, scenarioPath, rounds, store = "object"] = process.argv.slice(2);
const root = pathToFileURL(`${common}/`).href;
await import(`${root}systems/${system}.js`);
const { tableSession } = await import(`${root}session.js`);
const { draftScenario } = await import(`${root}inputs.js`);
const scenario = JSON.parse(readFileSync(scenarioPath, "utf-8"));

const random = seeded(7);
const order = ["a", "b"].flatMap((key) => scenario.sides[key].members.map((member) => member.name));
const draft = filledDraft(draftScenario, scenario);
let stored = null;
let messages = 0;
let round = 0;
const host = bareHost(random, {
  send: async () => { messages += 1; },
  load: () => (store === "json" ? (stored === null ? null : JSON.parse(stored)) : stored),
  save: async (surprise) => {
    stored = store === "json" && surprise !== null ? JSON.stringify(surprise) : surprise;
    return true;
  },
  turnOrder: () => ({ round }),
});
const session = tableSession(host);
let start = process.hrtime.bigint();
const resolved = await session.resolve(draft);
if (resolved.problem) throw new Error(resolved.problem);
const resolveMs = Number(process.hrtime.bigint() - start) / 1e6;
start = process.hrtime.bigint();
let turns = 0;
for (round = 1; round <= Number(rounds); round += 1) {
  for (let current = 0; current < order.length; current += 1) {
    await session.observe({ order, current, round, forward: true, rotating: false });
    turns += 1;
  }
}
await session.flush();
const ms = Number(process.hrtime.bigint() - start) / 1e6;
console.log(JSON.stringify({ resolve_ms: resolveMs, ms, turns, messages }));
