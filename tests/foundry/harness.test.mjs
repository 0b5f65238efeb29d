// Self-tests of the Foundry emulation: each checks one documented behaviour a module could get wrong.
// Run: node --experimental-vm-modules --test tests/foundry/harness.test.mjs

import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

import { CONST as HARNESS_CONST, Collection, createFoundry } from "../../tools/harness/foundry/harness.mjs";
import {
  installArsInitiative, installArsTime, installArsTurnMethods, installDnd5eExpiryStamp, installGga1Actors,
} from "../../tools/harness/foundry/emulation/game-systems.mjs";

const GM = "gamemaster000001";
const PLAYER = "player0000000001";
const MODULE_ID = "ambush-test";

/** A fresh environment per test, torn down afterwards */
function setup(t, options = {}) {
  const env = createFoundry({ modules: [{ id: MODULE_ID, active: true }], quiet: true, ...options });
  t.after(() => env.teardown());
  return env;
}

/** The time option of a core turn or round method: V13's advanceTime, V14's worldTime.delta (docs/dev/foundry.md §10) */
const timeOption = (delta) => (game.release.generation >= 14 ? { worldTime: { delta } } : { advanceTime: delta });

/** A fixture module folder: module.json, scripts/main.js, lang/en.json */
function writeModule(t, { main, manifest = {}, en = {} }) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "harness-fixture-"));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(root, "scripts"));
  fs.mkdirSync(path.join(root, "lang"));
  fs.writeFileSync(path.join(root, "scripts", "main.js"), main);
  fs.writeFileSync(path.join(root, "lang", "en.json"), JSON.stringify(en));
  fs.writeFileSync(path.join(root, "module.json"), JSON.stringify({
    id: MODULE_ID,
    title: "Test",
    version: "1.0.0",
    esmodules: ["scripts/main.js"],
    languages: [{ lang: "en", name: "English", path: "lang/en.json" }],
    ...manifest,
  }));
  return root;
}

async function bootedWithCombat(t, options = {}) {
  const env = setup(t, options);
  const actors = [];
  const tokens = [];
  for (const name of ["Ann", "Bob", "Cid"]) {
    const actor = await env.createActor({ name, type: "character", system: { ht: 10 } });
    actors.push(actor);
    tokens.push(await env.createToken({ actor, disposition: CONST.TOKEN_DISPOSITIONS.FRIENDLY }));
  }
  const combat = await env.createCombat({ combatants: tokens.map((token) => ({ token })) });
  await env.boot();
  return { env, actors, tokens, combat };
}

function recordHooks(names) {
  const seen = [];
  for (const name of names) Hooks.on(name, (...args) => seen.push({ name, args }));
  return seen;
}

// -- Hooks ---------------------------------------------------------------------------------------

test("Hooks.call stops at the first false, not at an async handler's; callAll runs every listener; once fires once", (t) => {
  setup(t);
  const seen = [];
  Hooks.once("x", () => seen.push(0));
  Hooks.on("x", async () => false);
  Hooks.on("x", () => seen.push(1));
  Hooks.on("x", () => false);
  Hooks.on("x", () => seen.push(3));
  assert.equal(Hooks.call("x"), false);
  assert.deepEqual(seen, [0, 1]);
  assert.equal(Hooks.callAll("x"), true);
  assert.deepEqual(seen, [0, 1, 1, 3]);
});

test("a throwing hook handler is caught, recorded and does not stop the others", async (t) => {
  const env = setup(t);
  let after = false;
  Hooks.on("x", () => {
    throw new Error("boom");
  });
  Hooks.on("x", async () => {
    throw new Error("async boom");
  });
  Hooks.on("x", () => {
    after = true;
  });
  assert.equal(Hooks.call("x"), true);
  await env.settle();
  assert.equal(after, true);
  assert.deepEqual(env.errors.map((e) => [e.hook, e.error.message, e.async]), [
    ["x", "boom", false],
    ["x", "async boom", true],
  ]);
});

// -- start-up ------------------------------------------------------------------------------------

test("boot fires init, i18nInit, setup, ready in order, with translations, documents and notifications as they load", async (t) => {
  const env = setup(t, { lang: { [MODULE_ID]: { Hello: "Hello" } } });
  const seen = [];
  for (const hook of ["init", "i18nInit", "setup", "ready"]) {
    Hooks.once(hook, () => seen.push({
      hook,
      actors: game.actors !== undefined,
      user: game.user?.id ?? null,
      notifications: ui.notifications !== undefined,
      hello: game.i18n.localize(`${MODULE_ID}.Hello`),
    }));
  }
  await env.boot();
  assert.deepEqual(seen, [
    { hook: "init", actors: false, user: null, notifications: false, hello: `${MODULE_ID}.Hello` },
    { hook: "i18nInit", actors: false, user: null, notifications: false, hello: "Hello" },
    { hook: "setup", actors: true, user: GM, notifications: false, hello: "Hello" },
    { hook: "ready", actors: true, user: GM, notifications: true, hello: "Hello" },
  ]);
  assert.deepEqual(env.earlyI18n, [`${MODULE_ID}.Hello`]);
  await assert.rejects(env.boot(), /once/);
});

test("the gurps system replaces CONFIG.statusEffects in its own init, before any module's init", async (t) => {
  const env = setup(t);
  CONFIG.statusEffects.push({ id: "tooEarly", name: "Too early" }); // module top level, before init
  Hooks.once("init", () => CONFIG.statusEffects.push({ id: "surprised", name: "Surprised", _id: "surprised0000000" }));
  Hooks.once("setup", () => CONFIG.statusEffects.push({ id: "later", name: "Later" }));
  await env.boot();
  const ids = CONFIG.statusEffects.map((s) => s.id);
  assert.ok(ids.includes("mentalstun") && ids.includes("shock4") && ids.includes("reeling"));
  assert.ok(ids.includes("surprised") && ids.includes("later"));
  assert.ok(!ids.includes("tooEarly"));
  assert.ok(!ids.includes("bless"), "core statuses are gone under gurps");
});

test("other systems keep the V13 core status list", async (t) => {
  const env = setup(t, { systemId: "ars" });
  await env.boot();
  const ids = CONFIG.statusEffects.map((s) => s.id);
  assert.equal(ids.length, 34);
  for (const id of ["dead", "stun", "prone", "eye", "bless", "fireShield", "holyShield"]) assert.ok(ids.includes(id), id);
  assert.ok(!ids.includes("surprised"));
});

test("loadModule boots a module folder, loads its lang file and isolates module state per environment", async (t) => {
  const main = `
    let loads = 0;
    export const count = () => ++loads;
    Hooks.once("init", () => game.settings.register("${MODULE_ID}", "auto", {
      name: "${MODULE_ID}.Settings.Auto.Name", hint: "${MODULE_ID}.Settings.Auto.Hint",
      scope: "world", config: true, type: Boolean, default: true }));
    Hooks.once("ready", () => { game.modules.get("${MODULE_ID}").api = { ready: true }; });
  `;
  const root = writeModule(t, { main, en: { [MODULE_ID]: { Settings: { Auto: { Name: "Auto" } } } } });
  const first = setup(t, { modules: [] });
  const { exports: [mod1] } = await first.loadModule(root);
  assert.equal(game.modules.get(MODULE_ID).api.ready, true);
  assert.equal(game.settings.get(MODULE_ID, "auto"), true);
  assert.equal(game.i18n.localize(`${MODULE_ID}.Settings.Auto.Name`), "Auto");
  assert.deepEqual(first.checkSettingsI18n(), [`${MODULE_ID}.Settings.Auto.Hint`]);
  assert.equal(mod1.count(), 1);
  const second = setup(t, { modules: [] });
  const { exports: [mod2] } = await second.loadModule(root);
  assert.equal(mod2.count(), 1, "a fresh copy of the module's state");
});

test("loadModule gives each environment fresh instances of the files the module imports, read as they are now", async (t) => {
  const main = `export * from "./common/state.js";\nexport const reload = () => import("./common/state.js");\n`;
  const root = writeModule(t, { main });
  fs.mkdirSync(path.join(root, "scripts", "common"));
  const state = path.join(root, "scripts", "common", "state.js");
  fs.writeFileSync(state, "let loads = 0;\nexport const count = () => ++loads;\n");
  const { exports: [mod1] } = await setup(t, { modules: [] }).loadModule(root);
  assert.equal(mod1.count(), 1);
  assert.equal(mod1.count(), 2);
  fs.writeFileSync(state, "let loads = 10;\nexport const count = () => ++loads;\nexport const url = import.meta.url;\n"
    + "export const fail = () => { throw new Error(\"fail\"); };\n");
  const { exports: [mod2] } = await setup(t, { modules: [] }).loadModule(root);
  assert.equal(mod2.count(), 11, "a fresh instance of the imported file, as it is on disk now");
  assert.equal(mod1.count(), 3, "the first environment keeps its own");
  // A third load runs the code the emulation kept from the second (emulation/isolation.mjs): still the file's own
  const { exports: [mod3] } = await setup(t, { modules: [] }).loadModule(root);
  assert.equal(mod3.count(), 11, "a fresh instance again");
  assert.equal(mod3.url, pathToFileURL(state).href, "import.meta.url is the file's URL");
  assert.throws(() => mod3.fail(), (error) => error.stack.includes(`${pathToFileURL(state).href}:4:`), "stacks name the file");
  assert.equal((await mod3.reload()).count, mod3.count, "import() gives the environment's own instance");
  // The same text in another module folder is that folder's file
  const other = writeModule(t, { main });
  fs.mkdirSync(path.join(other, "scripts", "common"));
  const copy = path.join(other, "scripts", "common", "state.js");
  fs.copyFileSync(state, copy);
  const { exports: [mod4] } = await setup(t, { modules: [] }).loadModule(other);
  assert.equal(mod4.url, pathToFileURL(copy).href);
  assert.throws(() => mod4.fail(), (error) => error.stack.includes(`${pathToFileURL(copy).href}:4:`), "stacks name the copy");
});

test("loadModule refuses a module made for another system, or inactive in the world", async (t) => {
  const root = writeModule(t, {
    main: "",
    manifest: { relationships: { systems: [{ id: "ars", type: "system" }] } },
  });
  const env = setup(t, { modules: [] });
  await assert.rejects(env.loadModule(root), /supports systems ars/);
  const inactive = setup(t, { modules: [{ id: MODULE_ID, active: false }], systemId: "ars" });
  await assert.rejects(inactive.loadModule(root), /not active/);
});

// -- users ---------------------------------------------------------------------------------------

test("activeGM is an active GM, a full GM before an assistant, lowest id first; null without one", async (t) => {
  const world = async (active, userId) => {
    const users = [
      { id: "zzzzzzzzzzzzzzz1", name: "GM Z", isGM: true },
      { id: "bbbbbbbbbbbbbbb1", name: "GM B", isGM: true },
      { id: "aaaaaaaaaaaaaaa1", name: "Assistant", role: HARNESS_CONST.USER_ROLES.ASSISTANT, isGM: true },
      { id: "ccccccccccccccc1", name: "Player", isGM: false },
    ].map((user) => ({ ...user, active: active.includes(user.id[0]) }));
    await setup(t, { users, userId }).boot(); // the local user is connected
    return game.users.activeGM;
  };
  assert.deepEqual([(await world("zbac", "zzzzzzzzzzzzzzz1")).id, game.users.activeGM.isSelf], ["bbbbbbbbbbbbbbb1", false]);
  assert.deepEqual([(await world("zac", "zzzzzzzzzzzzzzz1")).id, game.users.activeGM.isSelf], ["zzzzzzzzzzzzzzz1", true]);
  assert.equal((await world("ac", "ccccccccccccccc1")).id, "aaaaaaaaaaaaaaa1");
  assert.equal(await world("", "ccccccccccccccc1"), null);
  assert.equal(game.user.isGM, false);
});

// -- flags and settings --------------------------------------------------------------------------

test("getFlag/setFlag/unsetFlag accept active module, system, core and world scopes and throw otherwise", async (t) => {
  const env = setup(t, { modules: [{ id: MODULE_ID, active: true }, { id: "off", active: false }] });
  const actor = await env.createActor({ name: "Ann" });
  await env.boot();
  for (const scope of [MODULE_ID, "gurps", "core", "world"]) {
    await actor.setFlag(scope, "x.y", 1);
    assert.equal(actor.getFlag(scope, "x.y"), 1);
  }
  for (const scope of ["off", "nonexistent", "ambush"]) {
    assert.throws(() => actor.getFlag(scope, "x"), /Flag scope .* is not valid or not currently active/);
    await assert.rejects(actor.setFlag(scope, "x", 1), /not valid/);
    await assert.rejects(actor.unsetFlag(scope, "x"), /not valid/);
  }
  await actor.setFlag(MODULE_ID, "state", { a: 1 });
  await actor.setFlag(MODULE_ID, "state", { b: 2 });
  assert.deepEqual(actor.getFlag(MODULE_ID, "state"), { a: 1, b: 2 }, "setFlag merges objects like update");
  await actor.unsetFlag(MODULE_ID, "state");
  assert.equal(actor.getFlag(MODULE_ID, "state"), undefined);
});

test("document data is read-only: in-place edits throw instead of silently not persisting", async (t) => {
  const env = setup(t);
  const actor = await env.createActor({ name: "Ann", flags: { [MODULE_ID]: { list: [1] } } });
  await env.boot();
  assert.throws(() => actor.getFlag(MODULE_ID, "list").push(2), TypeError);
  assert.throws(() => {
    actor.system.ht = 12;
  }, TypeError);
  assert.throws(() => game.actors.set("x", actor), /database API/);
});

test("game.settings: a registered package's namespace, a known scope; world values load before setup; set checks choices", async (t) => {
  const env = setup(t);
  assert.throws(() => game.settings.register("not-a-module", "x", { scope: "world" }), /not an active package/);
  assert.throws(() => game.settings.register(MODULE_ID, "bad", { scope: "global" }), /Invalid setting scope/);
  Hooks.once("init", () => {
    game.settings.register(MODULE_ID, "mode", { scope: "world", config: true, type: String, default: "a", choices: { a: "A", b: "B" } });
    assert.equal(game.settings.get(MODULE_ID, "mode"), "a", "world values load with Documents, before setup");
  });
  await env.boot();
  assert.deepEqual(env.warnings, [`world setting "${MODULE_ID}.mode" read before setup; its stored value is not loaded yet`]);
  assert.throws(() => game.settings.get(MODULE_ID, "missing"), /"ambush-test.missing" is not a registered game setting/);
  await game.settings.set(MODULE_ID, "mode", "b");
  assert.equal(game.settings.get(MODULE_ID, "mode"), "b");
  await assert.rejects(game.settings.set(MODULE_ID, "mode", "c"), /not one of its choices/);
});

// -- i18n ----------------------------------------------------------------------------------------

test("i18n: nested and flat keys, missing keys return the key and are recorded, format, English fallback", async (t) => {
  const root = writeModule(t, { main: "", en: { [MODULE_ID]: { OnlyEnglish: "English only" } } });
  const env = setup(t, { modules: [], language: "de", lang: { [MODULE_ID]: { Greet: "Hallo {name}", Count: "{n, plural, one {# Tag} other {# Tage}}" }, "flat.key": "flach" } });
  await env.loadModule(root);
  assert.equal(game.i18n.localize(`${MODULE_ID}.Greet`), "Hallo {name}");
  assert.equal(game.i18n.format(`${MODULE_ID}.Greet`, { name: "Ann" }), "Hallo Ann");
  assert.equal(game.i18n.localize("flat.key"), "flach");
  assert.equal(game.i18n.localize(`${MODULE_ID}.OnlyEnglish`), "English only");
  assert.deepEqual(env.fallbackI18n, [`${MODULE_ID}.OnlyEnglish`]);
  assert.equal(game.i18n.localize(`${MODULE_ID}.Missing`), `${MODULE_ID}.Missing`);
  assert.equal(game.i18n.localize(MODULE_ID), MODULE_ID, "a subtree is not a translation");
  assert.deepEqual(env.missingI18n, [`${MODULE_ID}.Missing`, MODULE_ID]);
  assert.equal(game.i18n.format(`${MODULE_ID}.Greet`), "Hallo {name}");
  assert.deepEqual(env.i18nFormatErrors, [{ key: `${MODULE_ID}.Greet`, placeholder: "name" }]);
  // format knows {name} alone: a plural choice's braces are no placeholder of its, and are recorded as one unfilled
  assert.equal(game.i18n.localize(`${MODULE_ID}.Count`), "{n, plural, one {# Tag} other {# Tage}}", "localize: raw");
  assert.notEqual(game.i18n.format(`${MODULE_ID}.Count`, { n: 1 }), "1 Tag");
  assert.deepEqual(env.i18nFormatErrors.slice(1).map((error) => error.placeholder), ["n, plural, one {# Tag", "# Tage"]);
});

// -- status effects ------------------------------------------------------------------------------

test("toggleStatusEffect returns the effect, true, false or undefined as docs/dev/foundry.md §6 says, once the server answers", async (t) => {
  const env = setup(t, { systemId: "ars" });
  const actor = await env.createActor({ name: "Ann" });
  await env.boot();
  const pending = actor.toggleStatusEffect("stun");
  assert.equal(actor.statuses.has("stun"), false, "not before the server answers: it must be awaited");
  const created = await pending;
  assert.equal(created.constructor.name, "ActiveEffect");
  assert.equal(created.name, "Stunned");
  assert.equal(created.img, "icons/svg/daze.svg");
  assert.deepEqual([...created.statuses], ["stun"]);
  assert.ok(actor.statuses.has("stun"));
  assert.equal(await actor.toggleStatusEffect("stun", { active: true }), true);
  assert.equal(actor.effects.size, 1);
  assert.equal(await actor.toggleStatusEffect("stun"), false);
  assert.equal(actor.effects.size, 0);
  assert.equal(await actor.toggleStatusEffect("stun", { active: false }), undefined);
  await assert.rejects(actor.toggleStatusEffect("surprised"), /Invalid status ID "surprised"/);
  await assert.rejects(actor.toggleStatusEffect("dead", { overlay: true }), /not emulated/);
  assert.deepEqual(env.missingI18n, []);
});

test("status matching: static _id when configured, else statuses exactly {id}; extra statuses need an _id", async (t) => {
  const env = setup(t, { lang: { [MODULE_ID]: { Surprised: "Surprised" } } });
  const actor = await env.createActor({ name: "Ann" });
  Hooks.once("setup", () => {
    CONFIG.statusEffects.push(
      {
        id: "surprised", _id: "surprised0000000", name: `${MODULE_ID}.Surprised`, img: "icons/surprised.svg",
        statuses: ["stun"], duration: { rounds: 1 }, flags: { [MODULE_ID]: { source: "surprise" } },
      },
      { id: "dazed", name: "Dazed", statuses: ["stun"] },
      { id: "badid", _id: "too-short", name: "Bad" },
    );
  });
  await env.boot();
  // A hand-made effect with statuses exactly {surprised} is not the static-_id status
  const [manual] = await actor.createEmbeddedDocuments("ActiveEffect", [{ name: "Manual", statuses: ["surprised"] }]);
  const effect = await actor.toggleStatusEffect("surprised");
  assert.equal(effect.id, "surprised0000000");
  assert.equal(effect.name, "Surprised");
  assert.deepEqual([...effect.statuses].sort(), ["stun", "surprised"]);
  assert.equal(effect.duration.rounds, 1);
  assert.equal(effect.getFlag(MODULE_ID, "source"), "surprise");
  assert.equal(await actor.toggleStatusEffect("surprised"), false);
  assert.ok(actor.effects.has(manual.id), "the hand-made effect is untouched");
  await assert.rejects(actor.toggleStatusEffect("dazed"), /additional statuses but has no static _id/);
  await assert.rejects(actor.toggleStatusEffect("badid"), /not a valid id/);
});

test("V13 core does not expire effects: a one-round effect stays rounds later (docs/dev/foundry.md §8)", async (t) => {
  const { env, actors, combat } = await bootedWithCombat(t);
  await combat.startCombat();
  await actors[0].createEmbeddedDocuments("ActiveEffect", [
    { name: "One round", statuses: ["stun"], duration: { combat: combat.id, rounds: 1, startRound: 1, startTurn: 0 } },
  ]);
  for (let i = 0; i < 9; i++) await combat.nextTurn();
  await env.settle();
  assert.equal(combat.round, 4);
  assert.equal(actors[0].effects.size, 1);
  assert.ok(actors[0].statuses.has("stun"));
  assert.equal(actors[0].effects.contents[0].duration.expired, undefined);
});

// -- ActiveEffect validation ---------------------------------------------------------------------

test("ActiveEffect: name required, label/icon deprecated, changes not emulated, V14 duration keys dropped", async (t) => {
  const env = setup(t);
  const actor = await env.createActor({ name: "Ann" });
  await env.boot();
  await assert.rejects(actor.createEmbeddedDocuments("ActiveEffect", [{ img: "x.svg" }]), /name: may not be undefined/);
  await assert.rejects(actor.createEmbeddedDocuments("ActiveEffect", [{ name: " " }]), /name: may not be a blank string/);
  await assert.rejects(actor.createEmbeddedDocuments("ActiveEffect", [{ name: "A", changes: [{ key: "k", mode: 2 }] }]), /changes/);
  const [legacy] = await actor.createEmbeddedDocuments("ActiveEffect", [
    { label: "Old", icon: "old.svg", duration: { value: 1, units: "rounds", expiry: "turnStart", rounds: 2 } },
  ]);
  assert.equal(legacy.name, "Old");
  assert.equal(legacy.img, "old.svg");
  assert.equal(legacy._source.duration.expiry, undefined);
  assert.equal(legacy.duration.rounds, 2);
  assert.equal(env.deprecations.length, 2);
  assert.ok(env.warnings.some((w) => w.includes("expiry")));
  await assert.rejects(legacy.update({ name: "" }), /blank/);
  assert.ok(legacy.statuses instanceof Set);
});

test("created documents get new ids unless keepId is passed", async (t) => {
  const env = setup(t);
  const actor = await env.createActor({ name: "Ann" });
  await env.boot();
  const [fresh] = await actor.createEmbeddedDocuments("ActiveEffect", [{ _id: "keepMe0000000001", name: "A" }]);
  assert.notEqual(fresh.id, "keepMe0000000001");
  const [kept] = await actor.createEmbeddedDocuments("ActiveEffect", [{ _id: "keepMe0000000001", name: "A" }], { keepId: true });
  assert.equal(kept.id, "keepMe0000000001");
  await assert.rejects(actor.createEmbeddedDocuments("ActiveEffect", [{ _id: "keepMe0000000001", name: "A" }], { keepId: true }), /already exists/);
});

// -- document updates ----------------------------------------------------------------------------

test("update fires preUpdate then update with the diff; preUpdate returning false cancels; no-op updates fire nothing", async (t) => {
  const env = setup(t);
  const actor = await env.createActor({ name: "Ann", system: { hp: 10, fp: 10 } });
  await env.boot();
  const seen = recordHooks(["preUpdateActor", "updateActor"]);
  await actor.update({ "system.hp": 8, "system.fp": 10 });
  assert.deepEqual(seen.map((s) => s.name), ["preUpdateActor", "updateActor"]);
  const [, changed, options, userId] = seen[1].args;
  assert.deepEqual(changed, { system: { hp: 8 }, _id: actor.id });
  assert.equal(typeof options, "object");
  assert.equal(userId, GM);
  assert.equal(await actor.update({ "system.hp": 8 }), undefined);
  assert.equal(seen.length, 2);
  Hooks.once("preUpdateActor", () => false);
  assert.equal(await actor.update({ name: "Zed" }), undefined);
  assert.equal(actor.name, "Ann");
  assert.equal(seen.length, 3, "only the cancelled preUpdate fired");
  await env.settle();
});

test("a player cannot update an actor they do not own; owners can", async (t) => {
  const env = setup(t, { userId: PLAYER });
  const theirs = await env.createActor({ name: "Mine", ownership: { default: 0, [PLAYER]: 3 } });
  const other = await env.createActor({ name: "Other" });
  await env.boot();
  await theirs.toggleStatusEffect("prone");
  await assert.rejects(other.toggleStatusEffect("prone"), /lacks permission to create ActiveEffect/);
  await assert.rejects(other.update({ name: "X" }), /lacks permission to update Actor/);
  assert.equal(env.deniedWrites.length, 2);
  assert.deepEqual(env.writes.map((w) => [w.action, w.documentName, w.userId]), [["create", "ActiveEffect", PLAYER]]);
});

test("Collection iterates values and offers contents, find, filter, map, some, getName", async (t) => {
  const env = setup(t);
  await env.createActor({ name: "Ann" });
  await env.createActor({ name: "Bob" });
  await env.boot();
  assert.ok(game.actors instanceof Collection);
  assert.deepEqual([...game.actors].map((a) => a.name), ["Ann", "Bob"]);
  assert.deepEqual(game.actors.contents.map((a) => a.name), game.actors.map((a) => a.name));
  assert.equal(game.actors.get(game.actors.getName("Bob").id), game.actors.find((a) => a.name === "Bob"));
  assert.deepEqual(game.actors.filter((a) => a.name !== "Bob").map((a) => a.name), ["Ann"]);
  assert.equal(game.actors.some((a) => a.name === "Cid"), false);
});

// -- combat --------------------------------------------------------------------------------------

const COMBAT_HOOKS = ["combatStart", "combatTurn", "combatRound", "preUpdateCombat", "updateCombat", "combatTurnChange"];

test("combat state before start: round 0, turn null, not started, given order kept", async (t) => {
  const { combat, tokens } = await bootedWithCombat(t);
  assert.equal(game.combat, combat);
  assert.equal(combat.round, 0);
  assert.equal(combat.turn, null);
  assert.equal(combat.started, false);
  assert.equal(combat.combatant, undefined);
  assert.deepEqual(combat.turns.map((c) => c.tokenId), tokens.map((tok) => tok.id));
  assert.deepEqual(combat.getCombatantsByToken(tokens[1]).map((c) => c.name), ["Bob"]);
});

test("startCombat: combatStart (mutable updateData) before preUpdateCombat, updateCombat, combatTurnChange", async (t) => {
  const { env, combat } = await bootedWithCombat(t);
  const seen = recordHooks(COMBAT_HOOKS);
  Hooks.once("combatStart", (c, updateData) => {
    updateData.turn = 1;
  });
  await combat.startCombat();
  assert.deepEqual(seen.map((s) => s.name), ["combatStart", "preUpdateCombat", "updateCombat", "combatTurnChange"]);
  assert.deepEqual(seen[0].args[1], { round: 1, turn: 1 });
  assert.deepEqual(seen[2].args[1], { round: 1, turn: 1, _id: combat.id });
  const [, prior, current] = seen[3].args;
  assert.deepEqual(prior, { round: 0, turn: null, combatantId: null, tokenId: null });
  assert.deepEqual(current, { round: 1, turn: 1, combatantId: combat.turns[1].id, tokenId: combat.turns[1].tokenId });
  assert.equal(combat.started, true);
  assert.equal(combat.combatant.name, "Bob");
  await env.settle();
});

test("nextTurn: combatTurn before the update, then preUpdateCombat, updateCombat (turn only), combatTurnChange", async (t) => {
  const { env, combat } = await bootedWithCombat(t);
  await combat.startCombat();
  const seen = recordHooks(COMBAT_HOOKS);
  let turnSeenByCombatTurn;
  Hooks.once("combatTurn", (c) => {
    turnSeenByCombatTurn = c.turn;
  });
  await combat.nextTurn();
  assert.deepEqual(seen.map((s) => s.name), ["combatTurn", "preUpdateCombat", "updateCombat", "combatTurnChange"]);
  assert.equal(turnSeenByCombatTurn, 0, "combatTurn fires before the update");
  assert.deepEqual(seen[0].args.slice(1), [{ round: 1, turn: 1 }, { direction: 1, ...timeOption(CONFIG.time.turnTime) }]);
  const changed = seen[2].args[1];
  assert.ok("turn" in changed && !("round" in changed));
  assert.equal(seen[2].args[3], GM);
  assert.deepEqual(seen[3].args[1].turn, 0);
  assert.deepEqual(seen[3].args[2].turn, 1);
  await env.settle();
});

test("nextTurn on the last turn advances the round: combatRound (not combatTurn), turn 0", async (t) => {
  const { env, combat } = await bootedWithCombat(t);
  await combat.startCombat();
  await combat.nextTurn();
  await combat.nextTurn();
  const seen = recordHooks(COMBAT_HOOKS);
  await combat.nextTurn();
  assert.deepEqual(seen.map((s) => s.name), ["combatRound", "preUpdateCombat", "updateCombat", "combatTurnChange"]);
  assert.deepEqual(seen[0].args[1], { round: 2, turn: 0 });
  assert.deepEqual(seen[2].args[1], { round: 2, turn: 0, _id: combat.id });
  assert.equal(combat.round, 2);
  assert.equal(combat.turn, 0);
  const seenRound = recordHooks(["combatRound", "combatTurn"]);
  await combat.nextRound();
  assert.deepEqual(seenRound.map((s) => s.name), ["combatRound"]);
  assert.equal(combat.round, 3);
  await env.settle();
});

test("nextTurn and nextRound pass {direction: 1} on to preUpdateCombat's and updateCombat's options (docs/dev/foundry.md §7.1)", async (t) => {
  const { env, combat } = await bootedWithCombat(t);
  await combat.startCombat();
  const seen = recordHooks(COMBAT_HOOKS);
  await combat.nextTurn();
  await combat.nextRound();
  const options = (name) => seen.filter((s) => s.name === name).map((s) => s.args[2]);
  assert.deepEqual(options("preUpdateCombat").map((o) => o.direction), [1, 1]);
  assert.deepEqual(options("updateCombat").map((o) => o.direction), [1, 1]);
  assert.deepEqual(seen.filter((s) => s.name === "combatRound").map((s) => s.args[2]), [{ direction: 1, ...timeOption(CONFIG.time.roundTime) }]);
  await env.settle();
});

test("previousTurn: combatTurn {round, turn - 1} with {direction: -1}, then preUpdateCombat, updateCombat, combatTurnChange", async (t) => {
  const { env, combat } = await bootedWithCombat(t);
  await combat.startCombat();
  await combat.nextTurn();
  await combat.nextTurn();
  const seen = recordHooks(COMBAT_HOOKS);
  let turnSeenByCombatTurn;
  Hooks.once("combatTurn", (c) => {
    turnSeenByCombatTurn = c.turn;
  });
  await combat.previousTurn();
  assert.deepEqual(seen.map((s) => s.name), ["combatTurn", "preUpdateCombat", "updateCombat", "combatTurnChange"]);
  assert.equal(turnSeenByCombatTurn, 2, "combatTurn fires before the update");
  assert.deepEqual(seen[0].args.slice(1), [{ round: 1, turn: 1 }, { direction: -1, ...timeOption(0 - CONFIG.time.turnTime) }]);
  const [, changed, options, userId] = seen[1].args;
  assert.deepEqual([changed, options.direction, userId], [{ turn: 1, _id: combat.id }, -1, GM]);
  assert.deepEqual(seen[2].args[1], { turn: 1, _id: combat.id });
  assert.equal(seen[2].args[2].direction, -1, "updateCombat gets the direction in its options");
  assert.equal(seen[3].args.length, 3, "combatTurnChange(combat, prior, current): no options");
  assert.deepEqual([seen[3].args[1].turn, seen[3].args[2].turn], [2, 1]);
  assert.deepEqual([combat.round, combat.turn, combat.combatant.name], [1, 1, "Bob"]);
  await env.settle();
});

test("previousTurn at a round's first turn rewinds the round: combatRound (not combatTurn), the previous round's last turn", async (t) => {
  const { env, combat } = await bootedWithCombat(t);
  await combat.startCombat();
  await combat.nextRound();
  const seen = recordHooks(COMBAT_HOOKS);
  await combat.previousTurn();
  assert.deepEqual(seen.map((s) => s.name), ["combatRound", "preUpdateCombat", "updateCombat", "combatTurnChange"]);
  assert.deepEqual(seen[0].args.slice(1), [{ round: 1, turn: 2 }, { direction: -1, ...timeOption(-CONFIG.time.roundTime) }]);
  assert.deepEqual(seen[2].args[1], { round: 1, turn: 2, _id: combat.id });
  assert.equal(seen[2].args[2].direction, -1);
  const [, prior, current] = seen[3].args;
  assert.deepEqual([prior.round, prior.turn, current.round, current.turn], [2, 0, 1, 2]);
  assert.equal(current.combatantId, combat.turns[2].id);
  await env.settle();
});

test("previousRound: the previous round's last turn, combatRound with {direction: -1}; from round 1 back to round 0, not started", async (t) => {
  const { env, combat } = await bootedWithCombat(t);
  await combat.startCombat();
  await combat.nextRound();
  await combat.nextTurn();
  const seen = recordHooks(COMBAT_HOOKS);
  await combat.previousRound();
  assert.deepEqual(seen.map((s) => s.name), ["combatRound", "preUpdateCombat", "updateCombat", "combatTurnChange"]);
  assert.deepEqual(seen[0].args.slice(1), [{ round: 1, turn: 2 }, { direction: -1, ...timeOption(-CONFIG.time.roundTime - CONFIG.time.turnTime) }]);
  assert.deepEqual(seen[1].args[1], { round: 1, turn: 2, _id: combat.id });
  assert.deepEqual([seen[1].args[2].direction, seen[2].args[2].direction], [-1, -1]);
  assert.deepEqual([combat.round, combat.turn], [1, 2]);
  seen.length = 0;
  await combat.previousTurn();
  await combat.previousTurn();
  assert.deepEqual([combat.round, combat.turn], [1, 0]);
  await combat.previousTurn();
  assert.deepEqual(seen.slice(-4).map((s) => s.name), ["combatRound", "preUpdateCombat", "updateCombat", "combatTurnChange"]);
  assert.deepEqual(seen.at(-4).args.slice(1), [{ round: 0, turn: null }, { direction: -1, ...timeOption(0) }]);
  assert.deepEqual(seen.at(-1).args[2], { round: 0, turn: null, combatantId: null, tokenId: null });
  assert.deepEqual([combat.round, combat.turn, combat.started, combat.combatant], [0, null, false, undefined]);
  await assert.rejects(combat.previousRound(), /before startCombat\(\) is not emulated/);
  await combat.startCombat();
  assert.deepEqual([combat.round, combat.turn], [1, 0]);
  await env.settle();
});

test("an update of the turn alone carries no direction and fires no combatTurn (docs/dev/foundry.md §7.1)", async (t) => {
  const { env, combat } = await bootedWithCombat(t);
  await combat.startCombat();
  const seen = recordHooks(COMBAT_HOOKS);
  await combat.update({ turn: 2 });
  await combat.update({ turn: 1 });
  assert.deepEqual(seen.map((s) => s.name), ["preUpdateCombat", "updateCombat", "combatTurnChange",
    "preUpdateCombat", "updateCombat", "combatTurnChange"]);
  for (const s of seen.filter((h) => h.name !== "combatTurnChange")) assert.equal("direction" in s.args[2], false);
  await env.settle();
});

test("a rewind is refused to a player unless he owns the current combatant, as an advance is", async (t) => {
  const { env, combat, actors } = await bootedWithCombat(t, { userId: PLAYER });
  await env.remote(GM, () => combat.startCombat());
  await env.remote(GM, () => combat.nextTurn());
  await assert.rejects(combat.previousTurn(), /lacks permission to update Combat/);
  await env.remote(GM, () => actors[1].update({ ownership: { default: 0, [PLAYER]: 3 } }));
  await combat.previousTurn();
  assert.deepEqual([combat.round, combat.turn], [1, 0]);
  await env.settle();
});

test("turnChangeFirst fires combatTurnChange before updateCombat", async (t) => {
  const { env, combat } = await bootedWithCombat(t, { turnChangeFirst: true });
  const seen = recordHooks(["updateCombat", "combatTurnChange"]);
  await combat.startCombat();
  assert.deepEqual(seen.map((s) => s.name), ["combatTurnChange", "updateCombat"]);
  await env.settle();
});

test("preUpdateCombat returning false cancels the turn change", async (t) => {
  const { env, combat } = await bootedWithCombat(t);
  await combat.startCombat();
  const seen = recordHooks(["combatTurn", "updateCombat", "combatTurnChange"]);
  Hooks.once("preUpdateCombat", () => false);
  assert.equal(await combat.nextTurn(), undefined);
  assert.equal(combat.turn, 0);
  assert.deepEqual(seen.map((s) => s.name), ["combatTurn"]);
  await env.settle();
});

test("combatants sort by descending initiative with nulls last once initiatives are set", async (t) => {
  const { env, combat } = await bootedWithCombat(t);
  const [ann, bob, cid] = combat.turns;
  await combat.updateEmbeddedDocuments("Combatant", [{ _id: bob.id, initiative: 15 }, { _id: ann.id, initiative: 9 }]);
  assert.deepEqual(combat.turns.map((c) => c.name), ["Bob", "Ann", "Cid"]);
  await cid.update({ initiative: 20 });
  assert.deepEqual(combat.turns.map((c) => c.name), ["Cid", "Bob", "Ann"]);
  await env.settle();
});

test("a combatant whose actor or token was deleted: actor null / token null", async (t) => {
  const { env, combat, actors, tokens } = await bootedWithCombat(t);
  const [ann, bob] = combat.turns;
  await env.deleteActor(actors[0]);
  assert.equal(ann.actor, null);
  assert.equal(ann.token.id, tokens[0].id);
  assert.equal(tokens[0].actor, null);
  await env.deleteToken(tokens[1]);
  assert.equal(bob.token, null);
  assert.equal(bob.actor, actors[1], "the actor is still found by actorId");
  assert.equal(combat.combatants.size, 3);
  await env.settle();
});

test("deleteCombatant and deleteCombat fire on every client, after the removal (docs/dev/foundry.md §7)", async (t) => {
  const { env, combat } = await bootedWithCombat(t, { userId: PLAYER });
  const seen = [];
  Hooks.on("deleteCombatant", (combatant, options, userId) => seen.push(["deleteCombatant", combatant.parent === combat,
    combat.combatants.has(combatant.id), userId]));
  Hooks.on("deleteCombat", (deleted, options, userId) => seen.push(["deleteCombat", deleted === combat, game.combats.has(combat.id), userId]));
  await env.remote(GM, () => combat.turns[0].delete());
  await env.remote(GM, () => combat.delete());
  assert.deepEqual(seen, [["deleteCombatant", true, false, GM], ["deleteCombat", true, false, GM]]);
  assert.equal(game.combat, undefined);
  await assert.rejects(combat.update({ turn: 0 }), /does not exist/);
});

// -- game systems: ARS's initiative re-rolled each round (emulation/game-systems.mjs) ---------------

/** The combat updates and turn changes a step fires, as [what, detail] pairs */
function recordTurnChanges() {
  const seen = [];
  Hooks.on("updateCombatant", (c, changed) => seen.push(["initiative", `${c.name} ${changed.initiative}`]));
  Hooks.on("updateCombat", (c, changed) => seen.push(["combat", JSON.stringify({ round: changed.round, turn: changed.turn })]));
  Hooks.on("combatTurnChange", (c, prior, current) => seen.push(["turnChange",
    `${c.combatants.get(prior.combatantId)?.name ?? null} -> ${c.combatants.get(current.combatantId)?.name ?? null}`]));
  return seen;
}

test("ARS: each NPC's roll re-sorts the order and sets turn 0 again, one update each (descending: nulls first)", async (t) => {
  const { env, combat } = await bootedWithCombat(t, { systemId: "ars" });
  const id = (name) => combat.combatants.find((c) => c.name === name).id;
  const rolls = { 1: { Ann: 3, Bob: 7, Cid: 5 }, 2: { Ann: 9, Bob: 2, Cid: 4 } };
  installArsInitiative((round) => Object.fromEntries(Object.entries(rolls[round]).map(([name, v]) => [id(name), v])));
  const seen = recordTurnChanges();
  await combat.startCombat();
  await env.settle();
  assert.deepEqual(seen, [
    ["combat", '{"round":1,"turn":0}'], ["turnChange", "null -> Ann"],
    // resetAll changes nothing yet: no initiative, turn 0. Ann rolls: the unrolled (9999) sort first.
    ["initiative", "Ann 3"], ["combat", '{"turn":0}'], ["turnChange", "Ann -> Bob"],
    ["initiative", "Bob 7"], ["combat", '{"turn":0}'], ["turnChange", "Bob -> Cid"],
    ["initiative", "Cid 5"], ["combat", '{"turn":0}'], ["turnChange", "Cid -> Bob"],
  ]);
  assert.deepEqual(combat.turns.map((c) => c.name), ["Bob", "Cid", "Ann"]);
  seen.length = 0;
  await combat.nextTurn();
  await combat.nextTurn();
  await combat.nextTurn();
  await env.settle();
  const names = (kind) => seen.filter(([what]) => what === kind).map(([, detail]) => detail);
  assert.deepEqual(names("initiative"), ["Ann null", "Bob null", "Cid null", "Ann 9", "Bob 2", "Cid 4"],
    "resetAll, then each NPC in creation order");
  assert.deepEqual(names("turnChange"), ["Bob -> Cid", "Cid -> Ann", "Ann -> Bob", "Bob -> Ann", "Ann -> Bob",
    "Bob -> Cid", "Cid -> Ann"]);
  assert.deepEqual([combat.round, combat.turn, combat.turns.map((c) => c.name)], [2, 0, ["Ann", "Cid", "Bob"]]);
  assert.deepEqual(env.errors, []);
});

test("ARS: ascending (its default setting) sorts the unrolled last; a rewind re-rolls too; only a GM's client rolls", async (t) => {
  const { env, combat } = await bootedWithCombat(t, { systemId: "ars", userId: PLAYER });
  const id = (name) => combat.combatants.find((c) => c.name === name).id;
  let rolled = 0;
  const remove = installArsInitiative((round) => {
    rolled++;
    return { [id("Ann")]: round, [id("Bob")]: 5, [id("Cid")]: 9 };
  }, { ascending: true });
  await env.remote(GM, () => combat.startCombat());
  await env.settle();
  assert.equal(rolled, 0, "a player's client does not re-roll");
  env.teardown();

  const gm = await bootedWithCombat(t, { systemId: "ars" });
  const ids = (name) => gm.combat.combatants.find((c) => c.name === name).id;
  const rounds = [];
  const stop = installArsInitiative((round) => {
    rounds.push(round);
    return { [ids("Ann")]: 6, [ids("Bob")]: 5, [ids("Cid")]: 9 };
  }, { ascending: true });
  const seen = recordTurnChanges();
  await gm.combat.startCombat();
  await gm.env.settle();
  assert.deepEqual(seen.filter(([what]) => what === "turnChange").map(([, d]) => d), ["null -> Ann", "Ann -> Bob"]);
  assert.deepEqual(gm.combat.turns.map((c) => c.name), ["Bob", "Ann", "Cid"]);
  await gm.combat.nextRound();
  await gm.env.settle();
  await gm.combat.previousRound();
  await gm.env.settle();
  assert.deepEqual(rounds, [1, 2, 1], "previousRound changes the round: ARS re-rolls as for nextRound");
  assert.deepEqual([gm.combat.round, gm.combat.turn], [1, 0], "the rewind lands on the last turn; the re-roll sets 0");
  // A round change that comes while ARS rolls (after its resetAll) is ignored: its mute flag
  let pressed = false;
  Hooks.on("updateCombatant", (c, changed) => {
    if (pressed || changed.initiative === null) return undefined;
    pressed = true;
    return gm.combat.nextRound();
  });
  await gm.combat.nextRound();
  await gm.env.settle();
  assert.deepEqual([rounds, gm.combat.round], [[1, 2, 1, 2], 3], "round 3 began during round 2's rolls: no re-roll");
  stop();
  await gm.combat.nextRound();
  await gm.env.settle();
  assert.deepEqual(rounds, [1, 2, 1, 2], "removed");
  assert.deepEqual(gm.env.errors, []);
  remove();
});

test("ARS: without rollInitEachRound only the first round rolls; a player character is left to its player", async (t) => {
  const { env, combat, actors } = await bootedWithCombat(t, { systemId: "ars" });
  await actors[0].update({ ownership: { default: 0, [PLAYER]: 3 } });
  const id = (name) => combat.combatants.find((c) => c.name === name).id;
  const rounds = [];
  installArsInitiative((round) => {
    rounds.push(round);
    return { [id("Ann")]: 1, [id("Bob")]: 5, [id("Cid")]: 9 };
  }, { rollEachRound: false });
  await combat.startCombat();
  await env.settle();
  assert.deepEqual(combat.turns.map((c) => [c.name, c.initiative]), [["Ann", null], ["Cid", 9], ["Bob", 5]]);
  await combat.nextRound();
  await env.settle();
  assert.deepEqual(rounds, [1]);
  assert.equal(combat.combatants.get(id("Cid")).initiative, 9, "kept");
});

test("ARS's own turn methods pass no direction: combatTurn without options, no combatRound, rewinds without hooks", async (t) => {
  const { env, combat } = await bootedWithCombat(t, { systemId: "ars" });
  t.after(installArsTurnMethods());
  await combat.startCombat();
  const seen = recordHooks(COMBAT_HOOKS);
  await combat.nextTurn();
  await combat.nextTurn();
  await combat.nextTurn();
  await combat.previousTurn();
  await combat.previousTurn();
  assert.deepEqual(seen.filter((s) => s.name !== "combatTurnChange").map((s) => s.name), ["combatTurn", "preUpdateCombat",
    "updateCombat", "combatTurn", "preUpdateCombat", "updateCombat", "preUpdateCombat", "updateCombat",
    "preUpdateCombat", "updateCombat", "preUpdateCombat", "updateCombat"]);
  assert.deepEqual(seen[0].args.slice(1), [{ round: 1, turn: 1 }]);
  for (const s of seen.filter((h) => h.name === "updateCombat")) assert.equal("direction" in s.args[2], false);
  assert.deepEqual(seen.filter((h) => h.name === "updateCombat").map((h) => [h.args[1].round, h.args[1].turn]),
    [[undefined, 1], [undefined, 2], [2, 0], [1, 2], [undefined, 1]]);
  await combat.previousRound();
  assert.deepEqual([combat.round, combat.turn], [0, 2], "from round 1 to round 0 on the last turn, not null");
  await combat.previousTurn();
  await combat.previousTurn();
  assert.deepEqual([combat.round, combat.turn], [0, 0]);
  assert.equal(await combat.previousTurn(), combat, "round 0, turn 0: nothing");
  await env.settle();
});

// -- clients -------------------------------------------------------------------------------------

test("remote(): another client's request fires only all-client hooks here, attributed to that user", async (t) => {
  const { env, combat } = await bootedWithCombat(t, { userId: PLAYER });
  assert.equal(game.user.isGM, false);
  const seen = recordHooks(COMBAT_HOOKS);
  await env.remote(GM, () => combat.startCombat());
  await env.remote(GM, () => combat.nextTurn());
  assert.deepEqual(seen.map((s) => s.name), ["updateCombat", "combatTurnChange", "updateCombat", "combatTurnChange"]);
  assert.equal(seen[0].args[3], GM);
  assert.ok(env.writes.every((w) => w.userId === GM));
  await assert.rejects(combat.nextTurn(), /lacks permission to update Combat/);
  await env.settle();
});

test("a handler reacting to a remote change acts as the local user", async (t) => {
  const { env, combat, actors } = await bootedWithCombat(t, { userId: PLAYER });
  Hooks.on("combatTurnChange", () => actors[0].toggleStatusEffect("stun"));
  await env.remote(GM, () => combat.startCombat());
  await env.settle();
  assert.equal(env.errors.length, 1);
  assert.match(env.errors[0].error.message, /Player lacks permission to create ActiveEffect/);
  assert.deepEqual(env.deniedWrites.map((w) => w.userId), [PLAYER]);
});

// -- dice ----------------------------------------------------------------------------------------

test("Roll with scripted dice: NdM, dice[0].results, JSON round trip, evaluated once", async (t) => {
  const env = setup(t);
  env.scriptDice(3, 4, 5);
  const r1 = new Roll("3d6");
  assert.equal(r1.total, undefined);
  await r1.evaluate();
  assert.equal(r1.total, 12);
  assert.deepEqual(r1.dice[0].results, [{ result: 3, active: true }, { result: 4, active: true }, { result: 5, active: true }]);
  const copy = Roll.fromJSON(JSON.stringify(r1.toJSON()));
  assert.equal(copy.total, 12);
  assert.deepEqual(copy.dice[0].results.map((r) => r.result), [3, 4, 5]);
  assert.deepEqual(env.pendingDice, []);
  await assert.rejects(r1.evaluate(), /already been evaluated/);
  env.scriptDice(1);
  await new Roll("1d6").evaluate({ async: true });
  assert.equal(env.deprecations.length, 1, "the async option is deprecated");
});

test("dice script errors: exhausted, face too large, nothing scripted, a formula that is not NdM", async (t) => {
  const env = setup(t);
  await assert.rejects(new Roll("1d6").evaluate(), /no dice are scripted/);
  env.scriptDice(7);
  await assert.rejects(new Roll("1d6").evaluate(), /face 7 exceeds the 6 faces of a d6/);
  assert.deepEqual(env.pendingDice, [7]);
  await new Roll("1d8").evaluate();
  await assert.rejects(new Roll("1d6").evaluate(), /dice script exhausted/);
  for (const formula of ["1d6 * 2", "1d6 + 2", "2d20kh", "1d6 + @bonus"]) {
    assert.throws(() => new Roll(formula), /only "NdM" formulas are emulated/, formula);
  }
});

// -- chat ----------------------------------------------------------------------------------------

test("ChatMessage.create records the message, fires hooks and validates whisper and rolls", async (t) => {
  const env = setup(t);
  await env.boot();
  const seen = recordHooks(["preCreateChatMessage", "createChatMessage"]);
  env.scriptDice(4);
  const roll = await new Roll("1d6").evaluate();
  const message = await ChatMessage.create({
    content: "<p>Surprise!</p>",
    speaker: ChatMessage.getSpeaker({ alias: "Ambush" }),
    whisper: ChatMessage.getWhisperRecipients("GM").map((user) => user.id),
    rolls: [roll],
    flags: { [MODULE_ID]: { kind: "surprise" } },
  });
  assert.deepEqual(seen.map((s) => s.name), ["preCreateChatMessage", "createChatMessage"]);
  assert.deepEqual(env.messages, [message]);
  assert.deepEqual(message.speaker, { scene: game.scenes.active.id, actor: null, token: null, alias: "Ambush" });
  assert.deepEqual(message.whisper, [GM]);
  assert.equal(message.rolls[0].dice[0].results[0].result, 4);
  assert.equal(message.toObject().author, GM);
  assert.equal(message.getFlag(MODULE_ID, "kind"), "surprise");
  await assert.rejects(ChatMessage.create({ content: "x", whisper: ["GM"] }), /whisper: "GM" is not a User id/);
  await assert.rejects(ChatMessage.create({ content: "x", rolls: [new Roll("1d6")] }), /must be evaluated/);
  await ChatMessage.create({ content: "x", user: GM });
  assert.equal(env.deprecations.length, 1);
  await env.settle();
});

test("DialogV2 resolves from scripted answers, runs button callbacks with form values and records each dialog", async (t) => {
  const env = setup(t);
  await env.boot();
  const { DialogV2 } = foundry.applications.api;
  env.dialogAnswers.push(
    { action: "roll", form: { modifier: -2 } },
    "skip",
    null,
    null,
  );
  const content = '<input name="modifier" type="number" value="0">';
  const buttons = [
    { action: "roll", label: "Roll", callback: (event, button) => button.form.elements.modifier.valueAsNumber },
    { action: "skip", label: "Skip" },
  ];
  assert.equal(await DialogV2.wait({ window: { title: "Surprise" }, content, buttons }), -2);
  assert.equal(await DialogV2.wait({ window: { title: "Surprise" }, buttons }), "skip");
  assert.equal(await DialogV2.wait({ window: { title: "Surprise" }, buttons }), null, "V13: dismissing resolves null");
  await assert.rejects(DialogV2.wait({ buttons, rejectClose: true }), /dismissed/);
  env.dialogAnswers.push("nope");
  await assert.rejects(DialogV2.wait({ buttons }), /"nope" is not one of roll, skip/);
  await assert.rejects(DialogV2.wait({ content: "ok?", buttons }), /dialogAnswers is empty/);
  await assert.rejects(DialogV2.wait({ buttons: [] }), /at least one button/);
  await assert.rejects(DialogV2.wait({ buttons: [{ action: "a" }, { action: "a" }] }), /unique action ids/);
  assert.equal(env.dialogs.length, 6);
  assert.equal(env.dialogs[0].title, "Surprise");
  assert.ok(env.dialogs.every((dialog) => !dialog.element.isConnected), "every dialog closed again");
});

test("DialogV2 renders its content into a real form inside dialog.element and calls render(event, dialog) first", async (t) => {
  const env = setup(t);
  await env.boot();
  const { DialogV2 } = foundry.applications.api;
  const seen = [];
  env.dialogAnswers.push((record) => {
    seen.push("answer");
    assert.equal(record.element.querySelector("form"), record.form);
    assert.equal(record.form.querySelector("p b").textContent, "bold", "the content is parsed, not kept as text");
    return "go";
  });
  const result = await DialogV2.wait({
    content: "<p>a <b>bold</b> <i>unclosed</p><script>globalThis.ran = 1</script><img src=x onerror=\"globalThis.ran = 2\">",
    buttons: [{ action: "go", label: "Go", callback: (event, button, dialog) => [event.type, button.dataset.action, dialog] }],
    render: (event, dialog) => {
      seen.push("render");
      assert.ok(event instanceof dialog.element.ownerDocument.defaultView.Event);
      assert.equal(event.type, "render");
      assert.ok(dialog instanceof DialogV2, "V13 and V14 pass the DialogV2 instance, not the element");
      assert.equal(dialog.element.tagName, "DIALOG");
      assert.equal(dialog.element.querySelector("form button[data-action=go]").textContent, "Go");
    },
  });
  assert.deepEqual(seen, ["render", "answer"]);
  assert.deepEqual(result.slice(0, 2), ["click", "go"]);
  assert.ok(result[2] instanceof DialogV2);
  const { form } = env.dialogs[0];
  assert.equal(form.querySelectorAll("script").length, 0, "cleanHTML drops scripts");
  assert.equal(form.querySelector("img").getAttribute("onerror"), null, "and event handler attributes");
  assert.equal(globalThis.ran, undefined);
});

test("A scripted answer sets the real form's fields, fires input and change, and refuses a field the form lacks", async (t) => {
  const env = setup(t);
  await env.boot();
  const { DialogV2 } = foundry.applications.api;
  const content = '<input name="n" type="number" value="1"><input name="c" type="checkbox">'
    + '<select name="s"><option value="x">X</option><option value="y">Y</option></select>';
  const events = [];
  const buttons = [{
    action: "ok", label: "OK",
    callback: (event, button) => [button.form.elements.n.value, button.form.elements.c.checked, button.form.elements.s.value],
  }];
  const render = (event, dialog) => {
    for (const type of ["input", "change"]) dialog.element.querySelector("form").addEventListener(type, (e) => events.push([type, e.target.name]));
  };
  env.dialogAnswers.push({ action: "ok", form: { n: 7, c: true, s: "y" } });
  assert.deepEqual(await DialogV2.wait({ content, buttons, render }), ["7", true, "y"]);
  assert.deepEqual(events, [["input", "n"], ["change", "n"], ["input", "c"], ["change", "c"], ["input", "s"], ["change", "s"]]);
  env.dialogAnswers.push({ action: "ok", form: { missing: 1 } });
  await assert.rejects(DialogV2.wait({ content, buttons }), /sets "missing", a field the dialog's form lacks \(it has: n, c, s\)/);
  env.dialogAnswers.push({ action: "ok", form: { s: "z" } });
  await assert.rejects(DialogV2.wait({ content, buttons }), /select "s" offers \["x","y"\], not "z"/);
  env.dialogAnswers.push({ action: "ok", form: { c: "yes" } });
  await assert.rejects(DialogV2.wait({ content, buttons }), /checkbox "c" takes true or false/);
  env.dialogAnswers.push((record) => {
    record.fill({ n: 3 });
    assert.throws(() => record.click(".nothing"), /has no \.nothing to click/);
    return "ok";
  });
  assert.deepEqual(await DialogV2.wait({ content, buttons }), ["3", false, "x"]);
});

test("DialogV2 records the fields a module asks its form for that the form lacks; options it does not emulate throw", async (t) => {
  const env = setup(t);
  await env.boot();
  const { DialogV2 } = foundry.applications.api;
  env.dialogAnswers.push("ok");
  const config = {
    content: '<input name="here" value="1">',
    buttons: [{ action: "ok", label: "OK", callback: (event, button) => [button.form.elements.here?.value, button.form.elements.gone, button.form.elements.namedItem("lost")] }],
  };
  assert.deepEqual(await DialogV2.wait(config), ["1", undefined, null]);
  assert.deepEqual(env.dialogs[0].absentFields, ["gone", "lost"]);
  await assert.rejects(DialogV2.wait({ ...config, close: () => {} }), /DialogV2.wait close not emulated/);
  await assert.rejects(DialogV2.wait({ buttons: [{ action: "ok", icon: "fa-x" }] }), /DialogV2 button icon not emulated/);
});

test("foundry.utils: getProperty, deepClone, saveDataToFile recording the download of three strings; no global aliases", async (t) => {
  const env = setup(t);
  await env.boot();
  assert.throws(() => getProperty({}, "a"), ReferenceError); // eslint-disable-line no-undef
  const object = { a: { b: 1 } };
  assert.equal(foundry.utils.getProperty(object, "a.b"), 1);
  assert.equal(foundry.utils.getProperty(object, "a.c.d"), undefined);
  const clone = foundry.utils.deepClone(object);
  clone.a.b = 9;
  assert.equal(object.a.b, 1);
  foundry.utils.saveDataToFile("a = 1\n", "application/toml", "x.toml");
  assert.deepEqual(env.downloads, [{ data: "a = 1\n", type: "application/toml", filename: "x.toml" }]);
  assert.throws(() => foundry.utils.saveDataToFile({ a: 1 }, "application/json", "x.json"), /data must be a string/);
  assert.throws(() => foundry.utils.saveDataToFile("x", "text/plain", " "), /filename/);
  assert.equal(env.downloads.length, 1);
});

test("ui.notifications are recorded; tokens validate dispositions", async (t) => {
  const env = setup(t);
  await env.boot();
  ui.notifications.warn("careful");
  ui.notifications.info("done");
  assert.deepEqual(env.notifications, [{ type: "warning", message: "careful" }, { type: "info", message: "done" }]);
  assert.throws(() => ui.notifications.info(`${MODULE_ID}.Done`, { localize: true }), /not emulated/);
  await assert.rejects(env.createToken({ name: "X", disposition: 2 }), /disposition/);
  const secret = await env.createToken({ name: "S", disposition: CONST.TOKEN_DISPOSITIONS.SECRET });
  assert.equal(secret.disposition, -2);
});

// -- whole modules: correct code passes, typical mistakes are caught ------------------------------

const SURPRISE_EN = {
  [MODULE_ID]: {
    Settings: { Enabled: { Name: "Automate surprise", Hint: "Mark hostile tokens surprised in round 1" } },
    Status: { Surprised: "Surprised" },
  },
};

function surpriseModule({ gate = true, statusHook = "setup", legacyLabel = false } = {}) {
  return `
    const ID = "${MODULE_ID}";
    Hooks.once("init", () => {
      game.settings.register(ID, "enabled", {
        name: \`\${ID}.Settings.Enabled.Name\`, hint: \`\${ID}.Settings.Enabled.Hint\`,
        scope: "world", config: true, type: Boolean, default: true,
      });
    });
    Hooks.once("${statusHook}", () => {
      CONFIG.statusEffects.push({ id: "surprised", _id: "surprised0000000", img: "icons/svg/hazard.svg",
        ${legacyLabel ? "label" : "name"}: \`\${ID}.Status.Surprised\` });
    });
    Hooks.on("combatTurnChange", async (combat, prior, current) => {
      ${gate ? "if (!game.users.activeGM?.isSelf) return;" : ""}
      if (!game.settings.get(ID, "enabled")) return;
      const hostile = combat.combatants.filter((c) => c.token?.disposition === CONST.TOKEN_DISPOSITIONS.HOSTILE);
      if (prior.round === 0 && current.round === 1) {
        for (const c of hostile) await c.actor?.toggleStatusEffect("surprised", { active: true });
      } else if (prior.round === 1 && current.round === 2) {
        for (const c of hostile) await c.actor?.toggleStatusEffect("surprised", { active: false });
      }
    });
  `;
}

/** What a test of a module checks was not recorded: hook errors, missing translations, deprecations, warnings */
const recorded = (env) => [...env.errors.map((e) => e.error.message), ...env.missingI18n,
  ...env.deprecations.map((d) => d.message), ...env.warnings];

async function surpriseWorld(t, main, options = {}) {
  const root = writeModule(t, { main, en: SURPRISE_EN });
  const env = setup(t, { modules: [], ...options });
  const hero = await env.createActor({ name: "Hero", ownership: { default: 0, [PLAYER]: 3 } });
  const orc = await env.createActor({ name: "Orc" });
  const heroToken = await env.createToken({ actor: hero, disposition: CONST.TOKEN_DISPOSITIONS.FRIENDLY });
  const orcToken = await env.createToken({ actor: orc, disposition: CONST.TOKEN_DISPOSITIONS.HOSTILE });
  const combat = await env.createCombat({ combatants: [{ token: heroToken }, { token: orcToken }] });
  await env.loadModule(root);
  return { env, hero, orc, combat };
}

test("a correct module passes on the GM client: surprised in round 1, removed in round 2, nothing recorded", async (t) => {
  const { env, hero, orc, combat } = await surpriseWorld(t, surpriseModule());
  await combat.startCombat();
  await env.settle();
  assert.ok(orc.statuses.has("surprised"));
  assert.equal(orc.effects.get("surprised0000000").name, "Surprised");
  assert.ok(!hero.statuses.has("surprised"));
  await combat.nextRound();
  await env.settle();
  assert.ok(!orc.statuses.has("surprised"));
  assert.deepEqual(env.checkSettingsI18n(), []);
  assert.deepEqual(recorded(env), []);
});

test("a correct module passes on a player client: the GM's change is seen, the player writes nothing", async (t) => {
  const { env, orc, combat } = await surpriseWorld(t, surpriseModule(), { userId: PLAYER });
  await env.remote(GM, () => combat.startCombat());
  await env.settle();
  assert.ok(!orc.statuses.has("surprised"), "only the GM client automates");
  assert.ok(env.writes.every((w) => w.userId === GM));
  assert.deepEqual(recorded(env), []);
});

test("caught: automation without the activeGM gate writes from a player client", async (t) => {
  const { env, combat } = await surpriseWorld(t, surpriseModule({ gate: false }), { userId: PLAYER });
  await env.remote(GM, () => combat.startCombat());
  await env.settle();
  assert.match(recorded(env).join(), /lacks permission to create ActiveEffect/);
  assert.equal(env.deniedWrites.length, 1);
});

test("caught: automation without the activeGM gate runs twice with two GMs", async (t) => {
  const users = [
    { id: GM, name: "GM", isGM: true, active: true },
    { id: "gamemaster000002", name: "GM 2", isGM: true, active: true },
  ];
  const { env, combat } = await surpriseWorld(t, surpriseModule({ gate: false }), { users, userId: "gamemaster000002" });
  await env.remote(GM, () => combat.startCombat());
  await env.settle();
  assert.ok(env.writes.some((w) => w.userId === "gamemaster000002"), "the second GM wrote too");
});

test("caught: a legacy label on the status entry records a deprecation", async (t) => {
  const { env, combat } = await surpriseWorld(t, surpriseModule({ legacyLabel: true }));
  await combat.startCombat();
  await env.settle();
  assert.match(recorded(env).join(), /"label" is deprecated/);
});

test("caught: a status pushed at module top level is lost when the gurps system initializes", async (t) => {
  const main = surpriseModule().replace('Hooks.once("setup", () => {', "(() => {");
  const { env, combat } = await surpriseWorld(t, main);
  await combat.startCombat();
  await env.settle();
  assert.match(recorded(env).join(), /Invalid status ID "surprised"/);
});


// -- V13 and V14 (docs/dev/foundry.md §10) -------------------------------------------------------

test("generations: 13 and 14 only; game.release tells which", (t) => {
  assert.throws(() => createFoundry({ generation: 12 }), /generation 12 is not emulated/);
  const env = setup(t, { generation: 14 });
  assert.deepEqual({ ...game.release }, { generation: 14, build: 369, version: "14.369" });
  env.teardown();
  setup(t, { generation: 13 });
  assert.equal(game.release.generation, 13);
});

test("V14: CONFIG.statusEffects is an object keyed by id; array methods throw; gurps still assigns an array", async (t) => {
  let env = setup(t, { generation: 14, systemId: "ars" });
  await env.boot();
  assert.ok(!Array.isArray(CONFIG.statusEffects));
  assert.equal(CONFIG.statusEffects.prone.id, "prone");
  assert.throws(() => CONFIG.statusEffects.some((s) => s.id === "prone"), /some is not a function/);
  CONFIG.statusEffects.surprised = { id: "surprised", name: "Surprised", img: "s.svg" };
  const actor = await env.createActor({ name: "Ann" });
  assert.ok((await actor.toggleStatusEffect("surprised")).statuses.has("surprised"));
  env.teardown();
  env = setup(t, { generation: 14, systemId: "gurps" });
  await env.boot();
  assert.ok(Array.isArray(CONFIG.statusEffects) && CONFIG.statusEffects.some((s) => s.id === "mentalstun"));
});

test("V14: duration {value, units, expiry, expired} and start at creation; V13 keys dropped with a warning", async (t) => {
  const { env, actors, combat } = await bootedWithCombat(t, { generation: 14, systemId: "ars" });
  await combat.startCombat();
  await combat.nextTurn();
  const [effect] = await actors[0].createEmbeddedDocuments("ActiveEffect", [
    { name: "Held", duration: { value: 2, units: "rounds", expiry: "roundEnd" } }]);
  assert.deepEqual({ ...effect.duration }, { value: 2, units: "rounds", expiry: "roundEnd", expired: false });
  assert.deepEqual(effect.toObject().start, { time: game.time.worldTime, combat: combat.id, combatant: combat.turns[1].id, initiative: null, round: 1, turn: 1 });
  const [old] = await actors[0].createEmbeddedDocuments("ActiveEffect", [{ name: "Old", duration: { value: 3, units: "rounds", rounds: 4 } }]);
  assert.deepEqual({ ...old.duration }, { value: 3, units: "rounds", expiry: null, expired: false });
  assert.deepEqual(env.warnings, ["ActiveEffect: V13 duration keys are not written on V14: rounds"]);
  const writes = env.writes.length;
  assert.equal(await old.update({ duration: { rounds: 5, startRound: 1 } }), undefined, "nothing left to send");
  assert.equal(env.writes.length, writes);
  assert.match(env.warnings[1], /rounds, startRound/);
  await assert.rejects(actors[0].createEmbeddedDocuments("ActiveEffect", [{ name: "Bad", duration: { units: "ages" } }]), /units/);
});

test("V14 core expiry: run out and at its event, expired stays on the actor; statuses drops it; toggle finds it", async (t) => {
  const { env, actors, combat } = await bootedWithCombat(t, { generation: 14, systemId: "ars" });
  await combat.startCombat();
  await env.settle();
  // Made during Ann's turn: one round, expiring at the start of Ann's next turn (turnStart by default)
  const [stun] = await actors[1].createEmbeddedDocuments("ActiveEffect", [
    { name: "Stunned", statuses: ["stun"], duration: { value: 1, units: "rounds" } }]);
  const [anchored] = await actors[2].createEmbeddedDocuments("ActiveEffect", [
    { name: "Stunned", statuses: ["stun"], duration: { value: 1, units: "rounds" }, start: { combatant: combat.turns[2].id } }]);
  await combat.nextTurn();
  await combat.nextTurn();
  await env.settle();
  assert.equal(stun.duration.expired, false, "not run out within round 1");
  await combat.nextRound();
  await env.settle();
  assert.equal(stun.duration.expired, true, "Ann's turn in round 2");
  assert.equal(anchored.duration.expired, false, "anchored to Cid's turn");
  assert.ok(actors[1].effects.has(stun.id), "expiryAction update: it stays");
  assert.ok(!actors[1].statuses.has("stun"));
  assert.equal(await actors[1].toggleStatusEffect("stun", { active: true }), true, "the leftover counts as present");
  assert.equal(actors[1].effects.size, 1);
  await combat.nextTurn();
  await combat.nextTurn();
  await env.settle();
  assert.equal(anchored.duration.expired, true, "Cid's turn in round 2");
  CONFIG.ActiveEffect.expiryAction = "delete";
  const [gone] = await actors[0].createEmbeddedDocuments("ActiveEffect", [
    { name: "Brief", statuses: ["stun"], duration: { value: 1, units: "turns", expiry: "roundStart" } }]);
  await combat.nextRound();
  await env.settle();
  assert.ok(!actors[0].effects.has(gone.id), "expiryAction delete");
  assert.deepEqual(env.errors, []);
});

test("V14 core expiry: a rewind fires no turn events, so it expires nothing; advancing again does", async (t) => {
  const { env, actors, combat } = await bootedWithCombat(t, { generation: 14, systemId: "ars" });
  await combat.startCombat();
  await combat.nextTurn();
  // Made during Bob's turn in round 1: one round, expiring at the end of Bob's turn
  const [held] = await actors[1].createEmbeddedDocuments("ActiveEffect", [
    { name: "Held", statuses: ["stun"], duration: { value: 1, units: "rounds", expiry: "turnEnd" } }]);
  for (let i = 0; i < 3; i++) await combat.nextTurn();
  await env.settle();
  assert.deepEqual([combat.round, combat.combatant.name, held.duration.expired], [2, "Bob", false]);
  await combat.previousTurn();
  await env.settle();
  assert.equal(held.duration.expired, false, "Bob's turn was rewound, not ended");
  await combat.nextTurn();
  await env.settle();
  assert.equal(held.duration.expired, false);
  await combat.nextTurn();
  await env.settle();
  assert.equal(held.duration.expired, true, "Bob's turn in round 2 ended");
  assert.deepEqual(env.errors, []);
});

test("V14 core expires an effect only at its own event: combatEnd when the combat is deleted", async (t) => {
  const { env, actors, combat } = await bootedWithCombat(t, { generation: 14, systemId: "ars" });
  await combat.startCombat();
  const [effect] = await actors[0].createEmbeddedDocuments("ActiveEffect", [
    { name: "Until the end", duration: { value: 1, units: "rounds", expiry: "combatEnd" } }]);
  const [open] = await actors[0].createEmbeddedDocuments("ActiveEffect", [{ name: "No duration" }]);
  for (let i = 0; i < 6; i++) await combat.nextTurn();
  await env.settle();
  assert.equal(effect.duration.expired, false);
  await env.deleteCombat(combat);
  await env.settle();
  assert.equal(effect.duration.expired, true);
  assert.equal(open.duration.expired, false);
});

test("a dnd5e-6-like system stamps turnStart and 0 seconds on effects made in combat without an expiry; core expires them", async (t) => {
  for (const expiryInMemory of [false, true]) {
    const { env, actors, combat } = await bootedWithCombat(t, { generation: 14, systemId: "ars", expiryInMemory });
    const unstamp = installDnd5eExpiryStamp();
    t.after(unstamp);
    await combat.startCombat();
    await combat.nextTurn();
    await env.settle();
    // Made during Bob's turn: stamped (foundryvtt/dnd5e#7482, #7484); one with its own expiry or in turns is not.
    const [stamped, own, turns] = await actors[1].createEmbeddedDocuments("ActiveEffect", [{ name: "Prone", statuses: ["prone"] },
      { name: "Held", duration: { expiry: "combatEnd" } }, { name: "Brief", duration: { value: 3, units: "turns" } }]);
    assert.deepEqual({ ...stamped.duration }, { value: 0, units: "seconds", expiry: "turnStart", expired: false });
    assert.deepEqual([own.duration.expiry, own.duration.value, turns.duration.expiry], ["combatEnd", null, null]);
    for (let i = 0; i < 2; i++) await combat.nextTurn();
    await env.settle();
    assert.equal(stamped.duration.expired, false, "not yet Bob's next turn");
    await combat.nextTurn();
    await env.settle();
    assert.deepEqual([combat.combatant.name, stamped.duration.expired, own.duration.expired], ["Bob", true, false]);
    assert.ok(!actors[1].statuses.has("prone"));
    assert.equal(stamped._source.duration.expired, !expiryInMemory, "persisted, or in this client's memory only (foundryvtt#13743)");
    unstamp();
    env.teardown();
  }
});

test("GGA 1.0: traits and skills are Items; the deprecated lists record a read; the finders search the Items", async (t) => {
  const env = setup(t, { generation: 14, systemId: "gurps" });
  const uninstall = installGga1Actors();
  t.after(uninstall);
  await env.boot();
  const item = (id, type, name, system) => ({ _id: id.padEnd(16, "0"), type, name, system });
  const actor = await env.createActor({ name: "Ann", system: { profile: {}, holderItemId: "holder".padEnd(16, "0"),
    attributes: { IQ: { importedValue: 12, points: 40 } } },
  items: [item("box", "feature", "Advantages", { points: 15 }), item("cr", "feature", "Combat Reflexes",
    { containedBy: "box".padEnd(16, "0"), points: 15 }), item("holder", "feature", "Personal Actions & Modifiers", {}),
  item("tac", "skill", "Tactics", { points: 2, importedLevel: 11 }), item("naval", "skill", "Naval Tactics",
    { points: 1, importedLevel: 13, otf: "[14]" })] });
  assert.equal(actor.system.attributes.IQ.value, 12, "the imported value");
  assert.deepEqual(actor.items.map((i) => [i.name, i.system.level]), [["Advantages", null], ["Combat Reflexes", null],
    ["Personal Actions & Modifiers", null], ["Tactics", 11], ["Naval Tactics", 14]]);
  assert.deepEqual(actor.system.allAdsV2.map((i) => i.name), ["Advantages", "Combat Reflexes"], "not the holder");
  assert.deepEqual(env.deprecations, []);
  assert.deepEqual(Object.values(actor.system.ads).map((entry) => [entry.name, Object.keys(entry.contains).length]), [["Advantages", 1]]);
  assert.equal(env.deprecations.length, 1);
  assert.equal(actor.system.findAdvantage("reflex").name, "Combat Reflexes", "contained, case aside");
  assert.equal(GURPS.findSkillSpell(actor, "Tactics", true).name, "Naval Tactics", "the best level, anywhere in the name");
  assert.equal(GURPS.findAdDisad(actor, "Luck"), null);
});

test("V14: a numeric ChatMessage type is rejected (V13: deprecated), as is Roll#evaluate's async option", async (t) => {
  let env = setup(t, { generation: 14 });
  await env.boot();
  await assert.rejects(ChatMessage.create({ content: "x", type: 0 }), /type/);
  await assert.rejects(new Roll("1d6").evaluate({ async: true }), /async/);
  env.teardown();
  env = setup(t, { generation: 13 });
  await env.boot();
  await ChatMessage.create({ content: "x", type: 0 });
  assert.match(env.deprecations[0].message, /numeric ChatMessage type/);
});

test("the Combat Tracker: encounter controls row; a popped-out tracker's nodes belong to its own document", async (t) => {
  const env = setup(t, { generation: 14 });
  await env.boot();
  const seen = recordHooks(["renderCombatTracker"]);
  const root = env.renderCombatTracker();
  const popped = env.renderCombatTracker({ popout: true });
  assert.equal(seen.length, 2);
  assert.equal(seen[1].args[1], popped);
  assert.equal(root.querySelectorAll(".encounter-controls .control-buttons").length, 2);
  assert.ok(root.querySelector("header.combat-tracker-header .control-buttons.right"));
  assert.notEqual(root.ownerDocument, popped.ownerDocument);
  assert.equal(typeof globalThis.HTMLElement, "undefined");
  const row = popped.querySelector(".control-buttons.left");
  assert.throws(() => row.append(root.ownerDocument.createElement("button")), /another document/);
  const button = popped.ownerDocument.createElement("button");
  let clicked = 0;
  button.addEventListener("click", () => { clicked += 1; });
  row.append(button);
  button.click();
  assert.equal(clicked, 1);
});

test("each game system's tracker: ARS's own by default in an ars world, its controls in one row; jQuery on request", async (t) => {
  const env = setup(t, { generation: 13, systemId: "ars" });
  await env.boot();
  const seen = recordHooks(["renderCombatTracker"]);
  const ars = env.renderCombatTracker();
  assert.equal(ars.querySelectorAll(".control-buttons").length, 0);
  const row = ars.querySelector("header.combat-tracker-header .encounter-controls");
  assert.deepEqual(row.children.map((child) => child.getAttribute("data-control")),
    ["rollAll", "rollNPC", null, "resetAll", "toggleSceneLink", "trackerSettings"]);
  assert.equal(seen[0].args[1], ars);
  const wrapped = env.renderCombatTracker({ jquery: true });
  assert.equal(seen[1].args[1].jquery !== undefined, true);
  assert.equal(seen[1].args[1][0], wrapped);
  assert.equal(env.renderCombatTracker({ tracker: "core" }).querySelectorAll(".encounter-controls .control-buttons").length, 2);
  assert.throws(() => env.renderCombatTracker({ tracker: "<section><div></section></div>" }), /out of order/);
});

test("the world clock: core's methods pass their time in the update's options, applied before updateCombat", async (t) => {
  for (const generation of [13, 14]) {
    const { env, combat } = await bootedWithCombat(t, { generation });
    const clock = [];
    Hooks.on("updateWorldTime", (worldTime, dt) => clock.push([worldTime, dt]));
    Hooks.on("updateCombat", () => clock.push(["updateCombat", game.time.worldTime]));
    await combat.startCombat();
    assert.deepEqual(clock, [["updateCombat", 0]], "no time from round 0 to 1 (foundryvtt#12015)");
    await combat.nextTurn();
    await combat.nextTurn();
    await combat.nextTurn();
    assert.equal(game.time.worldTime, CONFIG.time.roundTime, "the turns pass none of their own, the round its time");
    assert.deepEqual(clock.slice(-2), [[CONFIG.time.roundTime, CONFIG.time.roundTime], ["updateCombat", CONFIG.time.roundTime]]);
    CONFIG.time.turnTime = 2;
    await combat.nextRound();
    assert.equal(game.time.worldTime, 2 * CONFIG.time.roundTime + 2 * 2, "a round begun from the first turn passes the turns skipped");
    await combat.previousRound();
    assert.equal(game.time.worldTime, CONFIG.time.roundTime + 2 * 2, "back to the last turn of the round before, two turns after its first");
    // Either key is read, on both generations (harness choice)
    await combat.update({ turn: 0 }, { advanceTime: 7 });
    await combat.update({ turn: 1 }, { worldTime: { delta: 5 } });
    assert.equal(game.time.worldTime, CONFIG.time.roundTime + 2 * 2 + 12);
    env.teardown();
  }
});

test("ARS's time: its rounds pass a minute, its own methods say so in advanceTime, its effects end by the clock", async (t) => {
  const { env, combat, actors } = await bootedWithCombat(t, { generation: 13, systemId: "ars" });
  t.after(installArsTurnMethods());
  t.after(installArsTime());
  assert.deepEqual(CONFIG.time, { roundTime: 60, turnTime: 600 });
  const seen = recordHooks(["preUpdateCombat"]);
  await combat.startCombat();
  await actors[0].createEmbeddedDocuments("ActiveEffect", [{ name: "Bless", duration: { seconds: 120, startTime: game.time.worldTime } }]);
  for (let turn = 0; turn < 3; turn += 1) await combat.nextTurn();
  assert.deepEqual(seen.map((s) => s.args[2].advanceTime), [undefined, undefined, undefined, 60], "turns pass none, the round 60");
  await env.settle();
  assert.equal(actors[0].effects.size, 1, "60 of 120 seconds passed");
  await combat.nextRound();
  await env.settle();
  assert.equal(game.time.worldTime, 120);
  assert.equal(actors[0].effects.size, 0, "gone once its seconds ran out");
  await combat.previousRound();
  assert.equal(seen.at(-1).args[2].advanceTime, -60);
  assert.equal(game.time.worldTime, 60);
});
