// Time the table session and runtime in Node as a tracker moves the turns, for the benchmarks:
//   node js_runtime.mjs COMMON SYSTEM SCENARIO.json ROUNDS [STORE]  ->  one line of JSON:
//   {resolve_ms, ms, turns, messages, stored_chars, server_ms}
// COMMON: a Foundry build's scripts/common folder; SCENARIO: a rules scenario; the dice are seeded. STORE says how the
// host keeps the surprise between turns:
//   object   as the object itself (the runtime's own work, nothing stored)
//   json     as JSON text, loaded and saved whole at every turn (a VTT storing the whole surprise)
//   foundry  as the Foundry host keeps it (foundry/host.js): its working copy between turns, and only the update that
//            foundry/stored.js writes for what changed, sent as JSON and merged into the stored copy (a server's part)
// stored_chars: the characters written, summed over every save; server_ms: the time the foundry store spent as the
// server (reading what was sent and merging it), part of ms but not the module's work.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { bareHost, filledDraft, seeded } from "../tools/harness/bare_table.mjs";

const [common, system, scenarioPath, rounds, store = "object"] = process.argv.slice(2);
const root = pathToFileURL(`${common}/`).href;
await import(`${root}systems/${system}.js`);
const { tableSession } = await import(`${root}session.js`);
const { draftFromCombatants } = await import(`${root}draft.js`);
const { storedChanges, storedForm } = await import(new URL("../foundry/stored.js", root).href);
const scenario = JSON.parse(readFileSync(scenarioPath, "utf-8"));

/** Merge an update of dotted keys into a stored object in place, as a Foundry update merges ("-=key" deletes) */
function mergeUpdate(stored, update) {
  for (const [path, value] of Object.entries(update)) {
    const keys = path.split(".");
    const last = keys.pop();
    let target = stored;
    for (const key of keys) target = target[key] ??= {};
    if (last.startsWith("-=")) delete target[last.slice(2)];
    else target[last] = value;
  }
}

/** The three ways of keeping the surprise: load and save */
function keeper() {
  let kept = null;
  let stored = null; // the foundry store's stored copy, as the server holds it
  let base = null; // the foundry host's copy of what it stored
  let chars = 0;
  let serverNs = 0n;
  /** Send text to the server, which reads it and keeps it (keep) */
  const sent = (text, keep) => {
    chars += text.length;
    const start = process.hrtime.bigint();
    keep(JSON.parse(text));
    serverNs += process.hrtime.bigint() - start;
  };
  const ways = {
    object: {
      load: () => kept,
      save: (surprise) => { kept = surprise; },
    },
    json: {
      load: () => (kept === null ? null : JSON.parse(kept)),
      save: (surprise) => {
        kept = surprise === null ? null : JSON.stringify(surprise);
        chars += kept?.length ?? 0;
      },
    },
    foundry: {
      load: () => kept,
      save: (surprise, changed) => {
        const update = surprise && surprise === kept && changed ? storedChanges("surprise", base, surprise, changed) : null;
        if (update) sent(JSON.stringify(update), (read) => mergeUpdate(stored, read));
        else if (surprise) {
          sent(JSON.stringify({ surprise: storedForm(surprise) }), (read) => { stored = read; }); // written once, whole
          base = structuredClone(surprise);
        }
        kept = surprise;
      },
    },
  };
  return { ...ways[store], chars: () => chars, serverMs: () => Number(serverNs) / 1e6 };
}

const random = seeded(7);
const order = ["a", "b"].flatMap((key) => scenario.sides[key].members.map((member) => member.name));
const draft = filledDraft(draftFromCombatants, scenario);
const keeping = keeper();
let messages = 0;
let round = 0;
const host = bareHost(random, {
  send: async () => { messages += 1; },
  load: keeping.load,
  save: async (surprise, changed) => {
    keeping.save(surprise, changed);
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
console.log(JSON.stringify({ resolve_ms: resolveMs, ms, turns, messages, stored_chars: keeping.chars(),
  server_ms: keeping.serverMs() }));
