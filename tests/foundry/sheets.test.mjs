// The example modules against actors and trackers shaped like the game systems GMs run (run by
// tests/test_foundry_sheets.py): GURPS Game Aid's nested lists, with and without its own finders, and ARS's
// Dexterity reaction and its initiative re-rolled each round. Each shape's source is in emulation/game-systems.mjs.
// MODULES_DIR holds <id>/foundry for the three example campaigns.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createFoundry, runGeneration } from "./harness.mjs";
import { ggaList, installArsActors, installArsInitiative, installGgaFinders } from "./emulation/game-systems.mjs";

const MODULES = process.env.MODULES_DIR;
const GENERATION = runGeneration();
const GURPS = "ambush-gurps-example";
const ADND = "ambush-adnd-example";
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
  for (const { name, system, disposition } of people) {
    const actor = await env.createActor({ name, system });
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

test("GGA's finders and the walk give the same values for the same actors", async () => {
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
  assert.deepEqual(await read(false), await read(true));
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
