// How the example scripts pass a turn beside the scripts that follow the turn order (issue 28; docs/dev/roll20.md §4,
// "Who hears a turn"): through TurnMarker1's observer, or, beside RoundMaster, CombatMaster, Gaslight and
// ConditionTracker, which hear only clicks, by leaving the turn to the GM's click with one line saying whose it is; rows
// that stand for several tokens (InitMaster's "Foes", a custom row named after its tokens); markers by marker, not by
// colour; one click that plays each turn at most once. Run by tests/test_roll20_passing.py; SCRIPTS_DIR holds the built
// example scripts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ADND, commands, FALLOUT, GM, GURPS, next, PLAYER, players, row } from "./examples.mjs";
import { createSandbox } from "../../tools/harness/roll20/harness.mjs";

const TM_IMAGE = "https://s3.amazonaws.com/files.d20.io/images/4095816/086YSl3v0Kz3SlDAu245Vg/thumb.png?1400535580";


/** The GM's whispers since an index, as text */
const whispers = (sb, from = 0) => sb.chat.slice(from).filter((c) => c.whisperTo?.toLowerCase?.() === "gm")
  .map((c) => c.content.replace(/<[^>]*>/g, " ").replace(/&#39;/g, "'").replace(/\s+/g, " ").trim());

/** What the example script posted since an index */
const posted = (sb, script, from = 0) => sb.chat.slice(from).filter((c) => c.who === script.name);

/** The order as the tracker shows it: token names, custom rows' labels */
const shown = (sb) => sb.turnorder().map((r) => (r.id === "-1" ? r.custom : sb.getObj("graphic", r.id)?.get("name") ?? "(gone)"));

const surpriseOf = (sb, script) => sb.read(`state.${script.name}.surprise`);
const iq = (value) => ({ intelligence: value, perception: value });

/**
 * A game with these people (side a the player's, their characters controlled by the player), the example script and
 * the models named, loaded in the order given ("ambush" for the example script), ready.
 */
async function game(script, people, load) {
  const sb = createSandbox({ players });
  const tokens = people.map(({ name, side, attributes, character }) => {
    const controlledby = side === "a" ? PLAYER : "";
    const sheet = character ?? sb.createCharacter({ name, controlledby, attributes });
    return sb.createToken({ name, represents: sheet.id, controlledby, showplayers_name: true });
  });
  for (const name of load) {
    if (name === "ambush") sb.load(script.file);
    else sb.loadCommunity(name);
  }
  sb.ready();
  await sb.settle();
  return { sb, tokens };
}


/** Both load orders of the example script beside these models */
const bothOrders = (models) => [["ambush", ...models], [...models, "ambush"]];

// ---------------------------------------------------------------------------------------------
// 1. A skip the table hears

/** RoundMaster's round row: its id -1, pr -100, "Round N" in its label */
const isRoundMasterRow = (r) => r?.id === "-1" && String(r.pr) === "-100" && /Round\s*\d+/.test(r.custom);

for (const version of ["roundmaster", "roundmaster@5.052"]) {
  for (const load of bothOrders([version])) {
    for (const seed of [1, 2, 3, 4, 5]) {
      test(`beside ${version} (${load.join(", ")}), seed ${seed}: RoundMaster counts every round and counts its statuses down; a surprised turn waits for the GM's click, and he is told whose it is`, async () => {
        const { sb, tokens } = await game(GURPS, [
          { name: "Ava", side: "a", attributes: iq(12) }, { name: "Orc", side: "b", attributes: iq(8 + seed) },
          { name: "Bob", side: "a", attributes: iq(12) }, { name: "Gob", side: "b", attributes: iq(9) }], load);
        const [ava, orc, bob, gob] = tokens;
        await commands(sb, "!rounds --clearonround off", "!rounds --sortorder nosort");
        sb.user.setTurnorder([row(ava, 4), row(orc, 3), row(bob, 2), row(gob, 1), ...sb.turnorder()]);
        sb.user.openTurnTracker();
        await commands(sb, "!rounds --start");
        sb.user.chat(GM, "!rounds --addstatus webbed|6|-1|Caught in a web|brown", { selected: [ava] });
        await sb.settle();
        await commands(sb, `!surprise resolve --procedure total --ids ${tokens.map((t) => t.id).join(",")}`);
        sb.scriptDice((seed % 3) + 1, ...Array.from({ length: 60 }, (_, i) => ((i * (seed + 1) + 2) % 6) + 1));
        await commands(sb, "!surprise roll");
        let counted = sb.read("state.roundMaster.round");
        const stunnedOnTop = () => {
          const surprise = surpriseOf(sb, GURPS);
          return !surprise.done && (surprise.applied[sb.turnorder()[0].id] ?? []).length > 0;
        };
        for (let click = 1; click <= 16; click += 1) {
          const order = sb.turnorder();
          // What the GM's click shows: the next row, or the one after RoundMaster's row, which it counts and passes
          const expected = isRoundMasterRow(order[1]) ? order[2] : order[1];
          const from = sb.chat.length;
          await next(sb);
          if (isRoundMasterRow(order[1])) counted += 1;
          assert.ok(!isRoundMasterRow(sb.turnorder()[0]), `click ${click}: RoundMaster's row is on top, no round counted (${shown(sb)})`);
          assert.equal(sb.read("state.roundMaster.round"), counted, `click ${click}: RoundMaster counted every round`);
          assert.equal(sb.turnorder()[0].id, expected.id, `click ${click}: nobody moved the order but the GM (${shown(sb)})`);
          const told = whispers(sb, from).filter((text) => /may not act this turn/.test(text));
          if (stunnedOnTop() && !posted(sb, GURPS, from).some((c) => /recovers|recovered/.test(c.content))) {
            assert.ok(told.length <= 1, `click ${click}: one line`);
          }
          for (const line of told) assert.match(line, new RegExp(`^Surprise ${sb.getObj("graphic", expected.id).get("name")} may not act`));
          if (sb.turnorder()[0].id === ava.id) {
            const web = sb.read(`state.roundMaster.effects["${ava.id}"]`)[0];
            assert.equal(web.duration, 6 - (counted - 1), `click ${click}: Ava's web counts down once a round`);
          }
        }
        assert.ok(counted >= 3, "the GM played several rounds");
        assert.deepEqual(sb.takeErrors(), []);
      });
    }
  }
}

/** Play GM clicks beside a script that hears only clicks: the script never moves the order after the click's handlers */
async function clicksLeftAlone(sb, clicks, what) {
  for (let click = 1; click <= clicks; click += 1) {
    sb.user.advanceTurn();
    const after = JSON.stringify(sb.turnorder().map((r) => r.id));
    await sb.settle();
    assert.equal(JSON.stringify(sb.turnorder().map((r) => r.id)), after, `${what}, click ${click}: the script moved the order (${shown(sb)})`);
  }
}

for (const load of bothOrders(["roundmaster"])) {
  test(`beside RoundMaster (${load.join(", ")}): its "It is Orc's turn" is followed by one line to the GM, and the Orc's turn waits for his click`, async () => {
    const { sb, tokens } = await game(GURPS, [{ name: "Ava", side: "a", attributes: iq(12) },
      { name: "Orc", side: "b", attributes: iq(10) }, { name: "Bob", side: "a", attributes: iq(12) }], load);
    const [ava, orc, bob] = tokens;
    await commands(sb, "!rounds --clearonround off", "!rounds --sortorder nosort");
    sb.user.setTurnorder([row(ava, 3), row(orc, 2), row(bob, 1), ...sb.turnorder()]);
    sb.user.openTurnTracker();
    await commands(sb, "!rounds --start", "!surprise resolve --procedure total");
    sb.scriptDice(2, 3, 3, 3); // the orc frozen for two seconds, then he recovers
    await commands(sb, "!surprise roll");
    const from = sb.chat.length;
    await next(sb);
    const said = sb.chat.slice(from).map((c) => c.content.replace(/<[^>]*>/g, " ").replace(/&#39;/g, "'").replace(/\s+/g, " ").trim());
    assert.ok(said.includes("It is Orc's turn"), "RoundMaster announces the orc's turn");
    assert.equal(sb.turnorder()[0].id, orc.id, "and it is the orc's turn: the script moved nothing");
    assert.deepEqual(whispers(sb, from).filter((text) => /may not act/.test(text)),
      ["Surprise Orc may not act this turn: pass it with the turn order's Next button."]);
    await clicksLeftAlone(sb, 6, "RoundMaster");
    assert.deepEqual(sb.takeErrors(), []);
  });
}

for (const [model, setup] of [
  ["combatmaster", async () => {}],
  ["conditiontracker", async () => {}],
  ["gaslight", async (sb) => { sb.state.Gaslight = { activeGroups: { party: { masterPageId: sb.page.id, linkedTokens: {} } }, hud: {} }; }],
]) {
  for (const load of bothOrders([model])) {
    test(`beside ${model} (${load.join(", ")}), which hears only clicks: the script moves nothing, tells the GM whose turn to pass, and the surprise ends`, async () => {
      const sb = createSandbox({ players });
      await setup(sb);
      const people = [["Ava", "a", 12], ["Orc", "b", 10], ["Bob", "a", 12]].map(([name, side, value]) => {
        const controlledby = side === "a" ? PLAYER : "";
        const character = sb.createCharacter({ name, controlledby, attributes: iq(value) });
        return sb.createToken({ name, represents: character.id, controlledby });
      });
      for (const name of load) {
        if (name === "ambush") sb.load(GURPS.file);
        else sb.loadCommunity(name);
      }
      sb.ready();
      await sb.settle();
      sb.user.setTurnorder(people.map((token, index) => row(token, 3 - index)));
      sb.user.openTurnTracker();
      await sb.settle();
      await commands(sb, "!surprise resolve --procedure total");
      sb.scriptDice(1, 6, 6, 6, 3, 3, 3);
      await commands(sb, "!surprise roll");
      const from = sb.chat.length;
      await clicksLeftAlone(sb, 12, model);
      const told = whispers(sb, from).filter((text) => /may not act this turn/.test(text));
      // His frozen second, the turn of his failed IQ roll and that of the roll that ends the stun: a line each
      assert.equal(told.length, 3, told.join("\n"));
      assert.ok(told.every((text) => /^Surprise Orc may not act/.test(text)));
      assert.equal(surpriseOf(sb, GURPS).done, true, "the surprise ended");
      assert.equal(people[1].get("statusmarkers"), "", "and its marker went");
      assert.deepEqual(sb.takeErrors(), []);
    });
  }
}

for (const load of bothOrders(["turnmarker1"])) {
  test(`beside TurnMarker1 (${load.join(", ")}): the script passes each surprised turn and TurnMarker1 hears it, counting every round on its marker`, async () => {
    const { sb, tokens } = await game(GURPS, [{ name: "Ava", side: "a", attributes: iq(12) },
      { name: "Orc", side: "b", attributes: iq(9) }, { name: "Bob", side: "a", attributes: iq(12) },
      { name: "Gob", side: "b", attributes: iq(9) }], load);
    sb.user.setTurnorder([...tokens.map((token, index) => row(token, 4 - index)), ...sb.turnorder()]);
    sb.user.openTurnTracker();
    await sb.settle();
    const [marker] = sb.findObjs({ _type: "graphic", imgsrc: TM_IMAGE });
    await commands(sb, "!surprise resolve --procedure total");
    sb.scriptDice(2, ...Array(60).fill(6));
    await commands(sb, "!surprise roll");
    for (let click = 1; click <= 10; click += 1) {
      const from = sb.chat.length;
      await next(sb);
      const top = sb.turnorder()[0];
      assert.notEqual(top.id, marker.id, `click ${click}: TurnMarker1's row is on top, its round uncounted (${shown(sb)})`);
      assert.ok(!(surpriseOf(sb, GURPS).applied[top.id] ?? []).length, `click ${click}: a stunned turn was left on top`);
      const round = surpriseOf(sb, GURPS).follow.round;
      assert.equal(marker.get("name"), `Round ${round - 1}`, `click ${click}: TurnMarker1 counted every round the script played`);
      // TurnMarker1 announced each turn the script passed, as it does at a click
      const cards = sb.chat.slice(from).filter((c) => /it's now your turn/.test(c.content)).map((c) => /(\w+), it's now/.exec(c.content)[1]);
      assert.equal(cards.at(-1), sb.getObj("graphic", top.id).get("name"), `click ${click}: its card names the turn shown`);
    }
    assert.deepEqual(sb.takeErrors(), []);
  });
}

test("a player's !eot, TurnMarker1's own command, passes the turn without an event: the script follows it", async () => {
  const { sb, tokens } = await game(GURPS, [{ name: "Ava", side: "a", attributes: iq(12) },
    { name: "Orc", side: "b", attributes: iq(10) }, { name: "Bob", side: "a", attributes: iq(12) }], ["ambush", "turnmarker1"]);
  const [ava, orc, bob] = tokens;
  sb.user.setTurnorder([row(ava, 3), row(orc, 2), row(bob, 1), ...sb.turnorder()]);
  sb.user.openTurnTracker();
  await sb.settle();
  await commands(sb, "!surprise resolve --procedure total");
  sb.scriptDice(2);
  await commands(sb, "!surprise roll");
  assert.equal(sb.turnorder()[0].id, ava.id);
  sb.user.chat(PLAYER, "!eot"); // Ava's player ends her turn: TurnMarker1 moves the order through the API
  await sb.settle();
  assert.equal(sb.turnorder()[0].id, bob.id, "the frozen orc's turn was passed on at once");
  assert.equal(Object.values(surpriseOf(sb, GURPS).tracks)[0].turns.length, 1, "and played");
  assert.deepEqual(sb.takeErrors(), []);
});

// ---------------------------------------------------------------------------------------------
// Gaslight's copies and ConditionTracker's durations

for (const load of bothOrders(["gaslight"])) {
  test(`beside Gaslight with a group split (${load.join(", ")}): a copy's row stands for its token, never drafted; the GM's click passes the copies`, async () => {
    const sb = createSandbox({ players });
    const players2 = sb.createPage("Pat's copy");
    const make = (name, side, page) => {
      const controlledby = side === "a" ? PLAYER : "";
      const character = sb.createCharacter({ name, controlledby, attributes: iq(side === "a" ? 12 : 10) });
      return sb.createToken({ name, represents: character.id, controlledby, ...(page ? { _pageid: page.id } : {}) });
    };
    const [ava, orc, bob] = [make("Ava", "a"), make("Orc", "b"), make("Bob", "a")];
    const orcCopy = make("Orc", "b", players2);
    sb.state.Gaslight = { activeGroups: { party: { masterPageId: sb.page.id, linkedTokens: { [orc.id]: [orcCopy.id], [orcCopy.id]: [orc.id] } } }, hud: {} };
    for (const name of load) {
      if (name === "ambush") sb.load(GURPS.file);
      else sb.loadCommunity(name);
    }
    sb.ready();
    await sb.settle();
    sb.user.setTurnorder([row(ava, 3), row(orc, 2), row(bob, 1)]);
    assert.deepEqual(sb.turnorder().map((r) => r.id), [ava.id, orc.id, orcCopy.id, bob.id], "Gaslight added the copy's row below the orc");
    sb.user.openTurnTracker();
    await commands(sb, "!surprise resolve --procedure total");
    const draft = sb.read(`state.${GURPS.name}.draft`);
    assert.deepEqual([...draft.sides.a.members, ...draft.sides.b.members].map((m) => m.id).sort(), [ava.id, orc.id, bob.id].sort(),
      "the copy is not drafted");
    sb.scriptDice(1, 6, 6, 6, 3, 3, 3);
    await commands(sb, "!surprise roll");
    await clicksLeftAlone(sb, 1, "Gaslight");
    assert.equal(sb.turnorder()[0].id, orc.id);
    await clicksLeftAlone(sb, 1, "Gaslight");
    assert.equal(sb.turnorder()[0].id, bob.id, "the GM's click onto the copy: Gaslight passed it");
    const turns = () => Object.values(surpriseOf(sb, GURPS).tracks)[0].turns.length;
    assert.equal(turns(), 1, "the orc's one turn, not two for his copy");
    await clicksLeftAlone(sb, 3, "Gaslight");
    assert.equal(turns(), 2, "a second turn in the second round");
    assert.deepEqual(sb.takeErrors(), []);
  });
}

for (const load of bothOrders(["conditiontracker"])) {
  test(`beside ConditionTracker (${load.join(", ")}): a duration anchored to the turn after a surprised one ends when that turn does`, async () => {
    const { sb, tokens } = await game(GURPS, [{ name: "Ava", side: "a", attributes: iq(12) },
      { name: "Orc", side: "b", attributes: iq(10) }, { name: "Bob", side: "a", attributes: iq(12) },
      { name: "Gob", side: "b", attributes: iq(10) }], load);
    const [ava, orc, bob, gob] = tokens;
    sb.user.setTurnorder([row(ava, 4), row(orc, 3), row(bob, 2), row(gob, 1)]);
    sb.user.openTurnTracker();
    await sb.settle();
    await commands(sb, "!surprise resolve --procedure total");
    sb.scriptDice(3);
    await commands(sb, "!surprise roll");
    await commands(sb, `!condition-tracker --source ${ava.id} --target ${bob.id} --condition Dazed --duration 1 round`);
    const dazed = () => sb.read("state.ConditionTracker.active").filter((c) => c.condition === "Dazed").length;
    assert.equal(dazed(), 1);
    await next(sb); // onto the frozen orc
    await next(sb); // onto Bob
    assert.equal(sb.turnorder()[0].id, bob.id, "the GM passed the orc's turn himself");
    assert.equal(dazed(), 1, "Bob is dazed during his turn");
    await next(sb); // Bob's turn ends: ConditionTracker counts it
    assert.equal(dazed(), 0, "the daze ended with Bob's turn");
    assert.deepEqual(sb.takeErrors(), []);
  });
}

// ---------------------------------------------------------------------------------------------
// 2. Rows that stand for several tokens

for (const load of bothOrders(["roundmaster", "initmaster"])) {
  test(`InitMaster's standard initiative beside RoundMaster (${load.join(", ")}): the "Foes" row stands for the surprised monsters, the GM is told, and the segments end in the round RoundMaster shows`, async () => {
    const dex = { dexterity: 10 };
    const { sb, tokens } = await game(ADND, [{ name: "Fighter", side: "a", attributes: dex },
      { name: "Cleric", side: "a", attributes: dex }, { name: "Orc", side: "b", attributes: dex },
      { name: "Goblin", side: "b", attributes: dex }], load);
    const [, , orc, goblin] = tokens;
    sb.user.openTurnTracker();
    await commands(sb, "!rounds --start", "!init --type standard", "!init --roll 3|5");
    assert.deepEqual(shown(sb), ["⏵ Round 1", "Cleric", "Fighter", "Foes"], "a row each for the party, one for the foes");
    await commands(sb, `!surprise resolve --procedure roll --ids ${tokens.map((t) => t.id).join(",")}`);
    sb.scriptDice(6, 1); // the party is not surprised, the foes for two segments... for the one segment the rules give
    let from = sb.chat.length;
    await commands(sb, "!surprise roll");
    const timeline = surpriseOf(sb, ADND).outcome.timeline;
    assert.ok(timeline.length >= 1);
    const card = posted(sb, ADND, from).map((c) => c.content).join("\n");
    assert.match(card, new RegExp(`the first normal round after (it|them) is round ${1 + timeline.length}\\.`), "numbered as RoundMaster will show it");
    assert.deepEqual(whispers(sb, from).filter((text) => /row of their own/.test(text)),
      ["Surprise Orc and Goblin have no row of their own in the turn order: their turns are played with the row “Foes”."]);
    await clicksLeftAlone(sb, 2, "RoundMaster");
    from = sb.chat.length;
    await clicksLeftAlone(sb, 1, "RoundMaster");
    assert.deepEqual(shown(sb)[0], "Foes");
    assert.deepEqual(whispers(sb, from).filter((text) => /may not act/.test(text)),
      ["Surprise Orc and Goblin may not act this turn: pass it with the turn order's Next button."]);
    for (let segment = 2; !surpriseOf(sb, ADND).done && segment < 6; segment += 1) {
      await clicksLeftAlone(sb, 1, "RoundMaster"); // RoundMaster's row: a new round, the order cleared
      assert.deepEqual(shown(sb), [`⏵ Round ${segment}`]);
      await commands(sb, "!init --roll 4|2");
      await clicksLeftAlone(sb, 3, "RoundMaster");
    }
    const over = posted(sb, ADND).map((c) => c.content).find((text) => /The surprise is over/.test(text));
    assert.match(over, new RegExp(`this is round ${1 + timeline.length}, the first normal round`));
    assert.equal(sb.read("state.roundMaster.round"), 1 + timeline.length, "the round RoundMaster shows");
    assert.ok([orc, goblin].every((token) => token.get("statusmarkers") === ""), "their markers went");
    assert.deepEqual(sb.takeErrors(), []);
  });
}

test("a custom row named after the tokens' character stands for them: passed only while none of them may act; a surprised token named by no row is told of", async () => {
  const sb = createSandbox({ players });
  const avaSheet = sb.createCharacter({ name: "Ava", controlledby: PLAYER, attributes: iq(12) });
  const ava = sb.createToken({ name: "Ava", represents: avaSheet.id, controlledby: PLAYER });
  const wolf = sb.createCharacter({ name: "Wolf", attributes: iq(10) });
  const wolves = ["Wolf 1", "Wolf 2"].map((name) => sb.createToken({ name, represents: wolf.id }));
  const dire = sb.createToken({ name: "Fang", represents: sb.createCharacter({ name: "Dire wolf", attributes: iq(10) }).id });
  sb.load(GURPS.file);
  sb.ready();
  await sb.settle();
  sb.user.setTurnorder([row(ava, 2), { id: "-1", pr: "1", custom: "Wolf" }]);
  sb.user.openTurnTracker();
  await sb.settle();
  await commands(sb, `!surprise resolve --procedure total --ids ${[ava, ...wolves, dire].map((t) => t.id).join(",")}`);
  // Frozen for a second; then Wolf 1 rolls 9 and Wolf 2 18 (their IQ rolls in row order), and again
  sb.scriptDice(1, 3, 3, 3, 6, 6, 6, 6, 6, 6);
  let from = sb.chat.length;
  await commands(sb, "!surprise roll");
  assert.deepEqual(whispers(sb, from).filter((text) => /row/.test(text)), [
    "Surprise Wolf 1 and Wolf 2 have no row of their own in the turn order: their turns are played with the row “Wolf”.",
    "Surprise Fang is surprised and has no row in the turn order, so their turn is never played: add the token to the turn order, or select it and play the turn with !surprise turn.",
  ]);
  const turns = () => Object.values(surpriseOf(sb, GURPS).tracks).map((track) => track.turns.length);
  await next(sb); // the wolves' row: both frozen, passed by the script; Ava's turn
  assert.equal(sb.turnorder()[0].id, ava.id);
  assert.deepEqual(turns().slice(0, 2), [1, 1]);
  await next(sb); // both roll and stay stunned this turn: passed
  assert.equal(sb.turnorder()[0].id, ava.id);
  await next(sb); // Wolf 1 has recovered, Wolf 2 rolls again and stays stunned: the row is not passed
  assert.equal(sb.turnorder()[0].custom, "Wolf", "one of the wolves may act: the row waits");
  assert.deepEqual(turns().slice(0, 2), [2, 3]);
  assert.equal(turns()[2], 0, "the wolf with no row never had a turn");
  assert.deepEqual(sb.takeErrors(), []);
});

// ---------------------------------------------------------------------------------------------
// 3. Only its own markers

for (const load of bothOrders(["roundmaster"])) {
  test(`a yellow marker RoundMaster sets on a surprised token (${load.join(", ")}) stays RoundMaster's: its count is never rewritten and it is not removed when the surprise ends`, async () => {
    const { sb, tokens } = await game(GURPS, [{ name: "Ava", side: "a", attributes: iq(12) },
      { name: "Orc", side: "b", attributes: iq(10) }], load);
    const [ava, orc] = tokens;
    await commands(sb, "!rounds --clearonround off", "!rounds --sortorder nosort");
    sb.user.setTurnorder([row(orc, 2), row(ava, 1), ...sb.turnorder()]);
    sb.user.openTurnTracker();
    await commands(sb, "!rounds --start", "!surprise resolve --procedure total", "!surprise set --scenario --surprising b");
    sb.scriptDice(3, 6, 6, 6, 3, 3, 3); // Ava frozen for three seconds, then an IQ roll of 18 and one of 9
    await commands(sb, "!surprise roll");
    assert.equal(ava.get("statusmarkers"), "yellow@3", "the script's marker: three seconds frozen");
    sb.user.chat(GM, "!rounds --addstatus webbed|6|-1|Caught in a web|yellow", { selected: [ava] });
    await sb.settle();
    assert.equal(ava.get("statusmarkers"), "yellow@6", "RoundMaster's web: six rounds");
    for (let click = 1; click <= 30 && !surpriseOf(sb, GURPS).done; click += 1) {
      await next(sb);
      const web = sb.read(`state.roundMaster.effects["${ava.id}"]`)[0];
      assert.equal(ava.get("statusmarkers"), `yellow@${web.duration}`, `click ${click}: the badge is RoundMaster's count`);
    }
    assert.equal(surpriseOf(sb, GURPS).done, true);
    assert.match(ava.get("statusmarkers"), /^yellow@\d$/, "the web's marker stays when the surprise ends");
    assert.deepEqual(sb.takeErrors(), []);
  });
}

for (const [model, seed, scripts] of [
  ["roundmaster", (sb) => { sb.state.roundMaster = { round: 1, effects: {}, statuses: [{ name: "webbed", marker: "yellow", tag: "yellow", refc: 1 }] }; }, "RoundMaster"],
  ["conditiontracker", (sb) => { sb.state.ConditionTracker = { version: "1.1.0", config: { gameSystem: "dnd5e", useMarkers: true, markers: { Dazed: "yellow" } }, active: [], runtime: {} }; }, "ConditionTracker"],
]) {
  for (const ambushFirst of [true, false]) {
    test(`at ready the GM is told that ${scripts} also sets the marker for surprised tokens (${ambushFirst ? "ambush loaded first" : "ambush loaded second"})`, async () => {
      const sb = createSandbox({ players });
      seed(sb);
      if (ambushFirst) sb.load(GURPS.file);
      sb.loadCommunity(model);
      if (!ambushFirst) sb.load(GURPS.file);
      sb.ready();
      await sb.settle();
      assert.deepEqual(whispers(sb).filter((text) => /also set by/.test(text)), [`Surprise The marker “yellow” for surprised tokens is also set by ${scripts}. The script never removes or renumbers a marker another script set, but on a token the two look alike: choose another with !surprise config --marker.`]);
      const from = sb.chat.length;
      await commands(sb, "!surprise config --marker purple");
      assert.deepEqual(whispers(sb, from).filter((text) => /also set by/.test(text)), [], "purple is nobody else's");
      assert.deepEqual(sb.takeErrors(), []);
    });
  }
}

// ---------------------------------------------------------------------------------------------
// 4. One click plays each turn at most once

for (const seed of [1, 2, 3]) {
  test(`seed ${seed}: !surprise roll with nobody in the order able to act (two wolves, GURPS total surprise) plays each wolf once and says so once`, async () => {
    const { sb, tokens } = await game(GURPS, [{ name: "Ava", side: "a", attributes: iq(12) },
      { name: "Wolf 1", side: "b", attributes: iq(4) }, { name: "Wolf 2", side: "b", attributes: iq(4) }], ["ambush"]);
    const [ava, ...wolves] = tokens;
    sb.user.setTurnorder(wolves.map((wolf, index) => row(wolf, 2 - index)));
    sb.user.openTurnTracker();
    await sb.settle();
    await commands(sb, `!surprise resolve --procedure total --ids ${[ava, ...wolves].map((t) => t.id).join(",")}`);
    let x = seed * 7919;
    sb.scriptDice(Array.from({ length: 400 }, () => { x = (x * 48271) % 2147483647; return (x % 6) + 1; }));
    const turns = () => Object.values(surpriseOf(sb, GURPS).tracks).map((track) => track.turns.length);
    let from = sb.chat.length;
    await commands(sb, "!surprise roll");
    for (let click = 0; click <= 3; click += 1) {
      if (click) {
        from = sb.chat.length;
        await next(sb);
      }
      const messages = posted(sb, GURPS, from);
      assert.ok(messages.length <= 2 * sb.turnorder().length, `click ${click}: ${messages.length} messages for ${sb.turnorder().length} rows`);
      assert.deepEqual(turns(), [click + 1, click + 1], `click ${click}: each wolf's turn played once a click`);
      assert.equal(whispers(sb, from).filter((text) => /Nobody in the turn order may act this round/.test(text)).length, 1);
    }
    assert.deepEqual(sb.takeErrors(), []);
  });
}

for (const [script, procedure, set, dice] of [
  [GURPS, "total", [], [2, ...Array(300).fill(6)]],
  [GURPS, "partial", [], [6, 1, ...Array(300).fill(6)]],
  [ADND, "roll", ["--side b --surprised_on 6"], [6, 6]],
  [FALLOUT, "world-map", ["--scenario --dc 12"], Array(60).fill(1)],
]) {
  test(`${script.name} ${procedure}, nobody in the order able to act: every click posts at most two messages per row of the order, and says once that nobody can act`, async () => {
    const people = [{ name: "Ava", side: "a", attributes: { ...iq(12), dexterity: 10 } },
      ...[1, 2, 3].map((n) => ({ name: `Wolf ${n}`, side: "b", attributes: { ...iq(4), dexterity: 10 } }))];
    const { sb, tokens } = await game(script, people, ["ambush"]);
    const [ava, ...wolves] = tokens;
    sb.user.setTurnorder(wolves.map((token, index) => row(token, 9 - index)));
    sb.user.openTurnTracker();
    await commands(sb, `!surprise resolve --procedure ${procedure} --ids ${[ava, ...wolves].map((t) => t.id).join(",")}`,
      ...set.map((line) => `!surprise set ${line}`));
    const draft = sb.read(`state.${script.name}.draft`);
    for (const member of [...draft.sides.a.members, ...draft.sides.b.members]) {
      const missing = Object.keys(member).filter((key) => member[key] === null && key !== "surprise_adjustment");
      if (missing.length) await commands(sb, `!surprise set --token ${member.id} ${missing.map((key) => `--${key} 10`).join(" ")}`);
    }
    sb.scriptDice(dice);
    let from = sb.chat.length;
    await commands(sb, "!surprise roll");
    assert.ok(surpriseOf(sb, script), "rolled");
    for (let click = 0; click <= 4; click += 1) {
      if (click) {
        from = sb.chat.length;
        await next(sb);
      }
      const messages = posted(sb, script, from).length;
      assert.ok(messages <= 2 * sb.turnorder().length, `click ${click}: ${messages} messages for ${sb.turnorder().length} rows`);
      assert.ok(whispers(sb, from).filter((text) => /Nobody in the turn order may act this round/.test(text)).length <= 1);
    }
    assert.equal(sb.takeErrors().filter((e) => e.kind !== "dice").length, 0);
  });
}

// ---------------------------------------------------------------------------------------------
// The help card says which way turns are passed in this game

for (const [load, expected] of [
  [["ambush"], "Turns of those who may not act: the script passes them."],
  [["ambush", "groupinitiative"], "Turns of those who may not act: the script passes them."],
  [["turnmarker1", "ambush"], "Turns of those who may not act: the script passes them and tells TurnMarker1."],
  [["ambush", "roundmaster", "initmaster"], "Turns of those who may not act: only a click on the turn order's Next button reaches RoundMaster, so the script passes none itself; it tells you whose turn to pass."],
  [["combatmaster", "ambush", "turnmarker1"], "Turns of those who may not act: only a click on the turn order's Next button reaches CombatMaster, so the script passes none itself; it tells you whose turn to pass."],
  [["ambush", "conditiontracker"], "Turns of those who may not act: only a click on the turn order's Next button reaches ConditionTracker, so the script passes none itself; it tells you whose turn to pass."],
  [["ambush", "gaslight"], "Turns of those who may not act: the script passes them."],
]) {
  test(`the help card beside ${load.filter((name) => name !== "ambush").join(", ") || "no other script"} says how turns are passed`, async () => {
    const { sb } = await game(GURPS, [], load);
    await commands(sb, "!surprise help");
    const help = sb.chat.at(-1).content.replace(/<[^>]*>/g, " ").replace(/&#39;/g, "'").replace(/\s+/g, " ");
    assert.ok(help.includes(expected), help);
    const way = expected.includes("click") ? "clicks" : expected.includes("tells") ? "observer" : "script";
    assert.ok(sb.logs.some((line) => line.startsWith(`${GURPS.name}: beside `) && line.endsWith(`; passing turns: ${way}`)), sb.logs.join("\n"));
    assert.deepEqual(sb.takeErrors(), []);
  });
}
