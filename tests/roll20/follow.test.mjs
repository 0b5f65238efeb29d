// The example scripts following a real Roll20 table (run by tests/test_roll20_follow.py): beside the community scripts
// GMs run (the models in community/, loaded before and after ambush's script), with the order sorted mid-round, a row
// taken out of the order, a marker colour a token had before, a pack of wolves, hostile command input and a second
// ambush script answering the same command. SCRIPTS_DIR holds <id>/roll20/<Name>.js for the three example campaigns.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ADND, commands, GM, GURPS, next, PLAYER, players, row } from "./examples.mjs";
import { COMMUNITY_SCRIPTS, createSandbox } from "../../tools/harness/roll20/harness.mjs";

const MODELS = Object.keys(COMMUNITY_SCRIPTS);

/** The models of scripts that hear a turn change only from a click: beside them the GM passes every turn himself */
const HEAR_ONLY_CLICKS = ["combatmaster", "roundmaster", "conditiontracker"];


/** The GM's whispers since an index */
const whispers = (sb, from = 0) => sb.chat.slice(from).filter((c) => c.whisperTo?.toLowerCase?.() === "gm");

/**
 * A game with these people (side a the player's), ambush's script and a community script loaded in the given order
 * (`model` null: ambush alone), ready, the people in the turn order in the order given, each with pr(index, count)
 * (highest first unless given), and the tracker open.
 */
async function game(script, people, { model = null, ambushFirst = true, pr = (index, count) => count - index } = {}) {
  const sb = createSandbox({ players });
  const tokens = people.map(({ name, side, attributes }) => {
    const controlledby = side === "a" ? PLAYER : "";
    const character = sb.createCharacter({ name, controlledby, attributes });
    return sb.createToken({ name, represents: character.id, controlledby });
  });
  if (ambushFirst) await sb.load(script.file);
  if (model) sb.loadCommunity(model);
  if (!ambushFirst) await sb.load(script.file);
  sb.ready();
  await sb.settle();
  sb.user.setTurnorder([...tokens.map((token, index) => row(token, pr(index, people.length))), ...sb.turnorder()]);
  sb.user.openTurnTracker();
  await sb.settle();
  return { sb, tokens };
}


const iq = (value) => ({ intelligence: value, perception: value });
const surpriseOf = (sb, script) => sb.read(`state.${script.name}.surprise`);
const label = (model, ambushFirst) => `${model}, ${ambushFirst ? "ambush loaded first" : "ambush loaded second"}`;

for (const model of MODELS) {
  for (const ambushFirst of [true, false]) {
    test(`beside ${label(model, ambushFirst)}: each stunned GURPS fighter rolls once a round, and the surprise ends`, async () => {
      const { sb, tokens } = await game(GURPS, [{ name: "Ava", side: "a", attributes: iq(12) },
        { name: "Orc", side: "b", attributes: iq(10) }, { name: "Bob", side: "a", attributes: iq(12) },
        { name: "Gob", side: "b", attributes: iq(10) }], { model, ambushFirst, pr: (index) => index + 1 });
      // Lowest first: CombatMaster turns the order upside down as each of its rounds begins.
      await commands(sb, "!surprise resolve --procedure total");
      const draft = sb.read(`state.${GURPS.name}.draft`);
      const drafted = [...draft.sides.a.members, ...draft.sides.b.members].map((member) => member.id);
      assert.deepEqual(drafted.sort(), tokens.map((token) => token.id).sort(), "no round marker is drafted");
      sb.scriptDice(1); // the orcs frozen for one second
      await commands(sb, "!surprise roll");
      sb.scriptDice(6, 6, 6, 6, 6, 6, 3, 3, 3, 3, 3, 3); // their IQ rolls: each an 18, then each a 9
      for (let click = 0; click < 40 && sb.diceLeft().length; click += 1) {
        const from = sb.chat.length;
        await next(sb);
        const top = sb.getObj("graphic", sb.turnorder()[0].id);
        if (!/yellow/.test(top?.get("statusmarkers") ?? "")) continue;
        // A stunned fighter on top: passed on, or, beside a script that hears only clicks, left to the GM, who is told
        assert.ok(HEAR_ONLY_CLICKS.includes(model), `click ${click + 1}: a stunned fighter's turn is passed on`);
        assert.ok(whispers(sb, from).some((c) => /may not act this turn/.test(c.content)), `click ${click + 1}: the GM is told`);
      }
      const rolled = () => Object.values(surpriseOf(sb, GURPS).tracks).map((track) => track.turns.map((turn) => [turn.state, turn.roll ?? null]));
      const once = [["frozen", null], ["stunned", 18], ["stunned", 9]];
      assert.deepEqual(rolled(), [once, once]);
      await next(sb, 4);
      assert.deepEqual(rolled(), [once, once], "no roll after they recovered");
      assert.equal(surpriseOf(sb, GURPS).done, true);
      assert.ok(tokens.every((token) => token.get("statusmarkers") === ""), "their markers went when they recovered");
      assert.deepEqual(sb.takeErrors(), []);
    });

    test(`beside ${label(model, ambushFirst)}: the AD&D segments are played and end, the surprised never act in them`, async () => {
      const dex = { dexterity: 10 };
      const { sb, tokens } = await game(ADND, [{ name: "Hero", side: "a", attributes: dex },
        { name: "Orc", side: "b", attributes: dex }], { model, ambushFirst });
      await commands(sb, "!surprise resolve --procedure roll");
      sb.scriptDice(2, 1); // side a surprised for two segments, side b for one: segment 1 cancelled, the orc alone in 2
      await commands(sb, "!surprise roll");
      for (let click = 0; click < 30 && !surpriseOf(sb, ADND).done; click += 1) await next(sb);
      const surprise = surpriseOf(sb, ADND);
      assert.equal(surprise.done, true, "the segments ended");
      assert.deepEqual(surprise.log.map((record) => record.type), ["resolve", "segment", "segment", "end"]);
      assert.ok(tokens.every((token) => token.get("statusmarkers") === ""), "no marker left");
      assert.ok(!sb.turnorder().some((r) => r[ADND.name]), "ambush's round row left with the surprise");
      assert.deepEqual(sb.takeErrors(), []);
    });
  }
}

for (const ambushFirst of [true, false]) {
  test(`GroupInitiative's --sort mid-round (${ambushFirst ? "ambush loaded first" : "ambush loaded second"}), no event: the stunned orc sorted among the turns played gets his turn at once`, async () => {
    const { sb, tokens } = await game(GURPS, [{ name: "Ava", side: "a", attributes: iq(12) },
      { name: "Orc", side: "b", attributes: iq(10) }, { name: "Bob", side: "a", attributes: iq(12) }],
    { model: "groupinitiative", ambushFirst });
    const [ava, orc, bob] = tokens;
    await commands(sb, "!surprise resolve --procedure total");
    sb.scriptDice(2); // Orc frozen for two seconds
    await commands(sb, "!surprise roll"); // round 1: Ava
    await next(sb); // Orc's first frozen second, passed on: Bob
    await next(sb); // round 2: Ava
    const ids = () => sb.turnorder().map((r) => r.id);
    const roundRow = sb.turnorder().find((r) => r[GURPS.name]);
    assert.deepEqual(ids(), [ava.id, orc.id, bob.id, "-1"]);
    // The GM drags Orc below Bob (his initiative 0): then Bob plays, and GroupInitiative sorts the order
    sb.user.setTurnorder([row(ava, 3), row(bob, 1), row(orc, 0), roundRow]);
    await sb.settle();
    await next(sb); // Bob
    assert.equal(Object.values(surpriseOf(sb, GURPS).tracks)[0].turns.length, 1, "Orc's turn of round 2 is still to come");
    const before = sb.chat.length;
    await commands(sb, "!group-init --sort"); // Ava 3, Bob 1, Orc 0: Orc among the turns played this round
    assert.deepEqual(ids(), [ava.id, bob.id, orc.id, "-1"]);
    const cards = sb.chat.slice(before).map((c) => c.content).join("\n");
    assert.match(cards, /Orc&#39;s turn was passed over: played now/);
    assert.deepEqual(Object.values(surpriseOf(sb, GURPS).tracks)[0].turns.map((turn) => turn.state), ["frozen", "frozen"], "his second frozen second");
    assert.deepEqual(sb.takeErrors(), []);
  });
}

test("a combatant taken out of the turn order (his token kept) leaves the surprise: his marker goes, and the surprise ends", async () => {
  const { sb, tokens } = await game(GURPS, [{ name: "Ava", side: "a", attributes: iq(12) },
    { name: "Orc", side: "b", attributes: iq(10) }]);
  const [, orc] = tokens;
  await commands(sb, "!surprise resolve --procedure total");
  sb.scriptDice(3); // Orc frozen for three seconds
  await commands(sb, "!surprise roll");
  assert.match(orc.get("statusmarkers"), /yellow/);
  sb.user.setTurnorder(sb.turnorder().filter((r) => r.id !== orc.id)); // the GM removes his row
  await sb.settle();
  assert.equal(orc.get("statusmarkers"), "", "his marker went with his row");
  const surprise = surpriseOf(sb, GURPS);
  assert.deepEqual([surprise.done, surprise.follow.gone], [true, [orc.id]]);
  assert.ok(!sb.turnorder().some((r) => r[GURPS.name]), "the round row left with the surprise");
  assert.deepEqual(sb.takeErrors(), []);
});

test("a marker colour a token showed before the surprise stays when the script takes its own away", async () => {
  const { sb, tokens } = await game(GURPS, [{ name: "Ava", side: "a", attributes: iq(12) },
    { name: "Orc", side: "b", attributes: iq(10) }, { name: "Gob", side: "b", attributes: iq(10) }]);
  const [, orc, gob] = tokens;
  orc.set("status_yellow", true); // the GM's own yellow dot on Orc (poisoned, say)
  await commands(sb, "!surprise resolve --procedure total");
  sb.scriptDice(2);
  await commands(sb, "!surprise roll");
  assert.match(gob.get("statusmarkers"), /yellow@2/);
  await commands(sb, "!surprise clear");
  assert.equal(orc.get("statusmarkers"), "yellow", "the GM's marker stays");
  assert.equal(gob.get("statusmarkers"), "", "the script's goes");
  assert.deepEqual(sb.takeErrors(), []);
});

test("one roll and each Next against a pack of twelve stunned wolves post at most two cards: one for the table, one for the GM", async () => {
  const wolves = Array.from({ length: 12 }, (_, index) => ({ name: `Wolf ${index + 1}`, side: "b", attributes: iq(3) }));
  const { sb, tokens } = await game(GURPS, [{ name: "Ava", side: "a", attributes: iq(12) }, ...wolves]);
  await commands(sb, "!surprise resolve --procedure total");
  sb.scriptDice(1); // frozen for one second
  const posted = (from) => sb.chat.slice(from).filter((c) => c.who === GURPS.name || /ambush|Surprise/.test(c.content));
  let before = sb.chat.length;
  await commands(sb, "!surprise roll"); // the card; round 1 begins at Ava
  const onRoll = posted(before).length;
  assert.ok(onRoll <= 4, `${onRoll} messages for one roll`);
  sb.scriptDice(...Array(2 * 3 * 12).fill(6)); // their frozen second, then each of their IQ rolls fails
  for (let click = 0; click < 3; click += 1) {
    before = sb.chat.length;
    await next(sb);
    const cards = posted(before);
    assert.ok(cards.filter((c) => !c.whisperTo).length <= 1 && cards.filter((c) => c.whisperTo).length <= 1,
      `click ${click + 1}: ${cards.length} messages`);
    assert.equal(sb.turnorder()[0].id, tokens[0].id, "every wolf's turn passed on: Ava's again");
  }
  assert.deepEqual(Object.values(surpriseOf(sb, GURPS).tracks).map((track) => track.turns.length), Array(12).fill(3));
  assert.deepEqual(sb.diceLeft(), []);
  assert.deepEqual(sb.takeErrors(), []);
});

test("chat input cannot hurt: no key reaches a prototype, numbers are decimal, switches are true or false", async () => {
  const { sb, tokens } = await game(GURPS, [{ name: "Ava", side: "a", attributes: iq(12) },
    { name: "Orc", side: "b", attributes: iq(10) }]);
  const [ava] = tokens;
  await commands(sb, "!surprise resolve --procedure total");
  const draft = () => sb.read(`state.${GURPS.name}.draft`);
  const member = () => draft().sides.a.members.find((m) => m.id === ava.id);
  const before = JSON.stringify(draft());
  for (const line of [
    "!surprise set --side __proto__ --animals true",
    "!surprise set --side constructor --animals true",
    "!surprise set --__proto__ x --animals true",
    `!surprise set --token __proto__ --iq 12`,
    `!surprise set --token ${ava.id} --iq 0x10`,
    `!surprise set --token ${ava.id} --iq 1e1`,
    `!surprise set --token ${ava.id} --combat_reflexes maybe`,
  ]) {
    const from = sb.chat.length;
    await commands(sb, line);
    // Whose field, which field and what was typed, where the command named a field of a combatant
    const told = /--iq/.test(line) && !/__proto__/.test(line) ? /Ava: IQ is “[^”]+”, not a whole number/ : /not a valid value/;
    assert.ok(whispers(sb, from).some((c) => told.test(c.content)), `${line}: the GM is told`);
  }
  assert.equal(JSON.stringify(draft()), before, "the draft is unchanged");
  assert.equal(sb.read("({}).animals"), undefined, "no key reached Object.prototype");
  assert.equal(sb.read("Object.prototype.hasOwnProperty('animals') || Object.prototype.hasOwnProperty('iq')"), false);
  await commands(sb, `!surprise set --token ${ava.id} --iq 16 --combat_reflexes true`);
  assert.deepEqual([member().iq, member().combat_reflexes], [16, true], "decimal and true are taken");
  const from = sb.chat.length;
  await commands(sb, "!surprise config --automation maybe");
  assert.ok(whispers(sb, from).some((c) => /not a valid value/.test(c.content)));
  assert.equal(sb.read(`state.${GURPS.name}.config.automation`), true);
  assert.deepEqual(sb.takeErrors(), []);
});

test("a second ambush script answering the same command warns the GM at ready and answers nothing", async () => {
  const sb = createSandbox({ players });
  await sb.load(GURPS.file);
  await sb.load(ADND.file);
  sb.ready();
  await sb.settle();
  const warned = whispers(sb).filter((c) => /Another script, AmbushGurpsExample, already answers !surprise: this one answers nothing/.test(c.content));
  assert.equal(warned.length, 1);
  const from = sb.chat.length;
  await commands(sb, "!surprise help");
  const answers = sb.chat.slice(from).map((c) => c.content);
  assert.equal(answers.length, 1, "one help card");
  assert.match(answers[0], />Ambush: GURPS Surprise \d+\.\d+\.\d+</, "the first script's help card, headed by its campaign's title");
  assert.deepEqual(sb.takeErrors(), []);
});

test("a campaign's own command: the script answers it, its help, macros and cards use it, and a second script beside it is fine", async () => {
  const own = { file: process.env.OWN_COMMAND_SCRIPT, name: "OwnCommand" };
  const sb = createSandbox({ players });
  await sb.load(GURPS.file);
  await sb.load(own.file);
  sb.ready();
  await sb.settle();
  assert.deepEqual(whispers(sb).filter((c) => /already answers/.test(c.content)), [], "two commands, no warning");
  const macros = Object.fromEntries(sb.findObjs({ _type: "macro" }).map((macro) => [macro.get("name"), macro.get("action")]));
  assert.equal(macros["Ambush-gurps-Roll"], "!ambush-gurps roll", "its macros, named for its command");
  assert.equal(macros["Surprise-Roll"], "!surprise roll", "beside the other script's");
  const from = sb.chat.length;
  await commands(sb, "!ambush-gurps help");
  const help = sb.chat.slice(from).map((c) => c.content);
  assert.equal(help.length, 1);
  assert.match(help[0], />Own command 1\.0\.0</, "its help card, headed by its campaign's title");
  assert.match(help[0], /href="!ambush-gurps resolve --procedure/);
  assert.doesNotMatch(help[0], /!surprise/);
  assert.deepEqual(sb.takeErrors(), []);
});
