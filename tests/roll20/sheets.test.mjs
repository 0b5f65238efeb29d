// The example scripts against characters shaped like the Roll20 sheets GMs use (run by tests/test_roll20_sheets.py):
// attribute objects beside the sheet defaults getAttrByName falls back to (docs/dev/roll20.md §7), the AD&D 1e sheets'
// surprise adjustment, the GURPS sheet's repeating sections, and markers that name nothing.
// SCRIPTS_DIR holds the example scripts; SHEETS is exporter/sheets.py's Roll20 readers by system, the one place the
// sheet attribute names are kept.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ADND, GM, GURPS, PLAYER, players } from "./examples.mjs";
import { createSandbox } from "./harness.mjs";

// Listing the cases runs this file without SHEETS: the readers are then empty and no case runs.
const SHEETS = JSON.parse(process.env.SHEETS ?? '{"adnd1e": {}, "gurps4e": {}}');
const ADND_SHEET = SHEETS.adnd1e;
const GURPS_SHEET = SHEETS.gurps4e;
const [INVERTED, HIDDEN] = ADND_SHEET.surprise_adjustment?.set ?? [];

// ADnD_1E_Revised/src/index.html @01e519b8: dexterity defaults to 10, surprisebonus and surprisebonus_inverted to 0.
const ADND_DEFAULTS = { [ADND_SHEET.dex?.attribute]: "10", [HIDDEN]: "0", [INVERTED]: "0" };

async function ready(script, characters, { sheetDefaults = {}, campaign } = {}) {
  const sb = createSandbox({ players, sheetDefaults, campaign });
  const tokens = characters.map(({ name, friendly, attributes }) => {
    const character = sb.createCharacter({ name, controlledby: friendly ? PLAYER : "", attributes });
    return sb.createToken({ name, represents: character.id, controlledby: friendly ? PLAYER : "" });
  });
  await sb.load(script.file);
  sb.ready();
  await sb.settle();
  sb.user.setTurnorder(tokens.map((token) => ({ id: token.id, pr: "0", custom: "", _pageid: token.get("_pageid") })));
  await sb.settle();
  return { sb, tokens };
}

async function draftOf(sb, script, procedure) {
  sb.user.chat(GM, `!surprise resolve --procedure ${procedure}`);
  await sb.settle();
  const draft = sb.read(`state.${script.name}.draft`);
  return Object.fromEntries([...draft.sides.a.members, ...draft.sides.b.members].map((m) => [m.name, m]));
}

const pick = (member, keys) => Object.fromEntries(keys.map((key) => [key, member[key]]));
const ADJ = ["dex", "surprise_adjustment"];

test("AD&D 1e: a sheet default of 0 never overrides Dexterity; a set adjustment is read, on either sheet", async () => {
  const { sb } = await ready(ADND, [
    { name: "Fighter", friendly: true, attributes: { [ADND_SHEET.dex.attribute]: 17 } },
    { name: "Blank", friendly: true, attributes: {} },
    { name: "Old", friendly: true, attributes: { [ADND_SHEET.dex.attribute]: 17, [HIDDEN]: 1 } },
    { name: "Revised", friendly: false, attributes: { [ADND_SHEET.dex.attribute]: 16, [INVERTED]: 2, [HIDDEN]: -2 } },
    { name: "Emptied", friendly: false, attributes: { [ADND_SHEET.dex.attribute]: 5, [INVERTED]: "", [HIDDEN]: " " } },
  ], { sheetDefaults: ADND_DEFAULTS });
  const members = await draftOf(sb, ADND, "roll");
  assert.deepEqual(pick(members.Fighter, ADJ), { dex: 17, surprise_adjustment: null }, "Dex 17 kept: the 0 default is no adjustment");
  assert.deepEqual(pick(members.Blank, ADJ), { dex: 10, surprise_adjustment: null }, "the sheet's default Dexterity");
  assert.deepEqual(pick(members.Old, ADJ), { dex: null, surprise_adjustment: 1 }, "the old sheet's surprisebonus");
  assert.deepEqual(pick(members.Revised, ADJ), { dex: null, surprise_adjustment: 2 }, "the Revised sheet's visible Reaction Adj.");
  assert.deepEqual(pick(members.Emptied, ADJ), { dex: 5, surprise_adjustment: null }, "empty attribute objects set nothing");
  sb.assertClean({ allowWarnings: true });
});

test("AD&D 1e: a Dex 17 fighter nobody filled in is not surprised with the rest", async () => {
  const { sb, tokens } = await ready(ADND, [
    { name: "Fighter", friendly: true, attributes: { [ADND_SHEET.dex.attribute]: 17 } },
    { name: "Cleric", friendly: true, attributes: { [ADND_SHEET.dex.attribute]: 10 } },
    { name: "Gob", friendly: false, attributes: {} },
  ], { sheetDefaults: ADND_DEFAULTS });
  await draftOf(sb, ADND, "roll");
  sb.scriptDice(2, 5); // the party is surprised for 2 segments; Dex 17 takes 2 off the fighter's
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  const marked = (token) => /yellow/.test(token.get("statusmarkers"));
  assert.equal(marked(tokens[0]), false, "the fighter's Dexterity counts");
  assert.equal(marked(tokens[1]), true);
  sb.assertClean({ allowWarnings: true });
});

test("GURPS: Combat Reflexes and Tactics read by name from the sheet's repeating sections", async () => {
  const cr = GURPS_SHEET.combat_reflexes;
  const tactics = GURPS_SHEET.tactics;
  const row = (section, id, fields) => Object.fromEntries(Object.entries(fields).map(([field, value]) => [`${section}_${id}_${field}`, value]));
  const { sb } = await ready(GURPS, [
    {
      name: "Ava", friendly: true,
      attributes: {
        [GURPS_SHEET.iq.attribute]: 13,
        ...row(cr.section, "-MzA1", { [cr.name_field ?? "name"]: "Fit" }),
        ...row(cr.section, "-MzA2", { [cr.name_field ?? "name"]: "combat reflexes" }),
        ...row(tactics.section, "-MzB1", { [tactics.name_field ?? "name"]: "Tactics", [tactics.value]: 14 }),
        ...row(tactics.section, "-MzB2", { [tactics.name_field ?? "name"]: "Stealth", [tactics.value]: 16 }),
      },
    },
    { name: "Orc", friendly: false, attributes: { [GURPS_SHEET.iq.attribute]: 9, ...row(cr.section, "-MzC1", { name: "Bad Temper" }) } },
  ], { sheetDefaults: { [GURPS_SHEET.iq.attribute]: "10" } });
  const total = await draftOf(sb, GURPS, "total");
  assert.deepEqual(pick(total.Ava, ["iq", "combat_reflexes"]), { iq: 13, combat_reflexes: true });
  assert.deepEqual(pick(total.Orc, ["iq", "combat_reflexes"]), { iq: 9, combat_reflexes: false });
  sb.user.chat(GM, "!surprise clear --draft");
  await sb.settle();
  const partial = await draftOf(sb, GURPS, "partial");
  assert.equal(partial.Ava.tactics, 14);
  assert.equal(partial.Orc.tactics, 0, "no Tactics row: the rule default");
  sb.assertClean({ allowWarnings: true });
});

test("a marker that names no colour and no custom token marker is whispered to the GM at ready and on config", async () => {
  const markers = [{ id: 59, name: "Bane", tag: "Bane::59", url: "" }];
  const { sb } = await ready(GURPS, [{ name: "Ava", friendly: true, attributes: {} }], { campaign: { token_markers: markers } });
  const warned = (from) => sb.chat.slice(from).filter((c) => c.whisperTo?.toLowerCase?.() === "gm" && /matches no colour/.test(c.content));
  assert.equal(warned(0).length, 0, "yellow is a colour");
  for (const [marker, expected] of [["bane", 0], ["Bane::59", 0], ["purple", 0], ["Sleepy Owl", 1]]) {
    const before = sb.chat.length;
    sb.user.chat(GM, `!surprise config --marker ${marker}`);
    await sb.settle();
    assert.equal(warned(before).length, expected, marker);
    if (expected) assert.match(warned(before)[0].content, /Sleepy Owl/);
  }
  const before = sb.chat.length;
  sb.restart();
  await sb.settle();
  assert.equal(warned(before).length, 1, "at ready too, for the marker kept in state");
});
