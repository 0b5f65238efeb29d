// The example modules against actors and trackers shaped like the game systems GMs run (run by
// tests/test_foundry_sheets.py): GURPS Game Aid's nested lists, with and without its own finders, ARS's Dexterity
// reaction and its initiative re-rolled each round, dnd5e's prepared totals and its own Initiative roll, and the Combat
// Tracker each renders. Each shape's source is in emulation/game-systems.mjs, each tracker's in emulation/dom.mjs.
// MODULES_DIR holds <id>/foundry for the example campaigns, DND_2024_MODULE a dnd5e module on the 2024 rules.
import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import { test } from "node:test";
import { createFoundry, runGeneration } from "../../tools/harness/foundry/harness.mjs";
import {
  ggaList, installArsActors, installArsInitiative, installArsTime, installArsTurnMethods, installDnd5eActors, installDnd5eInitiative,
  installDnd5eTrackerOrder, installGgaFinders,
} from "../../tools/harness/foundry/emulation/game-systems.mjs";

const MODULES = process.env.MODULES_DIR;
const GENERATION = runGeneration();
const GURPS = "ambush-gurps-example";
const ADND = "ambush-adnd-example";
const DND5E = "ambush-dnd5e-example";
const moduleDir = (id) => `${MODULES}/${id}/foundry`;
const { FRIENDLY, HOSTILE } = { FRIENDLY: 1, HOSTILE: -1 };

async function boot(id, systemId, options = {}) {
  const env = createFoundry({ generation: GENERATION, systemId, modules: [{ id }], quiet: true, ...options });
  await env.loadModule(moduleDir(id));
  return env;
}

/** A GGA character (template.json attributes; ads and skills as GGA keeps them, a container nesting entries) */
function ggaCharacter({ iq = 12, per = 13, ads = [], skills = [] } = {}) {
  return {
    attributes: { IQ: { import: iq, value: iq, points: 0 }, PER: { import: per, value: per, points: 0 } },
    ads: ggaList(ads),
    skills: ggaList(skills),
    spells: {},
  };
}

async function combatOf(env, people) {
  const tokens = [];
  for (const { name, system, disposition, items } of people) {
    const actor = await env.createActor({ name, system, ...(items ? { items } : {}) });
    tokens.push(await env.createToken({ actor, name, disposition }));
  }
  const combat = await env.createCombat({ combatants: tokens.map((token) => ({ token })) });
  await env.settle();
  return combat;
}

const memberNamed = (draft, name) => [...draft.sides.a.members, ...draft.sides.b.members].find((m) => m.name === name);

for (const finders of [false, true]) {
  test(`GGA sheets: Combat Reflexes, Tactics and Stealth read by name from nested lists (${finders ? "GGA's finders" : "a walk of the lists"})`, async () => {
    const uninstall = finders ? installGgaFinders() : () => {};
    const env = await boot(GURPS, "gurps");
    try {
      const combat = await combatOf(env, [
        {
          name: "Ava", disposition: FRIENDLY,
          system: ggaCharacter({
            iq: 13,
            ads: [{ name: "Talents", contains: [{ name: "Combat Reflexes", points: 15 }] }, { name: "Fit", points: 5 }],
            skills: [{ name: "Combat", contains: [{ name: "Tactics", level: 14, points: 4 }, { name: "Stealth", level: 11, points: 1 }] },
              { name: "Camouflage", level: 9, points: 1 }],
          }),
        },
        { name: "Orc", disposition: HOSTILE, system: ggaCharacter({ iq: 9, per: 10, ads: [{ name: "Bad Temper" }] }) },
        { name: "Rat", disposition: HOSTILE, system: { attributes: { IQ: { value: 4 }, PER: { value: 12 } } } },
      ]);
      const api = game.modules.get(GURPS).api;
      const total = api.draft(combat, "total");
      assert.deepEqual(pick(memberNamed(total, "Ava"), ["iq", "combat_reflexes"]), { iq: 13, combat_reflexes: true });
      assert.deepEqual(pick(memberNamed(total, "Orc"), ["iq", "combat_reflexes"]), { iq: 9, combat_reflexes: false });
      // No ads list at all: not a GGA character, so nothing says he lacks Combat Reflexes: asked, not false.
      assert.equal(memberNamed(total, "Rat").combat_reflexes, null);
      assert.deepEqual(memberNamed(total, "Rat").unread, ["combat_reflexes"]);
      const partial = api.draft(combat, "partial");
      assert.equal(memberNamed(partial, "Ava").tactics, 14, "Tactics nested in a container");
      assert.equal(memberNamed(partial, "Orc").tactics, 0, "no Tactics skill: the rule default");
      const contest = api.draft(combat, "quick-contest");
      assert.equal(memberNamed(contest, "Ava").stealth, 11, "Stealth, not Camouflage");
      assert.equal(memberNamed(contest, "Orc").per, 10);
      assert.deepEqual(env.errors, []);
    } finally {
      env.teardown();
      uninstall();
    }
  });
}

test("GGA's finders change nothing the walk reads, but a name only they see is asked instead of none", async () => {
  const people = [
    { name: "Ava", disposition: FRIENDLY, system: ggaCharacter({ ads: [{ name: "Combat Reflexes" }], skills: [{ name: "tactics", level: 12, points: 2 }, { name: "Stealth", level: 15, points: 0 }] }) },
    { name: "Bo", disposition: HOSTILE, system: ggaCharacter({ ads: [{ name: "Enhanced Combat Reflexes" }], skills: [{ name: "Stealthy Walk", level: 10, points: 1 }] }) },
  ];
  const read = async (finders) => {
    const uninstall = finders ? installGgaFinders() : () => {};
    const env = await boot(GURPS, "gurps");
    try {
      const combat = await combatOf(env, people);
      const api = game.modules.get(GURPS).api;
      const withoutIds = (sides) => JSON.parse(JSON.stringify(sides, (key, value) => (key === "id" ? undefined : value)));
      return ["total", "partial", "quick-contest"].map((p) => withoutIds(api.draft(combat, p).sides));
    } finally {
      env.teardown();
      uninstall();
    }
  };
  const [without, withFinders] = [await read(false), await read(true)];
  const member = (drafts, index, name) => drafts[index][name === "Ava" ? "a" : "b"].members[0];
  for (let index = 0; index < 3; index += 1) assert.deepEqual(member(withFinders, index, "Ava"), member(without, index, "Ava"));
  // Bo's "Enhanced Combat Reflexes" and "Stealthy Walk" are not the names asked for; GGA's findAdvantage (the name
  // anywhere) and findSkillSpell (the name at the start) see them, so they are asked (gga.js ggaFinds).
  assert.equal(member(without, 1, "Bo").combat_reflexes, false);
  assert.equal(member(without, 2, "Bo").stealth, null);
  assert.deepEqual(member(without, 2, "Bo").unread, undefined);
  assert.equal(member(withFinders, 1, "Bo").combat_reflexes, null);
  assert.deepEqual(member(withFinders, 2, "Bo").unread, ["combat_reflexes", "stealth"]);
});

test("GGA's toggleStatusEffect returns undefined: the module still shows the stun and removes it on recovery", async () => {
  const uninstall = installGgaFinders();
  const env = await boot(GURPS, "gurps");
  try {
    const combat = await combatOf(env, [
      { name: "Ava", disposition: FRIENDLY, system: ggaCharacter({ iq: 12 }) },
      { name: "Orc", disposition: HOSTILE, system: ggaCharacter({ iq: 10 }) },
    ]);
    const orc = combat.combatants.find((c) => c.name === "Orc").actor;
    assert.equal(await orc.toggleStatusEffect("prone", { active: true }), undefined, "GGA's return value");
    await orc.toggleStatusEffect("prone", { active: false });
    const api = game.modules.get(GURPS).api;
    env.scriptDice(1, 3, 3, 3); // frozen 1 second, then a 9 against IQ 10
    await api.resolve(api.draft(combat, "total"), combat);
    await env.settle();
    const stunned = () => [...orc.statuses].filter((s) => s !== "prone");
    assert.equal(stunned().length, 1, "the module's stun is shown");
    await combat.startCombat();
    await env.settle();
    await combat.nextTurn();
    await env.settle();
    await combat.nextTurn();
    await env.settle();
    assert.deepEqual(stunned(), [], "removed after the recovery");
    assert.deepEqual(env.errors, []);
  } finally {
    env.teardown();
    uninstall();
  }
});

/** A dnd5e creature's stored data: Dexterity and Wisdom, Stealth and Perception proficiency, the proficiency bonus */
function dnd5eCreature({ dex = 10, wis = 10, stealth = 0, perception = 0, prof = 2 } = {}) {
  return {
    abilities: { dex: { value: dex }, wis: { value: wis } },
    skills: { ste: { value: stealth, ability: "dex" }, prc: { value: perception, ability: "wis" } },
    attributes: { prof, init: { ability: "", bonus: "" } },
  };
}

test("dnd5e sheets: Stealth and passive Perception read from the totals dnd5e prepares; its own Surprised shown and gone after the first turn", async () => {
  const env = await boot(DND5E, "dnd5e");
  const uninstall = installDnd5eActors();
  try {
    const combat = await combatOf(env, [
      { name: "Rogue", disposition: FRIENDLY, system: dnd5eCreature({ dex: 18, wis: 12, stealth: 2, prof: 3 }) },
      { name: "Guard", disposition: HOSTILE, system: dnd5eCreature({ dex: 12, wis: 10 }), items: spentUses() },
      { name: "Owl", disposition: HOSTILE, system: dnd5eCreature({ dex: 16, wis: 14, perception: 1 }) },
      { name: "Cart", disposition: HOSTILE, system: {} },
    ]);
    const api = game.modules.get(DND5E).api;
    const draft = api.draft(combat, "stealth");
    // Rogue: Dex +4 and twice his proficiency +3: +10; passive 10 + Wis +1. Owl: passive 10 + Wis +2 + proficiency +2.
    assert.deepEqual(pick(memberNamed(draft, "Rogue"), ["stealth", "passive_perception"]), { stealth: 10, passive_perception: 11 });
    assert.deepEqual(pick(memberNamed(draft, "Guard"), ["stealth", "passive_perception"]), { stealth: 1, passive_perception: 10 });
    assert.deepEqual(pick(memberNamed(draft, "Owl"), ["stealth", "passive_perception"]), { stealth: 3, passive_perception: 14 });
    // No skills prepared (a vehicle has none): asked, never a made-up number
    assert.deepEqual(pick(memberNamed(draft, "Cart"), ["stealth", "passive_perception"]), { stealth: null, passive_perception: null });
    assert.equal(memberNamed(draft, "Rogue").initiative, undefined, "the 2014 rules read no initiative");
    // The campaign plays the 2014 rules: dnd5e's Surprised gives no Disadvantage on initiative, Incapacitated still does
    assert.deepEqual([...CONFIG.DND5E.conditionEffects.initiativeDisadvantage], ["incapacitated"]);
    const surprisedEntries = statusEntriesOf(CONFIG.statusEffects).filter((entry) => entry.id === "surprised");
    assert.equal(surprisedEntries.length, 1, "dnd5e's own Surprised, none added beside it");
    assert.equal(surprisedEntries[0]._id, "dnd5esurprised00");
    const ready = structuredClone(draft);
    ready.sides.a.members.find((m) => m.name === "Rogue").hiding = true;
    ready.sides.b.members = ready.sides.b.members.filter((m) => m.name !== "Cart");
    env.scriptDice(12); // 12 + 10 = 22: hidden from the guard (10) and the owl (14)
    assert.ok(await api.resolve(ready, combat));
    await env.settle();
    const actorOf = (name) => combat.combatants.find((c) => c.name === name).actor;
    assert.ok(actorOf("Guard").statuses.has("surprised") && actorOf("Owl").statuses.has("surprised"));
    assert.ok(!actorOf("Rogue").statuses.has("surprised"));
    await combat.startCombat();
    await env.settle();
    for (let turn = 0; turn < 4; turn += 1) {
      await combat.nextTurn();
      await env.settle();
    }
    assert.ok(!combat.combatants.some((c) => c.actor?.statuses.has("surprised")), "gone once each first turn ended");
    // 2014: the module rolls no Initiative, so nothing comes back that dnd5e gives back on one
    assert.deepEqual(usesSpent(combat, "Guard"), { "On Initiative": 2, "Long rest": 2 });
    assert.deepEqual(env.errors, []);
  } finally {
    env.teardown();
    uninstall();
  }
});

/** Two features, each with 2 of 3 uses spent: one regained on Initiative, one on a long rest (dnd5e's UsesField) */
function spentUses() {
  const feature = (name, period) => ({ name, type: "feat",
    system: { uses: { max: "3", spent: 2, recovery: [{ period, type: "recoverAll" }] } } });
  return [feature("On Initiative", "initiative"), feature("Long rest", "lr")];
}

/** The uses spent of each item of a combatant's actor, by item name */
function usesSpent(combat, name) {
  return Object.fromEntries(combat.combatants.find((c) => c.name === name).actor.items
    .map((item) => [item.name, item.system.uses.spent]));
}

/** A dnd5e world running the 2024 campaign's module, its actors prepared and its Initiative roll as `initiative` sets it */
async function dnd2024World(initiative) {
  const id = "dnd-2024";
  const env = createFoundry({ generation: GENERATION, systemId: "dnd5e", modules: [{ id }], quiet: true });
  await env.loadModule(process.env.DND_2024_MODULE);
  const prepared = installDnd5eActors();
  const rolls = installDnd5eInitiative(initiative);
  const order = installDnd5eTrackerOrder();
  return { env, id, done: () => { env.teardown(); order(); rolls(); prepared(); } };
}

test("dnd5e, 2024 rules: every Initiative rolled through dnd5e's own roll, the surprised with Disadvantage, its tiebreaker in the order", async () => {
  const { env, id, done } = await dnd2024World({ tiebreaker: true });
  try {
    const combat = await combatOf(env, [
      { name: "Rogue", disposition: FRIENDLY, system: dnd5eCreature({ dex: 18, wis: 12, stealth: 2, prof: 3 }) },
      { name: "Bard", disposition: FRIENDLY, system: dnd5eCreature({ dex: 14 }), items: spentUses() },
      { name: "Guard", disposition: HOSTILE, system: dnd5eCreature({ dex: 12, wis: 10 }), items: spentUses() },
      { name: "Owl", disposition: HOSTILE, system: dnd5eCreature({ dex: 16, wis: 14, perception: 1 }) },
    ]);
    const api = game.modules.get(id).api;
    const draft = api.draft(combat, "stealth");
    // The Initiative bonus dnd5e prepares: the Dexterity modifier, +4, +2, +1 and +3.
    assert.deepEqual(["Rogue", "Bard", "Guard", "Owl"].map((name) => memberNamed(draft, name).initiative), [4, 2, 1, 3]);
    memberNamed(draft, "Rogue").hiding = true;
    memberNamed(draft, "Bard").hiding = true;
    memberNamed(draft, "Bard").initiative = 5; // the GM's own number: dnd5e's roll would not add it, the module rolls
    const cards = env.messages.length;
    // The scenario's order is the tracker's, which dnd5e sorts by name while nobody has an initiative: Bard, Rogue;
    // Guard, Owl. Stealth: Bard 16 + 2 = 18, Rogue 12 + 10 = 22, both hidden from the guard (passive 10) and the owl
    // (14): both surprised. Initiative: Bard 7 (the module's), Rogue 10 (dnd5e), Guard 15 and 5 with Disadvantage, Owl
    // 3 and 18.
    assert.deepEqual(draft.sides.a.members.map((m) => m.name), ["Bard", "Rogue"]);
    env.scriptDice(16, 12, 7, 10, 15, 5, 3, 18);
    const outcome = await api.resolve(draft, combat);
    assert.ok(outcome);
    await env.settle();
    assert.deepEqual(env.pendingDice, [], JSON.stringify(outcome));
    const idOf = (name) => combat.combatants.find((c) => c.name === name).id;
    // dnd5e's totals, each with Dexterity / 100: Rogue 10 + 4 + .18; Guard keeps the 5: 5 + 1 + .12; Owl 3 + 3 + .16.
    // The Bard's is the module's d20 and the GM's +5: 12, no tiebreaker.
    const expected = { Rogue: [[10], 14.18], Bard: [[7], 12], Guard: [[15, 5], 6.12], Owl: [[3, 18], 6.16] };
    for (const [name, [rolled, total]] of Object.entries(expected)) {
      const check = outcome.initiative[idOf(name)];
      assert.deepEqual(check.rolls, rolled, name);
      assert.ok(Math.abs(check.total - total) < 1e-9, `${name}: ${check.total}`);
    }
    // The owl and the guard both rolled 6: dnd5e's tiebreaker puts the owl (Dex 16) before the guard (Dex 12), where
    // a tie alone would keep the guard first (D9: scenario order). The tracker shows each total as it is, tiebreaker
    // hundredths kept: nothing needs raising to keep the order.
    assert.deepEqual(combat.turns.map((c) => c.name), ["Rogue", "Bard", "Owl", "Guard"]);
    assert.deepEqual(combat.turns.map((c) => c.initiative), [14.18, 12, 6.16, 6.12]);
    // 2024: nobody loses a turn, nobody is marked
    assert.ok(!combat.combatants.some((c) => c.actor?.statuses.has("surprised")));
    // The card carries the Stealth dice, dnd5e's three Initiative rolls and the module's one
    const carried = env.messages.slice(cards).flatMap((message) => message.rolls ?? []);
    const formulas = carried.map((roll) => roll.formula ?? roll._formula);
    assert.equal(formulas.filter((f) => /^1d20dis/.test(f)).length, 2, formulas.join("; "));
    assert.equal(formulas.filter((f) => /^1d20 \+ [0-9]/.test(f)).length, 1, formulas.join("; "));
    assert.equal(formulas.filter((f) => f === "1d20").length, 3, formulas.join("; ")); // two Stealth dice, the Bard's
    // Rolling Initiative gives back what dnd5e gives back on it, whoever rolled the die (the Bard's: the module's)
    for (const name of ["Bard", "Guard"]) assert.deepEqual(usesSpent(combat, name), { "On Initiative": 0, "Long rest": 2 }, name);
    assert.deepEqual(env.errors, []);
  } finally {
    done();
  }
});

test("dnd5e, 2024 rules: with dnd5e's fixed Initiative scores no d20 is rolled there: the module rolls, Disadvantage kept", async () => {
  const { env, id, done } = await dnd2024World({ fixedScores: true });
  try {
    const combat = await combatOf(env, [
      { name: "Rogue", disposition: FRIENDLY, system: dnd5eCreature({ dex: 18, stealth: 2, prof: 3 }), items: spentUses() },
      { name: "Guard", disposition: HOSTILE, system: dnd5eCreature({ dex: 12, wis: 10 }), items: spentUses() },
    ]);
    const api = game.modules.get(id).api;
    const draft = api.draft(combat, "stealth");
    memberNamed(draft, "Rogue").hiding = true;
    // The guard lies defeated in the tracker: dnd5e gives a defeated combatant nothing back on Initiative
    const guard = combat.combatants.find((c) => c.name === "Guard");
    await combat.updateEmbeddedDocuments("Combatant", [{ _id: guard.id, defeated: true }]);
    env.scriptDice(12, 10, 15, 4); // Stealth 22; Rogue 10 + 4; the surprised Guard 15 and 4, keeps 4: 4 + 1
    assert.ok(await api.resolve(draft, combat));
    await env.settle();
    assert.deepEqual(combat.turns.map((c) => [c.name, c.initiative]), [["Rogue", 14], ["Guard", 5]]);
    assert.deepEqual(usesSpent(combat, "Rogue"), { "On Initiative": 0, "Long rest": 2 });
    assert.deepEqual(usesSpent(combat, "Guard"), { "On Initiative": 2, "Long rest": 2 });
    assert.deepEqual(env.errors, []);
  } finally {
    done();
  }
});

test("dnd5e, 2024 rules: equal Initiative totals keep the rules' order in the tracker, the first raised by a hundredth", async () => {
  const { env, id, done } = await dnd2024World({});
  try {
    const combat = await combatOf(env, [
      { name: "Rogue", disposition: FRIENDLY, system: dnd5eCreature({ dex: 18, stealth: 2, prof: 3 }) },
      { name: "Guard", disposition: HOSTILE, system: dnd5eCreature({ dex: 12, wis: 10 }) },
    ]);
    const api = game.modules.get(id).api;
    const draft = api.draft(combat, "stealth");
    memberNamed(draft, "Rogue").hiding = true;
    // Stealth 22 surprises the guard; Initiative: Rogue 10 + 4 = 14, the guard 15 and 13 with Disadvantage: 13 + 1 = 14.
    // D9: a tie keeps the scenario's order, the rogue first, where dnd5e's tracker would sort the guard first by name.
    env.scriptDice(12, 10, 15, 13);
    assert.ok(await api.resolve(draft, combat));
    await env.settle();
    assert.deepEqual(combat.turns.map((c) => [c.name, c.initiative]), [["Rogue", 14.01], ["Guard", 14]]);
    assert.deepEqual(env.errors, []);
  } finally {
    done();
  }
});

/** The entries of CONFIG.statusEffects, an array or an object keyed by id */
const statusEntriesOf = (list) => (Array.isArray(list) ? list : Object.values(list ?? {}));

function pick(object, keys) {
  return Object.fromEntries(keys.map((key) => [key, object[key]]));
}

test("ARS: the computed Dex reaction is the adjustment from Dex 19 (19 and 25 accepted); Dex 19 under 2e tables is refused clearly", async () => {
  const env = await boot(ADND, "ars");
  const prepared = installArsActors({ variant: "1" }); // config.js 892-918: +3 at Dex 19, +5 at 25
  try {
    const combat = await combatOf(env, [
      { name: "Elf", disposition: FRIENDLY, system: { abilities: { dex: { value: 19, percent: 0 } } } },
      { name: "Djinn", disposition: FRIENDLY, system: { abilities: { dex: { value: 25, percent: 0 } } } },
      { name: "Gob", disposition: HOSTILE, system: { abilities: { dex: { value: 10, percent: 0 } } } },
    ]);
    const api = game.modules.get(ADND).api;
    const draft = api.draft(combat, "roll");
    assert.deepEqual(pick(memberNamed(draft, "Elf"), ["dex", "surprise_adjustment"]), { dex: null, surprise_adjustment: 3 });
    assert.deepEqual(pick(memberNamed(draft, "Djinn"), ["dex", "surprise_adjustment"]), { dex: null, surprise_adjustment: 5 });
    assert.deepEqual(pick(memberNamed(draft, "Gob"), ["dex", "surprise_adjustment"]), { dex: 10, surprise_adjustment: null });
    env.scriptDice(2, 5); // side a surprised for 2 segments, less each one's adjustment
    assert.ok(await api.resolve(draft, combat));
    await env.settle();
    assert.deepEqual(env.errors, []);
  } finally {
    env.teardown();
    prepared();
  }
  const old = await boot(ADND, "ars");
  const prepared2e = installArsActors({ variant: "2" }); // AD&D 2e's table: its +3 at Dex 19 is not read as 1e's
  try {
    const combat = await combatOf(old, [
      { name: "Elf", disposition: FRIENDLY, system: { abilities: { dex: { value: 19, percent: 0 } } } },
      { name: "Gob", disposition: HOSTILE, system: { abilities: { dex: { value: 10, percent: 0 } } } },
    ]);
    const api = game.modules.get(ADND).api;
    const draft = api.draft(combat, "roll");
    assert.deepEqual(pick(memberNamed(draft, "Elf"), ["dex", "surprise_adjustment"]), { dex: 19, surprise_adjustment: null }, "no silent clamp");
    assert.equal(await api.resolve(draft, combat), null);
    assert.match(old.notifications.at(-1).message, /Elf: .*19 is outside 3 to 18; give .* instead/);
    assert.equal(api.state(combat), null);
  } finally {
    old.teardown();
    prepared2e();
  }
});

/**
 * Play a combat by pressing Next as a GM would, under ARS's re-roll at each round: return, per table round, the
 * combatants whose turn the tracker stopped at (the automation skips the others). The AD&D module numbers the
 * first normal round after the segments as the round the surprise began in, so a round is told by its number changing.
 */
async function playRounds(env, combat, rounds) {
  const played = [];
  const skipped = [];
  let pressing = false;
  // Who was current when the module (not the GM) advanced the tracker: only a combatant who may not act.
  const record = (c) => { if (!pressing) skipped.push(c.combatant?.name); };
  Hooks.on("combatTurn", record);
  Hooks.on("combatRound", record);
  let round = null;
  await combat.startCombat();
  await env.settle();
  for (let steps = 0; steps < 40; steps++) {
    if (combat.round !== round) {
      if (played.length === rounds) break;
      played.push([]);
      round = combat.round;
    }
    played.at(-1).push(combat.combatant.name);
    pressing = true;
    const pressed = combat.nextTurn();
    pressing = false;
    await pressed;
    await env.settle();
  }
  return { played, skipped };
}

for (const turnChangeFirst of [false, true]) {
  test(`ARS re-rolls initiative each round and sets turn 0: no turn skipped or played twice (${turnChangeFirst ? "combatTurnChange first" : "updateCombat first"})`, async () => {
    const env = await boot(ADND, "ars", { turnChangeFirst });
    try {
      const combat = await combatOf(env, [
        { name: "Ann", disposition: FRIENDLY, system: { abilities: { dex: { value: 10, reaction: 0 } } } },
        { name: "Bob", disposition: FRIENDLY, system: { abilities: { dex: { value: 10, reaction: 0 } } } },
        { name: "Gob", disposition: HOSTILE, system: { abilities: { dex: { value: 10, reaction: 0 } } } },
        { name: "Orc", disposition: HOSTILE, system: { abilities: { dex: { value: 10, reaction: 0 } } } },
      ]);
      const id = (name) => combat.combatants.find((c) => c.name === name).id;
      const orders = [["Gob", "Ann", "Orc", "Bob"], ["Orc", "Bob", "Gob", "Ann"], ["Ann", "Gob", "Bob", "Orc"],
        ["Bob", "Orc", "Ann", "Gob"]];
      let rolls = 0;
      installArsInitiative(() => Object.fromEntries(orders[rolls++ % orders.length].map((name, i) => [id(name), 10 - i])));
      const api = game.modules.get(ADND).api;
      env.scriptDice(5, 2); // the goblins are surprised for two segments: the first two table rounds
      assert.ok(await api.resolve(api.draft(combat, "roll"), combat));
      await env.settle();
      const { played, skipped } = await playRounds(env, combat, 4);
      assert.deepEqual(played, [["Ann", "Bob"], ["Bob", "Ann"], ["Ann", "Gob", "Bob", "Orc"], ["Bob", "Orc", "Ann", "Gob"]]);
      assert.ok(skipped.length > 0 && skipped.every((name) => name === "Gob" || name === "Orc"), `skipped: ${skipped}`);
      assert.equal(rolls, 5, "ARS re-rolled as each round began, the fifth included");
      assert.deepEqual(env.errors, []);
      assert.ok(!combat.combatants.some((c) => c.actor.statuses.has("surprised")));
    } finally {
      env.teardown();
    }
  });
}

/** The compendium of a built module and its macro that opens the surprise dialog, named as Foundry shows them */
async function surpriseMacro(id) {
  const manifest = JSON.parse(await readFile(`${moduleDir(id)}/module.json`, "utf8"));
  const folder = `${moduleDir(id)}/packs/_source/surprise-macros`;
  const macros = await Promise.all((await readdir(folder)).map(async (file) => JSON.parse(await readFile(`${folder}/${file}`, "utf8"))));
  const opening = macros.filter((macro) => macro.command.includes(".openDialog()"));
  assert.equal(opening.length, 1);
  return { pack: manifest.packs[0].label, macro: opening[0].name };
}

// Core's tracker (GURPS Game Aid keeps it), ARS's own as its v2023.08.06 renders it, also handed over as jQuery by
// that first-generation Application, and core's in an ARS world (should ARS on V13/V14 keep core's tracker).
const TRACKER_CASES = [
  { name: "GURPS Game Aid (core's tracker)", id: GURPS, systemId: "gurps", tracker: "core", row: ".encounter-controls .control-buttons.right" },
  { name: "ARS's own tracker", id: ADND, systemId: "ars", tracker: "ars", row: ".encounter-controls" },
  { name: "ARS's own tracker, html as jQuery", id: ADND, systemId: "ars", tracker: "ars", jquery: true, row: ".encounter-controls" },
  { name: "core's tracker in an ARS world", id: ADND, systemId: "ars", tracker: "core", row: ".encounter-controls .control-buttons.right" },
];

for (const { name, id, systemId, tracker, jquery, row } of TRACKER_CASES) {
  test(`the Surprise button sits where the tracker has its controls: ${name}`, async () => {
    const env = await boot(id, systemId);
    try {
      const combat = await combatOf(env, [{ name: "Ann", disposition: FRIENDLY, system: {} }, { name: "Gob", disposition: HOSTILE, system: {} }]);
      for (const popout of [false, true]) {
        const root = env.renderCombatTracker({ tracker, jquery, popout });
        const buttons = root.querySelectorAll(`.${id}-button`);
        assert.equal(buttons.length, 1, `popout ${popout}`);
        assert.equal(buttons[0].parentElement, root.querySelector(row), "in the row of the tracker's own controls");
        assert.equal(buttons[0].ownerDocument, root.ownerDocument);
        if (tracker === "ars") {
          assert.equal(root.querySelectorAll(".control-buttons").length, 0, "ARS's tracker has no rows of control buttons");
          const beside = buttons[0].parentElement.children.map((child) => child.getAttribute("data-control"));
          assert.ok(beside.includes("rollAll") && beside.includes("trackerSettings"), "beside ARS's own controls");
        }
      }
      env.dialogAnswers.push(null, null); // the GM closes the dialog (after choosing no procedure, where asked)
      const [clicked] = env.renderCombatTracker({ tracker, jquery }).querySelector(`.${id}-button`).click();
      assert.equal(await clicked, null);
      assert.equal(env.dialogs.length, 1, "the click opens the surprise dialog");
      assert.equal(combat.getFlag(id, "state"), undefined);
      assert.deepEqual(env.notifications, []);
      assert.deepEqual(env.errors, []);
    } finally {
      env.teardown();
    }
  });
}

// (harness choice) A game system's tracker with neither core's rows nor ARS's encounter controls: its header holds only
// the round's title.
const NO_PLACE = `
  <section class="tab sidebar-tab">
    <header class="combat-tracker-header"><h3 class="encounter-title">Round 1</h3></header>
    <ol class="directory-list"></ol>
  </section>`;

test("a tracker without a place for the button: the GM is told once where the macro is; a player is not", async () => {
  const names = await surpriseMacro(ADND);
  const env = await boot(ADND, "ars");
  try {
    await combatOf(env, [{ name: "Ann", disposition: FRIENDLY, system: {} }, { name: "Gob", disposition: HOSTILE, system: {} }]);
    const roots = [env.renderCombatTracker({ tracker: NO_PLACE }), env.renderCombatTracker({ tracker: NO_PLACE, popout: true }),
      env.renderCombatTracker({ tracker: NO_PLACE })];
    assert.ok(roots.every((root) => root.querySelector(`.${ADND}-button`) === null));
    assert.equal(env.notifications.length, 1, "told once, not at every render");
    const [told] = env.notifications;
    assert.ok(told.message.includes(`"${names.macro}"`) && told.message.includes(`"${names.pack}"`), told.message);
    assert.deepEqual(env.errors, []);
  } finally {
    env.teardown();
  }
  const player = await boot(ADND, "ars", { userId: "player0000000001" });
  try {
    await combatOf(player, [{ name: "Ann", disposition: FRIENDLY, system: {} }]);
    player.renderCombatTracker({ tracker: NO_PLACE });
    assert.deepEqual(player.notifications, []);
  } finally {
    player.teardown();
  }
});

// docs/rules/adnd1e.md (units): a round has 10 segments of 6 seconds
const SEGMENT = 6;
const TWO_ROUNDS = 120; // an ARS effect of two rounds: 60 seconds a round (emulation/game-systems.mjs installArsTime)

/** An ARS effect lasting `seconds` from now, in the generation's duration shape (emulation/game-systems.mjs installArsTime) */
const arsEffect = (seconds) => (GENERATION >= 14
  ? { name: "Bless", duration: { value: seconds, units: "seconds" }, start: { time: game.time.worldTime } }
  : { name: "Bless", duration: { seconds, startTime: game.time.worldTime } });

/**
 * Boot the AD&D module in an ARS world with ARS's time (and its own turn methods, or core's), Ann against Gob, the
 * goblins surprised for two segments where `surprise` is set; start the combat and give Ann an ARS effect of two rounds.
 */
async function arsTimedCombat({ methods, turnTime, surprise }) {
  const env = await boot(ADND, "ars");
  const restore = [installArsTime({ turnTime }), ...(methods === "ARS's" ? [installArsTurnMethods()] : [])];
  const combat = await combatOf(env, [
    { name: "Ann", disposition: FRIENDLY, system: { abilities: { dex: { value: 10, reaction: 0 } } } },
    { name: "Gob", disposition: HOSTILE, system: { abilities: { dex: { value: 10, reaction: 0 } } } },
  ]);
  if (surprise) {
    const api = game.modules.get(ADND).api;
    env.scriptDice(5, 2); // the goblins are surprised for two segments: the first two table rounds
    assert.ok(await api.resolve(api.draft(combat, "roll"), combat));
    await env.settle();
  } else {
    env.dialogAnswers.push("skip"); // beginning the combat opens the surprise dialog: the GM skips it
  }
  await combat.startCombat();
  await env.settle();
  const ann = combat.combatants.find((c) => c.name === "Ann").actor;
  await ann.createEmbeddedDocuments("ActiveEffect", [arsEffect(TWO_ROUNDS)]);
  const done = () => {
    for (const undo of restore.reverse()) undo();
    env.teardown();
  };
  return { env, combat, ann, start: game.time.worldTime, done };
}

/** Press Next Turn as the GM until `count` more table rounds have begun; return each one's world time and whether Ann's effect is on */
async function nextRounds(env, combat, ann, count) {
  let begun = 0;
  const id = Hooks.on("updateCombat", (c, changed) => { if ("round" in changed) begun += 1; });
  const seen = [];
  for (let press = 0; press < 40 && seen.length < count; press += 1) {
    const before = begun;
    await combat.nextTurn();
    await env.settle();
    if (begun > before) seen.push({ time: game.time.worldTime, on: ann.effects.size > 0 });
  }
  Hooks.off("updateCombat", id);
  assert.equal(seen.length, count);
  return seen;
}

// ARS's own turn methods pass a round's 60 s in advanceTime; core's, in an ARS world that would keep them (unconfirmed
// on V13/V14), pass V13's advanceTime or V14's worldTime.delta, with ARS's turn time of 600 s or none.
const TIME_CASES = [{ methods: "ARS's", turnTime: 600 }, { methods: "core's", turnTime: 0 }, { methods: "core's", turnTime: 600 }];

for (const { methods, turnTime } of TIME_CASES) {
  test(`AD&D surprise segments pass a segment of world time each, and a timed ARS effect no round (${methods} methods, turn time ${turnTime})`, async () => {
    const control = await arsTimedCombat({ methods, turnTime, surprise: false });
    let plain;
    try {
      plain = await nextRounds(control.env, control.combat, control.ann, 2);
      assert.deepEqual(control.env.errors, []);
    } finally {
      control.done();
    }
    const played = await arsTimedCombat({ methods, turnTime, surprise: true });
    try {
      const [segment2, normal1, normal2, normal3] = await nextRounds(played.env, played.combat, played.ann, 4);
      assert.equal(segment2.time - played.start, SEGMENT, "segment 1 lasted a segment");
      assert.equal(normal1.time - segment2.time, SEGMENT, "segment 2 lasted a segment");
      // The normal rounds pass what the table passes without a surprise
      assert.deepEqual([normal2.time - normal1.time, normal3.time - normal2.time],
        [plain[0].time - control.start, plain[1].time - plain[0].time]);
      // Ann's effect is on as long as without a surprise, counted from the first normal round
      assert.deepEqual([normal1.on, normal2.on, normal3.on], [true, ...plain.map((round) => round.on)]);
      assert.ok(plain.some((round) => !round.on), "the effect does run out in the rounds played");
      assert.deepEqual(played.env.errors, []);
    } finally {
      played.done();
    }
  });

  test(`a step back out of a surprise segment takes back a segment's time, and the step on passes it again (${methods} methods, turn time ${turnTime})`, async () => {
    const { env, combat, ann, start, done } = await arsTimedCombat({ methods, turnTime, surprise: true });
    try {
      const [segment2] = await nextRounds(env, combat, ann, 1);
      await combat.previousRound();
      await env.settle();
      assert.equal(game.time.worldTime, segment2.time - SEGMENT);
      await combat.nextRound();
      await env.settle();
      assert.equal(game.time.worldTime, segment2.time);
      const [normal1] = await nextRounds(env, combat, ann, 1);
      assert.equal(normal1.time - start, 2 * SEGMENT);
      assert.ok(normal1.on);
      assert.deepEqual(env.errors, []);
    } finally {
      done();
    }
  });
}
