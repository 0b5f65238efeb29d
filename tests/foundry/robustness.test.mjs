// Robustness of the generated example modules in the emulated Foundry client (run by tests/test_runtime_robustness.py):
// documents that disappear mid-surprise, several GM clients, a player client, a game system's own status and a
// module loaded into a combat already under way. In every case nothing throws, the GM is told what could not be
// done, and no status the module applied is left behind for good.
// MODULES_DIR holds <id>/foundry for the three example campaigns.
import assert from "node:assert/strict";
import { test } from "node:test";
import { addStatusEntry, createFoundry, runGeneration, statusEntries } from "../../tools/harness/foundry/harness.mjs";

const MODULES = process.env.MODULES_DIR;
const GENERATION = runGeneration();
const GURPS = "ambush-gurps-example";
const ADND = "ambush-adnd-example";
const FALLOUT = "ambush-fallout-example";
const SYSTEMS = { [GURPS]: "gurps", [ADND]: "ars", [FALLOUT]: "fallout-homebrew" };
const moduleDir = (id) => `${MODULES}/${id}/foundry`;

const GM1 = "gamemaster000001";
const GM2 = "gamemaster000002";
const PLAYER = "player0000000001";
const USERS = [
  { id: GM1, name: "GM 1", isGM: true, active: true },
  { id: GM2, name: "GM 2", isGM: true, active: true },
  { id: PLAYER, name: "Pat", isGM: false, active: true },
];

/**
 * A fresh client for a module; `userId` switches to that user's client before the module loads, `init` runs in
 * the game system's init hook (registered before the module's), `seed` creates world data before boot.
 */
async function boot(id, { userId, init, seed } = {}) {
  const env = createFoundry({ generation: GENERATION, systemId: SYSTEMS[id], modules: [{ id }], users: USERS, quiet: true });
  if (userId) env.switchUser(userId);
  if (init) Hooks.once("init", init);
  if (seed) await seed(env);
  await env.loadModule(moduleDir(id));
  return env;
}

/** The messages of the hook errors recorded: any entry is an exception that escaped the module. */
const crashes = (env) => env.errors.map((e) => `${e.hook}: ${e.error?.message ?? e.error ?? e.message}`);

/** The warnings and errors shown to the local user. */
const warnings = (env) => env.notifications.filter((n) => n.type === "warning" || n.type === "error").map((n) => n.message);

/** Document changes this client asked for. */
const writesBy = (env, userId) => env.writes.filter((w) => w.userId === userId);

/** Create GURPS characters (IQ 10 unless given) with linked tokens: friendly first, then hostile. */
async function gurpsParty(env, friendly, hostile) {
  const made = {};
  for (const [names, disposition] of [[friendly, 1], [hostile, -1]]) {
    for (const name of names) {
      const actor = await env.createActor({ name, system: { attributes: { IQ: { value: 10 }, PER: { value: 10 } }, ads: {}, skills: {} } });
      const token = await env.createToken({ actor, name, disposition });
      made[name] = { actor, token };
    }
  }
  return made;
}

/** Create a combat of the given tokens, in this order, and let the hooks run. */
async function combatOf(env, tokens) {
  const combat = await env.createCombat({ combatants: tokens.map((token) => ({ token })) });
  await env.settle();
  return combat;
}

/** One friendly and one hostile actor without sheet data, their tokens in a combat in that order. */
async function duel(env, friendly, hostile) {
  const a = await env.createActor({ name: friendly });
  const b = await env.createActor({ name: hostile });
  const combat = await combatOf(env, [
    await env.createToken({ actor: a, name: friendly, disposition: 1 }),
    await env.createToken({ actor: b, name: hostile, disposition: -1 }),
  ]);
  return { combat, friendly: a, hostile: b };
}

/**
 * Start the combat and play six turns of a one-second total surprise: the hostiles freeze, then every roll is
 * a 9 (3, 3, 3), which recovers against IQ 10 or more.
 */
async function playOutTotalSurprise(env, combat) {
  await combat.startCombat();
  await env.settle();
  env.scriptDice(3, 3, 3, 3, 3, 3);
  for (let i = 0; i < 6; i += 1) await next(env, combat);
}

/** The combatant of a token. */
const combatantOf = (combat, token) => combat.combatants.find((c) => c.tokenId === token.id);

/** Return a member of a draft (api.draft) by name. */
const memberOf = (draft, name) => [...draft.sides.a.members, ...draft.sides.b.members].find((m) => m.name === name);

/** Resolve a GURPS total surprise from the defaults: the hostiles freeze for `freeze` seconds. */
async function totalSurprise(env, combat, freeze = 1) {
  const api = game.modules.get(GURPS).api;
  env.scriptDice(freeze);
  const outcome = await api.resolve(api.draft(combat, "total"), combat);
  await env.settle();
  return outcome;
}

/** Resolve an AD&D surprise from the defaults: side a rolls 5, side b 2 and is surprised for 2 segments. */
async function adndSurprise(env, combat) {
  env.scriptDice(5, 2);
  const api = game.modules.get(ADND).api;
  await api.resolve(api.draft(combat, "roll"), combat);
  await env.settle();
}

/** Advance one turn and let the automation run. */
async function next(env, combat) {
  await combat.nextTurn();
  await env.settle();
}

test("a combatant without an actor: the dialog asks for its values and the GM is told no status can be shown", async () => {
  const env = await boot(GURPS);
  try {
    const { Ava, Orc, Gob } = await gurpsParty(env, ["Ava"], ["Orc", "Gob"]);
    await env.deleteActor(Gob.actor); // gone before the surprise; its token and combatant stay
    const combat = await combatOf(env, [Ava.token, Orc.token, Gob.token]);
    const api = game.modules.get(GURPS).api;
    const gob = combatantOf(combat, Gob.token);
    const input = api.draft(combat, "total");
    assert.equal(memberOf(input, "Gob").iq, null, "nothing to read: the dialog asks");
    assert.equal(await api.resolve(input, combat), null);
    assert.ok(warnings(env).some((m) => m.includes("Gob") && m.includes("IQ")), "the missing IQ is named");
    env.notifications.length = 0;
    memberOf(input, "Gob").iq = 11;
    env.scriptDice(1); // frozen for 1 second
    const outcome = await api.resolve(input, combat);
    await env.settle();
    assert.equal(outcome.surprise, "a");
    assert.ok(Orc.actor.statuses.has("mentalstun"));
    assert.ok(warnings(env).includes("Gob has no actor: Surprised cannot be shown on it."), warnings(env).join("; "));
    await playOutTotalSurprise(env, combat); // Orc frozen, Gob frozen, then both recover (9 against IQ 10 and 11)
    assert.equal(env.pendingDice.length, 0);
    assert.ok(!Orc.actor.statuses.has("mentalstun"), "the status of the one with an actor is lifted");
    assert.equal(api.state(combat).done, true);
    assert.deepEqual(crashes(env), []);
  } finally {
    env.teardown();
  }
});

test("a combatant whose token is deleted mid-surprise keeps its actor's status until it recovers", async () => {
  const env = await boot(GURPS);
  try {
    const { Ava, Orc, Gob } = await gurpsParty(env, ["Ava"], ["Orc", "Gob"]);
    const combat = await combatOf(env, [Ava.token, Orc.token, Gob.token]);
    await totalSurprise(env, combat, 1);
    await env.deleteToken(Gob.token);
    await env.settle();
    await playOutTotalSurprise(env, combat);
    assert.ok(!Orc.actor.statuses.has("mentalstun"));
    assert.ok(!Gob.actor.statuses.has("mentalstun"), "the actor behind the deleted token recovers too");
    assert.equal(game.modules.get(GURPS).api.state(combat).done, true);
    assert.deepEqual(crashes(env), []);
    assert.deepEqual(warnings(env), []);
  } finally {
    env.teardown();
  }
});

test("an actor deleted after the resolve, before its stun turns: the others carry on, nothing throws", async () => {
  const env = await boot(GURPS);
  try {
    const { Ava, Orc, Gob } = await gurpsParty(env, ["Ava"], ["Orc", "Gob"]);
    const combat = await combatOf(env, [Ava.token, Orc.token, Gob.token]);
    await totalSurprise(env, combat, 1);
    assert.ok(Gob.actor.statuses.has("mentalstun"));
    await env.deleteActor(Gob.actor);
    await env.settle();
    await playOutTotalSurprise(env, combat);
    assert.ok(!Orc.actor.statuses.has("mentalstun"));
    assert.equal(game.modules.get(GURPS).api.state(combat).done, true);
    await env.deleteCombat(combat);
    await env.settle();
    assert.deepEqual(crashes(env), []);
    assert.deepEqual(warnings(env), []);
  } finally {
    env.teardown();
  }
});

test("the combat deleted mid-surprise: every status the module applied is removed, in every system", async () => {
  // GURPS: mental stun and unaware after a won sneaking contest
  let env = await boot(GURPS);
  try {
    const { Ava, Orc } = await gurpsParty(env, ["Ava"], ["Orc"]);
    const combat = await combatOf(env, [Ava.token, Orc.token]);
    const api = game.modules.get(GURPS).api;
    const input = api.draft(combat, "quick-contest");
    memberOf(input, "Ava").stealth = 14;
    env.scriptDice(1, 1, 1, 6, 6, 6); // the sneak rolls 3, the watcher 18
    await api.resolve(input, combat);
    await env.settle();
    assert.ok(Orc.actor.statuses.has("mentalstun") && Orc.actor.statuses.has("unaware"));
    await combat.startCombat();
    await env.settle();
    await env.deleteCombat(combat);
    await env.settle();
    assert.deepEqual([...Orc.actor.statuses], []);
    assert.deepEqual(crashes(env), []);
  } finally {
    env.teardown();
  }
  // AD&D: surprised, with a duration tied to the deleted combat
  env = await boot(ADND);
  try {
    const { combat, hostile: gob } = await duel(env, "Ann", "Gob");
    await adndSurprise(env, combat);
    await combat.startCombat();
    await env.settle();
    assert.ok(gob.statuses.has("surprised"));
    await env.deleteCombat(combat);
    await env.settle();
    assert.ok(!gob.statuses.has("surprised"));
    assert.deepEqual(crashes(env), []);
  } finally {
    env.teardown();
  }
  // Fallout: surprised, prone and asleep
  env = await boot(FALLOUT);
  try {
    const { combat, friendly: vic, hostile: ghoul } = await duel(env, "Vic", "Ghoul");
    const api = game.modules.get(FALLOUT).api;
    const input = api.draft(combat, "sneak-attack");
    input.openers = [{ name: "Vic", attack_bonus: 10, target_number: 12 }];
    memberOf(input, "Ghoul").asleep = true;
    env.scriptDice(15, 15); // 10 + 15 hits 12: the Ghoul is surprised, and asleep
    await api.resolve(input, combat);
    await env.settle();
    assert.deepEqual([...ghoul.statuses].sort(), ["prone", "sleep", "surprised"]);
    await env.deleteCombat(combat);
    await env.settle();
    assert.deepEqual([...ghoul.statuses], []);
    assert.deepEqual(crashes(env), []);
  } finally {
    env.teardown();
  }
});

test("the combat deleted while a turn of the automation is still rolling: nothing throws, nothing stays", async () => {
  const env = await boot(GURPS);
  try {
    const { Ava, Orc, Gob } = await gurpsParty(env, ["Ava"], ["Orc", "Gob"]);
    const combat = await combatOf(env, [Orc.token, Gob.token, Ava.token]);
    await totalSurprise(env, combat, 1);
    env.scriptDice(3, 3, 3, 3, 3, 3);
    await combat.startCombat(); // Orc's turn starts; the combat goes before the automation has finished
    await env.deleteCombat(combat);
    await env.settle();
    assert.ok(!Orc.actor.statuses.has("mentalstun"));
    assert.ok(!Gob.actor.statuses.has("mentalstun"));
    assert.deepEqual(crashes(env), []);
    assert.deepEqual(env.deniedWrites, []);
  } finally {
    env.teardown();
  }
});

/**
 * Play a GURPS total surprise in an earlier session and return the world as stored: actors with their effects,
 * tokens, and the combat with its surprise flag, after `turns` turns of the started combat.
 */
async function earlierSession({ turns = 0, dice = [] } = {}) {
  const env = await boot(GURPS);
  try {
    const { Ava, Orc, Gob } = await gurpsParty(env, ["Ava"], ["Orc", "Gob"]);
    const combat = await combatOf(env, [Ava.token, Orc.token, Gob.token]);
    await totalSurprise(env, combat, 1);
    await combat.startCombat();
    await env.settle();
    env.scriptDice(...dice);
    for (let i = 0; i < turns; i += 1) await next(env, combat);
    assert.equal(env.pendingDice.length, 0);
    assert.deepEqual(crashes(env), []);
    return {
      actors: game.actors.map((actor) => actor.toObject()),
      tokens: game.scenes.active.tokens.map((token) => token.toObject()),
      combat: combat.toObject(),
    };
  } finally {
    env.teardown();
  }
}

/** Seed a client's world with an earlier session's documents, before boot. */
const seedWorld = (world) => async (env) => {
  const actors = [];
  for (const actor of world.actors) actors.push(await env.createActor(actor));
  const tokens = [];
  for (const token of world.tokens) {
    tokens.push(await env.createToken({ ...token, actor: actors.find((actor) => actor.id === token.actorId) }));
  }
  const { combatants, ...combat } = world.combat;
  const token = (id) => tokens.find((candidate) => candidate.id === id);
  await env.createCombat({ ...combat, combatants: combatants.map((c) => ({ ...c, token: token(c.tokenId) })) });
};

test("two GMs connected: the automation runs once, on the active GM's client", async () => {
  const world = await earlierSession(); // resolved, combat started at Ava's turn
  // The second GM's client: other clients' turn changes arrive, it neither rolls nor writes
  let env = await boot(GURPS, { userId: GM2, seed: seedWorld(world) });
  try {
    assert.equal(game.user.id, GM2);
    assert.equal(game.users.activeGM.id, GM1);
    const combat = game.combats.get(world.combat._id);
    env.scriptDice(3, 3, 3);
    for (let i = 0; i < 3; i += 1) {
      await env.remote(GM1, () => combat.nextTurn());
      await env.settle();
    }
    assert.equal(env.pendingDice.length, 3, "no die rolled on the second GM's client");
    await env.remote(GM1, () => combat.delete()); // the active GM cleans up, not this client
    await env.settle();
    assert.deepEqual(writesBy(env, GM2), []);
    assert.deepEqual(crashes(env), []);
  } finally {
    env.teardown();
  }
  // The active GM's client, with the second GM connected: it plays the stunned turns
  env = await boot(GURPS, { userId: GM1, seed: seedWorld(world) });
  try {
    assert.equal(game.users.activeGM.isSelf, true);
    const combat = game.combats.get(world.combat._id);
    env.scriptDice(3, 3, 3, 3, 3, 3);
    for (let i = 0; i < 6; i += 1) {
      await env.remote(GM2, () => combat.nextTurn());
      await env.settle();
    }
    assert.equal(env.pendingDice.length, 0, "the recovery rolls are made here");
    assert.ok(writesBy(env, GM1).some((w) => w.documentName === "ChatMessage"));
    assert.ok(writesBy(env, GM1).some((w) => w.documentName === "ActiveEffect" && w.action === "delete"));
    for (const actor of game.actors) assert.ok(!actor.statuses.has("mentalstun"), actor.name);
    assert.deepEqual(crashes(env), []);
  } finally {
    env.teardown();
  }
});

test("a game system that already defines surprised: the module reuses it and adds no second one", async () => {
  const systemSurprised = { id: "surprised", name: "ARS.Surprised", img: "systems/ars/icons/surprised.svg" };
  const env = await boot(ADND, { init: () => addStatusEntry({ ...systemSurprised }) });
  try {
    const surprised = statusEntries().filter((s) => s.id === "surprised");
    assert.equal(surprised.length, 1);
    assert.equal(surprised[0].name, systemSurprised.name, "the system's own entry, not the module's");
    const { combat, friendly: ann, hostile: gob } = await duel(env, "Ann", "Gob");
    const api = game.modules.get(ADND).api;
    await adndSurprise(env, combat);
    const effect = gob.effects.find((e) => e.statuses.has("surprised"));
    assert.equal(effect?.img, systemSurprised.img);
    assert.equal(await api.clear(combat), true);
    await env.settle();
    assert.ok(!gob.statuses.has("surprised"));
    assert.deepEqual(crashes(env), []);
  } finally {
    env.teardown();
  }
});

test("a game system that installs its status list as a plain object keyed by id: the module adds to it by id", async () => {
  // pf2e did so on V14 (docs/dev/foundry.md §6); any system may, on either generation.
  const keyed = () => {
    CONFIG.statusEffects = Object.fromEntries(statusEntries().map((entry) => [entry.id, { ...entry }]));
  };
  for (const existing of [null, { id: "surprised", name: "ARS.Surprised", img: "systems/ars/icons/surprised.svg" }]) {
    const env = await boot(ADND, { init: () => {
      keyed();
      if (existing) CONFIG.statusEffects.surprised = { ...existing };
    } });
    try {
      assert.ok(!Array.isArray(CONFIG.statusEffects));
      const surprised = statusEntries().filter((entry) => entry.id === "surprised");
      assert.equal(surprised.length, 1);
      assert.equal(CONFIG.statusEffects.surprised.name, existing?.name ?? "Surprised");
      const { combat, hostile: gob } = await duel(env, "Ann", "Gob");
      const api = game.modules.get(ADND).api;
      await adndSurprise(env, combat);
      assert.ok(gob.statuses.has("surprised"));
      assert.equal(await api.clear(combat), true);
      await env.settle();
      assert.ok(!gob.statuses.has("surprised"));
      assert.deepEqual(crashes(env), []);
    } finally {
      env.teardown();
    }
  }
});

test("the module loaded mid-combat carries on from the surprise stored in an earlier session", async () => {
  // Orc and Gob were frozen at their first turn (both skipped: the tracker is at Ava's turn of round 2); their IQ
  // rolls come now
  const world = await earlierSession({ turns: 1 });
  const stored = world.combat.flags[GURPS].state;
  assert.equal(stored.done, false);
  assert.deepEqual(Object.values(stored.tracks).map((track) => track.turns.length), [1, 1]);
  const env = await boot(GURPS, { seed: seedWorld(world) });
  try {
    const combat = game.combats.get(world.combat._id);
    assert.deepEqual([combat.round, combat.combatant.name], [2, "Ava"]);
    const orc = game.actors.getName("Orc");
    const gob = game.actors.getName("Gob");
    assert.ok(orc.statuses.has("mentalstun") && gob.statuses.has("mentalstun"));
    env.scriptDice(3, 3, 3, 3, 3, 3);
    await next(env, combat); // Orc recovers, then Gob; both turns are skipped
    assert.equal(env.pendingDice.length, 0);
    assert.ok(!orc.statuses.has("mentalstun") && !gob.statuses.has("mentalstun"));
    const state = game.modules.get(GURPS).api.state(combat);
    assert.equal(state.done, true);
    assert.deepEqual(Object.values(state.tracks).map((track) => track.lost), [2, 2]);
    assert.deepEqual(crashes(env), []);
  } finally {
    env.teardown();
  }
});

/** The surprise's part of each combat update this client sent after `from` (an index into env.writes), as sent */
const surpriseUpdates = (env, combat, from) => env.writes.slice(from)
  .filter((w) => w.action === "update" && w.documentName === "Combat" && w.id === combat.id && w.sent?.flags?.[GURPS])
  .map((w) => w.sent.flags[GURPS].state ?? {});

test("a turn stores what changed: the member whose turn it is and the small parts, never the fight's fixed parts", async () => {
  const env = await boot(GURPS);
  try {
    const foes = Array.from({ length: 40 }, (_, index) => `Orc ${index + 1}`);
    const party = await gurpsParty(env, ["Ava"], foes);
    const combat = await combatOf(env, Object.values(party).map(({ token }) => token));
    await totalSurprise(env, combat, 1);
    const whole = JSON.stringify(game.modules.get(GURPS).api.state(combat)).length;
    await game.settings.set(GURPS, "skipSurprisedTurns", false); // a turn at a time: each is its own update
    await combat.startCombat();
    await env.settle();
    const from = env.writes.length;
    for (let turn = 0; turn < foes.length; turn += 1) await next(env, combat); // each Orc's frozen second: no dice
    const updates = surpriseUpdates(env, combat, from);
    assert.ok(updates.length >= foes.length, `one update a turn at least (${updates.length})`);
    const ids = new Set(combat.combatants.map((combatant) => combatant.id));
    for (const update of updates) {
      for (const part of ["scenario", "labels", "outcome", "actors"]) assert.ok(!(part in update), `${part} is never sent again`);
      assert.ok(!Array.isArray(update.follow?.started), "the turns started this round are written an id at a time");
      for (const part of ["tracks", "applied"]) {
        const members = Object.keys(update[part] ?? {}).map((key) => key.replace(/^-=/, ""));
        assert.ok(members.length <= 2 && members.every((id) => ids.has(id)), `${part}: ${members.join(", ")}`);
      }
    }
    const largest = Math.max(...updates.slice(1).map((update) => JSON.stringify(update).length));
    assert.ok(largest * 10 < whole, `a turn sends ${largest} characters of the ${whole} stored`);
    const state = game.modules.get(GURPS).api.state(combat);
    assert.deepEqual(Object.values(state.tracks).map((track) => track.turns.length), Array(foes.length).fill(1));
    assert.deepEqual(crashes(env), []);
  } finally {
    env.teardown();
  }
});

test("a surprise stored by an earlier version (tracks listed, the outcome filled turn by turn) plays on in today's form", async () => {
  const world = await earlierSession({ turns: 1 });
  const stored = world.combat.flags[GURPS].state;
  const tracks = Object.values(stored.tracks);
  const started = Object.keys(stored.follow.started).sort((one, other) => stored.follow.started[one] - stored.follow.started[other]);
  world.combat.flags[GURPS].state = { ...stored, tracks, revision: undefined, follow: { ...stored.follow, started },
    outcome: { ...stored.outcome, members: Object.fromEntries(tracks.map((t) => [t.name, { lost: t.lost, turns: t.turns }])) } };
  const env = await boot(GURPS, { seed: seedWorld(world) });
  try {
    const combat = game.combats.get(world.combat._id);
    const api = game.modules.get(GURPS).api;
    assert.ok(Array.isArray(api.state(combat).tracks), "stored as the earlier version stored it");
    env.scriptDice(3, 3, 3, 3, 3, 3);
    await next(env, combat); // Orc recovers, then Gob; both turns are skipped
    assert.equal(env.pendingDice.length, 0);
    const state = api.state(combat);
    assert.ok(!Array.isArray(state.tracks) && !("members" in state.outcome), "played in today's form");
    const flag = combat.getFlag(GURPS, "state");
    assert.ok(!Array.isArray(flag.follow.started) && typeof flag.follow.started === "object", "stored in today's form");
    assert.deepEqual(Object.values(state.tracks).map((track) => track.lost), [2, 2]);
    assert.deepEqual(Object.values(state.tracks).map((track) => track.turns.length), [2, 2]);
    assert.equal(state.done, true);
    assert.ok(!game.actors.getName("Orc").statuses.has("mentalstun"));
    assert.deepEqual(crashes(env), []);
  } finally {
    env.teardown();
  }
});

test("after another client wrote the surprise, the next turn reads it again instead of the copy kept from before", async () => {
  const world = await earlierSession(); // Orc and Gob stunned, the combat begun: Ava's turn
  const env = await boot(GURPS, { seed: seedWorld(world) });
  try {
    const combat = game.combats.get(world.combat._id);
    const [Orc, Gob] = ["Orc", "Gob"].map((name) => ({ token: game.scenes.active.tokens.getName(name) }));
    env.scriptDice(3, 3, 3, 3, 3, 3);
    await next(env, combat); // Orc's and Gob's frozen seconds: both skipped, the tracker at Ava's turn of round 2
    const api = game.modules.get(GURPS).api;
    const stored = api.state(combat);
    // GM 2 takes Gob out of the surprise by hand: his track and statuses are no longer the module's to play
    const gob = combatantOf(combat, Gob.token).id;
    const { [gob]: dropped, ...tracks } = stored.tracks;
    await env.remote(GM2, async () => {
      await combat.unsetFlag(GURPS, "state");
      await combat.setFlag(GURPS, "state", { ...stored, tracks, revision: stored.revision + 1 });
    });
    await env.settle();
    await next(env, combat); // Orc's IQ roll (3, 3, 3: 9 against IQ 10); Gob plays no turn
    const state = api.state(combat);
    assert.deepEqual(Object.keys(state.tracks), [combatantOf(combat, Orc.token).id]);
    assert.equal(state.tracks[combatantOf(combat, Orc.token).id].lost, 2);
    assert.equal(env.pendingDice.length, 3, "nobody rolled for Gob");
    assert.deepEqual(crashes(env), []);
  } finally {
    env.teardown();
  }
});

test("a player client writes nothing: not at turn changes, not when the combat is deleted, not through the API", async () => {
  const world = await earlierSession();
  const env = await boot(GURPS, { userId: PLAYER, seed: seedWorld(world) });
  try {
    const combat = game.combats.get(world.combat._id);
    const api = game.modules.get(GURPS).api;
    env.scriptDice(3, 3, 3);
    for (let i = 0; i < 3; i += 1) {
      await env.remote(GM1, () => combat.nextTurn());
      await env.settle();
    }
    assert.equal(await api.resolve(api.draft(combat, "total"), combat), null);
    assert.equal(await api.clear(combat), null);
    await api.recoveryRoll(combat);
    await api.openDialog(combat);
    await env.settle();
    assert.ok(warnings(env).length >= 4, "each API call tells the player why nothing happened");
    await env.remote(GM1, () => combat.delete());
    await env.settle();
    assert.equal(env.pendingDice.length, 3, "nothing rolled");
    assert.deepEqual(writesBy(env, PLAYER), []);
    assert.deepEqual(env.deniedWrites, []);
    assert.deepEqual(crashes(env), []);
  } finally {
    env.teardown();
  }
});

test("a combatant removed from the combat (its token kept) loses the module's statuses and leaves the automation", async () => {
  const env = await boot(GURPS);
  try {
    const { Ava, Orc, Gob } = await gurpsParty(env, ["Ava"], ["Orc", "Gob"]);
    const combat = await combatOf(env, [Ava.token, Orc.token, Gob.token]);
    await totalSurprise(env, combat, 1);
    assert.ok(Gob.actor.statuses.has("mentalstun") && Orc.actor.statuses.has("mentalstun"));
    await combatantOf(combat, Gob.token).delete();
    await env.settle();
    assert.ok(!Gob.actor.statuses.has("mentalstun"), "the removed combatant's stun is lifted");
    assert.ok(Orc.actor.statuses.has("mentalstun"), "the others keep theirs");
    const api = game.modules.get(GURPS).api;
    assert.deepEqual(Object.values(api.state(combat).tracks).map((track) => track.name), [combatantOf(combat, Orc.token).id]);
    await combat.startCombat();
    await env.settle();
    env.scriptDice(3, 3, 3); // Orc: frozen, then a 9 against IQ 10
    for (let i = 0; i < 4; i += 1) await next(env, combat);
    assert.equal(api.state(combat).done, true, "the surprise ends without waiting for the removed one");
    assert.ok(!Orc.actor.statuses.has("mentalstun"));
    assert.deepEqual(crashes(env), []);
  } finally {
    env.teardown();
  }
});
