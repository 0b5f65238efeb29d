// Behaviour of the generated example modules in the emulated Foundry client (run by tests/test_foundry_module.py).
// MODULES_DIR holds <id>/foundry for the three example campaigns.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { addStatusEntry, createFoundry, runGeneration, statusEntries } from "../../tools/harness/foundry/harness.mjs";
import { installDnd5eExpiryStamp } from "../../tools/harness/foundry/emulation/game-systems.mjs";

const MODULES = process.env.MODULES_DIR;
const GENERATION = runGeneration();
const GURPS = "ambush-gurps-example";
const ADND = "ambush-adnd-example";
const DND5E = "ambush-dnd5e-example";
const FALLOUT = "ambush-fallout-example";
const moduleDir = (id) => `${MODULES}/${id}/foundry`;

/** Boot a module in a fresh client; `lang` loads the module's own translation file for that language. */
async function boot(id, { systemId = "gurps", language = "en", users, userId, ...options } = {}) {
  const lang = language === "en" ? {} : JSON.parse(await readFile(`${moduleDir(id)}/lang/${language}.json`, "utf8"));
  const env = createFoundry({ generation: GENERATION, systemId, modules: [{ id }], language, lang, users, userId, quiet: true, ...options });
  await env.loadModule(moduleDir(id));
  return env;
}

/** Create one friendly and one hostile GURPS character in a combat. */
async function gurpsCombat(env, { friendlyIq = 12, hostileIq = 10 } = {}) {
  const ava = await env.createActor({ name: "Ava", system: { attributes: { IQ: { value: friendlyIq }, PER: { value: 12 } }, ads: {}, skills: {} } });
  const orc = await env.createActor({ name: "Orc", system: { attributes: { IQ: { value: hostileIq }, PER: { value: 10 } }, ads: {}, skills: {} } });
  const tokens = [
    await env.createToken({ actor: ava, name: "Ava", disposition: CONST.TOKEN_DISPOSITIONS.FRIENDLY }),
    await env.createToken({ actor: orc, name: "Orc", disposition: CONST.TOKEN_DISPOSITIONS.HOSTILE }),
  ];
  const combat = await env.createCombat({ combatants: tokens.map((token) => ({ token })) });
  await env.settle();
  return { combat, ava, orc };
}

// The freeze of 1 second, in the words each language gives one second (tests/test_plurals.py has them all)
const ONE_SECOND = { en: "Orc is frozen for 1 second.", de: "Orc ist für 1 Sekunde erstarrt.", "zh-CN": "Orc惊呆1秒。" };

for (const language of ["en", "de", "zh-CN"]) {
  test(`every string the GURPS module shows exists in ${language}, a count in the words it takes there`, async () => {
    const env = await boot(GURPS, { language });
    try {
      assert.deepEqual(env.checkSettingsI18n(), []);
      const { combat } = await gurpsCombat(env);
      const api = game.modules.get(GURPS).api;
      const input = api.draft(combat, "total");
      env.scriptDice(1, 3, 3, 3); // freeze 1 second, then a 9 against IQ 10
      await api.resolve(input, combat);
      await env.settle();
      await combat.startCombat();
      await env.settle();
      await combat.nextTurn();
      await env.settle();
      assert.deepEqual(env.missingI18n, []);
      assert.deepEqual(env.i18nFormatErrors, []);
      assert.deepEqual(env.errors, []);
      assert.ok(env.messages.length >= 2);
      assert.ok(env.messages.some((message) => message.content.includes(ONE_SECOND[language])),
        env.messages.map((message) => message.content).join("\n"));
    } finally {
      env.teardown();
    }
  });
}

test("every example module boots cleanly and exposes its API", async () => {
  for (const [id, systemId, procedures] of [[GURPS, "gurps", ["partial", "total", "quick-contest"]],
    [ADND, "ars", ["roll"]], [FALLOUT, "fallout-homebrew", ["world-map", "sneak-attack"]]]) {
    const env = await boot(id, { systemId });
    try {
      const api = game.modules.get(id).api;
      assert.deepEqual(api.procedures, procedures);
      for (const call of ["openDialog", "resolve", "clear", "draft", "recoveryRoll", "sideRoll", "spotTest"]) {
        assert.equal(typeof api[call], "function", `${id}: api.${call}`);
      }
      assert.deepEqual(env.errors, []);
      assert.deepEqual(env.deprecations, []);
    } finally {
      env.teardown();
    }
  }
});

test("each game system's adapter folder is chosen by the world's game system id, none/ for any other", async () => {
  const worlds = { gurps: [GURPS, "gurps"], ars: [ADND, "ars"], dnd5e: [DND5E, "dnd5e"], none: [FALLOUT, "fallout-homebrew"] };
  const folderOf = (id) => `${moduleDir(id)}/scripts/foundry/game-systems`;
  const names = (await readdir(folderOf(GURPS), { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  assert.deepEqual(names.sort(), Object.keys(worlds).sort());
  for (const name of names) {
    const [id, systemId] = worlds[name];
    const adapter = await import(pathToFileURL(`${folderOf(id)}/${name}/adapter.js`).href);
    for (const each of ["readPath", "hasTrait", "skillLevel", "rerollsAsRoundChanges"]) {
      assert.equal(typeof adapter[each], "function", `${name}/adapter.js ${each}`);
    }
    assert.equal(adapter.GAME_SYSTEM_ID, name === "none" ? null : systemId);
    if (name !== "gurps") assert.deepEqual([adapter.hasTrait({}, "Combat Reflexes"), adapter.skillLevel({}, "Tactics")], [null, null]);
    const env = await boot(id, { systemId });
    try {
      const { gameSystemAdapter } = await import(pathToFileURL(`${folderOf(id)}/registry.js`).href);
      assert.equal(gameSystemAdapter(), adapter, `${systemId}: ${name}/`);
      assert.deepEqual(env.errors, []);
    } finally {
      env.teardown();
    }
  }
});

test("GURPS reuses the game system's mental stun; elsewhere the module registers surprised", async () => {
  let env = await boot(GURPS, { systemId: "gurps" });
  try {
    assert.ok(statusEntries().some((s) => s.id === "mentalstun"));
    assert.ok(!statusEntries().some((s) => s.id === "surprised"));
  } finally {
    env.teardown();
  }
  for (const [id, systemId] of [[ADND, "ars"], [FALLOUT, "fallout-homebrew"]]) {
    env = await boot(id, { systemId });
    try {
      const surprised = statusEntries().filter((s) => s.id === "surprised");
      assert.equal(surprised.length, 1);
      assert.equal(surprised[0].name, "Surprised");
      // V14 keeps its object keyed by id, the entry under its id; V13 its array
      assert.equal(Array.isArray(CONFIG.statusEffects), GENERATION < 14);
      if (GENERATION >= 14) assert.equal(CONFIG.statusEffects.surprised, surprised[0]);
      assert.deepEqual(env.errors, []);
    } finally {
      env.teardown();
    }
  }
});

/** Create Ann (friendly) and Gob (hostile) in an AD&D combat. */
async function adndDuel(env) {
  const ann = await env.createActor({ name: "Ann" });
  const gob = await env.createActor({ name: "Gob" });
  const tokens = [
    await env.createToken({ actor: ann, name: "Ann", disposition: CONST.TOKEN_DISPOSITIONS.FRIENDLY }),
    await env.createToken({ actor: gob, name: "Gob", disposition: CONST.TOKEN_DISPOSITIONS.HOSTILE }),
  ];
  const combat = await env.createCombat({ combatants: tokens.map((token) => ({ token })) });
  await env.settle();
  return { combat, ann, gob };
}

test("the module's statuses last as long as the rules say, core expiry or not, and leave nothing behind", async () => {
  const env = await boot(ADND, { systemId: "ars" });
  try {
    const { combat, gob } = await adndDuel(env);
    const api = game.modules.get(ADND).api;
    env.scriptDice(5, 2); // the goblins are surprised for 2 segments: rounds 1 and 2
    await api.resolve(api.draft(combat, "roll"), combat);
    await env.settle();
    await combat.startCombat();
    await env.settle();
    const seen = [];
    for (let step = 0; step < 6; step += 1) {
      seen.push([combat.round, combat.turn, gob.statuses.has("surprised")]);
      await combat.nextTurn();
      await env.settle();
    }
    // Gob's own turns pass while he is surprised (skipSurprisedTurns): Ann's turns in the two segments are the ones
    // seen then; after them both act in every round (numbered as the rules count them).
    assert.deepEqual(seen.map(([, , on]) => on), [true, true, false, false, false, false]);
    assert.deepEqual(seen.slice(2).map(([, turn]) => turn), [0, 1, 0, 1]);
    assert.deepEqual(gob.effects.filter((e) => e.statuses.has("surprised")), [], "no expired leftover");
    if (GENERATION >= 14) assert.equal(CONFIG.ActiveEffect.expiryAction, "update", "the world-wide setting untouched");
    assert.deepEqual(env.errors, []);
    assert.deepEqual(env.warnings, []);
    assert.deepEqual(env.deprecations, []);
  } finally {
    env.teardown();
  }
});

// Core's expiry as a world meets it: persisted with the expiryAction "update", or in memory only (foundryvtt#13743)
const V14_EXPIRIES = [["persisted", {}], ["in memory only", { expiryInMemory: true }]];

for (const [expiry, options] of V14_EXPIRIES) {
  test(`V14, a system stamping turnStart on effects without an expiry, core expiry ${expiry}: AD&D's surprise lasts its segments`,
    { skip: GENERATION < 14 ? "V13 core expires nothing" : false }, async () => {
      const env = await boot(ADND, { systemId: "ars", ...options });
      const unstamp = installDnd5eExpiryStamp();
      try {
        const { combat, gob } = await adndDuel(env);
        const api = game.modules.get(ADND).api;
        env.scriptDice(5, 2); // the goblins are surprised for 2 segments: rounds 1 and 2
        await api.resolve(api.draft(combat, "roll"), combat);
        await env.settle();
        const [made] = gob.effects.filter((e) => e.statuses.has("surprised")).map((e) => e.id);
        await combat.startCombat();
        await env.settle();
        const seen = [];
        for (let step = 0; step < 6; step += 1) {
          const shown = gob.effects.filter((e) => e.statuses.has("surprised") && !e.duration.expired).map((e) => e.id);
          seen.push(shown.length ? shown[0] === made : false);
          await combat.nextTurn();
          await env.settle();
        }
        // As in the test above, the very effect made at the roll shown throughout (never expired and made anew): the
        // stamp changes nothing, nor does core's expiry in either form.
        assert.deepEqual(seen, [true, true, false, false, false, false]);
        assert.deepEqual(gob.effects.filter((e) => e.statuses.has("surprised")), [], "no leftover");
        assert.deepEqual([env.errors, env.warnings], [[], []]);
      } finally {
        unstamp();
        env.teardown();
      }
    });

  test(`V14, a system stamping turnStart, core expiry ${expiry}: GURPS's stun stays until the IQ roll succeeds`,
    { skip: GENERATION < 14 ? "V13 core expires nothing" : false }, async () => {
      // The same encounter in a world without the stamp, then with it: the stun shows at the same moments.
      const play = async (stamp) => {
        const env = await boot(GURPS, stamp ? options : {});
        const unstamp = stamp ? installDnd5eExpiryStamp() : () => {};
        try {
          const { combat, orc } = await gurpsCombat(env);
          const api = game.modules.get(GURPS).api;
          env.scriptDice(1); // total surprise: the orc is frozen for 1 second
          await api.resolve(api.draft(combat, "total"), combat);
          await env.settle();
          env.scriptDice(6, 6, 6, 3, 3, 3); // his IQ rolls: an 18 (stays stunned), then a 9 against IQ 10
          await combat.startCombat();
          await env.settle();
          const seen = [];
          for (let step = 0; step < 5; step += 1) {
            seen.push([combat.round, combat.combatant.name, orc.statuses.has("mentalstun")]);
            await combat.nextTurn();
            await env.settle();
          }
          assert.deepEqual(orc.effects.filter((e) => e.statuses.has("mentalstun")), [], "no leftover");
          assert.deepEqual([env.errors, env.pendingDice], [[], []]);
          return seen;
        } finally {
          unstamp();
          env.teardown();
        }
      };
      const plain = await play(false);
      assert.deepEqual(plain.map(([, , on]) => on), [true, true, true, false, false], "shown while frozen and stunned, gone once he recovers");
      assert.deepEqual(await play(true), plain);
    });
}

test("V14: a status core expired and left on the actor is applied again: the leftover goes, a live effect shows it",
  { skip: GENERATION < 14 ? "V13 core expires nothing" : false }, async () => {
    const env = await boot(ADND, { systemId: "ars" });
    try {
      const { combat, gob } = await adndDuel(env);
      env.dialogAnswers.push("skip"); // beginning the combat opens the surprise dialog: the GM skips it
      await combat.startCombat();
      await env.settle();
      // Surprised for one round by other means (a macro, another module), made on Ann's turn: core expires it at
      // the start of Ann's next turn and leaves it on Gob.
      await gob.createEmbeddedDocuments("ActiveEffect", [
        { name: "Surprised", statuses: ["surprised"], duration: { value: 1, units: "rounds" } }]);
      await combat.nextRound();
      await env.settle();
      const [leftover] = gob.effects.filter((e) => e.statuses.has("surprised"));
      assert.equal(leftover.duration.expired, true);
      assert.ok(!gob.statuses.has("surprised"));
      const api = game.modules.get(ADND).api;
      env.scriptDice(5, 2);
      const outcome = await api.resolve(api.draft(combat, "roll"), combat);
      await env.settle();
      assert.ok(outcome);
      const effects = gob.effects.filter((e) => e.statuses.has("surprised"));
      assert.equal(effects.length, 1);
      assert.notEqual(effects[0].id, leftover.id);
      assert.equal(effects[0].duration.expired, false);
      assert.ok(gob.statuses.has("surprised"));
      assert.equal(await api.clear(combat), true);
      await env.settle();
      assert.deepEqual(gob.effects.filter((e) => e.statuses.has("surprised")), []);
      assert.deepEqual(env.errors, []);
    } finally {
      env.teardown();
    }
  });

test("beginning a combat with two sides opens the surprise dialog first; the combat begins after the roll", async () => {
  const env = await boot(ADND, { systemId: "ars" });
  try {
    const { combat, gob } = await adndDuel(env);
    assert.equal(game.settings.get(ADND, "surpriseAtCombatStart"), true, "on by default");
    const seen = [];
    env.dialogAnswers.push((record) => {
      seen.push(["dialog", combat.round, record.config.buttons.map((button) => button.action)]);
      return "roll";
    });
    env.scriptDice(5, 2); // the goblins are surprised for 2 segments
    Hooks.on("updateCombat", (c, changed) => { if ("round" in changed) seen.push(["round", changed.round, Boolean(game.modules.get(ADND).api.state(c))]); });
    await combat.startCombat();
    await env.settle();
    assert.deepEqual(env.dialogAnswers, [], "the dialog opened");
    // The dialog while round 0, with the skip button; the combat begins once, the surprise already resolved.
    assert.deepEqual(seen, [["dialog", 0, ["roll", "skip", "cancel"]], ["round", 1, true]]);
    assert.ok(combat.started && gob.statuses.has("surprised"));
    assert.deepEqual([env.errors, env.pendingDice], [[], []]);
  } finally {
    env.teardown();
  }
});

test("beginning a combat: skip begins it at once, closing leaves it unbegun, one side or a surprise rolled begin it", async () => {
  const env = await boot(GURPS);
  try {
    const { combat } = await gurpsCombat(env);
    const api = game.modules.get(GURPS).api;
    // GURPS asks for the procedure first, where the skip is offered too.
    env.dialogAnswers.push((record) => {
      assert.deepEqual(record.config.buttons.map((button) => button.action), ["partial", "total", "quick-contest", "skip"]);
      return null; // the GM closes the window
    });
    await combat.startCombat();
    await env.settle();
    assert.deepEqual([env.dialogAnswers, combat.round, api.state(combat)], [[], 0, null], "closed: not begun");
    env.dialogAnswers.push("partial", () => "skip");
    await combat.startCombat();
    await env.settle();
    assert.deepEqual([env.dialogAnswers, combat.round, api.state(combat)], [[], 1, null], "skipped: begun, no surprise");
    assert.equal(env.dialogs.length, 3);
    // A surprise rolled before the beginning, a combat with one side, a world that turned the setting off: no dialog.
    const second = await env.createCombat({ combatants: [{ token: combat.combatants.contents[0].token }] });
    await second.startCombat();
    await env.settle();
    assert.equal(second.round, 1, "one side");
    const third = (await gurpsCombat(env)).combat;
    env.scriptDice(3);
    await api.resolve(api.draft(third, "total"), third);
    await env.settle();
    await third.startCombat();
    await env.settle();
    assert.equal(third.round, 1, "the surprise was rolled already");
    await game.settings.set(GURPS, "surpriseAtCombatStart", false);
    const fourth = (await gurpsCombat(env)).combat;
    await fourth.startCombat();
    await env.settle();
    assert.equal(fourth.round, 1, "setting off");
    assert.equal(env.dialogs.length, 3, "no dialog for them");
    assert.deepEqual(env.errors, []);
  } finally {
    env.teardown();
  }
});

test("a game-system version ambush was not checked against is told to the active GM once per world and version", async () => {
  const told = (env) => env.notifications.filter((n) => /was checked against/.test(n.message));
  const gms = [
    { id: "gamemaster000001", name: "GM 1", isGM: true, active: true },
    { id: "gamemaster000002", name: "GM 2", isGM: true, active: true },
  ];
  // GGA 0.18.22 and 1.0.0-alpha are the versions checked (exporter/game_systems/); 0.18.23 is not.
  let env = await boot(GURPS, { systemVersion: "0.18.22" });
  assert.deepEqual(told(env), [], "a checked version");
  env.teardown();
  env = await boot(GURPS, { systemVersion: "0.18.23" });
  const stored = game.settings.get(GURPS, "uncheckedVersionTold");
  assert.deepEqual(told(env).map((n) => [n.type, n.permanent, /0\.18\.23.*0\.18\.22, 1\.0\.0-alpha/.test(n.message)]),
    [["warning", true, true]]);
  env.teardown();
  // The same world reloaded: told already. A later version: told again. A second GM's client: the active GM tells.
  env = await boot(GURPS, { systemVersion: "0.18.23", worldSettings: { [`${GURPS}.uncheckedVersionTold`]: stored } });
  assert.deepEqual(told(env), [], "once per world");
  env.teardown();
  env = await boot(GURPS, { systemVersion: "0.18.24", worldSettings: { [`${GURPS}.uncheckedVersionTold`]: stored } });
  assert.equal(told(env).length, 1, "a new version");
  env.teardown();
  env = await boot(GURPS, { systemVersion: "0.18.23", users: gms, userId: "gamemaster000002" });
  assert.deepEqual(told(env), [], "not the active GM");
  env.teardown();
  // A system that reports no version, and a module made for no game system (ambush checked none), tell nothing.
  env = await boot(GURPS);
  assert.deepEqual([told(env), env.errors], [[], []]);
  env.teardown();
  env = await boot(FALLOUT, { systemId: "worldbuilding", systemVersion: "0.8.2" });
  assert.deepEqual([told(env), env.errors], [[], []]);
  env.teardown();
});

test("the GM's Surprise button sits in core's tracker controls, popped out too; once; none for a player", async () => {
  const env = await boot(GURPS);
  try {
    assert.equal(env.renderCombatTracker().querySelector(".ambush-gurps-example-button"), null, "no combat, no button");
    const { combat } = await gurpsCombat(env);
    for (const popout of [false, true]) {
      const root = env.renderCombatTracker({ popout });
      const buttons = root.querySelectorAll(".encounter-controls .control-buttons .ambush-gurps-example-button");
      assert.equal(buttons.length, 1, `popout ${popout}`);
      assert.equal(buttons[0].ownerDocument, root.ownerDocument);
      assert.match(buttons[0].innerHTML, /Surprise/);
      Hooks.callAll("renderCombatTracker", {}, root);
      assert.equal(root.querySelectorAll(".ambush-gurps-example-button").length, 1, "a re-render adds no second one");
    }
    env.dialogAnswers.push(null); // the GM closes the dialog
    const [clicked] = env.renderCombatTracker({ popout: true }).querySelector(".ambush-gurps-example-button").click();
    assert.equal(await clicked, null);
    assert.equal(env.dialogs.length, 1);
    assert.equal(combat.getFlag(GURPS, "state"), undefined);
    assert.deepEqual(env.errors, []);
  } finally {
    env.teardown();
  }
  const player = await boot(GURPS, { userId: "player0000000001" });
  try {
    await gurpsCombat(player);
    assert.equal(player.renderCombatTracker().querySelector(".ambush-gurps-example-button"), null);
  } finally {
    player.teardown();
  }
});

test("the dialog reads IQ from the sheets and resolves with the GM's answers", async () => {
  const env = await boot(GURPS);
  try {
    const { combat, orc } = await gurpsCombat(env);
    const [ava, orcCombatant] = combat.turns;
    env.dialogAnswers.push("partial", (dialog) => {
      assert.match(dialog.content, /name="members\.[^"]+\.iq" value="12"/);
      return {
        action: "roll",
        form: {
          "sides.a.leader": "Ava", "sides.a.animals": false, "sides.a.gm_modifier": 0,
          "sides.b.leader": "Orc", "sides.b.animals": false, "sides.b.gm_modifier": 0,
          [`place.${ava.id}`]: "a", [`place.${orcCombatant.id}`]: "b",
          [`members.${ava.id}.iq`]: 12, [`members.${ava.id}.combat_reflexes`]: true, [`members.${ava.id}.tactics`]: 0,
          [`members.${orcCombatant.id}.iq`]: 10, [`members.${orcCombatant.id}.combat_reflexes`]: false,
          [`members.${orcCombatant.id}.tactics`]: 0,
        },
      };
    });
    env.scriptDice(3, 4); // a: 3 + 2 (CR) + 1 (IQ) = 6 beats b: 4
    const outcome = await game.modules.get(GURPS).api.openDialog(combat);
    await env.settle();
    assert.equal(outcome.surprise, "a");
    assert.deepEqual(outcome.initiative.a.modifiers, { combat_reflexes: 2, higher_iq: 1 });
    assert.ok(orc.statuses.has("mentalstun"));
  } finally {
    env.teardown();
  }
});

test("a player cannot resolve surprise and nothing is rolled or marked", async () => {
  const env = await boot(GURPS, { userId: "player0000000001" });
  try {
    const combat = game.combat ?? null;
    const outcome = await game.modules.get(GURPS).api.resolve({ procedure: "total" }, combat);
    assert.equal(outcome, null);
    assert.ok(env.notifications.some((n) => n.type === "warning"));
    assert.deepEqual(env.messages, []);
  } finally {
    env.teardown();
  }
});

test("a GM client that is not the active GM leaves the automation to the active one", async () => {
  const users = [
    { id: "gamemaster000001", name: "GM 1", isGM: true, active: true },
    { id: "gamemaster000002", name: "GM 2", isGM: true, active: true },
  ];
  const env = await boot(GURPS, { users, userId: "gamemaster000002" });
  try {
    assert.equal(game.users.activeGM.isSelf, false);
    const { combat } = await gurpsCombat(env);
    const api = game.modules.get(GURPS).api;
    env.scriptDice(6); // the freeze; no recovery roll may follow on this client
    await api.resolve(api.draft(combat, "total"), combat);
    await env.settle();
    const cards = env.messages.length;
    await combat.startCombat();
    await env.settle();
    await combat.nextTurn();
    await env.settle();
    assert.equal(env.messages.length, cards);
    assert.equal(env.pendingDice.length, 0);
  } finally {
    env.teardown();
  }
});

test("deleting the combat removes the statuses the module applied, and only those", async () => {
  const env = await boot(GURPS);
  try {
    const iq = { attributes: { IQ: { value: 10 } }, ads: {}, skills: {} };
    const ava = await env.createActor({ name: "Ava", system: iq });
    const orc = await env.createActor({ name: "Orc", system: iq });
    const gob = await env.createActor({ name: "Gob", system: iq });
    await orc.toggleStatusEffect("mentalstun", { active: true }); // stunned before, for another reason
    const tokens = [];
    for (const [actor, disposition] of [[ava, 1], [orc, -1], [gob, -1]]) {
      tokens.push(await env.createToken({ actor, name: actor.name, disposition }));
    }
    const combat = await env.createCombat({ combatants: tokens.map((token) => ({ token })) });
    await env.settle();
    const api = game.modules.get(GURPS).api;
    env.scriptDice(3); // total surprise: the hostiles freeze for 3 seconds
    await api.resolve(api.draft(combat, "total"), combat);
    await env.settle();
    assert.ok(orc.statuses.has("mentalstun") && gob.statuses.has("mentalstun"));
    await env.deleteCombat(combat);
    await env.settle();
    assert.ok(!gob.statuses.has("mentalstun"), "the module's own status is removed");
    assert.ok(orc.statuses.has("mentalstun"), "a status the module did not apply stays");
    assert.deepEqual(env.errors, []);
  } finally {
    env.teardown();
  }
});

test("clear removes the module's statuses and the surprise state", async () => {
  const env = await boot(ADND, { systemId: "ars" });
  try {
    const a = await env.createActor({ name: "Ann" });
    const b = await env.createActor({ name: "Gob" });
    const tokens = [
      await env.createToken({ actor: a, name: "Ann", disposition: CONST.TOKEN_DISPOSITIONS.FRIENDLY }),
      await env.createToken({ actor: b, name: "Gob", disposition: CONST.TOKEN_DISPOSITIONS.HOSTILE }),
    ];
    const combat = await env.createCombat({ combatants: tokens.map((token) => ({ token })) });
    await env.settle();
    const api = game.modules.get(ADND).api;
    env.scriptDice(5, 2); // the goblins are surprised for 2 segments
    await api.resolve(api.draft(combat, "roll"), combat);
    await env.settle();
    assert.ok(b.statuses.has("surprised"));
    const effect = b.effects.find((e) => e.statuses.has("surprised"));
    if (GENERATION < 14) {
      // Ends at turn 0 of round 3, when the module removes it: an expiry module agrees with it.
      assert.deepEqual([effect.duration.startRound, effect.duration.startTurn, effect.duration.rounds], [1, 0, 2]);
    } else {
      // V14: no core duration, so core never expires it; the module removes it itself, at the latest with the fight.
      assert.deepEqual([effect.duration.value, effect.duration.expiry, effect.duration.expired], [null, "combatEnd", false]);
    }
    assert.equal(await api.clear(combat), true);
    await env.settle();
    assert.ok(!b.statuses.has("surprised"));
    assert.equal(api.state(combat), null);
  } finally {
    env.teardown();
  }
});

test("the recovery macro plays the selected tokens' turns now: the frozen second, then the IQ roll", async () => {
  const env = await boot(GURPS);
  try {
    const { combat, orc } = await gurpsCombat(env);
    const api = game.modules.get(GURPS).api;
    await api.recoveryRoll(combat);
    await env.settle();
    assert.equal(env.notifications.at(-1)?.message, "No surprise has been resolved in this combat.");
    env.scriptDice(1); // frozen for 1 second
    await api.resolve(api.draft(combat, "total"), combat);
    await env.settle();
    env.controlTokens([combat.turns.find((combatant) => combatant.actor === orc).token]);
    env.scriptDice(3, 3, 3); // a 9 against IQ 10
    await api.recoveryRoll(combat);
    await env.settle();
    await api.recoveryRoll(combat);
    await env.settle();
    const [track] = Object.values(api.state(combat).tracks);
    assert.deepEqual(track.turns.map((turn) => [turn.turn, turn.state, turn.roll ?? null]), [[1, "frozen", null], [2, "stunned", 9]]);
    assert.equal(track.lost, 2);
    assert.deepEqual([env.pendingDice, env.errors], [[], []]);
    env.controlTokens([]);
    const cards = env.messages.length;
    await api.recoveryRoll(combat);
    await env.settle();
    assert.equal(env.messages.length, cards, "nothing selected: no turn played");
  } finally {
    env.teardown();
  }
});

test("the dialog's input is checked as a scenario file is: a leader of the other side, a member twice, both Dex and an adjustment", async () => {
  const env = await boot(GURPS);
  try {
    const { combat } = await gurpsCombat(env);
    const api = game.modules.get(GURPS).api;
    const [ava, orc] = combat.turns;
    const warned = async (input, pattern) => {
      const before = env.notifications.length;
      assert.equal(await api.resolve(input, combat), null);
      assert.match(env.notifications.slice(before).map((n) => n.message).join(" / "), pattern);
    };
    const offSide = api.draft(combat, "partial");
    offSide.sides.a.leader = orc.name;
    await warned(offSide, /Side A \(friendly\): Leader Orc is not on this side/);
    const twice = api.draft(combat, "total");
    twice.sides.b.members.push({ ...twice.sides.a.members[0] });
    await warned(twice, /Ava is listed more than once/);
    assert.equal(api.state(combat), null, "nothing was rolled");
  } finally {
    env.teardown();
  }
  const adnd = await boot(ADND, { systemId: "ars" });
  try {
    const a = await adnd.createActor({ name: "Ann", system: { abilities: { dex: { value: 17 } } } });
    const b = await adnd.createActor({ name: "Gob" });
    const tokens = [
      await adnd.createToken({ actor: a, name: "Ann", disposition: CONST.TOKEN_DISPOSITIONS.FRIENDLY }),
      await adnd.createToken({ actor: b, name: "Gob", disposition: CONST.TOKEN_DISPOSITIONS.HOSTILE }),
    ];
    const combat = await adnd.createCombat({ combatants: tokens.map((token) => ({ token })) });
    await adnd.settle();
    const api = game.modules.get(ADND).api;
    const input = api.draft(combat, "roll");
    const [ann] = input.sides.a.members;
    assert.equal(ann.dex, 17, "Dexterity read from the sheet");
    ann.surprise_adjustment = 1;
    assert.equal(await api.resolve(input, combat), null);
    assert.match(adnd.notifications.at(-1).message, /Ann: give .* or .*, not both/);
  } finally {
    adnd.teardown();
  }
});

test("the GM sets the sides in the dialog: a neutral token starts out of the fight, side b may surprise", async () => {
  const env = await boot(GURPS);
  try {
    const stats = (iq) => ({ attributes: { IQ: { value: iq }, PER: { value: 10 } }, ads: {}, skills: {} });
    const make = async (name, iq, disposition) => env.createToken({
      actor: await env.createActor({ name, system: stats(iq) }), name, disposition });
    const { FRIENDLY, NEUTRAL, HOSTILE } = CONST.TOKEN_DISPOSITIONS;
    const tokens = [await make("Ava", 12, FRIENDLY), await make("Cat", 9, NEUTRAL), await make("Orc", 10, HOSTILE)];
    const combat = await env.createCombat({ combatants: tokens.map((token) => ({ token })) });
    await env.settle();
    const api = game.modules.get(GURPS).api;
    const draft = api.draft(combat, "total");
    assert.deepEqual([draft.sides.a.members.map((m) => m.name), draft.sides.b.members.map((m) => m.name), draft.out.map((m) => m.name)],
      [["Ava"], ["Orc"], ["Cat"]], "friendly a, hostile b, neutral out");
    assert.equal(draft.surprising, "a");
    const [ava, cat, orc] = combat.turns;
    env.dialogAnswers.push("total", (dialog) => {
      assert.match(dialog.content, new RegExp(`name="place\\.${cat.id}".*?<option value="out" selected>`, "s"));
      return { action: "roll", form: { surprising: "b", [`place.${cat.id}`]: "a", [`members.${ava.id}.iq`]: 12,
        [`members.${cat.id}.iq`]: 9, [`members.${orc.id}.iq`]: 10 } };
    });
    env.scriptDice(3);
    const outcome = await api.openDialog(combat);
    await env.settle();
    assert.equal(outcome.surprise, "b", "the orc falls on the party");
    assert.deepEqual(Object.keys(outcome.freeze).sort(), [ava.id, cat.id].sort(), "Cat joined side a in the dialog");
    assert.ok(ava.actor.statuses.has("mentalstun") && cat.actor.statuses.has("mentalstun"));
    assert.ok(!orc.actor.statuses.has("mentalstun"));
    const empty = api.draft(combat, "total");
    empty.out.push(...empty.sides.a.members.splice(0));
    assert.equal(await api.resolve(empty, combat), null);
    assert.match(env.notifications.at(-1).message, /Side A \(friendly\) has no combatants/);
  } finally {
    env.teardown();
  }
});

test("who sees what: the table gets who is surprised, the GMs alone the rolls behind it; a setting shows or hides all", async () => {
  const env = await boot(GURPS);
  try {
    const { combat } = await gurpsCombat(env, { friendlyIq: 13, hostileIq: 7 });
    const api = game.modules.get(GURPS).api;
    const resolve = async (mode) => {
      await game.settings.set(GURPS, "chatVisibility", mode);
      const before = env.messages.length;
      env.scriptDice(6, 1); // side a's 6 + 1 (higher IQ) beats side b's 1
      await api.resolve(api.draft(combat, "partial"), combat);
      await env.settle();
      return env.messages.slice(before);
    };
    const [outcome, secret, ...more] = await resolve("split");
    assert.equal(more.length, 0);
    assert.deepEqual(outcome.whisper, [], "the outcome is for everyone");
    assert.match(outcome.content, /Everyone in Side B \(the others\) is mentally stunned/);
    assert.doesNotMatch(outcome.content, /1d6|= 6/, "no roll on the public card");
    assert.equal(outcome.rolls.length, 0);
    assert.ok(secret.whisper.length > 0 && secret.whisper.every((id) => game.users.get(id).isGM), "the rolls go to the GMs");
    assert.match(secret.content, /initiative 1d6 = 6, higher IQ \+1: 7/);
    assert.equal(secret.rolls.length, 2);
    assert.equal(secret.flags[GURPS].records[0].type, "resolve", "the outcome's record travels with the GM's card only");
    assert.equal(outcome.flags[GURPS], undefined);
    const [all, ...none] = await resolve("public");
    assert.deepEqual([all.whisper, none.length], [[], 0]);
    assert.match(all.content, /initiative 1d6 = 6/);
    const [hidden, ...nothing] = await resolve("gm");
    assert.equal(nothing.length, 0);
    assert.ok(hidden.whisper.length > 0);
    assert.match(hidden.content, /mentally stunned/);
  } finally {
    env.teardown();
  }
});
