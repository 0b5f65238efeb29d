// The example modules following a real Foundry table (run by tests/test_foundry_follow.py): the GM stepping back with
// core's Previous Turn and Previous Round and ARS's own methods, which say no direction; ARS re-rolling every
// initiative as each round begins, its player characters waiting for their players; a combatant re-sorted behind the
// current turn; one click passing on a pack of stunned wolves. The emulation's sources are in emulation/*.mjs and
// docs/dev/foundry.md §7.1 and §11. MODULES_DIR holds <id>/foundry for the three example campaigns.
import assert from "node:assert/strict";
import { test } from "node:test";
import { installArsInitiative, installArsTurnMethods } from "../../tools/harness/foundry/emulation/game-systems.mjs";
import { createFoundry, runGeneration } from "../../tools/harness/foundry/harness.mjs";

const MODULES = process.env.MODULES_DIR;
const GENERATION = runGeneration();
const GURPS = "ambush-gurps-example";
const ADND = "ambush-adnd-example";
const PLAYER = "player0000000001";
const { FRIENDLY, HOSTILE } = { FRIENDLY: 1, HOSTILE: -1 };

async function boot(id, systemId) {
  const env = createFoundry({ generation: GENERATION, systemId, modules: [{ id }], quiet: true });
  await env.loadModule(`${MODULES}/${id}/foundry`);
  return env;
}

/** A combat of these people, each {name, disposition, system, initiative?, player?: owned by the player} */
async function combatOf(env, people) {
  const tokens = [];
  for (const { name, system = {}, disposition, player } of people) {
    const ownership = player ? { default: 0, [PLAYER]: 3 } : undefined;
    const actor = await env.createActor({ name, system, ...(ownership ? { ownership } : {}) });
    tokens.push(await env.createToken({ actor, name, disposition }));
  }
  const combat = await env.createCombat({
    combatants: tokens.map((token, index) => ({ token, initiative: people[index].initiative ?? null })),
  });
  await env.settle();
  return combat;
}

/** The records of the module's cards posted since `from`, each {type, ...} */
const recordsOf = (env, id, from = 0) => env.messages.slice(from).flatMap((message) => message.flags?.[id]?.records ?? []);

/** Run a GM's action and let every hook and the automation finish */
async function act(env, action) {
  await action();
  await env.settle();
}

const gurpsPerson = (name, disposition, iq, extra = {}) => ({
  name, disposition, system: { attributes: { IQ: { value: iq }, PER: { value: iq } }, ads: {}, skills: {} }, ...extra,
});
const adndPerson = (name, disposition, extra = {}) => ({
  name, disposition, system: { abilities: { dex: { value: 10, reaction: 0 } } }, ...extra,
});

test("core's Previous Turn and Previous Round never roll a stun again, and forward again replays nothing", async () => {
  const env = await boot(GURPS, "gurps");
  try {
    const combat = await combatOf(env, [gurpsPerson("Ava", FRIENDLY, 12), gurpsPerson("Orc", HOSTILE, 10)]);
    const api = game.modules.get(GURPS).api;
    env.scriptDice(1); // Orc frozen for one second
    await act(env, async () => api.resolve(api.draft(combat, "total"), combat));
    await act(env, () => combat.startCombat()); // round 1, Ava
    env.scriptDice(6, 6, 6, 3, 3, 3); // Orc's IQ rolls: an 18 in round 2, a 9 in round 3
    await act(env, () => combat.nextTurn()); // Orc's frozen second, passed on: round 2, Ava
    assert.deepEqual([combat.round, combat.combatant.name], [2, "Ava"]);
    const cards = env.messages.length;
    await act(env, () => combat.previousTurn()); // back to round 1, Orc
    await act(env, () => combat.previousTurn()); // round 1, Ava
    await act(env, () => combat.nextTurn()); // round 1, Orc again
    await act(env, () => combat.nextTurn()); // round 2, Ava again
    assert.equal(env.messages.length, cards, "stepping back and forward again posts nothing");
    assert.deepEqual([combat.round, combat.combatant.name], [2, "Ava"], "and passes nothing on");
    await act(env, () => combat.nextTurn()); // round 2, Orc: the 18, passed on
    assert.deepEqual([combat.round, combat.combatant.name], [3, "Ava"]);
    await act(env, () => combat.previousRound()); // round 2, Orc
    await act(env, () => combat.nextRound()); // round 3, Ava
    await act(env, () => combat.nextTurn()); // round 3, Orc: the 9
    const [track] = Object.values(api.state(combat).tracks);
    assert.deepEqual(track.turns.map((turn) => [turn.turn, turn.state, turn.roll ?? null]),
      [[1, "frozen", null], [2, "stunned", 18], [3, "stunned", 9]]);
    assert.deepEqual([env.pendingDice, env.errors], [[], []]);
  } finally {
    env.teardown();
  }
});

for (const ars of [false, true]) {
  test(`AD&D: Previous Round during the segments counts no segment and posts nothing (${ars ? "ARS's own methods, no direction, its re-roll" : "core's methods"})`, async () => {
    const env = await boot(ADND, "ars");
    const restore = ars ? installArsTurnMethods() : () => {};
    try {
      const combat = await combatOf(env, [adndPerson("Ann", FRIENDLY), adndPerson("Gob", HOSTILE)]);
      if (ars) installArsInitiative(() => Object.fromEntries(combat.combatants.contents.map((c, i) => [c.id, i + 1])), { ascending: true });
      const api = game.modules.get(ADND).api;
      const gob = combat.combatants.find((c) => c.name === "Gob").actor;
      env.scriptDice(5, 2); // the goblins are surprised for two segments: table rounds 1 and 2
      await act(env, async () => api.resolve(api.draft(combat, "roll"), combat));
      await act(env, () => combat.startCombat()); // segment 1
      await act(env, () => combat.nextRound()); // segment 2
      const types = () => recordsOf(env, ADND).map((record) => record.type);
      assert.deepEqual(types(), ["resolve", "segment", "segment"]);
      await act(env, () => combat.previousRound()); // back in segment 1's round
      assert.deepEqual([types(), combat.round, gob.statuses.has("surprised")], [["resolve", "segment", "segment"], 1, true]);
      await act(env, () => combat.nextRound()); // segment 2's round again: nothing new
      assert.deepEqual([types(), combat.round], [["resolve", "segment", "segment"], 2]);
      await act(env, () => combat.nextRound()); // the first normal round, numbered as the segments' first
      assert.deepEqual([types(), combat.round, gob.statuses.has("surprised")], [["resolve", "segment", "segment", "end"], 1, false]);
      assert.deepEqual(env.errors, []);
    } finally {
      restore();
      env.teardown();
    }
  });
}

test("ARS re-rolls as each round begins: no turn starts until the players have rolled, then each turn once", async () => {
  const env = await boot(ADND, "ars");
  try {
    const combat = await combatOf(env, [
      adndPerson("Ann", FRIENDLY, { player: true }), adndPerson("Bob", FRIENDLY, { player: true }),
      adndPerson("Gob", HOSTILE), adndPerson("Orc", HOSTILE),
    ]);
    const id = (name) => combat.combatants.find((c) => c.name === name).id;
    // ARS's default order, ascending: the goblins roll 3 and 5 each round, the players their own below.
    installArsInitiative(() => ({ [id("Gob")]: 3, [id("Orc")]: 5 }), { ascending: true });
    /** A player's roll as ARS makes it (utilities.js 1122-1159): the initiative, then the turn to the top */
    const playerRolls = async (name, value) => {
      await act(env, () => combat.combatants.get(id(name)).update({ initiative: value }));
      await act(env, () => combat.update({ turn: 0 }));
    };
    const api = game.modules.get(ADND).api;
    env.scriptDice(5, 2); // the goblins are surprised for two segments
    await act(env, async () => api.resolve(api.draft(combat, "roll"), combat));
    const afterResolve = env.messages.length;
    await act(env, () => combat.startCombat());
    const waiting = () => env.notifications.filter((n) => /no turn is played until every combatant in the tracker has an initiative/.test(n.message));
    assert.equal(waiting().length, 1, "the GM is told once that the surprise waits for the initiatives");
    assert.deepEqual(recordsOf(env, ADND, afterResolve).map((r) => r.type), ["segment"], "the segment begins");
    assert.equal(combat.combatant.name, "Gob", "nothing is passed on while the order is rolled");
    const startedNames = () => api.state(combat).follow.started.map((started) => combat.combatants.get(started).name);
    await playerRolls("Ann", 1);
    assert.deepEqual([combat.combatant.name, startedNames()], ["Ann", []], "ARS puts Ann on top; Bob has not rolled yet");
    await playerRolls("Bob", 4);
    assert.deepEqual(startedNames(), ["Ann"]);
    // Ann 1, Gob 3 (surprised: passed on), Bob 4, Orc 5 (surprised: passed on)
    assert.deepEqual([combat.round, combat.combatant.name], [1, "Ann"]);
    await act(env, () => combat.nextTurn());
    assert.deepEqual([combat.round, combat.combatant.name], [1, "Bob"]);
    await act(env, () => combat.nextTurn()); // Orc passed on; segment 2 begins, the order rolled anew
    assert.equal(combat.round, 2);
    await playerRolls("Bob", 2);
    await playerRolls("Ann", 6);
    // Bob 2, Gob 3 (passed on), Orc 5 (passed on), Ann 6
    assert.deepEqual([combat.round, combat.combatant.name], [2, "Bob"]);
    assert.equal(waiting().length, 2, "and once again in the next round");
    await act(env, () => combat.nextTurn());
    assert.deepEqual([combat.round, combat.combatant.name], [2, "Ann"]);
    assert.deepEqual(env.errors, []);
  } finally {
    env.teardown();
  }
});

test("a stunned combatant re-sorted behind the current turn starts his turn at once, and the card says so", async () => {
  const env = await boot(GURPS, "gurps");
  try {
    const combat = await combatOf(env, [
      gurpsPerson("Ava", FRIENDLY, 12, { initiative: 20 }), gurpsPerson("Bob", FRIENDLY, 12, { initiative: 15 }),
      gurpsPerson("Orc", HOSTILE, 10, { initiative: 10 }),
    ]);
    const api = game.modules.get(GURPS).api;
    env.scriptDice(2); // Orc frozen for two seconds
    await act(env, async () => api.resolve(api.draft(combat, "total"), combat));
    await act(env, () => combat.startCombat()); // round 1, Ava
    const before = env.messages.length;
    const orc = combat.combatants.find((c) => c.name === "Orc");
    await act(env, () => orc.update({ initiative: 25 })); // sorted to the top, behind Ava's turn
    assert.deepEqual([combat.turns[0].name, combat.combatant.name], ["Orc", "Ava"]);
    const cards = env.messages.slice(before).map((message) => message.content);
    assert.ok(cards.some((content) => /<h3>Passed over<\/h3><p>Orc&#39;s turn was passed over: played now/.test(content)), cards.join("\n"));
    await act(env, () => combat.nextTurn()); // Bob
    await act(env, () => combat.nextTurn()); // round 2: Orc's second frozen second, passed on
    assert.deepEqual([combat.round, combat.combatant.name], [2, "Ava"]);
    const [track] = Object.values(api.state(combat).tracks);
    assert.deepEqual(track.turns.map((turn) => turn.state), ["frozen", "frozen"]);
    assert.deepEqual([env.pendingDice, env.errors], [[], []]);
  } finally {
    env.teardown();
  }
});

test("one click passing on a pack of twelve stunned wolves posts one card for all their turns", async () => {
  const env = await boot(GURPS, "gurps");
  try {
    const wolves = Array.from({ length: 12 }, (_, index) => gurpsPerson(`Wolf ${index + 1}`, HOSTILE, 3));
    const combat = await combatOf(env, [gurpsPerson("Ava", FRIENDLY, 12), ...wolves]);
    const api = game.modules.get(GURPS).api;
    env.scriptDice(1); // frozen for one second
    await act(env, async () => api.resolve(api.draft(combat, "total"), combat));
    await act(env, () => combat.startCombat());
    env.scriptDice(...Array(3 * 12 * 3).fill(6)); // then every wolf's IQ roll fails, three rounds long
    const perClick = [];
    for (let click = 0; click < 4; click += 1) {
      const before = env.messages.length;
      await act(env, () => combat.nextTurn());
      const posted = env.messages.slice(before);
      perClick.push([posted.filter((m) => !m.whisper.length).length, posted.filter((m) => m.whisper.length).length]);
      assert.equal(combat.combatant.name, "Ava", "the wolves' turns are all passed on");
    }
    // One card a click for the table, its rolls split off for the GM (the module's default: split).
    assert.ok(perClick.every(([table, gm]) => table <= 1 && gm <= 1), `cards per click (table, GM): ${JSON.stringify(perClick)}`);
    const turns = Object.values(api.state(combat).tracks).map((track) => track.turns.length);
    assert.ok(turns.every((count) => count === turns[0] && count >= 2), `each wolf's turns: ${turns}`);
    assert.deepEqual([env.pendingDice, env.errors], [[], []]);
  } finally {
    env.teardown();
  }
});
