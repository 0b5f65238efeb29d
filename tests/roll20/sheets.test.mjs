// The example scripts against characters shaped like the Roll20 sheets GMs use (run by tests/test_roll20_sheets.py):
// the characters of fixtures/sheets/roll20/ (the GURPS sheet, the old and the Revised AD&D 1e sheets, D&D 5E by
// Roll20) loaded as
// attribute objects beside the sheet defaults getAttrByName falls back to (docs/dev/roll20.md §7), the draft values the
// script reads from them, what it asks for and refuses to play as a default, and markers that name nothing.
// SCRIPTS_DIR holds the example scripts, built with the default readers of exporter/targets/roll20/sheets/. Every expected value is
// derived by hand in the comments from the sheets and the rules (docs/rules/), not from the code under test.
import assert from "node:assert/strict";
import fs from "node:fs";
import { test } from "node:test";
import { ADND, DND, GM, GURPS, PLAYER, players } from "./examples.mjs";
import { createSandbox } from "../../tools/harness/roll20/harness.mjs";

const FIXTURES = new URL("../../fixtures/sheets/roll20/", import.meta.url);
const sheet = (file) => JSON.parse(fs.readFileSync(new URL(file, FIXTURES), "utf8"));
const GURPS_SHEET = sheet("gurps.json");
const ADND_OLD = sheet("adnd1e-old.json");
const ADND_REVISED = sheet("adnd1e-revised.json");
const OGL5E = sheet("ogl5e.json");

/** A sandbox with the sheet's defaults and one token per character (all friendly unless named in `hostile`) */
async function ready(script, fixture, { hostile = [], campaign } = {}) {
  const sb = createSandbox({ players, sheetDefaults: fixture.defaults, campaign });
  const tokens = Object.entries(fixture.characters).map(([name, attributes]) => {
    const friendly = !hostile.includes(name);
    const character = sb.createCharacter({ name, controlledby: friendly ? PLAYER : "", attributes });
    return sb.createToken({ name, represents: character.id, controlledby: friendly ? PLAYER : "" });
  });
  await sb.load(script.file);
  sb.ready();
  await sb.settle();
  sb.user.setTurnorder(tokens.map((token) => ({ id: token.id, pr: "0", custom: "", _pageid: token.get("_pageid") })));
  await sb.settle();
  return { sb, tokens: Object.fromEntries(tokens.map((token) => [token.get("name"), token])) };
}

async function draftOf(sb, script, procedure) {
  sb.user.chat(GM, `!surprise resolve --procedure ${procedure}`);
  await sb.settle();
  const draft = sb.read(`state.${script.name}.draft`);
  return Object.fromEntries([...draft.sides.a.members, ...draft.sides.b.members].map((m) => [m.name, m]));
}

const pick = (member, keys) => Object.fromEntries(keys.map((key) => [key, member[key]]));
const asked = (member) => [...(member.unread ?? [])].sort();

/** The GM's whispers since a chat index */
const whispers = (sb, from) => sb.chat.slice(from).filter((c) => c.whisperTo?.toLowerCase?.() === "gm").map((c) => c.content);

test("GURPS sheet: IQ, Combat Reflexes from advantages or racial traits, and the Tactics level wherever the sheet keeps it", async () => {
  const { sb } = await ready(GURPS, GURPS_SHEET);
  const members = await draftOf(sb, GURPS, "partial");
  const got = (name) => pick(members[name], ["iq", "combat_reflexes", "tactics"]);
  // Fresh: nothing created; IQ is the sheet's default 10, no advantage row, no Tactics row (no points: B393, 0).
  assert.deepEqual(got("Fresh"), { iq: 10, combat_reflexes: false, tactics: 0 });
  // Ava: IQ 13; Combat Reflexes among her advantages; Tactics (IQ/H) with 4 points is IQ+0 (B170) = 13, as the sheet says.
  assert.deepEqual(got("Ava"), { iq: 13, combat_reflexes: true, tactics: 13 });
  // Bren: Combat Reflexes as a racial trait; his Tactics row has no point in it, so its level 8 gives no +1 and is asked.
  assert.deepEqual(got("Bren"), { iq: 11, combat_reflexes: true, tactics: null });
  assert.deepEqual(asked(members.Bren), ["tactics"]);
  // Cato (2.0-era): Bad Temper is no Combat Reflexes; Tactics with 2 points is IQ-1 = 11, found in level_mirror.
  assert.deepEqual(got("Cato"), { iq: 12, combat_reflexes: false, tactics: 11 });
  // Dara (2.0-era): level holds its formula, never a level; 12 points in a Hard skill are IQ+2 = 14, level_mirror's.
  assert.deepEqual(got("Dara"), { iq: 12, combat_reflexes: false, tactics: 14 });
  // Eli (2.0-era): 4 points, but no worker computed the level yet: asked, never 0.
  assert.deepEqual(got("Eli"), { iq: 12, combat_reflexes: false, tactics: null });
  assert.deepEqual(asked(members.Eli), ["tactics"]);
  for (const name of ["Fresh", "Ava", "Cato", "Dara"]) assert.deepEqual(asked(members[name]), [], name);
  sb.assertClean({ allowWarnings: true });
});

test("GURPS sheet: the draft card shows an unsettled Tactics as ?, and the roll waits until the GM gives it", async () => {
  const fixture = { defaults: GURPS_SHEET.defaults, characters: { Bren: GURPS_SHEET.characters.Bren, Cato: GURPS_SHEET.characters.Cato } };
  const { sb, tokens } = await ready(GURPS, fixture, { hostile: ["Cato"] });
  const from = sb.chat.length;
  await draftOf(sb, GURPS, "partial");
  const card = whispers(sb, from).join("\n");
  const brenLine = card.split("</div>").find((line) => line.includes("Bren</a> IQ"));
  assert.ok(brenLine, card);
  assert.doesNotMatch(brenLine, /Tactics: 0/, "an unsettled Tactics is never shown as 0");
  assert.match(brenLine, /Tactics: <span[^>]*>(\?|&#63;)<\/span>/);
  let before = sb.chat.length;
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  assert.ok(whispers(sb, before).some((text) => text.includes("Bren: Tactics could not be read from the sheet; give it.")), "the roll is refused, naming what is missing");
  assert.ok(sb.read(`state.${GURPS.name}.draft`), "nothing was played: the draft waits");
  sb.user.chat(GM, `!surprise set --token ${tokens.Bren.id} --tactics 8`);
  await sb.settle();
  const draft = sb.read(`state.${GURPS.name}.draft`);
  assert.equal(draft.sides.a.members[0].tactics, 8);
  before = sb.chat.length;
  sb.scriptDice(3, 4); // the two leaders' initiative dice (B393), whatever they decide
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  assert.ok(!whispers(sb, before).some((text) => /is missing|could not be read/.test(text)), whispers(sb, before).join("\n"));
  assert.equal(sb.read(`state.${GURPS.name}.draft`) ?? null, null, "the draft was played");
  sb.assertClean({ allowWarnings: true });
});

/** A card's text as the GM reads it: markup left out, entities decoded, one line per line of the card */
const cardText = (html) => html.replace(/<\/div>/g, "\n").replace(/<[^>]*>/g, "")
  .replace(/&#(\d+);/g, (m, code) => String.fromCodePoint(Number(code))).replace(/&quot;/g, '"').replace(/&amp;/g, "&");

test("the draft card says what each ? is: the sheet's row without a point, the level never computed, how to give it", async () => {
  const fixture = { defaults: GURPS_SHEET.defaults, characters: { Bren: GURPS_SHEET.characters.Bren, Eli: GURPS_SHEET.characters.Eli } };
  const { sb, tokens } = await ready(GURPS, fixture);
  const from = sb.chat.length;
  await draftOf(sb, GURPS, "partial");
  const card = cardText(whispers(sb, from).join("\n"));
  // Bren's Tactics row has level 8 but no points field (B393: a skill without a point gives nothing); Eli's has
  // 4 points, but no level was ever computed.
  assert.ok(card.includes("? Tactics (Bren): the row “Tactics” in repeating_skills has no point in points, so it does not count."), card);
  assert.ok(card.includes("? Tactics (Eli): the row “Tactics” in repeating_skills holds no level the script can read."), card);
  assert.ok(card.includes("Give each value shown as ? with the ✎ beside it; a combatant's values are on the card his name opens."), card);
  const before = sb.chat.length;
  sb.user.chat(GM, `!surprise draft --token ${tokens.Bren.id}`);
  await sb.settle();
  const own = cardText(whispers(sb, before).join("\n"));
  assert.ok(own.includes("? Tactics (Bren): the row “Tactics” in repeating_skills has no point in points"), own);
  assert.ok(!own.includes("(Eli)"), "his card explains his own values only");
  sb.assertClean({ allowWarnings: true });
});

test("the draft card says what a sheet holds that is no number, and which two values disagree, in the GM's language", async () => {
  const gurps = await ready(GURPS, { defaults: GURPS_SHEET.defaults, characters: { Ava: { intelligence: "twelve" } } });
  let from = gurps.sb.chat.length;
  await draftOf(gurps.sb, GURPS, "partial");
  let card = cardText(whispers(gurps.sb, from).join("\n"));
  assert.ok(card.includes("? IQ (Ava): the sheet's intelligence holds “twelve”, which is no whole number."), card);
  const adnd = await ready(ADND, { defaults: ADND_OLD.defaults, characters: { Ranger: ADND_OLD.characters.Ranger } });
  adnd.sb.user.chat(GM, "!surprise config --language de");
  await adnd.sb.settle();
  from = adnd.sb.chat.length;
  await draftOf(adnd.sb, ADND, "roll");
  card = cardText(whispers(adnd.sb, from).join("\n"));
  // Dex 17 gives +2 (docs/rules/adnd1e.md#dexterity); the 0 typed beside it disagrees: both are asked, for one reason.
  assert.ok(card.includes("? Geschicklichkeit und Überraschungsbonus (Ranger): dexterity 17 im Charakterbogen ergibt +2, "
    + "surprisebonus enthält aber 0."), card);
  assert.ok(card.includes("Jeden mit ? gezeigten Wert mit dem ✎ daneben angeben"), card);
  adnd.sb.user.chat(GM, "!surprise config --language zh-CN");
  await adnd.sb.settle();
  from = adnd.sb.chat.length;
  adnd.sb.user.chat(GM, "!surprise draft");
  await adnd.sb.settle();
  card = cardText(whispers(adnd.sb, from).join("\n"));
  assert.ok(card.includes("？敏捷和突袭调整值（Ranger）：角色卡的dexterity为17，对应+2，但surprisebonus为0。"), card);
  gurps.sb.assertClean({ allowWarnings: true });
  adnd.sb.assertClean({ allowWarnings: true });
});

test("a value no one needs shows a dash, not a ?: AD&D's Dexterity where the adjustment stands for it", async () => {
  const { sb } = await ready(ADND, { defaults: ADND_OLD.defaults, characters: { Thief: ADND_OLD.characters.Thief } });
  const from = sb.chat.length;
  await draftOf(sb, ADND, "roll");
  const card = cardText(whispers(sb, from).join("\n"));
  assert.match(card, /Thief Dexterity: – · Surprise adjustment: 2/);
  assert.ok(!card.includes("?"), card);
  sb.assertClean({ allowWarnings: true });
});

// The 1e Dexterity adjustment (docs/rules/adnd1e.md#dexterity): 3 -3, 4 -2, 5 -1, 6-15 0, 16 +1, 17 +2, 18 +3.
const ADJ = ["dex", "surprise_adjustment"];

test("AD&D 1e old sheet: Dexterity, a hand-typed surprise bonus where it agrees with it, and both asked where they disagree", async () => {
  const { sb } = await ready(ADND, ADND_OLD);
  const members = await draftOf(sb, ADND, "roll");
  const got = (name) => pick(members[name], ADJ);
  assert.deepEqual(got("Fresh"), { dex: 10, surprise_adjustment: null }, "the sheet's default Dexterity, no bonus typed");
  assert.deepEqual(got("Fighter"), { dex: 17, surprise_adjustment: null }, "the 0 default of the bonus never hides Dex 17");
  assert.deepEqual(got("Thief"), { dex: null, surprise_adjustment: 2 }, "+2 typed agrees with Dex 17: given instead of it");
  assert.deepEqual(got("Ranger"), { dex: null, surprise_adjustment: null }, "0 typed beside Dex 17 (+2): neither is taken");
  assert.deepEqual(asked(members.Ranger), ["dex", "surprise_adjustment"]);
  assert.deepEqual(got("Monk"), { dex: null, surprise_adjustment: 3 }, "Dex 19 is beyond the 1e table: the typed 3 counts");
  assert.deepEqual(got("Cleric"), { dex: null, surprise_adjustment: -1 }, "a typed -1 beside the default Dexterity");
  for (const name of ["Fresh", "Fighter", "Thief", "Monk", "Cleric"]) assert.deepEqual(asked(members[name]), [], name);
  sb.assertClean({ allowWarnings: true });
});

test("AD&D 1e Revised sheet: the Reaction Adj. in the PHB's sign, never the hidden surprisebonus's, checked against Dexterity", async () => {
  const { sb } = await ready(ADND, ADND_REVISED);
  const members = await draftOf(sb, ADND, "roll");
  const got = (name) => pick(members[name], ADJ);
  assert.deepEqual(got("Fresh"), { dex: null, surprise_adjustment: 0 }, "Dex 8 and its 0, as the new sheet wrote them");
  assert.deepEqual(got("Archer"), { dex: null, surprise_adjustment: 2 }, "Dex 17: +2, a bonus (surprisebonus holds -2 segments)");
  assert.deepEqual(got("Clumsy"), { dex: null, surprise_adjustment: -3 }, "Dex 3: -3, a penalty");
  assert.deepEqual(got("Imported"), { dex: null, surprise_adjustment: null }, "Dex 17 beside a stale 0: neither is taken");
  assert.deepEqual(asked(members.Imported), ["dex", "surprise_adjustment"]);
  assert.deepEqual(got("Cleared"), { dex: null, surprise_adjustment: null }, "the hidden -2 is never read as a penalty");
  assert.deepEqual(asked(members.Cleared), ["dex", "surprise_adjustment"]);
  assert.deepEqual(got("Giant"), { dex: null, surprise_adjustment: 3 }, "Dex 19: the sheet's +3, beyond the 1e table");
  assert.deepEqual(got("Migrated"), { dex: null, surprise_adjustment: 1 }, "the old sheet's +1 beside Dex 16 (+1)");
  sb.assertClean({ allowWarnings: true });
});

/** The AD&D script built with options.side_best_rating (tests/test_roll20_sheets.py RATED): members give their own ratings */
const RATED = { file: process.env.RATED_SCRIPT, name: "AdndRated" };

test("AD&D 1e Revised sheet: a member's own chance and Surprise Others Adj. where set, on a d6 only; any other die asked", async () => {
  const { sb } = await ready(RATED, ADND_REVISED);
  const members = await draftOf(sb, RATED, "roll");
  const got = (name) => pick(members[name], ["surprised_on", "surprises_on"]);
  // The sheet's defaults (2 of 6, Adj. 0) are no one's own rating: nothing typed, nothing read (the side's stands;
  // the draft's empty own rating is null, and not asked for).
  assert.deepEqual(got("Fresh"), { surprised_on: null, surprises_on: null });
  assert.deepEqual(got("Archer"), { surprised_on: null, surprises_on: null });
  // 1 of 6: surprised on 1 alone. Adj. 1 is taken off the opponents' d6, so they are surprised on 1 to 2 + 1 = 3.
  assert.deepEqual(got("Ranger"), { surprised_on: 1, surprises_on: 3 });
  // The die picked "of 6" again, 2 of 6 and Adj. 2: a rating of 2 and opponents surprised on 1 to 4.
  assert.deepEqual(got("Lurker"), { surprised_on: 2, surprises_on: 4 });
  // 15 of 100 is no chance in six, and an Adj. beside a d100 no pips of a d6: both asked, neither scaled.
  assert.deepEqual(got("Sage"), { surprised_on: null, surprises_on: null });
  assert.deepEqual(asked(members.Sage), ["surprised_on", "surprises_on"]);
  // A formula typed as the chance is no number: asked, never taken as none.
  assert.deepEqual(got("Scribbled"), { surprised_on: null, surprises_on: null });
  assert.deepEqual(asked(members.Scribbled), ["surprised_on"]);
  for (const name of ["Fresh", "Archer", "Ranger", "Lurker"]) assert.deepEqual(asked(members[name]), [], name);
  sb.assertClean({ allowWarnings: true });
});

test("AD&D 1e Revised sheet: the draft card says a chance on a d100 is no chance in six", async () => {
  const fixture = { defaults: ADND_REVISED.defaults, characters: { Sage: { surprise: "15", surprise_die: "100" }, Gob: {} } };
  const { sb } = await ready(RATED, fixture, { hostile: ["Gob"] });
  const from = sb.chat.length;
  await draftOf(sb, RATED, "roll");
  const card = cardText(whispers(sb, from).join("\n"));
  assert.ok(/\? [^\n]*\(Sage\): the sheet's surprise counts on a d100 \(its surprise_die\); the rules here count on a d6\./.test(card), card);
  assert.ok(!card.includes("which is no whole number"), card);
  sb.assertClean({ allowWarnings: true });
});

test("AD&D 1e Revised sheet: a chance of 15 in 100 is refused at the roll until the GM gives the member's rating", async () => {
  const fixture = { defaults: ADND_REVISED.defaults, characters: { Sage: { surprise: "15", surprise_die: "100" }, Gob: {} } };
  const { sb, tokens } = await ready(RATED, fixture, { hostile: ["Gob"] });
  await draftOf(sb, RATED, "roll");
  let before = sb.chat.length;
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  assert.ok(whispers(sb, before).some((text) => /Sage: .* could not be read from the sheet; give it\./.test(text)),
    whispers(sb, before).join("\n"));
  assert.ok(sb.read(`state.${RATED.name}.draft`), "nothing was played: the draft waits");
  sb.user.chat(GM, `!surprise set --token ${tokens.Sage.id} --surprised_on 1`);
  await sb.settle();
  before = sb.chat.length;
  sb.scriptDice(3, 3); // neither side surprised
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  assert.ok(!whispers(sb, before).some((text) => /could not be read/.test(text)), whispers(sb, before).join("\n"));
  assert.equal(sb.read(`state.${RATED.name}.draft`) ?? null, null, "the draft was played");
  sb.assertClean({ allowWarnings: true });
});

test("AD&D 1e: Dexterity and an adjustment that disagree are refused at the roll until the GM gives one of them", async () => {
  const fixture = { defaults: ADND_REVISED.defaults, characters: { Imported: ADND_REVISED.characters.Imported, Gob: {} } };
  const { sb, tokens } = await ready(ADND, fixture, { hostile: ["Gob"] });
  await draftOf(sb, ADND, "roll");
  let before = sb.chat.length;
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  assert.ok(whispers(sb, before).some((text) => /Imported: (Dexterity|Surprise adjustment) could not be read from the sheet; give it\./.test(text)),
    whispers(sb, before).join("\n"));
  assert.ok(sb.read(`state.${ADND.name}.draft`), "nothing was played: the draft waits");
  sb.user.chat(GM, `!surprise set --token ${tokens.Imported.id} --dex 17`);
  await sb.settle();
  before = sb.chat.length;
  sb.scriptDice(3, 3); // neither side surprised: each side's d6 above 2
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  assert.ok(!whispers(sb, before).some((text) => /is missing|could not be read/.test(text)), whispers(sb, before).join("\n"));
  assert.equal(sb.read(`state.${ADND.name}.draft`) ?? null, null, "the draft was played");
  sb.assertClean({ allowWarnings: true });
});

test("AD&D 1e: a Dex 17 fighter nobody gave a surprise bonus is not surprised with the rest", async () => {
  const characters = { Fighter: ADND_OLD.characters.Fighter, Cleric: { dexterity: "10" }, Gob: {} };
  const { sb, tokens } = await ready(ADND, { defaults: ADND_OLD.defaults, characters }, { hostile: ["Gob"] });
  await draftOf(sb, ADND, "roll");
  sb.scriptDice(2, 5); // the party is surprised for 2 segments; Dex 17 takes 2 off the fighter's
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  const marked = (token) => /yellow/.test(token.get("statusmarkers"));
  assert.equal(marked(tokens.Fighter), false, "the fighter's Dexterity counts");
  assert.equal(marked(tokens.Cleric), true);
  sb.assertClean({ allowWarnings: true });
});

test("a marker that names no colour and no custom token marker is whispered to the GM at ready and on config", async () => {
  const markers = [{ id: 59, name: "Bane", tag: "Bane::59", url: "" }];
  const { sb } = await ready(GURPS, { defaults: {}, characters: { Ava: {} } }, { campaign: { token_markers: markers } });
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

const DND_2024 = { file: process.env.DND_2024_SCRIPT, name: "Dnd2024" };
const DND_INPUTS = ["stealth", "passive_perception"];

test("D&D 5E by Roll20: a PC's Stealth and passive Perception as its workers wrote them, an NPC's from its statblock", async () => {
  const { sb } = await ready(DND, OGL5E);
  const members = await draftOf(sb, DND, "stealth");
  const got = (name) => pick(members[name], DND_INPUTS);
  // Rogue: Dex 18 (+4), Stealth expertise with proficiency bonus 2: 4 + 2 x 2 = 8; passive 10 + 3 = 13.
  assert.deepEqual(got("Rogue"), { stealth: 8, passive_perception: 13 });
  // Fighter: Dex 8 (-1), not proficient: -1; Wis 14 (+2): passive 12.
  assert.deepEqual(got("Fighter"), { stealth: -1, passive_perception: 12 });
  // Scout (NPC): its statblock's Stealth +6 and passive Perception 15, not the PC fields the sheet also computed
  // without proficiency (stealth_bonus 2, passive_wisdom 11).
  assert.deepEqual(got("Scout"), { stealth: 6, passive_perception: 15 });
  // Ogre (NPC): no Stealth in its statblock, so Stealth is its Dexterity modifier, -1; passive Perception 8.
  assert.deepEqual(got("Ogre"), { stealth: -1, passive_perception: 8 });
  // Typed (NPC): "+3" typed as Stealth; "Passive perception 12." typed in the senses, case and full stop aside.
  assert.deepEqual(got("Typed"), { stealth: 3, passive_perception: 12 });
  for (const name of ["Rogue", "Fighter", "Scout", "Ogre", "Typed"]) assert.deepEqual(asked(members[name]), [], name);
  // Bard: dice proficiency makes Stealth "2+1d4", no number: asked, never 2 and never the field's default 0; the
  // passive Perception the sheet averaged (11) is read.
  assert.equal(members.Bard.passive_perception, 11);
  assert.deepEqual(asked(members.Bard), ["stealth"]);
  // Statue (NPC): Stealth 0 from Dexterity 10; senses with no passive Perception: asked, not the PC field's default 10.
  assert.deepEqual(got("Statue"), { stealth: 0, passive_perception: null });
  // Fresh: no worker ever ran; the fields' defaults (0 and 10) are nobody's values: both wait for the GM.
  assert.deepEqual(got("Fresh"), { stealth: null, passive_perception: null });
  sb.assertClean({ allowWarnings: true });
});

test("D&D 5E by Roll20, 2024 rules: the Initiative bonus of PCs and NPCs, the tiebreaker's hundredths left out", async () => {
  const { sb } = await ready(DND_2024, OGL5E);
  const members = await draftOf(sb, DND_2024, "stealth");
  const initiative = (name) => members[name].initiative;
  assert.equal(initiative("Rogue"), 4);
  // Fighter: Dex 8 (-1) with the sheet's tiebreaker: -1 + 8 / 100 = "-0.92", a bonus of -1, never 0.
  assert.equal(initiative("Fighter"), -1);
  assert.equal(initiative("Scout"), 2);
  assert.equal(initiative("Ogre"), -1);
  // Bard: Jack of All Trades under dice proficiency, "2+d2": asked.
  assert.ok(asked(members.Bard).includes("initiative"), JSON.stringify(members.Bard));
  sb.assertClean({ allowWarnings: true });
});
