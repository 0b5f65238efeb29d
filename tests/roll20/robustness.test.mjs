// Robustness of the generated example Roll20 scripts in the emulated Mod sandbox (run by tests/test_runtime_robustness.py):
// old and damaged state, a damaged turn order, tokens deleted mid-fight or without a character, players sending GM
// commands, a restart mid-surprise. In every case the sandbox does not crash, the GM is told what could not be
// done, and no marker the script set is left behind for good.
// SCRIPTS_DIR holds <id>/roll20/<Name>.js for the three example campaigns.
import assert from "node:assert/strict";
import { test } from "node:test";
import { GURPS, ADND, FALLOUT, GM, PLAYER, players } from "./examples.mjs";
import { createSandbox } from "../../tools/harness/roll20/harness.mjs";


/**
 * A sandbox with the script loaded and ready: Ava (IQ 12, the player's) against Orc and Gob (IQ 10), tokens in
 * that order. `seed` runs before the script loads (to plant an old or damaged state).
 */
async function ready(script = GURPS, { seed } = {}) {
  const sb = createSandbox({ players });
  if (seed) seed(sb);
  const make = (name, iq, controlledby) => {
    const character = sb.createCharacter({ name, controlledby, attributes: { intelligence: iq, perception: iq } });
    return sb.createToken({ name, represents: character.id, controlledby });
  };
  const tokens = [make("Ava", 12, PLAYER), make("Orc", 10, ""), make("Gob", 10, "")];
  await sb.load(script.file);
  sb.ready();
  await sb.settle();
  return { sb, tokens };
}

/** Rows for the turn order. */
const rows = (tokens) => tokens.map((token) => ({ id: token.id, pr: "0", custom: "", _pageid: token.get("_pageid") }));

/** The GM's whispers since an index. */
const whispers = (sb, from = 0) => sb.chat.slice(from).filter((c) => c.whisperTo?.toLowerCase?.() === "gm");

/** Crashes of the sandbox (other errors are the harness flagging what a test did on purpose). */
const crashes = (sb) => sb.takeErrors().filter((e) => e.kind === "crash").map((e) => e.message);

/** Whispers that report an unexpected error ("Something went wrong ..."). */
const errorWhispers = (sb, from = 0) => whispers(sb, from).filter((c) => /Something went wrong/.test(c.content));

/** The script's markers on a token. */
const markers = (token) => token.get("statusmarkers");

/** Resolve a GURPS total surprise over the turn order: the hostiles freeze for `freeze` seconds. */
async function totalSurprise(sb, tokens, freeze = 1) {
  sb.user.setTurnorder(rows(tokens));
  sb.user.chat(GM, "!surprise resolve --procedure total");
  await sb.settle();
  sb.scriptDice(freeze);
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
}

/** Press Next in the tracker `times` times. */
async function advance(sb, times = 1) {
  for (let i = 0; i < times; i += 1) {
    sb.user.advanceTurn();
    await sb.settle();
  }
}

test("a state of schema 1 is migrated: its marker is kept and a surprise runs with it", async () => {
  const { sb, tokens } = await ready(GURPS, {
    seed: (box) => { box.state[GURPS.name] = { version: 1, marker: "purple", surprise: { stale: true } }; },
  });
  const stored = sb.read(`state.${GURPS.name}`);
  assert.equal(stored.version, 4);
  assert.equal(stored.config.marker, "purple");
  assert.equal(stored.surprise, null, "a schema 1 surprise is not carried over");
  assert.ok(!sb.logs.some((line) => /damaged/.test(line)));
  assert.ok(!whispers(sb).some((c) => /damaged/.test(c.content)));
  await totalSurprise(sb, tokens, 2);
  assert.match(markers(tokens[1]), /purple@2/);
  assert.deepEqual(crashes(sb), []);
});

for (const [what, damaged] of [
  ["a number", 42],
  ["a string", "garbage"],
  ["an array", [1, 2]],
  ["null", null],
  ["a newer schema", { version: 5, config: {} }],
  ["a config that is a string", { version: 2, config: "x" }],
  ["values of the wrong type", { version: 2, config: { marker: 42, automation: "yes", language: "xx" }, surprise: 42, draft: "x" }],
  ["a surprise and draft of the wrong shape", { version: 2, config: {}, surprise: { round: 1 }, draft: { procedure: "nope" } }],
]) {
  test(`a damaged state (${what}) is repaired: the GM is told, and the script works`, async () => {
    const { sb, tokens } = await ready(GURPS, { seed: (box) => { box.state[GURPS.name] = damaged; } });
    assert.ok(whispers(sb).some((c) => /saved data was damaged and has been reset/.test(c.content)), "the GM is told");
    const stored = sb.read(`state.${GURPS.name}`);
    assert.equal(stored.version, 4);
    assert.deepEqual(stored.config, { automation: true, skip: true, cards: "split", marker: "yellow", language: "en" });
    assert.equal(stored.surprise, null);
    assert.equal(stored.draft, null);
    const before = sb.chat.length;
    sb.user.chat(GM, "!surprise status");
    await sb.settle();
    assert.match(whispers(sb, before).at(-1).content, /No surprise has been resolved/);
    sb.user.chat(GM, "!surprise roll");
    await sb.settle();
    assert.match(whispers(sb, before).at(-1).content, /There is nothing to roll yet/);
    sb.user.setTurnorder(rows(tokens));
    await advance(sb, 2);
    await totalSurprise(sb, tokens, 2);
    assert.match(markers(tokens[1]), /yellow@2/);
    assert.deepEqual(errorWhispers(sb), []);
    assert.deepEqual(crashes(sb), []);
  });
}

test("a damaged turn order during a surprise: no crash, no error, and the automation carries on once it is whole", async () => {
  const { sb, tokens } = await ready(GURPS);
  await totalSurprise(sb, tokens, 1);
  const good = sb.turnorder();
  assert.equal(good.at(-1).id, "-1", "the script's round row");
  for (const damaged of ["[{not json", JSON.stringify({ id: tokens[1].id }), JSON.stringify([{ pr: "3" }, 7, null]), "null"]) {
    sb.user.setTurnorder(damaged);
    await sb.settle();
  }
  // A row without an id in a good order: it plays no turn, Next over it still counts, and it stays
  const [ava, orc, gob, round] = good;
  const note = { pr: "5", custom: "Lair action" };
  sb.user.setTurnorder([ava, note, orc, gob, round]);
  await sb.settle();
  sb.scriptDice(3, 3, 3, 3, 3, 3);
  await advance(sb, 1); // the note
  await advance(sb, 1); // Orc and Gob frozen, both skipped; round 2 begins at Ava
  assert.equal(sb.diceLeft().length, 6);
  assert.equal(sb.turnorder()[0].id, ava.id);
  await advance(sb, 1); // the note
  await advance(sb, 1); // Orc and Gob roll 9 against IQ 10 and recover
  assert.deepEqual(sb.diceLeft(), []);
  assert.ok(sb.turnorder().some((row) => row.custom === note.custom), "the row without an id is kept");
  assert.equal(markers(tokens[1]), "");
  assert.equal(markers(tokens[2]), "");
  assert.equal(sb.read(`state.${GURPS.name}.surprise.done`), true);
  assert.ok(!sb.turnorder().some((row) => row.id === "-1" && row.custom?.startsWith("Surprise")), "the round row is gone");
  assert.deepEqual(errorWhispers(sb), []);
  assert.deepEqual(crashes(sb), []);
});

test("a token deleted mid-fight takes its marker along; the automation finishes with the others", async () => {
  const { sb, tokens } = await ready(GURPS);
  await totalSurprise(sb, tokens, 1);
  assert.match(markers(tokens[2]), /yellow/);
  sb.user.deleteGraphic(tokens[2]); // Gob
  await sb.settle();
  assert.equal(sb.read(`state.${GURPS.name}.surprise.applied`)[tokens[2].id], undefined);
  sb.user.setTurnorder(sb.turnorder().filter((row) => row.id !== tokens[2].id)); // the GM tidies the tracker
  await sb.settle();
  sb.scriptDice(3, 3, 3);
  await advance(sb, 2); // Orc frozen (skipped), round 2, Ava; then Orc recovers
  await advance(sb, 1);
  assert.deepEqual(sb.diceLeft(), []);
  assert.equal(markers(tokens[1]), "");
  assert.equal(sb.read(`state.${GURPS.name}.surprise.done`), true, "the surprise ends without the deleted token");
  assert.ok(!sb.turnorder().some((row) => row.id === "-1"), "the round row is gone");
  assert.deepEqual(errorWhispers(sb), []);
  assert.deepEqual(crashes(sb), []);
});

test("a deleted token left in the turn order: no error at its row, and the segments run to their end", async () => {
  const { sb, tokens } = await ready(ADND);
  sb.user.setTurnorder(rows(tokens));
  sb.user.chat(GM, "!surprise resolve --procedure roll");
  await sb.settle();
  sb.scriptDice(5, 2); // the hostiles are surprised for 2 segments
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  assert.match(markers(tokens[1]), /yellow@2/);
  sb.user.deleteGraphic(tokens[1]); // Orc
  await sb.settle();
  for (let i = 0; i < 12; i += 1) await advance(sb, 1);
  assert.equal(markers(tokens[2]), "", "Gob's marker goes when the segments are over");
  assert.equal(sb.read(`state.${ADND.name}.surprise.done`), true);
  assert.deepEqual(errorWhispers(sb), []);
  assert.deepEqual(crashes(sb), []);
});

test("tokens that represent no character: the draft asks for the values and Roll names what is missing", async () => {
  const { sb, tokens } = await ready(GURPS);
  const loner = sb.createToken({ name: "Loner", controlledby: "" });
  sb.user.setTurnorder(rows([...tokens, loner]));
  sb.user.chat(GM, "!surprise resolve --procedure total");
  await sb.settle();
  const draft = sb.read(`state.${GURPS.name}.draft`);
  assert.equal(draft.sides.b.members.find((m) => m.id === loner.id).iq, null);
  const card = whispers(sb).at(-1);
  assert.match(card.content, new RegExp(`${loner.id}">Loner</a> IQ: <span style="[^"]*">&#63;</span>`));
  sb.user.clickButton(GM, card, "Loner");
  await sb.settle();
  assert.match(whispers(sb).at(-1).content, new RegExp(`IQ: <span style="[^"]*">&#63;</span> <a [^>]*href="!surprise set --token ${loner.id} --iq `));
  const before = sb.chat.length;
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  assert.match(whispers(sb, before).at(-1).content, /Loner: IQ is missing/);
  assert.equal(sb.read(`state.${GURPS.name}.surprise`), null, "nothing rolled");
  assert.equal(markers(tokens[1]), "");
  sb.user.chat(GM, `!surprise set --token ${loner.id} --iq 9`);
  await sb.settle();
  sb.scriptDice(2);
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  assert.match(markers(loner), /yellow@2/);
  assert.deepEqual(errorWhispers(sb), []);
  assert.deepEqual(crashes(sb), []);
});

test("a player sending GM commands is told so and nothing changes", async () => {
  const { sb, tokens } = await ready(GURPS);
  await totalSurprise(sb, tokens, 2);
  const state = sb.stateSnapshot();
  const marked = tokens.map(markers);
  const order = sb.turnorder();
  const commands = ["resolve --procedure total", "set --token x --iq 3", "draft", "roll", "clear", "clear --draft", "status",
    "config --automation false", "config --marker red", "turn"];
  for (const command of commands) {
    const before = sb.chat.length;
    sb.user.chat(PLAYER, `!surprise ${command}`, { selected: [tokens[1]] });
    await sb.settle();
    const replies = sb.chat.slice(before);
    assert.equal(replies.length, 1, command);
    assert.equal(replies[0].whisperTo, "Pat Doe", command);
    assert.match(replies[0].content, /Only a game master/, command);
  }
  assert.deepEqual(sb.stateSnapshot(), state);
  assert.deepEqual(tokens.map(markers), marked);
  assert.deepEqual(sb.turnorder(), order);
  assert.deepEqual(sb.diceLeft(), []);
  assert.deepEqual(crashes(sb), []);
});

test("a restart mid-surprise: the state survives and the next Next carries on", async () => {
  for (const script of [GURPS, ADND, FALLOUT]) {
    const { sb, tokens } = await ready(script);
    sb.user.setTurnorder(rows(tokens));
    const procedure = { [GURPS.name]: "total", [ADND.name]: "roll", [FALLOUT.name]: "sneak-attack" }[script.name];
    sb.user.chat(GM, `!surprise resolve --procedure ${procedure}`);
    await sb.settle();
    if (script === FALLOUT) {
      sb.user.chat(GM, "!surprise set --opener 0 --attack_bonus 10 --target_number 12");
      await sb.settle();
    }
    sb.scriptDice(...{ [GURPS.name]: [1], [ADND.name]: [5, 2], [FALLOUT.name]: [15, 15] }[script.name]);
    sb.user.chat(GM, "!surprise roll");
    await sb.settle();
    const before = sb.read(`state.${script.name}.surprise`);
    assert.ok(before && !before.done, script.name);
    sb.restart();
    await sb.settle();
    assert.deepEqual(sb.read(`state.${script.name}.surprise`), before, `${script.name}: the surprise survives`);
    sb.scriptDice(3, 3, 3, 3, 3, 3);
    for (let i = 0; i < 10; i += 1) await advance(sb, 1);
    const after = sb.read(`state.${script.name}.surprise`);
    assert.equal(after.done, true, `${script.name}: the automation finished after the restart`);
    for (const token of tokens) assert.doesNotMatch(markers(token), /yellow/, `${script.name}: ${token.get("name")}`);
    assert.deepEqual(errorWhispers(sb), [], script.name);
    assert.deepEqual(crashes(sb), [], script.name);
  }
});
