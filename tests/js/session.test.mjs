// The table session and the draft form (templates/common/session.js, form.js) on a plain fake host, run by
// tests/test_session.py: who sees which part of a card, what resolve, clear, left and follow do to the host, the one
// queue, the status lines, and the form's fields and edits. GURPS_TREE, FALLOUT_TREE and ADND_TREE hold common/ with a
// build's config.js.
import assert from "node:assert/strict";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const trees = {};

/** Import a build's common modules, its rules system first */
async function load(system) {
  if (!trees[system]) {
    const folder = process.env[{ gurps4e: "GURPS_TREE", "fallout-ttrpg": "FALLOUT_TREE", adnd1e: "ADND_TREE" }[system]];
    const root = pathToFileURL(`${folder}/common/`).href;
    await import(`${root}systems/${system}.js`);
    trees[system] = {
      session: await import(`${root}session.js`),
      form: await import(`${root}form.js`),
      drafts: await import(`${root}draft.js`),
    };
  }
  return trees[system];
}

/** A fake table: marks as sets, messages kept, the surprise stored as JSON, dice scripted */
function fakeHost({ faces = [], cards = "split", automation = true, skip = true, keeps = true } = {}) {
  const table = { marks: new Map(), messages: [], stored: null, saves: 0, arranged: [] };
  table.host = {
    t: (key, data) => (data ? `${key} ${JSON.stringify(data)}` : key),
    roll: async (count) => Array.from({ length: count }, () => {
      if (!faces.length) throw new Error("out of dice");
      return faces.shift();
    }),
    mark: async (id, status, on) => {
      const shown = table.marks.get(id) ?? new Set();
      table.marks.set(id, shown);
      if (on === shown.has(status)) return false;
      if (on) shown.add(status);
      else shown.delete(status);
      return true;
    },
    arrange: async (order) => {
      table.arranged.push(order.map((entry) => entry.id));
      return false;
    },
    send: async (message) => { table.messages.push(message); },
    load: () => (table.stored === null ? null : JSON.parse(table.stored)),
    save: async (surprise) => {
      table.saves += 1;
      if (!keeps && surprise !== null) return false;
      table.stored = surprise === null ? null : JSON.stringify(surprise);
      return true;
    },
    turnOrder: () => ({ round: 0 }),
    language: () => "en",
    settings: () => ({ automation, skip, cards }),
  };
  table.shown = (id) => [...(table.marks.get(id) ?? [])].sort();
  return table;
}

/** A GURPS draft of two combatants: Ava (IQ 12) for side a, Orc (IQ 10) for side b, total surprise by side a */
async function gurpsDraft() {
  const { drafts } = await load("gurps4e");
  const combatants = [
    { id: "ava", label: "Ava", side: "a", read: (key) => ({ iq: 12 })[key] },
    { id: "orc", label: "Orc", side: "b", read: (key) => ({ iq: 10 })[key] },
    { id: "cat", label: "Cat", side: null, read: () => undefined },
  ];
  return drafts.draftFromCombatants("total", combatants);
}

test("a card splits into what happened for all and the rolls for the GMs, by the table's choice", async () => {
  const { session } = await load("gurps4e");
  const card = { title: "T", lines: ["seen"], details: ["secret"], records: [{ type: "x" }] };
  const split = session.messagesOf(card, true, "split", (key, data) => `${key}:${data.title}`);
  assert.deepEqual(split, [
    { title: "T", lines: ["seen"], gm: false, dice: false, records: [] },
    { title: "Chat.ForGM:T", lines: ["secret"], gm: true, dice: true, records: [{ type: "x" }] },
  ]);
  assert.deepEqual(session.messagesOf({ ...card, details: [] }, false, "split", () => ""),
    [{ title: "T", lines: ["seen"], gm: false, dice: false, records: [{ type: "x" }] }], "nothing secret: one public card");
  assert.deepEqual(session.messagesOf(card, true, "public", () => ""),
    [{ title: "T", lines: ["seen", "secret"], gm: false, dice: true, records: [{ type: "x" }] }]);
  assert.deepEqual(session.messagesOf(card, false, "gm", () => ""),
    [{ title: "T", lines: ["seen", "secret"], gm: true, dice: false, records: [{ type: "x" }] }]);
});

test("resolve marks the surprised side, keeps the surprise with the host's extra, and posts the card", async () => {
  const { session } = await load("gurps4e");
  const table = fakeHost({ faces: [3] });
  const resolved = await session.tableSession(table.host).resolve(await gurpsDraft(), (scenario) => ({ seen: scenario.procedure }));
  assert.equal(resolved.surprise.seen, "total");
  assert.deepEqual(table.shown("orc"), ["surprised"]);
  assert.deepEqual(table.shown("ava"), []);
  assert.deepEqual(JSON.parse(table.stored).applied, { orc: ["surprised"] });
  assert.ok(table.messages.some((message) => message.records.some((record) => record.type === "resolve")));
  assert.ok(table.messages.every((message) => message.gm === (message.title !== "Procedure.total")));
});

test("a bad draft is one line and touches nothing", async () => {
  const { session } = await load("gurps4e");
  const table = fakeHost();
  const draft = await gurpsDraft();
  draft.sides.b.members[0].iq = 99;
  const resolved = await session.tableSession(table.host).resolve(draft);
  assert.match(resolved.problem, /^Notify.OutOfRange /);
  assert.deepEqual([table.messages, table.saves, table.marks.size], [[], 0, 0]);
});

test("a new surprise first removes what the previous one marked", async () => {
  const { session } = await load("gurps4e");
  const table = fakeHost({ faces: [3] });
  const tracked = session.tableSession(table.host);
  await tracked.resolve(await gurpsDraft());
  const draft = await gurpsDraft();
  draft.surprising = "b";
  table.host.roll = async (count) => Array(count).fill(2);
  await tracked.resolve(draft);
  assert.deepEqual([table.shown("orc"), table.shown("ava")], [[], ["surprised"]]);
});

test("a host that can no longer keep the surprise gets its marks removed", async () => {
  const { session } = await load("gurps4e");
  const table = fakeHost({ faces: [3], keeps: false });
  await session.tableSession(table.host).resolve(await gurpsDraft());
  assert.deepEqual(table.shown("orc"), [], "the fight is gone: nothing would ever remove the mark");
  assert.equal(table.stored, null);
});

test("clear removes only what the session marked, then drops the surprise", async () => {
  const { session } = await load("gurps4e");
  const table = fakeHost({ faces: [3] });
  const tracked = session.tableSession(table.host);
  await table.host.mark("ava", "surprised", true); // the VTT's own, before the surprise
  await tracked.resolve(await gurpsDraft());
  assert.equal(await tracked.clear(), true);
  assert.deepEqual([table.shown("orc"), table.shown("ava"), table.stored], [[], ["surprised"], null]);
  assert.equal(await tracked.clear(), false, "nothing left to clear");
});

test("a combatant who leaves loses his marks; one never in the surprise changes nothing", async () => {
  const { session } = await load("gurps4e");
  const table = fakeHost({ faces: [3] });
  const tracked = session.tableSession(table.host);
  await tracked.resolve(await gurpsDraft());
  const saves = table.saves;
  await tracked.left("cat");
  assert.equal(table.saves, saves);
  await tracked.left("orc");
  assert.deepEqual(table.shown("orc"), []);
  assert.deepEqual(JSON.parse(table.stored).tracks, {});
});

test("AD&D status lines: who is surprised in which segments, counted from the one being played, none after", async () => {
  const { session, drafts } = await load("adnd1e");
  // docs/rules/adnd1e.md#two-sides: side a rolls 2 on its d6 and is surprised for two segments, side b rolls 5 and is
  // not; Gob acts alone in segments 1 and 2, and the first normal round after them is round 1 again (C7).
  const table = fakeHost({ faces: [2, 5] });
  const tracked = session.tableSession(table.host);
  const combatants = [
    { id: "ann", label: "Ann", side: "a", read: () => undefined },
    { id: "gob", label: "Gob", side: "b", read: () => undefined },
  ];
  await tracked.resolve(drafts.draftFromCombatants("roll", combatants));
  assert.deepEqual(tracked.statusLines(), ['Adnd.Surprised.First {"name":"Ann","segments":2}'], "before segment 1");
  const order = ["ann", "gob"];
  await tracked.observe({ order, current: 0, round: 1, forward: true, rotating: false });
  assert.deepEqual(tracked.statusLines(), ['Tracking.Segment {"segment":1,"count":2}',
    'Adnd.Surprised.Now {"name":"Ann","more":1}']);
  await tracked.observe({ order, current: 0, round: 2, forward: true, rotating: false });
  assert.deepEqual(tracked.statusLines(), ['Tracking.Segment {"segment":2,"count":2}',
    'Adnd.Surprised.Now {"name":"Ann","more":0}']);
  await tracked.observe({ order, current: 0, round: 3, forward: true, rotating: false });
  assert.deepEqual(tracked.statusLines(), [], "the surprise is over: nobody is surprised");
});

test("GURPS status lines: each stunned combatant by name, with the seconds lost or the turns stunned so far", async () => {
  const { session } = await load("gurps4e");
  // docs/rules/gurps4e.md: a total surprise freezes Orc for the d6's 1 second: his first turn is stunned.
  const table = fakeHost({ faces: [1, 6, 6, 6] });
  const tracked = session.tableSession(table.host);
  await tracked.resolve(await gurpsDraft());
  assert.deepEqual(tracked.statusLines(), ['Tracking.Stunned {"name":"Orc","turns":0}']);
  const order = ["orc", "ava", "cat"];
  await tracked.observe({ order, current: 0, round: 1, forward: true, rotating: false });
  assert.deepEqual(tracked.statusLines(), ['Tracking.Stunned {"name":"Orc","turns":1}']);
});

test("following the turns: a stunned turn is skipped only where the table skips, nothing without the automation", async () => {
  const { session } = await load("gurps4e");
  for (const [automation, skip, expected] of [[true, true, true], [true, false, false], [false, true, false]]) {
    const table = fakeHost({ faces: [3, 6, 6, 6], automation, skip });
    const tracked = session.tableSession(table.host);
    await tracked.resolve(await gurpsDraft());
    const step = await tracked.observe({ order: ["orc", "ava", "cat"], current: 0, round: 1, forward: true, rotating: false });
    assert.deepEqual(step, { restart: false, skip: expected, waiting: [], started: automation ? ["orc"] : [] },
      `automation ${automation}, skip ${skip}`);
    assert.equal(Object.values(JSON.parse(table.stored).tracks)[0].turns.length, automation ? 1 : 0);
  }
});

test("an order still being rolled: the round begins, no turn starts until every row has its place", async () => {
  const { session } = await load("gurps4e");
  const table = fakeHost({ faces: [3, 6, 6, 6, 6, 6, 6] });
  const tracked = session.tableSession(table.host);
  await tracked.resolve(await gurpsDraft());
  const order = ["orc", "ava", "cat"];
  const rolling = await tracked.observe({ order, current: 0, round: 1, forward: true, rotating: false, unplaced: ["cat", "orc"] });
  assert.deepEqual(rolling.waiting, ["orc", "cat"]);
  assert.equal(JSON.parse(table.stored).follow.round, 1, "the round began");
  assert.deepEqual(Object.values(JSON.parse(table.stored).tracks)[0].turns, [], "no turn started");
  const placed = await tracked.observe({ order, current: 0, round: 1, forward: null, rotating: false, unplaced: [] });
  assert.deepEqual(placed.waiting, []);
  assert.equal(Object.values(JSON.parse(table.stored).tracks)[0].turns.length, 1, "Orc's turn started once the order was rolled");
});

test("back a round and forward again, with a direction or without (ARS): nothing is played, no round begins", async () => {
  const { session } = await load("gurps4e");
  for (const [back, on] of [[false, true], [null, null]]) {
    const table = fakeHost({ faces: [3, 6, 6, 6, 6, 6, 6, 6, 6, 6] });
    const tracked = session.tableSession(table.host);
    await tracked.resolve(await gurpsDraft());
    const order = ["orc", "ava", "cat"];
    await tracked.observe({ order, current: 0, round: 1, forward: true, rotating: false });
    await tracked.observe({ order, current: 0, round: 2, forward: true, rotating: false });
    const played = JSON.parse(table.stored);
    await tracked.observe({ order, current: 2, round: 1, forward: back, rotating: false }); // Previous Round
    await tracked.observe({ order, current: 0, round: 2, forward: on, rotating: false }); // Next Round
    const after = JSON.parse(table.stored);
    assert.deepEqual(after.tracks, played.tracks, `no turn played again (direction ${back}, ${on})`);
    assert.equal(after.follow.round, played.follow.round, `no round begun (direction ${back}, ${on})`);
  }
});

test("world time: a GURPS surprise leaves every change of round and turn the table's own time", async () => {
  const { session } = await load("gurps4e");
  const table = fakeHost({ faces: [3, 6, 6, 6] });
  const tracked = session.tableSession(table.host);
  await tracked.resolve(await gurpsDraft());
  await tracked.observe({ order: ["orc", "ava", "cat"], current: 0, round: 1, forward: true, rotating: false });
  const surprise = JSON.parse(table.stored);
  for (const [from, to, seconds] of [[1, 2, 1], [1, 1, 3], [1, 0, -1], [0, 1, 1], [2, 3, 60]]) {
    assert.equal(session.passedSeconds(surprise, from, to, seconds), seconds, `${from} to ${to}`);
  }
  assert.equal(session.passedSeconds(null, 1, 2, 60), 60, "no surprise");
});

test("a look at the table: the passed over start late and the card says so, a step back plays nothing", async () => {
  const { session } = await load("gurps4e");
  const table = fakeHost({ faces: [2, 5, 5, 5, 6, 6, 6] });
  const tracked = session.tableSession(table.host);
  await tracked.resolve(await gurpsDraft());
  const order = ["ava", "orc", "cat"];
  await tracked.observe({ order, current: 0, round: 1, forward: true, rotating: false });
  const before = table.messages.length;
  await tracked.observe({ order, current: 2, round: 1, forward: true, rotating: false }); // another script jumped Orc
  const passed = table.messages.slice(before);
  assert.ok(passed.some((message) => message.lines.some((line) => line.startsWith("Follow.PassedOver"))), "the card says so");
  assert.equal(Object.values(JSON.parse(table.stored).tracks)[0].turns.length, 1, "Orc's frozen second, played late");
  await tracked.observe({ order, current: 1, round: 1, forward: false, rotating: false });
  await tracked.observe({ order, current: 2, round: 1, forward: true, rotating: false });
  assert.equal(Object.values(JSON.parse(table.stored).tracks)[0].turns.length, 1, "back and forward again: no second turn");
  assert.equal(table.messages.length, before + passed.length);
});

test("one queue: a task starts when the one before has ended, a failure is reported and the queue goes on", async () => {
  const { session } = await load("gurps4e");
  const seen = [];
  const failures = [];
  const slow = session.queued(async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    seen.push("slow");
  }, (error) => failures.push(error.message));
  const failing = session.queued(async () => {
    seen.push("failing");
    throw new Error("boom");
  }, (error) => failures.push(error.message));
  const last = session.queued(async () => seen.push("last"), (error) => failures.push(error.message));
  await Promise.allSettled([slow, failing, last]);
  assert.deepEqual(seen, ["slow", "failing", "last"]);
  assert.deepEqual(failures, ["boom"]);
});

test("the form lists every field of a draft with its path, label, choices and problem", async () => {
  const { form } = await load("gurps4e");
  const draft = await gurpsDraft();
  draft.sides.a.members[0].iq = null;
  const fields = form.draftForm(draft, (key) => key);
  assert.deepEqual(fields.encounter.map((field) => [field.path, field.type, field.value]), [["surprising", "side", "a"]]);
  assert.equal(fields.openers, null);
  assert.deepEqual(fields.combatants.map((entry) => [entry.id, entry.place, entry.placeField.path]),
    [["ava", "a", "place.ava"], ["orc", "b", "place.orc"], ["cat", "out", "place.cat"]]);
  const [iq] = fields.combatants[0].fields;
  assert.deepEqual([iq.path, iq.label, iq.value, iq.problem], ["members.ava.iq", "Input.iq", null, "Notify.Missing"]);
  assert.deepEqual(fields.combatants[2].fields[0].problem, null, "out of the fight: nothing is required of him");
});

test("edits: values typed, members named by id or name, moves in the draft's order, strange paths refused", async () => {
  const { form } = await load("gurps4e");
  const draft = await gurpsDraft();
  const t = (key, data) => `${key} ${JSON.stringify(data ?? {})}`;
  const { draft: moved } = form.applyEdits(draft, [["place.ava", "b"], ["place.cat", "a"], ["members.orc.iq", 11]], t);
  assert.deepEqual(moved.sides.b.members.map((member) => member.id), ["ava", "orc"]);
  assert.deepEqual(moved.sides.a.members.map((member) => member.id), ["cat"]);
  assert.equal(moved.sides.b.members[1].iq, 11);
  assert.equal(draft.sides.a.members[0].id, "ava", "the draft edited is a copy");
  for (const path of ["members.nobody.iq", "sides.__proto__.leader", "__proto__", "members.ava.__proto__", "place.ava.x",
    "openers.0.name"]) {
    const { problem } = form.applyEdits(draft, [[path, 1]], t);
    assert.match(problem, /^Notify.Invalid/, path);
  }
  assert.equal(({}).leader, undefined, "nothing reached Object.prototype");
  assert.match(form.applyEdits(draft, [["place.ava", "c"]], t).problem, /^Notify.Invalid/);
});

test("edits of a Fallout opening attack: rows are added in order, the attacker named by token id", async () => {
  const { form, drafts } = await load("fallout-ttrpg");
  const draft = drafts.draftFromCombatants("sneak-attack", [
    { id: "vex", label: "Vex", side: "a", read: () => undefined },
    { id: "rat", label: "Rat", side: "b", read: () => undefined },
  ]);
  const t = (key) => key;
  assert.deepEqual(draft.openers, [{ name: "Vex", attack_bonus: null, target_number: null }]);
  const { draft: edited } = form.applyEdits(draft, [["openers.1.name", "rat"], ["openers.1.attack_bonus", 2]], t);
  assert.deepEqual(edited.openers[1], { name: "Rat", attack_bonus: 2, target_number: null });
  assert.match(form.applyEdits(draft, [["openers.3.name", "rat"]], t).problem, /^Notify.Invalid/, "no row may be skipped");
  const fields = form.draftForm(edited, t, { openerRows: 3 }).openers;
  assert.deepEqual(fields.map((row) => row.map((field) => field.path)), [0, 1, 2].map((index) =>
    [`openers.${index}.name`, `openers.${index}.attack_bonus`, `openers.${index}.target_number`]));
  assert.deepEqual(fields[0].map((field) => field.label), ["Input.attacker", "Input.attack_bonus", "Input.target_number"]);
});

test("text typed in chat becomes the value a field wants", async () => {
  const { form } = await load("gurps4e");
  assert.deepEqual(["true", "FALSE", "maybe", "1"].map((text) => form.parseValue("boolean", text)), [true, false, "maybe", "1"]);
  assert.deepEqual([form.parseValue("number", " 12 "), form.parseValue("number", "-3"), form.parseValue("number", "none"),
    form.parseValue("member", "")], [12, -3, null, null]);
  assert.deepEqual(["0x10", "1e2", "12.5", "twelve"].map((text) => form.parseValue("number", text)), ["0x10", "1e2", "12.5", "twelve"]);
  const draft = await gurpsDraft();
  const t = (key, data) => (data ? `${key} ${JSON.stringify(data)}` : key);
  for (const [path, text, type, said] of [
    ["members.ava.iq", "0x10", "number", 'Notify.NotWhole {"name":"Ava","field":"Input.iq","value":"0x10"}'],
    ["members.ava.combat_reflexes", "maybe", "boolean", 'Notify.Invalid {"name":"Ava","field":"Input.combat_reflexes","value":"maybe"}'],
  ]) {
    const { problem } = form.applyEdits(draft, [[path, form.parseValue(type, text)]], t);
    assert.equal(problem, said, `${path} = ${text}`);
    // The page keeps what was typed for its field to show, and the draft's checks name it
    const kept = form.applyEdits(draft, [[path, form.parseValue(type, text)]], t, { keepTyped: true });
    assert.equal(kept.problem, undefined);
  }
});

test("odds and scenario files of a draft, and a bad draft's one line as an error", async () => {
  const { session } = await load("gurps4e");
  const t = (key, data) => (data ? `${key} ${JSON.stringify(data)}` : key);
  const draft = await gurpsDraft();
  assert.equal(session.isDraft(draft), true);
  const odds = session.oddsOf(draft, t);
  assert.deepEqual(Object.keys(odds.members), ["Ava", "Orc"]);
  assert.equal(odds.surprise.a, 1);
  assert.match(session.scenarioText(draft, t), /^procedure = "total"$/m);
  assert.match(session.draftOddsLines(draft, t)[0], /^Odds.Jump /);
  draft.sides.a.members = [];
  assert.throws(() => session.oddsOf(draft, t), /^Error: Notify.EmptySide/);
  assert.deepEqual(session.draftOddsLines(draft, t).length, 1);
});

test("a value a sheet holds but cannot settle is asked: kept empty, never the rule default, refused until given", async () => {
  const { session, form, drafts } = await load("gurps4e");
  const t = (key, data) => (data ? `${key} ${JSON.stringify(data)}` : key);
  // Ava's sheet holds a Tactics it cannot settle (null); the Orc's holds none (undefined): the rule default, 0.
  const draft = drafts.draftFromCombatants("partial", [
    { id: "ava", label: "Ava", side: "a", read: (key) => ({ iq: 12, tactics: null })[key] },
    { id: "orc", label: "Orc", side: "b", read: (key) => ({ iq: 10 })[key] },
  ]);
  const [ava] = draft.sides.a.members;
  const [orc] = draft.sides.b.members;
  assert.equal(ava.tactics, null);
  assert.deepEqual(ava.unread, ["tactics"]);
  assert.equal(orc.tactics, 0);
  assert.equal(orc.unread, undefined);
  assert.throws(() => session.oddsOf(draft, t), (error) => error.message === 'Notify.Unread {"name":"Ava","field":"Input.tactics"}');
  const { draft: given } = form.applyEdits(draft, [["members.ava.tactics", 9]], t);
  assert.equal(session.oddsOf(given, t).system, "gurps4e");
  const { draft: emptied } = form.applyEdits(given, [["members.ava.tactics", ""]], t);
  assert.throws(() => session.oddsOf(emptied, t), /Notify.Unread/, "emptied again, it is asked again");
});

test("a draft is told from a rules scenario by its type (its out list), not by ids its members carry", async () => {
  const { session } = await load("gurps4e");
  const t = (key, data) => (data ? `${key} ${JSON.stringify(data)}` : key);
  const scenario = (ids) => ({ system: "gurps4e", procedure: "total", sides: {
    a: { members: [{ name: "Ava", iq: 12, ...(ids ? { id: "c1" } : {}) }] },
    b: { members: [{ name: "Orc", iq: 10, ...(ids ? { id: "c2" } : {}) }] } } });
  assert.equal(session.isDraft(scenario(true)), false);
  assert.deepEqual(session.oddsOf(scenario(true), t), session.oddsOf(scenario(false), t), "read as the rules scenario it is");
  assert.equal(session.isDraft({ ...scenario(true), out: [] }), true);
});

test("a list the follow record grows keeps the one list it grew from, not the chain of the round's lists", async () => {
  const folder = process.env.GURPS_TREE;
  const { added, grownFrom, plan, newRecord } = await import(pathToFileURL(`${folder}/common/follow.js`).href);
  const first = added([], "a");
  const second = added(first, "b");
  const third = added(second, "c");
  assert.equal(grownFrom(third), second, "the host storing what changed writes the one id added");
  assert.equal(grownFrom(second), undefined, "second holds first no longer: a round's lists are not all kept alive");
  assert.deepEqual(third, ["a", "b", "c"]);
  assert.deepEqual(first, ["a"], "a list given is left as it was");
  // A look with no row standing for others is planned without asking each row (the rows are not walked for it)
  const order = ["a", "b"];
  let walks = 0;
  const watched = new Proxy(order, { get: (target, key) => {
    if (key === "some") walks += 1;
    return Reflect.get(target, key);
  } });
  const record = { ...newRecord(1), round: 1, seen: order, started: ["a"], active: "a", row: "a" };
  const { steps } = plan(record, order, { order: watched, current: 1, round: 1, forward: true, rotating: false, stands: {} });
  assert.deepEqual(steps, [{ kind: "end", id: "a" }, { kind: "start", id: "b" }]);
  assert.equal(walks, 0, "the order's rows were walked to look for rows standing for others");
});
