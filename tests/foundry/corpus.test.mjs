// The Foundry readers (templates/foundry/sheets.js) against the sheet corpus of fixtures/sheets (run by
// tests/test_foundry_corpus.py): GURPS Game Aid actors as its importer stores real GCS characters, and ARS actors read
// under each of ARS's rules variants, in a world whose game system behaves as its code does (emulation/game-systems.mjs).
// Every expected value is worked out by hand from the GCS file or from ARS's tables and the 1e rules, beside it.
// MODULES_DIR holds <id>/foundry for the example campaigns, CORPUS_DIR the GURPS example that reads a Spanish sheet.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { createFoundry, runGeneration } from "../../tools/harness/foundry/harness.mjs";
import { ggaList, installArsActors, installGga1Actors, installGgaActors, installGgaFinders } from "../../tools/harness/foundry/emulation/game-systems.mjs";

const GENERATION = runGeneration();
const GURPS = "ambush-gurps-example";
const GURPS_ES = "ambush-gurps-es";
const ADND = "ambush-adnd-example";
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "fixtures", "sheets");
const { FRIENDLY, HOSTILE } = { FRIENDLY: 1, HOSTILE: -1 };

const fixture = (kind, file) => JSON.parse(fs.readFileSync(path.join(FIXTURES, kind, file), "utf8"));
const folderOf = (id) => `${id === GURPS_ES ? process.env.CORPUS_DIR : process.env.MODULES_DIR}/${id}/foundry`;

/** Boot a module in a world of its game system, the system's own behaviour installed; returns the env and a cleanup */
async function boot(id, systemId, install = () => []) {
  const env = createFoundry({ generation: GENERATION, systemId, modules: [{ id }], quiet: true });
  await env.loadModule(folderOf(id));
  const removers = install();
  return { env, done: () => { env.teardown(); for (const remove of removers.reverse()) remove(); } };
}

/** Put each actor on a token in one combat: the first friendly, the rest hostile */
async function combatOf(env, actors) {
  const tokens = [];
  for (const [index, data] of actors.entries()) {
    const actor = await env.createActor(data);
    tokens.push(await env.createToken({ actor, name: data.name, disposition: index === 0 ? FRIENDLY : HOSTILE }));
  }
  const combat = await env.createCombat({ combatants: tokens.map((token) => ({ token })) });
  await env.settle();
  return combat;
}

/** Return every member of a draft by name, with the values of the given keys and what was not read */
function valuesOf(draft, keys) {
  const members = [...draft.sides.a.members, ...draft.sides.b.members];
  return Object.fromEntries(members.map((member) => [member.name, valuesOfMember(member, keys)]));
}

/** Return a member's values of the given keys and what was not read */
const valuesOfMember = (member, keys) => ({
  ...Object.fromEntries(keys.map((key) => [key, member[key]])), unread: member.unread ?? [],
});

/** Return the draft member whose combatant has this actor (names repeat: one character in several shapes) */
function memberOf(draft, combat, actorIndex) {
  const members = [...draft.sides.a.members, ...draft.sides.b.members];
  const combatant = combat.combatants.contents[actorIndex];
  return members.find((member) => member.id === combatant.id);
}

/** GGA as a world has it: its finders and toggleStatusEffect, and the values its actor derives as it is prepared */
const gga = () => [installGgaFinders(), installGgaActors()];

// --- GURPS Game Aid ---------------------------------------------------------------------------------------------

/**
 * What each character's sheet says, read off the GCS file (its calc values) and the fixture's changes: IQ and Per
 * (attributes calc.value), whether Combat Reflexes is there, the level of Tactics and of Stealth where the character
 * has a point in them (skills calc.level with points >= 1). Where the skill is there without a point, the level is
 * asked (null, unread); where there is no such skill, the rule's default (Tactics 0, Stealth none).
 */
const GGA_SHEETS = {
  // Louis d'Antares.gcs: IQ 11, Per 11; Combat Reflexes [15] in "Advantages & Perks"; Tactics 2 points, level 10.
  "louis-dantares.json": { iq: 11, per: 11, combat_reflexes: true, tactics: 10, stealth: null, unread: [] },
  // The same with "Advantages & Perks" folded on GGA's sheet: Combat Reflexes sits in `collapsed`.
  "louis-dantares-collapsed.json": { iq: 11, per: 11, combat_reflexes: true, tactics: 10, stealth: null, unread: [] },
  // Tactics at 0 points: GCS keeps it at IQ-6 = 5; B393's +1 needs a point, so the level is not read: asked.
  "louis-dantares-tactics-0.json": { iq: 11, per: 11, combat_reflexes: true, tactics: null, stealth: null, unread: ["tactics"] },
  // Noble Knight.gcs: IQ 10, Per 10; Combat Reflexes in "Advantages" and Stealth (1 point, 13) in "Physical", both
  // folded; Tactics 2 points, level 11.
  "noble-knight-collapsed.json": { iq: 10, per: 10, combat_reflexes: true, tactics: 11, stealth: 13, unread: [] },
  // C31R07.gcs: IQ 16, Per 18; Combat Reflexes at the top; Tactics 20 points, level 20.
  "c31r07.json": { iq: 16, per: 18, combat_reflexes: true, tactics: 20, stealth: null, unread: [] },
  // Combat Reflexes switched off in GCS: GGA keeps it, 0 points and no mark, so it reads as there (the GM deletes it
  // in GGA or unticks it in the dialog, docs/game-systems.md).
  "c31r07-combat-reflexes-off.json": { iq: 16, per: 18, combat_reflexes: true, tactics: 20, stealth: null, unread: [] },
  // Dire Vulture.gcs: IQ 6, Per 14; no Combat Reflexes, no Tactics; Stealth at 0 points (GCS's default DX-4 = 10): asked.
  "dire-vulture.json": { iq: 6, per: 14, combat_reflexes: false, tactics: 0, stealth: null, unread: ["stealth"] },
  // Orc Sergeant.gcs with Combat Reflexes named in Spanish: read with the English name, it is not there.
  "orc-sergeant-es.json": { iq: 10, per: 11, combat_reflexes: false, tactics: 0, stealth: 11, unread: [] },
  // Typed into GGA's Mook Generator (the fixture's `typed`): "Combat Reflexes [15]" is Combat Reflexes, its cost in
  // GURPS notation after the name; "Tactics-12" and "Stealth-13" are levels the GM typed, read though GGA stores them
  // with 0 points: a Mook's skill has no default behind it. IQ 11 and Per 12 as typed.
  "mook-bandit-leader.json": { iq: 11, per: 12, combat_reflexes: true, tactics: 12, stealth: 13, unread: [] },
  // A Mook's trait without its cost, and no Tactics typed: none (Tactics 0).
  "mook-bandit.json": { iq: 10, per: 10, combat_reflexes: true, tactics: 0, stealth: 11, unread: [] },
};

/** Draft actors in a GURPS world and return each one's values per procedure that reads them, in their order */
async function readGgaActors(actors, install = gga, id = GURPS) {
  const { env, done } = await boot(id, "gurps", install);
  try {
    const combat = await combatOf(env, actors);
    const api = game.modules.get(id).api;
    const partial = api.draft(combat, "partial");
    const contest = api.draft(combat, "quick-contest");
    const read = actors.map((actor, index) => {
      const one = valuesOfMember(memberOf(partial, combat, index), ["iq", "combat_reflexes", "tactics"]);
      const other = valuesOfMember(memberOf(contest, combat, index), ["per", "stealth"]);
      return { ...one, ...other, unread: [...new Set([...one.unread, ...other.unread])].sort() };
    });
    assert.deepEqual(env.errors, []);
    return read;
  } finally {
    done();
  }
}

/** Draft every fixture's character in a GURPS world and return its values per procedure that reads them */
async function readGga(id, files, install = gga, kind = "gga") {
  const read = await readGgaActors(files.map((file) => fixture(kind, file).actor), install, id);
  return Object.fromEntries(files.map((file, index) => [file, read[index]]));
}

test("GGA corpus: each character's draft holds what its GCS sheet says, containers folded or not", async () => {
  const files = Object.keys(GGA_SHEETS);
  assert.deepEqual(await readGga(GURPS, files), GGA_SHEETS);
});

test("GGA corpus: Combat Reflexes in a folded container is read, with GGA's findAdvantage in the world", async () => {
  // GGA's findAdvantage walks `contains` only (lib/utilities.js flattenContainedList): asking it first missed these.
  const read = await readGga(GURPS, ["louis-dantares-collapsed.json", "noble-knight-collapsed.json"]);
  assert.equal(read["louis-dantares-collapsed.json"].combat_reflexes, true);
  assert.equal(read["noble-knight-collapsed.json"].combat_reflexes, true);
});

test("GGA corpus: folding a container on the sheet changes nothing the module reads", async () => {
  const { env, done } = await boot(GURPS, "gurps", gga);
  try {
    const combat = await combatOf(env, [fixture("gga", "louis-dantares.json").actor]);
    const api = game.modules.get(GURPS).api;
    const before = valuesOf(api.draft(combat, "partial"), ["iq", "combat_reflexes", "tactics"]);
    const actor = combat.combatants.contents[0].actor;
    await actor.toggleExpand("system.ads.00000"); // the caret of "Advantages & Perks"
    assert.deepEqual(Object.keys(actor.system.ads["00000"].contains), [], "folded: GGA moved its entries");
    assert.equal(actor.findAdvantage("Combat Reflexes"), undefined, "GGA's own finder no longer sees it");
    assert.deepEqual(valuesOf(api.draft(combat, "partial"), ["iq", "combat_reflexes", "tactics"]), before);
    assert.deepEqual(before["Haut-Cornet \"Louis\" d'Antares"].combat_reflexes, true);
  } finally {
    done();
  }
});

test("GGA corpus: a translated trait is found by its own name, brackets and all, and only by it", async () => {
  // The Spanish build reads combat_reflexes = { advantage = "Reflejos de combate (RC)" } (tests/test_foundry_corpus.py).
  const read = await readGga(GURPS_ES, ["orc-sergeant-es.json", "louis-dantares.json"]);
  assert.equal(read["orc-sergeant-es.json"].combat_reflexes, true, "GGA's pattern reads (RC) as a group");
  assert.equal(read["louis-dantares.json"].combat_reflexes, false, "the English name is not the Spanish one");
});

test("GGA names: whole names, case and spacing aside, with GGA's levels and brackets; never a name inside another", async () => {
  // Hand-made actors in GGA's shape (emulation/game-systems.mjs ggaList); a quirk is named as GCS names them
  // ("Quirk: Broad-Minded", C31R07.gcs).
  const character = (name, ads, skills) => ({ name, type: "character", system: {
    attributes: { IQ: { import: 12, value: 10, points: 0 }, PER: { import: 12, value: 10, points: 0 } },
    ads: ggaList(ads), skills: ggaList(skills) } });
  const { env, done } = await boot(GURPS, "gurps", gga);
  try {
    const combat = await combatOf(env, [
      character("Ana", [{ name: "Quirk: Proud of his combat reflexes" }, { name: "Enhanced Combat Reflexes", points: 15 }],
        [{ name: "Tactical Shooting (Pistol)", import: 14, points: 2 }, { name: "Stealthy", import: 12, points: 1 }]),
      character("Ben", [{ name: "  combat   REFLEXES ", points: 15 }], [{ name: "tactics", import: 13, points: 4 },
        { name: "Stealth/TL8 (Urban)", import: 12, points: 2 }]),
      character("Cid", [{ name: "Combat Reflexes (from the Soldier template)", points: 15 }],
        [{ name: "Stealth (Urban)", import: 12, points: 2 }, { name: "Stealth (Wilderness)", import: 10, points: 1 }]),
    ]);
    const api = game.modules.get(GURPS).api;
    const partial = valuesOf(api.draft(combat, "partial"), ["combat_reflexes", "tactics"]);
    const contest = valuesOf(api.draft(combat, "quick-contest"), ["stealth"]);
    // No name is read inside another, yet GGA's own finders see "combat reflexes" in Ana's quirk and "Stealth" at the
    // start of "Stealthy": asked, never a silent no (issue 29: whatever GGA's finder finds is never taken as none).
    assert.deepEqual(partial.Ana, { combat_reflexes: null, tactics: 0, unread: ["combat_reflexes"] });
    assert.deepEqual(contest.Ana, { stealth: null, unread: ["combat_reflexes", "stealth"] });
    assert.deepEqual(partial.Ben, { combat_reflexes: true, tactics: 13, unread: [] });
    assert.deepEqual(contest.Ben, { stealth: 12, unread: [] }, "a tech level and a specialization as GGA names them");
    assert.equal(partial.Cid.combat_reflexes, true, "a note in brackets after the name");
    assert.deepEqual(contest.Cid, { stealth: null, unread: ["stealth"] }, "two specializations at two levels: asked");
  } finally {
    done();
  }
});

test("GGA: a value that cannot be read is asked, never taken as none; the dialog shows it unanswered", async () => {
  // A GCS character whose Tactics was set to 0 points (GGA's importer keeps GCS's id in `uuid` and no `points`,
  // actor-importer.js importSk; its level is GCS's default), an actor without GGA's lists, and a level that is no number.
  const vet = { name: "Vet", type: "character", system: {
    attributes: { IQ: { import: 10, value: 10, points: 0 }, PER: { import: 10, value: 10, points: 0 } },
    ads: ggaList([{ name: "Combat Reflexes", points: 15, uuid: "tGdaUslNoNUKhCO-n" }]),
    skills: ggaList([{ name: "Tactics", import: "4", level: "", uuid: "sW2zBl5AkSZ2ZoPSd" }]) } };
  const bare = { name: "Statue", type: "character", system: { attributes: { IQ: { import: 8, value: 10 } } } };
  const odd = { name: "Odd", type: "character", system: { attributes: { IQ: { import: 11, value: 10 } }, ads: {},
    skills: ggaList([{ name: "Tactics", import: "", level: "x", points: 2 }]) } };
  const { env, done } = await boot(GURPS, "gurps", gga);
  try {
    const combat = await combatOf(env, [vet, bare, odd]);
    const api = game.modules.get(GURPS).api;
    const draft = api.draft(combat, "partial");
    const values = valuesOf(draft, ["iq", "combat_reflexes", "tactics"]);
    assert.deepEqual(values.Vet, { iq: 10, combat_reflexes: true, tactics: null, unread: ["tactics"] });
    assert.deepEqual(values.Statue, { iq: 8, combat_reflexes: null, tactics: null, unread: ["combat_reflexes", "tactics"] });
    assert.deepEqual(values.Odd, { iq: 11, combat_reflexes: false, tactics: null, unread: ["tactics"] });
    // Rolling as drafted is refused with the first value still to give; none is taken as 0 or false.
    assert.equal(await api.resolve(draft, combat), null);
    assert.match(env.notifications.at(-1).message, /^Vet: Tactics could not be read from the sheet/);
    assert.equal(api.state(combat), null);
    // The dialog asks: the yes/no of Combat Reflexes starts unanswered, and rolls once everything is given.
    const ids = Object.fromEntries(combat.turns.map((c) => [c.name, c.id]));
    env.dialogAnswers.push("partial", (record) => {
      const box = record.form.elements[`members.${ids.Statue}.combat_reflexes`];
      assert.equal(box.tagName, "SELECT");
      assert.equal(box.value, "", "no answer yet");
      assert.match(record.element.querySelector(".ambush-odds").textContent, /^Vet: Tactics could not be read/);
      record.fill({ [`members.${ids.Statue}.combat_reflexes`]: "false", [`members.${ids.Statue}.tactics`]: 0,
        [`members.${ids.Vet}.tactics`]: 0, [`members.${ids.Odd}.tactics`]: 0 });
      return "roll";
    });
    env.scriptDice(6, 1); // the initiative: side a's leader (the veteran) 6, side b's 1: side b is surprised
    await api.openDialog(combat);
    await env.settle();
    assert.deepEqual(env.dialogAnswers, []);
    assert.ok(api.state(combat), "resolved once the GM gave the values");
    assert.deepEqual(env.errors, []);
  } finally {
    done();
  }
});

test("GGA: where GGA's own finder sees a trait or skill the walk does not, the value is asked, not guessed", async () => {
  const { env, done } = await boot(GURPS, "gurps", gga);
  try {
    const actor = fixture("gga", "dire-vulture.json").actor;
    const combat = await combatOf(env, [actor]);
    const document = combat.combatants.contents[0].actor;
    // A GGA that keeps a trait and a skill somewhere else (its Foundry items, say) finds them; the walk does not.
    Object.defineProperty(document, "findAdvantage", { value: (name) => ({ name }) });
    const findSkillSpell = globalThis.GURPS.findSkillSpell;
    globalThis.GURPS.findSkillSpell = (who, name) => ({ name, level: 15, points: 4 });
    const warned = [];
    const warn = console.warn;
    console.warn = (...args) => warned.push(args.join(" "));
    try {
      const values = valuesOf(game.modules.get(GURPS).api.draft(combat, "partial"), ["combat_reflexes", "tactics"]);
      assert.deepEqual(values["Dire Vulture"], { combat_reflexes: null, tactics: null, unread: ["combat_reflexes", "tactics"] });
      assert.equal(warned.length, 2);
    } finally {
      console.warn = warn;
      globalThis.GURPS.findSkillSpell = findSkillSpell;
    }
  } finally {
    done();
  }
});

// --- GURPS Game Aid 1.0 -------------------------------------------------------------------------------------------

/** GGA 1.0 as a world has it (V14 only): its actors' traits and skills as Items, its finders and deprecated lists */
const gga1 = () => [installGga1Actors()];
const V14_ONLY = { skip: GENERATION < 14 ? "GGA 1.0 runs on Foundry V14 only (its system.json: minimum 14)" : false };

/**
 * What each GGA 1.0 actor of fixtures/sheets/gga-1.0 holds (its README), worked out from the GCS file and from what
 * GGA 1.0's code does to it. `imported`: 1.0's own GCS importer, which keeps GCS's `disabled` mark; `migrated`: a 0.18
 * actor as 1.0 loads it, whose folded containers' entries the migration leaves behind (v1_0_0.ts flattenItemList).
 */
const GGA1_SHEETS = {
  "louis-dantares.imported.json": GGA_SHEETS["louis-dantares.json"],
  // The container folded on 1.0's sheet (`open` false) changes nothing: every Item is read.
  "louis-dantares-collapsed.imported.json": GGA_SHEETS["louis-dantares.json"],
  // 1.0's importer writes `points: 0` for GCS's 0-point skill and GCS's id in `importid`: its default level, asked.
  "louis-dantares-tactics-0.imported.json": GGA_SHEETS["louis-dantares-tactics-0.json"],
  "noble-knight-collapsed.imported.json": GGA_SHEETS["noble-knight-collapsed.json"],
  "c31r07.imported.json": GGA_SHEETS["c31r07.json"],
  // GCS's mark is kept: the switched-off Combat Reflexes does not count.
  "c31r07-combat-reflexes-off.imported.json": { ...GGA_SHEETS["c31r07-combat-reflexes-off.json"], combat_reflexes: false },
  "dire-vulture.imported.json": GGA_SHEETS["dire-vulture.json"],
  "orc-sergeant-es.imported.json": GGA_SHEETS["orc-sergeant-es.json"],
  "louis-dantares.migrated.json": GGA_SHEETS["louis-dantares.json"],
  // Folded on the 0.18 sheet: 1.0's migration did not carry Combat Reflexes over. GGA holds none; neither does ambush
  // (docs/game-systems.md tells the GM to unfold every container before upgrading).
  "louis-dantares-collapsed.migrated.json": { ...GGA_SHEETS["louis-dantares.json"], combat_reflexes: false },
  "louis-dantares-tactics-0.migrated.json": GGA_SHEETS["louis-dantares-tactics-0.json"],
  // The same loss: Combat Reflexes in "Advantages" and Stealth in "Physical", both folded, are gone.
  "noble-knight-collapsed.migrated.json": { ...GGA_SHEETS["noble-knight-collapsed.json"], combat_reflexes: false, stealth: null },
  "c31r07.migrated.json": GGA_SHEETS["c31r07.json"],
  // 0.18's importer dropped GCS's mark, so the migrated trait is on: read as there, as on 0.18.
  "c31r07-combat-reflexes-off.migrated.json": GGA_SHEETS["c31r07-combat-reflexes-off.json"],
  "dire-vulture.migrated.json": GGA_SHEETS["dire-vulture.json"],
  "orc-sergeant-es.migrated.json": GGA_SHEETS["orc-sergeant-es.json"],
  "mook-bandit-leader.migrated.json": GGA_SHEETS["mook-bandit-leader.json"],
  "mook-bandit.migrated.json": GGA_SHEETS["mook-bandit.json"],
};

test("GGA 1.0 corpus: each actor's draft holds what its Items say, imported by 1.0 or migrated from 0.18", V14_ONLY, async () => {
  const files = Object.keys(GGA1_SHEETS);
  assert.deepEqual(await readGga(GURPS, files, gga1, "gga-1.0"), GGA1_SHEETS);
});

test("GGA 1.0: no deprecated list is read; the Items are", V14_ONLY, async () => {
  const { env, done } = await boot(GURPS, "gurps", gga1);
  try {
    const combat = await combatOf(env, [fixture("gga-1.0", "c31r07-combat-reflexes-off.imported.json").actor]);
    const api = game.modules.get(GURPS).api;
    api.draft(combat, "partial");
    api.draft(combat, "quick-contest");
    assert.deepEqual(env.deprecations.filter((entry) => /GURPS Game Aid 1\.0/.test(entry.message)), []);
    // The emulation's deprecated lists do exist, and record a read (a test that could not fail would prove nothing).
    assert.ok(combat.combatants.contents[0].actor.system.ads);
    assert.equal(env.deprecations.filter((entry) => /GURPS Game Aid 1\.0/.test(entry.message)).length, 1);
  } finally {
    done();
  }
});

test("GGA 1.0: a trait in a switched-off container is off; a typed skill counts without points", V14_ONLY, async () => {
  // GCS counts a trait inside a switched-off container as off (src/module/importer/gcs-importer/schema/trait.ts
  // effectivelyDisabled); GGA 1.0 stores each Item's own mark. A skill typed on the sheet carries no importid.
  const item = (id, type, name, system) => ({ _id: id.padEnd(16, "0"), type, name, system });
  const actor = { name: "Sentry", type: "character", system: { profile: {}, holderItemId: "",
    attributes: { IQ: { importedValue: 11, points: 0 }, PER: { importedValue: 12, points: 0 } } },
  items: [item("box", "feature", "Racial Template", { disabled: true, importid: "T1", importFrom: "GCS", points: 0 }),
    item("cr", "feature", "Combat Reflexes", { containedBy: "box".padEnd(16, "0"), importid: "t1", importFrom: "GCS", points: 15 }),
    item("tactics", "skill", "Tactics", { points: 0, importedLevel: 13 }),
    item("stealth", "skill", "Stealth", { points: 0, importedLevel: 10, importid: "s1", importFrom: "GCS" })] };
  const values = (await readGgaActors([actor], gga1))[0];
  assert.deepEqual(values, { iq: 11, per: 12, combat_reflexes: false, tactics: 13, stealth: null, unread: ["stealth"] });
});

test("GGA 1.0: where GGA 1.0's own finders see what the module does not, the value is asked", V14_ONLY, async () => {
  // GGA 1.0's findAdvantage sees the name inside another (actor/data/character.ts findTrait: `includes`), its
  // findSkillSpell anywhere in another (not anchored): "Naval Tactics" for Tactics.
  const item = (id, type, name, system) => ({ _id: id.padEnd(16, "0"), type, name, system });
  const actor = { name: "Admiral", type: "character", system: { profile: {}, holderItemId: "",
    attributes: { IQ: { importedValue: 13, points: 0 }, PER: { importedValue: 12, points: 0 } } },
  items: [item("cr", "feature", "Combat Reflexes [bought with Luck]", { points: 15 }),
    item("naval", "skill", "Naval Tactics", { points: 4, importedLevel: 14 })] };
  const warned = [];
  const warn = console.warn;
  console.warn = (...args) => warned.push(args.join(" "));
  try {
    const values = (await readGgaActors([actor], gga1))[0];
    assert.deepEqual(values, { iq: 13, per: 12, combat_reflexes: null, tactics: null, stealth: null,
      unread: ["combat_reflexes", "tactics"] });
    assert.ok(["Combat Reflexes", "Tactics"].every((name) => warned.some((line) => line.includes(`"${name}"`))),
      "the console says why");
  } finally {
    console.warn = warn;
  }
});

// --- ARS ---------------------------------------------------------------------------------------------------------

/**
 * The draft of each ARS actor under each variant, worked out by hand. The 1e table (docs/rules/adnd1e.md#dexterity)
 * covers Dexterity 3 to 18, and the module applies it to the Dexterity itself; ARS's computed reaction is taken only
 * for 19 to 25 and only from a variant with 1e tables (config.js 858-947: variant 0, "Standard", gives +3 from 18 up;
 * variant 1 gives +3 at 19-20, +4 at 21-23, +5 at 24-25). Variant 2's table is AD&D 2e's: no adjustment of it is
 * read, so its Dexterity 19-25 is shown and refused as beyond the 1e table, asking for the adjustment. Below 3 no 1e
 * adjustment exists (ARS's -3, -6 or -4 are not 1e's): the Dexterity is shown and asked about the same way. A blank
 * or 0 Dexterity, which ARS shows as 1, and a 30, which it shows as 25, are not the actor's: both values are asked.
 */
function arsExpected(variant) {
  const out = {};
  const asked = { dex: null, surprise_adjustment: null, unread: ["dex", "surprise_adjustment"] };
  const dex = (value) => ({ dex: value, surprise_adjustment: null, unread: [] });
  const adjustment = (value) => ({ dex: null, surprise_adjustment: value, unread: [] });
  for (const name of ["Dex blank", "Dex 0", "Dex 30"]) out[name] = asked;
  for (const score of [1, 2, 3, 10, 17, 18]) out[`Dex ${score}`] = dex(score);
  out["Dex 18 NPC"] = dex(18);
  const high = { 0: { 19: 3, 20: 3, 21: 3, 23: 3, 24: 3, 25: 3 }, 1: { 19: 3, 20: 3, 21: 4, 23: 4, 24: 5, 25: 5 } }[variant];
  for (const score of [19, 20, 21, 23, 24, 25]) out[`Dex ${score}`] = high ? adjustment(high[score]) : dex(score);
  return out;
}

for (const variant of ["0", "1", "2"]) {
  test(`ARS corpus, variant ${variant}: Dexterity and its adjustment over ARS's whole range`, async () => {
    const { env, done } = await boot(ADND, "ars", () => [installArsActors({ variant })]);
    try {
      const { actors } = fixture("ars", "actors.json");
      const combat = await combatOf(env, actors);
      const api = game.modules.get(ADND).api;
      const draft = api.draft(combat, "roll");
      const values = valuesOf(draft, ["dex", "surprise_adjustment"]);
      assert.deepEqual(values, arsExpected(variant));
      // ARS shows what the emulation prepared: a blank Dexterity as 1 (the value the module must not take).
      assert.equal(combat.combatants.find((c) => c.name === "Dex blank").actor.system.abilities.dex.value, 1);
      assert.deepEqual(env.errors, []);
    } finally {
      done();
    }
  });
}

test("ARS: Dexterity 1 asks for the adjustment in the dialog's terms, and the GM's answer rolls", async () => {
  const { env, done } = await boot(ADND, "ars", () => [installArsActors({ variant: "1" })]);
  try {
    const { actors } = fixture("ars", "actors.json");
    const combat = await combatOf(env, [actors.find((a) => a.name === "Dex 1"), actors.find((a) => a.name === "Dex 10")]);
    const api = game.modules.get(ADND).api;
    const draft = api.draft(combat, "roll");
    assert.equal(await api.resolve(draft, combat), null);
    assert.match(env.notifications.at(-1).message, /^Dex 1: Dexterity 1 is outside 3 to 18; give Surprise adjustment instead/);
    const member = draft.sides.a.members[0];
    member.dex = null;
    member.surprise_adjustment = -5; // the GM's ruling for a Dexterity the 1e table does not cover
    env.scriptDice(1, 6); // side a surprised for 1 segment; side b not
    assert.ok(await api.resolve(draft, combat));
    await env.settle();
    assert.deepEqual(env.errors, []);
  } finally {
    done();
  }
});
