// Behaviour of the generated example Roll20 scripts in the emulated Mod sandbox (run by tests/test_roll20_script.py).
// SCRIPTS_DIR holds <id>/roll20/<Name>.js for the three example campaigns.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ADND, FALLOUT, GM, GURPS, PLAYER, players } from "./examples.mjs";
import { createSandbox } from "../../tools/harness/roll20/harness.mjs";


/** A sandbox with the script loaded and ready, and two characters (IQ 12, friendly; IQ 10, hostile). */
async function ready(script = GURPS, { seed } = {}) {
  const sb = createSandbox({ players });
  if (seed) seed(sb);
  const ava = sb.createCharacter({ name: "Ava", controlledby: PLAYER, attributes: { intelligence: 12, perception: 12 } });
  const orc = sb.createCharacter({ name: "Orc", controlledby: "", attributes: { intelligence: 10, perception: 10 } });
  const tokens = [
    sb.createToken({ name: "Ava", represents: ava.id, controlledby: PLAYER }),
    sb.createToken({ name: "Orc", represents: orc.id, controlledby: "" }),
  ];
  await sb.load(script.file);
  sb.ready();
  await sb.settle();
  return { sb, tokens };
}

/** Rows for the turn order. */
const rows = (tokens) => tokens.map((token) => ({ id: token.id, pr: "0", custom: "", _pageid: token.get("_pageid") }));

/** The GM's whispers since an index. */
const whispers = (sb, from = 0) => sb.chat.slice(from).filter((c) => c.whisperTo?.toLowerCase?.() === "gm");

test("on ready: the version banner, the GM macros (once), and a fresh state", async () => {
  const { sb } = await ready();
  assert.ok(sb.logs.some((line) => /-=> AmbushGurpsExample v\d+\.\d+\.\d+ <=-/.test(line)));
  const names = sb.findObjs({ _type: "macro" }).map((macro) => macro.get("name")).sort();
  assert.deepEqual(names, ["Surprise", "Surprise-Clear", "Surprise-Help", "Surprise-Roll", "Surprise-Status"]);
  sb.restart();
  await sb.settle();
  assert.equal(sb.findObjs({ _type: "macro" }).length, 5, "no duplicate macros after a restart");
  assert.equal(sb.read(`state.${GURPS.name}.version`), 4);
  sb.assertClean({ allowWarnings: true });
});

test("help lists the commands as buttons, for players too", async () => {
  const { sb } = await ready();
  const before = sb.chat.length;
  sb.user.chat(PLAYER, "!surprise help");
  await sb.settle();
  const help = sb.chat.slice(before).find((c) => c.whisperTo === "Pat Doe");
  assert.ok(help, "whispered to the player who asked, by quoted display name");
  for (const command of ["!surprise resolve --procedure partial", "!surprise roll", "!surprise status", "!surprise clear"]) {
    assert.ok(help.content.includes(`href="${command}`), command);
  }
  // docs/campaign.md: the campaign's title heads the help card (fixtures/campaigns/gurps4e.toml), not the script's name
  assert.match(help.content, /<div style="[^"]*">Ambush: GURPS Surprise \d+\.\d+\.\d+<\/div>/);
  assert.ok(!help.content.includes("AmbushGurpsExample"));
});

test("a player sending a GM command gets a clear whisper and nothing happens", async () => {
  const { sb, tokens } = await ready();
  sb.user.setTurnorder(rows(tokens));
  const before = sb.chat.length;
  sb.user.chat(PLAYER, "!surprise resolve --procedure total");
  await sb.settle();
  const reply = sb.chat.slice(before).find((c) => c.whisperTo === "Pat Doe");
  assert.match(reply.content, /Only a game master/);
  assert.equal(sb.read(`state.${GURPS.name}.draft`), null);
  sb.assertClean({ allowWarnings: true });
});

test("the draft asks for what the sheets cannot give; Roll resolves and marks the stunned", async () => {
  const { sb, tokens } = await ready();
  sb.user.setTurnorder(rows(tokens));
  sb.user.chat(GM, "!surprise resolve --procedure total");
  await sb.settle();
  const draft = sb.read(`state.${GURPS.name}.draft`);
  assert.equal(draft.sides.a.members[0].iq, 12, "IQ read from the sheet's intelligence attribute");
  sb.scriptDice(2);
  const card = whispers(sb).at(-1);
  sb.user.clickButton(GM, card, "Roll");
  await sb.settle();
  assert.match(tokens[1].get("statusmarkers"), /yellow@2/, "frozen for 2 seconds, shown as a badge");
  sb.assertClean({ allowWarnings: true });
});

test("hostile names are escaped in every card", async () => {
  const { sb, tokens } = await ready();
  tokens[1].set("name", `<img src=x onerror=alert(1)>|@{x}[[1d6]]`);
  sb.user.setTurnorder(rows(tokens));
  sb.user.chat(GM, "!surprise resolve --procedure total");
  await sb.settle();
  sb.scriptDice(1);
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  for (const message of sb.chat) {
    assert.ok(!message.content.includes("<img"), message.content);
    assert.ok(!message.content.includes("@{x}") && !message.content.includes("[[1d6]]"));
  }
  sb.assertClean({ allowWarnings: true });
});

test("an empty, then a damaged turn order: a clear whisper, no crash", async () => {
  const { sb } = await ready();
  sb.user.chat(GM, "!surprise resolve --procedure total");
  await sb.settle();
  assert.match(whispers(sb).at(-1).content, /Select the tokens/);
  sb.user.setTurnorder("[{not json");
  await sb.settle();
  sb.user.chat(GM, "!surprise status");
  await sb.settle();
  assert.equal(sb.takeErrors().filter((e) => e.kind === "crash").length, 0);
});

test("a token deleted mid-surprise and a token without a character do not break the automation", async () => {
  const { sb, tokens } = await ready();
  const loner = sb.createToken({ name: "Loner", controlledby: "" });
  const all = [...tokens, loner];
  sb.user.setTurnorder(rows(all));
  sb.user.chat(GM, "!surprise resolve --procedure total");
  await sb.settle();
  sb.user.chat(GM, `!surprise set --token ${loner.id} --iq 9`);
  await sb.settle();
  sb.scriptDice(3);
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  sb.user.deleteGraphic(tokens[1]);
  await sb.settle();
  for (let i = 0; i < 6; i += 1) {
    sb.scriptDice(3, 3, 3);
    sb.user.advanceTurn();
    await sb.settle();
  }
  assert.equal(sb.takeErrors().filter((e) => e.kind === "crash").length, 0);
});

test("a state from schema 1 is migrated and keeps its marker; a damaged one is replaced", async () => {
  let { sb } = await ready(GURPS, { seed: (box) => { box.state.AmbushGurpsExample = { version: 1, marker: "purple" }; } });
  assert.equal(sb.read(`state.${GURPS.name}.config.marker`), "purple");
  assert.equal(sb.read(`state.${GURPS.name}.version`), 4);
  ({ sb } = await ready(GURPS, { seed: (box) => { box.state.AmbushGurpsExample = "garbage"; } }));
  assert.equal(sb.read(`state.${GURPS.name}.config.marker`), "yellow");
});

test("clear removes every marker the script set and its round row", async () => {
  const { sb, tokens } = await ready(ADND);
  sb.user.setTurnorder(rows(tokens));
  sb.user.chat(GM, "!surprise resolve --procedure roll");
  await sb.settle();
  sb.scriptDice(5, 2); // the hostile side is surprised for 2 segments
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  assert.match(tokens[1].get("statusmarkers"), /yellow@2/);
  assert.ok(sb.turnorder().some((row) => row.id === "-1"));
  sb.user.chat(GM, "!surprise clear");
  await sb.settle();
  assert.equal(tokens[1].get("statusmarkers"), "");
  assert.ok(!sb.turnorder().some((row) => row.id === "-1"));
});

test("a custom token marker is found by its name", async () => {
  const { sb, tokens } = await ready(GURPS);
  sb.user.setTokenMarkers([{ id: 59, name: "Ambushed", tag: "Ambushed::59", url: "x" }]);
  sb.user.chat(GM, "!surprise config --marker Ambushed");
  await sb.settle();
  sb.user.setTurnorder(rows(tokens));
  sb.user.chat(GM, "!surprise resolve --procedure total");
  await sb.settle();
  sb.scriptDice(4);
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  assert.match(tokens[1].get("statusmarkers"), /Ambushed::59@4/);
});

test("the turn-order-split side rule takes side A from the rows above a custom row named Side B", { skip: !process.env.SPLIT_SCRIPT }, async () => {
  const split = { file: process.env.SPLIT_SCRIPT, name: "SplitSides" };
  const sb = createSandbox({ players });
  const names = ["Ava", "Orc", "Bo"];
  const tokens = names.map((name) => sb.createToken({ name, controlledby: name === "Ava" ? PLAYER : "" }));
  await sb.load(split.file);
  sb.ready();
  await sb.settle();
  // Bo is not player-controlled, yet stands above the divider: the rule, not control, decides.
  sb.user.setTurnorder([
    { id: tokens[0].id, pr: "3", custom: "", _pageid: tokens[0].get("_pageid") },
    { id: tokens[2].id, pr: "2", custom: "", _pageid: tokens[2].get("_pageid") },
    { id: "-1", pr: "0", custom: "Side B" },
    { id: tokens[1].id, pr: "1", custom: "", _pageid: tokens[1].get("_pageid") },
  ]);
  sb.user.chat(GM, "!surprise resolve --procedure total");
  await sb.settle();
  const draft = sb.read(`state.${split.name}.draft`);
  assert.deepEqual(draft.sides.a.members.map((m) => m.id), [tokens[0].id, tokens[2].id]);
  assert.deepEqual(draft.sides.b.members.map((m) => m.id), [tokens[1].id]);
});

/** A sandbox with a script loaded and ready, and these tokens (side a controlled by the player), in the turn order. */
async function table(script, people) {
  const sb = createSandbox({ players });
  const tokens = people.map(({ name, side, attributes = {} }) => {
    const controlledby = side === "a" ? PLAYER : "";
    const character = sb.createCharacter({ name, controlledby, attributes });
    return sb.createToken({ name, represents: character.id, controlledby });
  });
  await sb.load(script.file);
  sb.ready();
  await sb.settle();
  sb.user.setTurnorder(rows(tokens));
  return { sb, tokens };
}

/** Send GM commands one after another. */
async function commands(sb, ...lines) {
  for (const line of lines) {
    sb.user.chat(GM, line);
    await sb.settle();
  }
}

test("a long run of cancelled AD&D segments with 16 tokens: each click plays one segment, the first to act is on top", async () => {
  // Side a is surprised on 1-5 (the monsters surprise on 1-5), side b on 1-4; everyone has Dex 3 (-3): a 5 and a 4
  // freeze side a for 8 segments and side b for 7. Segments 1-7 have nobody active (cancelled), in segment 8 the
  // monsters act alone (docs/rules/adnd1e.md#timeline): 7 x 16 + 8 = 120 turns passed on before anyone acts, one pass
  // through the order a click: the roll plays segment 1, each of seven clicks the next.
  const people = [...Array(8)].flatMap((unused, i) => [
    { name: `Hero${i}`, side: "a", attributes: { dexterity: 3 } },
    { name: `Orc${i}`, side: "b", attributes: { dexterity: 3 } },
  ]);
  const { sb, tokens } = await table(ADND, people);
  await commands(sb, "!surprise resolve --procedure roll", "!surprise set --side a --surprises_on 4",
    "!surprise set --side b --surprises_on 5");
  sb.scriptDice(5, 4);
  await commands(sb, "!surprise roll");
  const surprise = sb.read(`state.${ADND.name}.surprise`);
  assert.equal(surprise.outcome.timeline.length, 8);
  assert.deepEqual(surprise.outcome.timeline.slice(0, 7).map((s) => s.kind), Array(7).fill("cancelled"));
  assert.equal(surprise.rounds, 1, "the roll played segment 1 and stopped");
  const nobody = () => whispers(sb).filter((c) => /Nobody in the turn order may act this round/.test(c.content)).length;
  assert.equal(nobody(), 1, "and said so once");
  for (let click = 1; click <= 7; click += 1) {
    sb.user.advanceTurn();
    await sb.settle();
    assert.equal(sb.read(`state.${ADND.name}.surprise`).rounds, click + 1, `click ${click} played segment ${click + 1}`);
  }
  assert.equal(sb.turnorder()[0].id, tokens[1].id, "the first monster is the first to act");
  assert.equal(nobody(), 7, "once for each cancelled segment, not for the eighth");
  assert.equal(sb.takeErrors().length, 0);
});

test("the round row names the AD&D surprise segment being played, then leaves with the surprise", async () => {
  // Side a rolls 2 and is surprised for two segments, side b rolls 1 and is surprised for one: both lose the first
  // (cancelled, passed by the script: the roll plays it, the GM's click the next) and side b acts alone in segment 2
  // (docs/rules/adnd1e.md#two-sides).
  const { sb, tokens } = await table(ADND, [{ name: "Hero", side: "a" }, { name: "Orc", side: "b" }]);
  await commands(sb, "!surprise resolve --procedure roll");
  sb.scriptDice(2, 1);
  await commands(sb, "!surprise roll");
  const roundRow = () => sb.turnorder().find((row) => row.id === "-1");
  assert.equal(roundRow()?.custom, "Surprise segment 1 of 2");
  sb.user.advanceTurn();
  await sb.settle();
  const surprise = sb.read(`state.${ADND.name}.surprise`);
  assert.deepEqual(surprise.outcome.timeline.map((s) => s.kind), ["cancelled", "surprise"]);
  assert.equal(surprise.rounds, 2, "the script passed the cancelled segment");
  assert.equal(roundRow()?.custom, "Surprise segment 2 of 2", "not 'Surprise: round 2' while a segment is played");
  assert.deepEqual(sb.turnorder().map((row) => row.id), [tokens[1].id, "-1", tokens[0].id], "the orc acts, the hero waits");
  const during = sb.chat.length;
  await commands(sb, "!surprise status");
  const shown = whispers(sb, during).map((c) => c.content).join("\n");
  assert.match(shown, /Surprise segment 2 of 2/, "the segment the tracker names");
  assert.match(shown, /Hero: surprised in this segment only/, "the hero's last surprised segment, counted from it");
  // The monster plays segment 2; the frozen hero is passed, the round row comes to the top: the first normal round.
  sb.user.advanceTurn();
  await sb.settle();
  assert.equal(sb.read(`state.${ADND.name}.surprise`).done, true);
  assert.equal(roundRow(), undefined, "the round row left with the surprise");
  const before = sb.chat.length;
  await commands(sb, "!surprise status");
  const status = whispers(sb, before).map((c) => c.content).join("\n");
  assert.match(status, />Status</, "the status card was whispered");
  assert.doesNotMatch(status, /null|undefined|segment 3 of 2/, "no segment line once the segments are over");
  assert.equal(sb.takeErrors().length, 0);
});

test("when nobody in the turn order can ever act, the script stops passing turns and tells the GM", async () => {
  // Total surprise on IQ 2 without Combat Reflexes: never recovers (docs/rules/gurps4e.md#edge-cases). Only the stunned are in the order.
  const { sb, tokens } = await table(GURPS, [
    { name: "Ava", side: "a", attributes: { intelligence: 12 } },
    { name: "Gob", side: "b", attributes: { intelligence: 2 } },
    { name: "Rat", side: "b", attributes: { intelligence: 2 } },
  ]);
  await commands(sb, "!surprise resolve --procedure total");
  sb.user.setTurnorder(rows(tokens.slice(1)));
  await sb.settle();
  sb.scriptDice(1);
  await commands(sb, "!surprise roll");
  assert.ok(whispers(sb).some((c) => /Nobody in the turn order may act this round/.test(c.content)));
  assert.equal(sb.takeErrors().length, 0);
});

test("a tenth declared opener can trigger the Surprise Round", async () => {
  const people = [...Array(10)].map((unused, i) => ({ name: `Sneak${i}`, side: "a" }));
  const { sb, tokens } = await table(FALLOUT, [...people, { name: "Mark", side: "b" }]);
  await commands(sb, "!surprise resolve --procedure sneak-attack");
  for (let index = 0; index < 10; index += 1) {
    await commands(sb, `!surprise set --opener ${index} --name ${tokens[index].id} --attack_bonus 0 --target_number 21`);
  }
  assert.equal(sb.read(`state.${FALLOUT.name}.draft`).openers.length, 10);
  // The openers all have Sequence 0: they roll in listed order, and only the tenth can reach 21 (20 + 1).
  await commands(sb, `!surprise set --opener 9 --attack_bonus 1`);
  sb.scriptDice(...Array(18).fill(1), 20, 20);
  await commands(sb, "!surprise roll");
  const surprise = sb.read(`state.${FALLOUT.name}.surprise`);
  assert.equal(surprise.outcome.surprise_round.side, "a");
  assert.equal(surprise.outcome.openers.at(-1).name, tokens[9].id);
  assert.match(tokens[10].get("statusmarkers"), /yellow/);
});

test("the draft refuses a leader who is not on his side and an opener declared twice, and rolls nothing", async () => {
  const { sb, tokens } = await table(GURPS, [
    { name: "Ava", side: "a", attributes: { intelligence: 12 } },
    { name: "Orc", side: "b", attributes: { intelligence: 10 } },
  ]);
  await commands(sb, "!surprise resolve --procedure partial", `!surprise set --side a --leader ${tokens[1].id}`, "!surprise roll");
  assert.match(whispers(sb).at(-1).content, /Side A \(friendly\): Leader Orc is not on this side/);
  assert.equal(sb.read(`state.${GURPS.name}.surprise`), null);
  const fallout = await table(FALLOUT, [{ name: "Vex", side: "a" }, { name: "Mark", side: "b" }]);
  const vex = fallout.tokens[0].id;
  await commands(fallout.sb, "!surprise resolve --procedure sneak-attack",
    `!surprise set --opener 0 --name ${vex} --attack_bonus 1 --target_number 10`,
    `!surprise set --opener 1 --name ${vex} --attack_bonus 2 --target_number 10`);
  fallout.sb.scriptDice(20, 20);
  await commands(fallout.sb, "!surprise roll");
  assert.match(whispers(fallout.sb).at(-1).content, /declared as an opener more than once/);
  assert.equal(fallout.sb.read(`state.${FALLOUT.name}.surprise`), null);
  assert.deepEqual(fallout.sb.diceLeft(), [20, 20], "nothing was rolled");
});

test("the GM sets the sides with the draft's buttons: a token moved out or across, side b surprising, leaders", async () => {
  const { sb, tokens } = await table(GURPS, [
    { name: "Ava", side: "a", attributes: { intelligence: 12 } },
    { name: "Cat", side: "a", attributes: { intelligence: 9 } },
    { name: "Orc", side: "b", attributes: { intelligence: 10 } },
  ]);
  const [ava, cat, orc] = tokens;
  await commands(sb, "!surprise resolve --procedure total");
  const draftCard = whispers(sb).at(-1).content;
  assert.ok(draftCard.includes("!surprise set --scenario --page 1 --surprising ?{"), "a button picks the surprising side");
  // Each combatant's name is a button that opens his card, which holds the buttons that move him.
  sb.user.clickButton(GM, draftCard, "Cat");
  await sb.settle();
  const card = whispers(sb).at(-1).content;
  assert.ok(card.includes(`!surprise set --token ${cat.id} --join out`), "a button leaves a token out");
  assert.ok(card.includes(`!surprise set --token ${cat.id} --join b`), "a button moves it across");
  await commands(sb, `!surprise set --token ${cat.id} --join out`, "!surprise set --scenario --surprising b");
  const draft = sb.read(`state.${GURPS.name}.draft`);
  assert.deepEqual(draft.out.map((m) => m.name), ["Cat"]);
  sb.scriptDice(2);
  await commands(sb, "!surprise roll");
  const surprise = sb.read(`state.${GURPS.name}.surprise`);
  assert.equal(surprise.outcome.surprise, "b", "the orc falls on the party");
  // Frozen for 2 seconds; Ava stands first in the turn order, so her first frozen second is played at once.
  assert.match(ava.get("statusmarkers"), /yellow@1/);
  assert.equal(cat.get("statusmarkers"), "", "left out: not surprised");
  assert.equal(orc.get("statusmarkers"), "");
  // A leader moved to the other side, then a side left empty: a clear whisper, nothing rolled.
  await commands(sb, "!surprise clear", "!surprise resolve --procedure partial", `!surprise set --side a --leader ${ava.id}`,
    `!surprise set --token ${ava.id} --join b`, "!surprise roll");
  assert.match(whispers(sb).at(-1).content, /Side A \(friendly\): Leader Ava is not on this side/);
  await commands(sb, `!surprise set --side a --leader none`, `!surprise set --token ${cat.id} --join b`, "!surprise roll");
  assert.match(whispers(sb).at(-1).content, /Side A \(friendly\) has no combatants/);
  assert.equal(sb.read(`state.${GURPS.name}.surprise`), null);
  assert.deepEqual(sb.takeErrors(), []);
});

test("who sees what: the table gets who is surprised, the GM alone the rolls; !surprise config --cards shows or hides all", async () => {
  const { sb } = await table(GURPS, [
    { name: "Ava", side: "a", attributes: { intelligence: 13 } },
    { name: "Orc", side: "b", attributes: { intelligence: 7 } },
  ]);
  const resolve = async (mode) => {
    await commands(sb, `!surprise config --cards ${mode}`, "!surprise resolve --procedure partial");
    const before = sb.chat.length;
    sb.scriptDice(6, 1); // side a's 6 + 1 (higher IQ) beats side b's 1
    await commands(sb, "!surprise roll");
    return sb.chat.slice(before).filter((message) => /mentally stunned|initiative 1d6/.test(message.content));
  };
  const [outcome, secret, ...more] = await resolve("split");
  assert.equal(more.length, 0);
  assert.ok(outcome.direct && !outcome.whisperTo, "the outcome is for everyone");
  assert.doesNotMatch(outcome.content, /1d6|= 6/, "no roll on the public card");
  assert.equal(secret.whisperTo?.toLowerCase(), "gm");
  assert.match(secret.content, /initiative 1d6 = 6, higher IQ \+1: 7/);
  const [all, ...none] = await resolve("public");
  assert.equal(none.length, 0);
  assert.ok(all.direct && !all.whisperTo && /initiative 1d6 = 6/.test(all.content));
  const [hidden, ...nothing] = await resolve("gm");
  assert.equal(nothing.length, 0);
  assert.equal(hidden.whisperTo?.toLowerCase(), "gm");
  assert.equal(sb.read(`state.${GURPS.name}.config.cards`), "gm");
});
