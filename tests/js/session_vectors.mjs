// Play conformance vectors through the table session (templates/common/session.js) on a plain fake host, all of them
// in this one Node process.
//   node tests/js/session_vectors.mjs GROUPS.json
// GROUPS.json: [{tree, system, vectors: [VECTOR.json, ...]}], a tree being a folder holding common/ with the
// config.js of one build (the vectors' rules options). For each vector the fake host is a table with the members in
// scenario order; the GM's draft is the form's, filled with the vector's values; the dice are scripted; then the
// turns are followed round by round as a tracker moves them, the session passing on the turns it skips. The outcome is
// rebuilt from what the session did (its cards' records, the statuses during each turn, the turns it passed on) by
// the same functions as for the VTT runners (outcomes.mjs). Prints one JSON line per vector: {vector, ok, diff?, error?}.
//
// Every save is also checked as the Foundry host stores it (foundry/stored.js): the update written for what the event
// says it changed, merged into what was stored as a Foundry update merges (the emulation's), must give the surprise
// the session holds; so a runtime that changes a member it does not name, or a part declared fixed, fails here.
import { readFile } from "node:fs/promises";
import { isDeepStrictEqual } from "node:util";
import { pathToFileURL } from "node:url";
import { applyChanges, expandObject } from "../../tools/harness/foundry/emulation/core.mjs";
import { renamed, runVectors } from "./compare.mjs";
import { scriptedDice } from "./dice.mjs";
import { completeDraft } from "./drafts.mjs";
import { playedOut, rebuildOutcome, resolveRecord } from "./outcomes.mjs";

const MAX_ROUNDS = 40;
const [groupsFile] = process.argv.slice(2);
const groups = JSON.parse(await readFile(groupsFile, "utf8"));

/**
 * A plain table: combatants in a turn order, rounds counted from the start of the fight, statuses shown as sets, cards
 * kept as messages, the surprise kept as JSON (as a VTT stores it).
 */
class FakeTable {
  constructor(ids, dice, stored) {
    this.storing = stored; // foundry/stored.js
    this.order = [...ids];
    this.started = false;
    this.round = 0;
    this.turn = 0;
    this.statuses = new Map(ids.map((id) => [id, new Set()]));
    this.messages = [];
    this.stored = null;
    this.dice = dice;
  }

  /** The host the session talks to */
  host() {
    return {
      t: (key, data) => (data ? `${key} ${JSON.stringify(data)}` : key),
      roll: (count, sides, purpose) => this.dice.roll(count, sides, purpose),
      mark: async (id, status, on) => {
        const shown = this.statuses.get(id);
        if (!shown) return false;
        if (on === shown.has(status)) return false;
        if (on) shown.add(status);
        else shown.delete(status);
        return true;
      },
      arrange: async (order) => {
        const current = this.order[this.turn];
        const listed = order.map((entry) => entry.id).filter((id) => this.order.includes(id));
        this.order = [...listed, ...this.order.filter((id) => !listed.includes(id))];
        // The current turn follows its combatant, as a tracker's does when the order is sorted again.
        this.turn = this.started ? this.order.indexOf(current) : 0;
        return this.started && this.turn !== 0;
      },
      send: async (message) => { this.messages.push(message); },
      load: () => (this.stored === null ? null : JSON.parse(this.stored)),
      save: async (surprise, changed) => {
        if (surprise && changed && this.stored !== null) this.checkChanges(JSON.parse(this.stored), surprise, changed);
        this.stored = surprise === null ? null : JSON.stringify(surprise);
        return true;
      },
      turnOrder: () => ({ round: this.round }),
      language: () => "en",
      settings: () => ({ automation: true, skip: true, cards: "split" }),
    };
  }

  /** Check that writing only what the event changed, as the Foundry host does, stores the surprise the session holds */
  checkChanges(before, surprise, changed) {
    const { storedChanges, storedForm, workingForm } = this.storing;
    const update = storedChanges("surprise", structuredClone(before), surprise, changed);
    if (update === null) throw new Error("the Foundry host could not store the changes alone");
    const stored = workingForm(applyChanges({ surprise: storedForm(before) }, expandObject(update)).surprise);
    const held = JSON.parse(JSON.stringify(surprise)); // as stored: JSON, no undefined
    if (!isDeepStrictEqual(stored, held)) {
      const parts = Object.keys(held).filter((key) => !isDeepStrictEqual(stored[key], held[key]));
      throw new Error(`storing what changed (members ${[...changed].join(", ")}) loses changes to ${parts.join(", ")}`);
    }
  }

  /** The statuses each member shows now, by name */
  shown(nameOf) {
    return Object.fromEntries([...this.statuses].map(([id, set]) => [nameOf.get(id), [...set].sort()]));
  }
}

/** Play one vector through the session of a loaded tree */
async function play(tree, vector) {
  const { draftFromCombatants } = tree.drafts;
  const scenario = vector.scenario;
  const members = ["a", "b"].flatMap((key) => scenario.sides[key].members.map((member) => ({ key, member })));
  const idOf = new Map(members.map(({ member }, index) => [member.name, `c${String(index).padStart(3, "0")}`]));
  const nameOf = new Map([...idOf].map(([name, id]) => [id, name]));
  const combatants = members.map(({ key, member }) => ({
    id: idOf.get(member.name), label: member.name, side: key, read: (input) => member[input],
  }));
  const draft = draftFromCombatants(scenario.procedure, combatants);
  const problems = completeDraft(draft, scenario, [...new Set(members.flatMap(({ member }) => Object.keys(member)))]);
  if (problems.length) throw new Error(problems.join("; "));
  const dice = scriptedDice(vector.dice);
  const table = new FakeTable(members.map(({ member }) => idOf.get(member.name)), dice, tree.stored);
  const session = tree.session.tableSession(table.host());
  const resolved = await session.resolve(draft);
  if (resolved.problem) throw new Error(`the session refused the draft: ${resolved.problem}`);
  const observed = { turns: [], round: 1, afterTrigger: table.shown(nameOf) };
  // The fight starts: round 1, its first turn; then each turn moves on, by the GM or by the session's skip.
  Object.assign(table, { started: true, round: 1, turn: 0 });
  let forward = true;
  while (observed.round <= MAX_ROUNDS && !playedOut(scenario.system, session.current(), observed.round)) {
    const turn = { round: observed.round, name: nameOf.get(table.order[table.turn]), passed: false, statuses: null };
    observed.turns.push(turn);
    const step = await session.observe({ order: [...table.order], current: table.turn, round: table.round, forward,
      rotating: false });
    turn.statuses = table.shown(nameOf);
    if (step.restart) {
      // The session put the order back under the round's first turn: the round goes on from its new top.
      turn.passed = true;
      table.turn = 0;
      forward = null;
      continue;
    }
    turn.passed = step.skip;
    table.turn += 1;
    if (table.turn === table.order.length) Object.assign(table, { turn: 0, round: table.round + 1 });
    if (table.turn === 0) observed.round += 1;
    forward = true;
  }
  // The table has moved on to the next turn: the session sees it, and the turn in progress ends.
  await session.observe({ order: [...table.order], current: table.turn, round: table.round, forward, rotating: false });
  await session.flush(); // the host's action ends: what was held back for a summary goes out
  observed.end = table.shown(nameOf);
  if (dice.left().length) throw new Error(`scripted faces never rolled: ${dice.left().join(", ")}`);
  const records = table.messages.flatMap((message) => message.records).map((record) => renamed(record, nameOf));
  return rebuildOutcome(scenario, resolveRecord(records).outcome, records, observed);
}

for (const group of groups) {
  const root = pathToFileURL(`${group.tree}/common/`).href;
  await import(`${root}systems/${group.system}.js`);
  const stored = await import(new URL("../foundry/stored.js", root).href);
  const tree = { session: await import(`${root}session.js`), drafts: await import(`${root}draft.js`), stored };
  await runVectors(group.vectors, (vector) => play(tree, vector));
}
