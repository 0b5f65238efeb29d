// Count the array elements the table visits while it plays a surprise, to tell a lookup by key from a search a turn:
//   node tests/js/lookups.mjs TREE SYSTEM SCENARIO.json ROUNDS  ->  one line of JSON: {session, runtime, surprise}
// TREE holds common/ of one build; SCENARIO is a rules scenario whose member names serve as combatant ids. A draft of
// it is resolved by the table session on a host that keeps the surprise as an object, with seeded dice; then ROUNDS
// rounds are played, a look at the turn order per turn (session), and again straight through the system's runtime,
// turn started and ended per member (runtime). Every call of an array method that walks a list (includes, find,
// filter, map ...) adds the list's length; lists walked to build a Set or Map once are not counted.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { bareHost, diceOf, filledDraft, seeded } from "../../tools/harness/bare_table.mjs";

const [tree, system, scenarioPath, rounds] = process.argv.slice(2);
const root = pathToFileURL(`${tree}/common/`).href;
await import(`${root}systems/${system}.js`);
const { tableSession } = await import(`${root}session.js`);
const { draftFromCombatants } = await import(`${root}draft.js`);
const { rulesSystem } = await import(`${root}system.js`);
const scenario = JSON.parse(readFileSync(scenarioPath, "utf-8"));

let counting = false;
let visited = 0;
const WALKS = ["includes", "indexOf", "lastIndexOf", "find", "findIndex", "some", "every", "filter", "map", "flatMap",
  "forEach", "reduce"];
for (const name of WALKS) {
  const original = Array.prototype[name];
  Array.prototype[name] = function walked(...args) { // eslint-disable-line no-extend-native
    if (counting) visited += this.length;
    return original.apply(this, args);
  };
}

const ids = ["a", "b"].flatMap((key) => scenario.sides[key].members.map((member) => member.name));

/** Resolve the draft on a fresh host; return the session, the host's table round and the surprise it keeps */
async function resolved() {
  const random = seeded(11);
  const state = { stored: null, round: 0 };
  const host = bareHost(random, {
    load: () => state.stored,
    save: async (surprise) => {
      state.stored = surprise;
      return true;
    },
    turnOrder: () => ({ round: state.round }),
  });
  const session = tableSession(host);
  const { problem } = await session.resolve(filledDraft(draftFromCombatants, scenario));
  if (problem) throw new Error(problem);
  return { session, state, random };
}

const counts = {};
{
  const { session, state } = await resolved();
  counting = true;
  for (state.round = 1; state.round <= Number(rounds); state.round += 1) {
    for (let current = 0; current < ids.length; current += 1) {
      await session.observe({ order: ids, current, round: state.round, forward: true, rotating: false });
    }
  }
  counting = false;
  counts.session = visited;
}
{
  const { state, random } = await resolved();
  const surprise = state.stored;
  const runtime = rulesSystem().Runtime;
  const table = {
    t: (key) => key, language: () => "en", mark: async () => true, arrange: async () => false, post: async () => {},
    roll: diceOf(random),
  };
  visited = 0;
  counting = true;
  for (let round = 1; round <= Number(rounds); round += 1) {
    await runtime.roundStarted(table, surprise);
    for (const id of ids) {
      await runtime.turnStarted(table, surprise, id);
      await runtime.turnEnded(table, surprise, id);
    }
  }
  counting = false;
  counts.runtime = visited;
  counts.surprise = surprise.outcome.surprise; // who got the jump, "none" when the play is no test of the runtime
}
console.log(JSON.stringify(counts));
