// A draft's combatants and the edits of them every host can offer (templates/common/draft-combatants.js), run by
// tests/test_session.py: rename, add, remove and another procedure, each on a copy, the choices that named a
// combatant following him. GURPS_TREE and FALLOUT_TREE hold common/ with a build's config.js.
import assert from "node:assert/strict";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const trees = {};

/** Import a build's draft modules, its rules system first */
async function load(system) {
  if (!trees[system]) {
    const folder = process.env[{ gurps4e: "GURPS_TREE", "fallout-ttrpg": "FALLOUT_TREE" }[system]];
    const root = pathToFileURL(`${folder}/common/`).href;
    await import(`${root}systems/${system}.js`);
    trees[system] = { edits: await import(`${root}draft-combatants.js`), drafts: await import(`${root}draft.js`) };
  }
  return trees[system];
}

/** A GURPS draft: Ava and Bo on side a (Ava leads it), the Orc on side b, the Cat out of the fight */
async function gurpsDraft(procedure = "partial") {
  const { drafts } = await load("gurps4e");
  return drafts.draftFromCombatants(procedure, [
    { id: "ava", label: "Ava", side: "a", read: (key) => ({ iq: 12, tactics: 3 })[key] },
    { id: "bo", label: "Bo", side: "a", read: (key) => ({ iq: 11 })[key] },
    { id: "orc", label: "Orc", side: "b", read: (key) => ({ iq: 10 })[key] },
    { id: "cat", label: "Cat", side: null, read: () => undefined },
  ]);
}

/** A Fallout sneak attack: Ava opens it from side a against the Orc */
async function falloutDraft() {
  const { drafts } = await load("fallout-ttrpg");
  return drafts.draftFromCombatants("sneak-attack", [
    { id: "ava", label: "Ava", side: "a", read: () => undefined },
    { id: "orc", label: "Orc", side: "b", read: () => undefined },
  ]);
}

const names = (draft, side) => draft.sides[side].members.map((member) => member.name);

test("a rename renames the combatant and the choices that named him, on a copy", async () => {
  const { edits } = await load("gurps4e");
  const draft = await gurpsDraft();
  const before = JSON.stringify(draft);
  const renamed = edits.renameCombatant(draft, "ava", "  Bea ");
  assert.deepEqual(names(renamed, "a"), ["Bea", "Bo"]);
  assert.equal(renamed.sides.a.leader, "Bea");
  assert.equal(renamed.sides.a.members[0].named, undefined);
  assert.equal(JSON.stringify(draft), before, "the draft given stays as it was");
  assert.equal(edits.renameCombatant(draft, "nobody", "X"), null);
});

test("a name that is empty or another's is kept as typed, the choices on his last good name until he has one", async () => {
  const { edits } = await load("gurps4e");
  const taken = edits.renameCombatant(await gurpsDraft(), "ava", "Orc");
  assert.deepEqual(names(taken, "a"), ["Orc", "Bo"]);
  assert.equal(taken.sides.a.members[0].named, "Ava");
  assert.equal(taken.sides.a.leader, "Ava");
  const empty = edits.renameCombatant(taken, "ava", " ");
  assert.equal(empty.sides.a.members[0].name, "");
  assert.equal(empty.sides.a.members[0].named, "Ava");
  const good = edits.renameCombatant(empty, "ava", "Cy");
  assert.equal(good.sides.a.leader, "Cy");
  assert.equal(good.sides.a.members[0].named, undefined);
});

test("a rename follows the opening attacks too", async () => {
  const { edits } = await load("fallout-ttrpg");
  const renamed = edits.renameCombatant(await falloutDraft(), "ava", "Bea");
  assert.deepEqual(renamed.openers.map((row) => row.name), ["Bea"]);
});

test("an added combatant has the rules' defaults and the first name no other has, at the end of his side", async () => {
  const { edits, drafts } = await load("gurps4e");
  const draft = await gurpsDraft();
  const before = JSON.stringify(draft);
  const nameFor = (number) => `New ${number}`;
  const { draft: added, member } = edits.addCombatant(draft, "b", "c9", nameFor);
  assert.equal(member.id, "c9");
  assert.equal(member.name, "New 5");
  assert.deepEqual(added.sides.b.members.at(-1), member);
  for (const input of drafts.inputsAt("partial", "member")) assert.equal(member[input.key], input.default, input.key);
  assert.equal(JSON.stringify(draft), before, "the draft given stays as it was");
  const again = edits.addCombatant(added, "a", "c10", nameFor);
  assert.equal(again.member.name, "New 6", "five combatants: New 6");
  const clash = edits.addCombatant(edits.renameCombatant(draft, "cat", "New 5"), "a", "c11", nameFor);
  assert.equal(clash.member.name, "New 6", "a name another has is passed over");
});

test("a removed combatant leaves his side, the ones out of the fight and every choice that named him", async () => {
  const { edits } = await load("gurps4e");
  const draft = await gurpsDraft();
  const before = JSON.stringify(draft);
  const removed = edits.removeCombatant(draft, "ava");
  assert.deepEqual(names(removed, "a"), ["Bo"]);
  assert.equal(removed.sides.a.leader, null);
  assert.equal(JSON.stringify(draft), before, "the draft given stays as it was");
  assert.deepEqual(edits.removeCombatant(draft, "cat").out, []);
  assert.equal(edits.removeCombatant(draft, "nobody"), null);
  const typing = edits.renameCombatant(draft, "ava", "Orc");
  assert.equal(edits.removeCombatant(typing, "ava").sides.a.leader, null, "the choices on his last good name go too");
});

test("a removed opener's opening attack goes with him", async () => {
  const { edits } = await load("fallout-ttrpg");
  assert.deepEqual(edits.removeCombatant(await falloutDraft(), "ava").openers, []);
});

test("another procedure keeps each combatant's place, side names and the values it reads too", async () => {
  const { edits } = await load("gurps4e");
  const draft = await gurpsDraft();
  draft.sides.b.name = "Orcs";
  draft.sides.a.members[0].iq = 14;
  const before = JSON.stringify(draft);
  const total = edits.changeProcedure(draft, "total");
  assert.equal(total.procedure, "total");
  assert.deepEqual(names(total, "a"), ["Ava", "Bo"]);
  assert.deepEqual(total.sides.b.members.map((member) => member.id), ["orc"]);
  assert.deepEqual(total.out.map((member) => member.id), ["cat"]);
  assert.equal(total.sides.b.name, "Orcs");
  assert.equal(total.sides.a.name, "");
  assert.equal(total.sides.a.members[0].iq, 14);
  assert.equal(total.sides.a.members[0].tactics, undefined, "total reads no Tactics");
  assert.equal(JSON.stringify(draft), before, "the draft given stays as it was");
  const back = edits.changeProcedure(total, "partial");
  assert.equal(back.sides.a.members[0].tactics, 0, "dropped, then the rule default");
  assert.equal(back.sides.a.leader, "Ava");
});

test("another procedure keeps a value the sheet could not read asked for, never the rule default in its place", async () => {
  const { edits, drafts } = await load("gurps4e");
  const draft = drafts.draftFromCombatants("partial", [
    { id: "ava", label: "Ava", side: "a", read: (key) => (key === "iq" ? null : undefined) }, // her sheet's IQ unreadable
    { id: "orc", label: "Orc", side: "b", read: (key) => ({ iq: 10 })[key] },
  ]);
  assert.equal(draft.sides.a.members[0].iq, null);
  assert.deepEqual(draft.sides.a.members[0].unread, ["iq"]);
  const total = edits.changeProcedure(draft, "total");
  assert.equal(total.sides.a.members[0].iq, null, "still empty, to be given");
  assert.deepEqual(total.sides.a.members[0].unread, ["iq"], "still asked for");
  assert.match(drafts.scenarioFromDraft(total, (key) => key).problem ?? "", /./, "and the draft cannot be rolled without it");
  draft.sides.a.members[0].iq = 13; // given by the GM since: a value like any other
  assert.equal(edits.changeProcedure(draft, "total").sides.a.members[0].iq, 13);
});
