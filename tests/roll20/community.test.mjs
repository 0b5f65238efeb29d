// What the models of the community scripts (tools/harness/roll20/community/, docs/dev/roll20.md §4) do to the turn order, seen
// as a GM sees it: each test plays what the real script does, from its code. Run by tests/test_roll20_community.py
// (SCRIPTS_DIR holds the built example scripts, for the tests that load ambush's script beside a model).
import assert from "node:assert/strict";
import { test } from "node:test";

import { GURPS } from "./examples.mjs";
import { COMMUNITY_SCRIPTS, createSandbox } from "../../tools/harness/roll20/harness.mjs";

const GM = "-GM0000000000000001";
const PAT = "-PL0000000000000001";
const SAM = "-PL0000000000000002";
const players = [
  { id: GM, displayname: "Gina", isGM: true },
  { id: PAT, displayname: "Pat Doe", isGM: false },
  { id: SAM, displayname: "Sam", isGM: false },
];
const TM_IMAGE = "https://s3.amazonaws.com/files.d20.io/images/4095816/086YSl3v0Kz3SlDAu245Vg/thumb.png?1400535580";
const CM_IMAGE = "https://s3.amazonaws.com/files.d20.io/images/52550079/U-3U950B3wk_KRtspSPyuw/thumb.png?1524507826";

const game = (options = {}) => createSandbox({ players, ...options });

/** A token row of the order */
const row = (token, pr = "0") => ({ id: token.id, pr, custom: "", _pageid: token.get("_pageid") });

/** The order as the tracker shows it: token names, custom rows' labels */
const shown = (sb) => sb.turnorder().map((r) => (r.id === "-1" ? r.custom : sb.getObj("graphic", r.id)?.get("name") ?? "(gone)"));

/** The order as [name, pr] pairs */
const shownWithPr = (sb) => sb.turnorder().map((r, i) => [shown(sb)[i], r.pr]);

/** The graphic showing an image on the page (a round marker) */
const graphicWith = (sb, imgsrc) => sb.findObjs({ _type: "graphic", imgsrc });

/** Chat as text, tags removed */
const said = (sb, from = 0) => sb.chat.slice(from).map((m) => `${m.whisperTo ? `(to ${m.whisperTo}) ` : ""}${m.content.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim()}`);

/**
 * A script that records each turn order event as its handler sees it (the top row's token name, read from the event's
 * campaign object) and as a timer set in that handler sees it, after every handler of the event has run
 */
const LISTENER = `var heard = [];
on("ready", function () {
  function top() { var rows = JSON.parse(Campaign().get("turnorder") || "[]"); var g = rows[0] && getObj("graphic", rows[0].id); return g ? g.get("name") : rows[0] && rows[0].custom; }
  on("change:campaign:turnorder", function () {
    var entry = { handler: top() };
    heard.push(entry);
    setTimeout(function () { entry.timer = top(); }, 0);
  });
});`;

// ---------------------------------------------------------------------------------------------
// Installing

test("the models load like any script, in either order, from their paths or by name", () => {
  assert.deepEqual(Object.keys(COMMUNITY_SCRIPTS), ["turnmarker1", "combatmaster", "groupinitiative", "roundmaster",
    "initmaster", "gaslight", "conditiontracker"]);
  const sb = game();
  sb.load(COMMUNITY_SCRIPTS.groupinitiative).loadCommunity("combatmaster").loadCommunity("turnmarker1");
  sb.ready();
  assert.deepEqual(sb.handlersOf("change:campaign:turnorder"), ["combatmaster.js", "turnmarker1.js"]);
  assert.deepEqual(sb.handlersOf("chat:message"), ["groupinitiative.js", "combatmaster.js", "turnmarker1.js"]);
  assert.throws(() => sb.loadCommunity("tokenmod"), /no such model/);
});

// ---------------------------------------------------------------------------------------------
// TurnMarker1

test("TurnMarker1 installs its round marker: a 'Round 0' token on the GM layer, its row at the end with pr -1", async () => {
  const sb = game();
  sb.loadCommunity("turnmarker1");
  sb.ready();
  await sb.settle();
  const [marker] = graphicWith(sb, TM_IMAGE);
  assert.equal(marker.get("name"), "Round 0");
  assert.equal(marker.get("layer"), "gmlayer");
  assert.deepEqual(sb.turnorder(), [{ id: marker.id, pr: -1, custom: "", _pageid: sb.page.id }], "the empty order got the marker's row");
  const settings = sb.stateSnapshot().TurnMarker;
  assert.deepEqual([settings.autoskipHidden, settings.announceRounds, settings.announceTurnChange, settings.tokenName], [true, true, true, "Round"]);
  sb.user.setTurnorder([]); // the GM removes it: it comes back at the next turn change the script handles
  sb.user.openTurnTracker();
  assert.deepEqual(sb.turnorder().map((r) => r.id), [marker.id]);
  assert.equal(marker.get("name"), "Round 2", "alone in the order, the marker counts a round before and after skipping hidden rows");
  await sb.settle();
  sb.assertClean();
});

/** A game with TurnMarker1, tokens A, Hidden (GM layer) and B, the order [A, Hidden, B, marker], the tracker open */
async function turnMarkerGame({ before = "", after = "", tokens = ["A", "Hidden", "B"] } = {}) {
  const sb = game();
  const made = Object.fromEntries(tokens.map((name) => [name, sb.createToken({ name, layer: name === "Hidden" ? "gmlayer" : "objects" })]));
  if (before) sb.loadSource(before, "Before.js");
  sb.loadCommunity("turnmarker1");
  if (after) sb.loadSource(after, "After.js");
  sb.ready();
  const [marker] = graphicWith(sb, TM_IMAGE);
  sb.user.setTurnorder([...tokens.map((name) => row(made[name], "10")), ...sb.turnorder()]);
  sb.user.openTurnTracker();
  await sb.settle();
  return { sb, marker, ...made };
}

test("TurnMarker1: one Next onto a GM-layer token moves the top two rows, and no script hears the second move", async () => {
  const { sb } = await turnMarkerGame({ before: LISTENER, after: LISTENER.replace("var heard", "var heardAfter").replace("heard.push", "heardAfter.push") });
  const count = sb.read("heard").length;
  sb.user.advanceTurn();
  assert.deepEqual(shown(sb), ["B", "Round 0", "A", "Hidden"], "Hidden's turn was passed in the same click");
  await sb.settle();
  const heard = sb.read("heard").slice(count);
  assert.deepEqual(heard, [{ handler: "Hidden", timer: "B" }],
    "one event; a script bound before TurnMarker1 sees the user's move in its handler, what TurnMarker1 did in a timer");
  assert.deepEqual(sb.read("heardAfter").slice(count), [{ handler: "B", timer: "B" }], "a script bound after it reads B at once");
  assert.deepEqual(sb.handlersOf("change:campaign:turnorder"), ["Before.js", "turnmarker1.js", "After.js"]);
  sb.assertClean();
});

test("TurnMarker1 counts rounds on its marker row: renamed 'Round 1', then 'Round 2', announced, passed in the same click", async () => {
  const { sb, marker } = await turnMarkerGame({ tokens: ["A", "B"] });
  const from = sb.chat.length;
  sb.user.advanceTurn(); // B
  sb.user.advanceTurn(); // the marker comes up: round 1 begins, A's turn
  assert.deepEqual(shown(sb), ["A", "B", "Round 1"]);
  assert.equal(marker.get("bar2_value"), 1);
  sb.user.advanceTurn();
  sb.user.advanceTurn();
  assert.deepEqual(shown(sb), ["A", "B", "Round 2"]);
  await sb.settle();
  const rounds = sb.chat.slice(from).filter((m) => /Round \d/.test(m.content));
  assert.deepEqual(rounds.map((m) => [m.direct, m.whisperTo, /Round (\d)/.exec(m.content)[1]]), [[true, null, "1"], [true, null, "2"]]);
  assert.match(rounds[0].content, /href="!tm reset \?\{Round number\|0\}"/);
  sb.user.chat(GM, "!tm reset 5");
  assert.equal(marker.get("name"), "Round 5");
  await sb.settle();
  sb.assertClean();
});

test("TurnMarker1's turn card (everyone, with EOT and POT) and its marker, which joins the token's layer half a second later", async () => {
  const { sb, marker, A, B } = await turnMarkerGame({ tokens: ["A", "B"] });
  A.set({ left: 70, top: 140 }); // a test-side move: no event
  B.set({ left: 210, top: 280, showplayers_name: true });
  marker.set({ layer: "gmlayer" });
  const from = sb.chat.length;
  sb.user.advanceTurn();
  assert.deepEqual([marker.get("left"), marker.get("top"), marker.get("width"), marker.get("layer")], [210, 280, 70 * 1.7, "gmlayer"]);
  await sb.settle();
  assert.equal(marker.get("layer"), "objects");
  assert.ok(sb.clock >= 500);
  const [card] = sb.chat.slice(from);
  assert.equal(card.direct, true);
  assert.match(card.content, /The Previous turn is done\./, "A's name is hidden from players");
  assert.match(card.content, /B, it's now your turn!/);
  for (const href of [`!tm ping-target ${A.id}`, `!tm ping-target ${B.id}`, "!pot", "!eot"]) assert.ok(card.content.includes(`href="${href}"`), href);
  sb.assertClean();
});

test("TurnMarker1 leaves a custom row on top alone, but passes one that follows a hidden token", async () => {
  const sb = game();
  const [a, hidden, b] = ["A", "Hidden", "B"].map((name) => sb.createToken({ name, layer: name === "Hidden" ? "gmlayer" : "objects" }));
  sb.loadCommunity("turnmarker1");
  sb.ready();
  const side = { id: "-1", pr: "", custom: "Side B" };
  sb.user.setTurnorder([row(a), side, row(b), ...sb.turnorder()]);
  sb.user.openTurnTracker();
  sb.user.advanceTurn();
  assert.deepEqual(shown(sb), ["Side B", "B", "Round 0", "A"], "a custom row on top: nothing happens");
  sb.user.setTurnorder([row(a), row(hidden), side, row(b), sb.turnorder()[2]]);
  sb.user.advanceTurn();
  assert.deepEqual(shown(sb), ["B", "Round 0", "A", "Hidden", "Side B"], "[I]/[U]: a row without a token counts as hidden");
  await sb.settle();
  sb.assertClean();
});

test("TurnMarker1 with auto-skip turned off (the GM's !tm toggle-skip-hidden) lets the GM-layer token keep its turn", async () => {
  const { sb } = await turnMarkerGame();
  sb.user.chat(PAT, "!tm toggle-skip-hidden");
  assert.equal(sb.read("state.TurnMarker.autoskipHidden"), true, "a player's toggle is ignored");
  sb.user.chat(GM, "!tm toggle-skip-hidden");
  assert.equal(sb.read("state.TurnMarker.autoskipHidden"), false);
  const from = sb.chat.length;
  sb.user.advanceTurn();
  assert.deepEqual(shown(sb), ["Hidden", "B", "Round 0", "A"]);
  await sb.settle();
  assert.deepEqual(said(sb, from), [], "no turn card for a GM-layer token");
  sb.assertClean();
});

test("TurnMarker1's !eot passes the turn for the token's controller or a GM; !pot goes back, un-counting a round", async () => {
  const sb = game();
  const hero = sb.createCharacter({ name: "Hero", controlledby: PAT });
  const a = sb.createToken({ name: "A", represents: hero.id });
  const b = sb.createToken({ name: "B" });
  sb.loadCommunity("turnmarker1");
  sb.ready();
  sb.user.setTurnorder([row(a), row(b), ...sb.turnorder()]);
  sb.user.openTurnTracker();
  sb.user.chat(SAM, "!eot");
  assert.deepEqual(shown(sb), ["A", "B", "Round 0"], "Sam controls neither A nor its character");
  sb.user.chat(PAT, "!eot");
  assert.deepEqual(shown(sb), ["B", "Round 0", "A"], "Pat controls A's character");
  sb.user.chat(GM, "!eot");
  assert.deepEqual(shown(sb), ["A", "B", "Round 1"], "the marker came up: round 1, passed");
  sb.user.chat(GM, "!pot");
  assert.deepEqual(shown(sb), ["B", "Round 0", "A"], "back onto the marker: the round is taken back, and the order goes back past it");
  await sb.settle();
  sb.assertClean();
});

test("TurnMarker1: deleting the current token removes its row and plays the next turn", async () => {
  const { sb, A } = await turnMarkerGame({ tokens: ["A", "B"] });
  const from = sb.chat.length;
  sb.user.deleteGraphic(A);
  assert.deepEqual(shown(sb), ["B", "Round 0"]);
  await sb.settle();
  assert.match(said(sb, from)[0], /The next turn has begun!/);
  sb.assertClean();
});

test("TurnMarker1 with the tracker closed keeps its row but moves nothing; opening the tracker plays the top row", async () => {
  const sb = game();
  const [a, hidden, b] = ["A", "Hidden", "B"].map((name) => sb.createToken({ name, layer: name === "Hidden" ? "gmlayer" : "objects" }));
  sb.loadCommunity("turnmarker1");
  sb.ready();
  sb.user.setTurnorder([row(a), row(hidden), row(b), ...sb.turnorder()]);
  sb.user.advanceTurn();
  assert.deepEqual(shown(sb), ["Hidden", "B", "Round 0", "A"]);
  sb.user.openTurnTracker();
  assert.deepEqual(shown(sb), ["B", "Round 0", "A", "Hidden"]);
  await sb.settle();
  sb.assertClean();
});

// ---------------------------------------------------------------------------------------------
// CombatMaster

/** A game with CombatMaster: Hero (Pat's, initiative bonus 2) and Orc (nobody's, bonus 1), in the order [Hero, Orc] */
function combatGame({ before = "", config } = {}) {
  const sb = game();
  const hero = sb.createCharacter({ name: "Hero", controlledby: PAT, attributes: { initiative_bonus: 2 } });
  const orc = sb.createCharacter({ name: "Orc", attributes: { initiative_bonus: 1 } });
  const h = sb.createToken({ name: "Hero", represents: hero.id, controlledby: PAT });
  const o = sb.createToken({ name: "Orc", represents: orc.id });
  if (config) sb.state.COMBATMASTER = { config };
  if (before) sb.loadSource(before, "Before.js");
  sb.loadCommunity("combatmaster");
  sb.ready();
  return { sb, h, o };
}

test("CombatMaster: the first turn change a GM makes creates its 'Round 1' marker and row, with no combat started", async () => {
  const { sb, h, o } = combatGame();
  sb.user.setTurnorder([row(h, "12"), row(o, "8")]);
  assert.deepEqual(graphicWith(sb, CM_IMAGE), [], "filling an empty order is no turn change");
  const from = sb.chat.length;
  sb.user.advanceTurn();
  const [marker] = graphicWith(sb, CM_IMAGE);
  assert.equal(marker.get("name"), "Round 1");
  assert.deepEqual(sb.turnorder().at(-1), { id: marker.id, pr: -1, custom: "", _pageid: sb.page.id });
  await sb.settle();
  assert.deepEqual(said(sb, from), ["(to gm) Conditions Done with Round Delay your Turn Orc's Turn"], "an NPC's card goes to the GM");
  assert.equal(marker.get("layer"), "objects", "the marker joined the Orc on the token layer, half a second later");
  sb.user.advanceTurn();
  await sb.settle();
  assert.match(said(sb).at(-1), /^Conditions Done with Round Delay your Turn Hero's Turn$/, "a player's character: for everyone");
  assert.ok(sb.chat.at(-1).content.includes('href="!cmaster --turn,next"'));
  sb.assertClean();
});

test("CombatMaster passes over a custom row in the same click (another script's round row too), with one event", async () => {
  const { sb, h, o } = combatGame({ before: LISTENER });
  const other = { id: "-1", pr: "", formula: "", custom: "Round 1", Ambush: true };
  sb.user.setTurnorder([row(h, "12"), other, row(o, "8")]);
  await sb.settle();
  const count = sb.read("heard").length;
  sb.user.advanceTurn();
  assert.deepEqual(shown(sb), ["Orc", "Hero", "Round 1", "Round 1"], "the marker's row was added, then the custom row went to the end");
  assert.deepEqual(sb.turnorder().at(-1), other, "the custom row, named like a round but not CombatMaster's, is kept as it was");
  await sb.settle();
  assert.deepEqual(sb.read("heard").slice(count), [{ handler: "Round 1", timer: "Orc" }]);
  sb.assertClean();
});

/** Hero 12, Orc 8, Goblin 4; one Next (the marker's row comes); the GM then makes the Goblin 20 and the Hero 1; 3 Nexts */
function playRound(sb, h, o) {
  const goblin = sb.createToken({ name: "Goblin" });
  sb.user.setTurnorder([row(h, "12"), row(o, "8"), row(goblin, "4")]);
  sb.user.advanceTurn();
  assert.deepEqual(shown(sb), ["Orc", "Goblin", "Hero", "Round 1"]);
  sb.user.setTurnorder(sb.turnorder().map((r) => (r.id === h.id ? { ...r, pr: "1" } : r.id === goblin.id ? { ...r, pr: "20" } : r)));
  assert.deepEqual(shown(sb), ["Orc", "Goblin", "Hero", "Round 1"], "an edited pr is no turn change: nothing moves");
  for (let i = 0; i < 3; i++) sb.user.advanceTurn();
}

test("CombatMaster's round: the count goes up, its marker is renamed 'Round 2', the round announced, the order re-sorted by pr", async () => {
  const { sb, h, o } = combatGame();
  const from = sb.chat.length;
  playRound(sb, h, o);
  const [marker] = graphicWith(sb, CM_IMAGE);
  assert.equal(marker.get("name"), "Round 2");
  assert.deepEqual(shown(sb), ["Goblin", "Orc", "Hero", "Round 2"], "rotated past the marker, then sorted highest first");
  await sb.settle();
  assert.ok(said(sb, from).includes("Round 2"), "announced to everyone");
  sb.restart(); // the count is the script's variable, not in state: it starts again from 1
  sb.user.setTurnorder([...sb.turnorder().slice(-1), ...sb.turnorder().slice(0, -1)]);
  assert.equal(marker.get("name"), "Round 2", "after a restart the marker's next round is called 2 again");
  await sb.settle();
  sb.assertClean();
});

test("CombatMaster with sortTurnOrder off (the GM's --config) rotates past its marker without sorting", async () => {
  const { sb, h, o } = combatGame();
  sb.user.chat(GM, "!cmaster --config,turnorder,key=sortTurnOrder,value=false");
  assert.equal(sb.read("state.COMBATMASTER.config.turnorder.sortTurnOrder"), false);
  playRound(sb, h, o);
  assert.deepEqual(shown(sb), ["Orc", "Goblin", "Hero", "Round 2"]);
  await sb.settle();
  sb.assertClean();
});

test("CombatMaster --turn,start rolls for the selected tokens, sorts, opens the tracker silently; two seconds on, the first turn", async () => {
  const tracker = `var opened = []; on("ready", function () { on("change:campaign:initiativepage", function () { opened.push(1); }); });`;
  const { sb, h, o } = combatGame({ before: tracker });
  sb.scriptDice(9, 15);
  sb.user.chat(GM, "!cmaster --turn,start", { selected: [h, o] });
  assert.deepEqual(shownWithPr(sb), [["Orc", 16], ["Hero", 11]]);
  assert.equal(sb.campaign.get("initiativepage"), sb.page.id);
  assert.deepEqual(sb.read("opened"), [], "a script opening the tracker fires no event");
  await sb.settle();
  assert.equal(sb.clock, 2500);
  assert.deepEqual(shown(sb), ["Orc", "Hero", "Round 1"]);
  assert.match(said(sb).at(-1), /Orc's Turn/);
  sb.user.chat(PAT, "!cmaster --turn,next"); // no GM check in the script
  assert.deepEqual(shown(sb), ["Hero", "Round 1", "Orc"]);
  await sb.settle();
  sb.assertClean();
});

test("CombatMaster --turn,delay and --turn,previous rotate through the API; going back onto its marker un-counts the round", async () => {
  const { sb, h, o } = combatGame();
  const goblin = sb.createToken({ name: "Goblin" });
  sb.user.setTurnorder([row(h, "12"), row(o, "8"), row(goblin, "4")]);
  sb.user.chat(GM, "!cmaster --turn,delay");
  assert.deepEqual(shown(sb), ["Orc", "Hero", "Goblin", "Round 1"], "the Hero waits behind the Orc");
  sb.user.chat(GM, "!cmaster --turn,previous");
  assert.deepEqual(shown(sb), ["Goblin", "Round 0", "Orc", "Hero"], "back onto the marker: round 0, and back once more");
  sb.user.chat(GM, "!cmaster --turn,delay");
  assert.deepEqual(shown(sb), ["Hero", "Goblin", "Orc", "Round 1"],
    "delaying before the marker begins the round (rotated and sorted), the delayed row second");
  await sb.settle();
  sb.assertClean();
});

test("CombatMaster --turn,stop and a GM emptying the order end the combat: marker deleted, order \"\", tracker closed", async () => {
  const { sb, h, o } = combatGame();
  sb.user.setTurnorder([row(h, "12"), row(o, "8")]);
  sb.user.openTurnTracker();
  sb.user.advanceTurn();
  await sb.settle();
  assert.equal(graphicWith(sb, CM_IMAGE).length, 1);
  sb.user.chat(GM, "!cmaster --turn,stop");
  assert.equal(sb.campaign.get("turnorder"), "");
  assert.equal(sb.campaign.get("initiativepage"), false);
  assert.equal(graphicWith(sb, CM_IMAGE).length, 0);
  sb.user.setTurnorder([row(h, "12"), row(o, "8")]);
  sb.user.openTurnTracker();
  sb.user.advanceTurn();
  await sb.settle();
  assert.equal(graphicWith(sb, CM_IMAGE).length, 1);
  sb.user.setTurnorder("");
  assert.equal(sb.campaign.get("initiativepage"), false, "emptying the order by hand stops the combat too");
  assert.equal(graphicWith(sb, CM_IMAGE).length, 0);
  await sb.settle();
  sb.assertClean();
});

// ---------------------------------------------------------------------------------------------
// GroupInitiative

/** A game with GroupInitiative: Hero (Pat's, dexterity 14), Orc and Goblin; a bonus group "Stat-DnD dexterity" */
async function initiativeGame({ before = "", after = "", models = ["groupinitiative"] } = {}) {
  const sb = game();
  const hero = sb.createCharacter({ name: "Hero", controlledby: PAT, attributes: { dexterity: 14 } });
  const tokens = {
    Hero: sb.createToken({ name: "Hero", represents: hero.id, controlledby: PAT }),
    Orc: sb.createToken({ name: "Orc" }),
    Goblin: sb.createToken({ name: "Goblin" }),
  };
  if (before) sb.loadSource(before, "Before.js");
  for (const model of models) sb.loadCommunity(model);
  if (after) sb.loadSource(after, "After.js");
  sb.ready();
  sb.user.chat(GM, "!group-init --add-group --Stat-DnD dexterity");
  await sb.settle();
  return { sb, ...tokens };
}

/** A script that records GroupInitiative's observer calls */
const OBSERVER = `var observed = [];
on("ready", function () { GroupInitiative.ObserveTurnOrderChange(function (now, before) { observed.push([now, before]); }); });`;

test("GroupInitiative !group-init rolls in sendChat callbacks, then writes sorted rows, opens the tracker and calls its observers: no event", async () => {
  const { sb, Hero, Orc, Goblin } = await initiativeGame({ before: LISTENER, after: OBSERVER });
  const events = sb.read("heard").length;
  const from = sb.chat.length;
  sb.scriptDice(5, 17, 9);
  sb.user.chat(GM, "!group-init", { selected: [Hero, Orc, Goblin] });
  assert.deepEqual(sb.turnorder(), [], "nothing written until the rolls come back");
  await sb.settle();
  assert.deepEqual(sb.turnorder(), [
    { id: Hero.id, pr: 7, _pageid: sb.page.id, custom: "" },
    { id: Orc.id, pr: 17, _pageid: sb.page.id, custom: "" },
    { id: Goblin.id, pr: 9, _pageid: sb.page.id, custom: "" },
  ], "sorted highest first, then turned so that the first row (the first selected token) stays first: preserveFirst");
  assert.equal(sb.campaign.get("initiativepage"), sb.page.id);
  assert.equal(sb.read("heard").length, events, "no change:campaign:turnorder");
  assert.deepEqual(sb.read("observed"), [[sb.campaign.get("turnorder"), ""]], "observers get the new order and the one before");
  assert.deepEqual(said(sb, from), ["Hero 7", "(to gm) Orc 17 Goblin 9"], "player characters' rolls for everyone, the rest to the GM");
  sb.assertClean();
});

test("GroupInitiative without preserveFirst sorts new rolls in by pr; tokens already in the order are not rolled again", async () => {
  const { sb, Hero, Orc, Goblin } = await initiativeGame();
  sb.user.chat(GM, "!group-init-config --toggle-preserve-first");
  sb.scriptDice(5, 17);
  sb.user.chat(GM, "!group-init", { selected: [Hero, Orc] });
  await sb.settle();
  assert.deepEqual(shown(sb), ["Orc", "Hero"]);
  sb.scriptDice(12);
  sb.user.chat(GM, "!group-init", { selected: [Hero, Goblin] });
  await sb.settle();
  assert.deepEqual(shownWithPr(sb), [["Orc", 17], ["Goblin", 12], ["Hero", 7]]);
  sb.assertClean();
});

test("GroupInitiative --sort re-sorts the order as it is (custom rows by their pr too) and calls its observers", async () => {
  const { sb, Hero, Orc, Goblin } = await initiativeGame({ after: OBSERVER });
  const side = { id: "-1", pr: "", custom: "Side B" };
  const order = [row(Hero, "3"), side, row(Orc, "15"), row(Goblin, "-2")];
  sb.user.setTurnorder(order);
  const before = sb.campaign.get("turnorder");
  sb.user.chat(PAT, "!group-init --sort");
  assert.equal(sb.campaign.get("turnorder"), before, "a GM's command");
  sb.user.chat(GM, "!group-init --sort");
  assert.deepEqual(shown(sb), ["Orc", "Hero", "Side B", "Goblin"], "\"\" counts as 0");
  assert.deepEqual(sb.read("observed"), [[sb.campaign.get("turnorder"), before]]);
  await sb.settle();
  sb.assertClean();
});

test("GroupInitiative --reroll rolls every token row again, for anyone; custom rows stay; --clear empties the order", async () => {
  const { sb, Hero, Orc } = await initiativeGame();
  const side = { id: "-1", pr: "5", custom: "Side B" };
  sb.user.setTurnorder([row(Hero, "3"), side, row(Orc, "15")]);
  sb.scriptDice(20, 1);
  sb.user.chat(PAT, "!group-init --reroll");
  await sb.settle();
  assert.deepEqual(shownWithPr(sb), [["Side B", "5"], ["Orc", 1], ["Hero", 22]],
    "sorted [Hero 22, Side B 5, Orc 1], then turned so that the custom row, first before, is first (preserveFirst)");
  sb.user.chat(GM, "!group-init --clear");
  assert.equal(sb.campaign.get("turnorder"), "[]");
  assert.equal(sb.campaign.get("initiativepage"), false);
  await sb.settle();
  sb.assertClean();
});

test("GroupInitiative whispers the GM, a second after ready, that no bonus is configured", async () => {
  const sb = game();
  sb.loadCommunity("groupinitiative");
  sb.ready();
  assert.equal(sb.chat.length, 0);
  await sb.settle();
  assert.equal(sb.clock, 1000);
  assert.match(said(sb)[0], /^\(to gm\) GroupInitiative has no Bonus Stat Groups configured/);
  sb.assertClean();
});

// ---------------------------------------------------------------------------------------------
// Together

test("TurnMarker1 observes GroupInitiative: after rolling, its marker row's round is counted at once; a reroll counts another", async () => {
  for (const models of [["turnmarker1", "groupinitiative"], ["groupinitiative", "turnmarker1"]]) {
    const { sb, Hero, Orc, Goblin } = await initiativeGame({ models });
    const [marker] = graphicWith(sb, TM_IMAGE);
    sb.scriptDice(5, 17, 9);
    sb.user.chat(GM, "!group-init", { selected: [Hero, Orc, Goblin] });
    await sb.settle();
    // The marker's row was first (the only row), so preserveFirst kept it first; TurnMarker1, called back, found it on
    // top with the tracker now open: round 1, passed
    assert.deepEqual(shown(sb), ["Orc", "Goblin", "Hero", "Round 1"], models.join(" then "));
    sb.scriptDice(3, 4, 5, 6);
    sb.user.chat(GM, "!group-init --reroll");
    await sb.settle();
    // The reroll rolled the marker's token too (pr 6): TurnMarker1 put it back on top with pr -1, and counted a round
    assert.equal(marker.get("name"), "Round 2", models.join(" then "));
    assert.deepEqual(sb.turnorder().at(-1), { id: marker.id, pr: -1, custom: "", _pageid: sb.page.id });
    sb.assertClean();
  }
});

test("CombatMaster rolling with Group-Init: GroupInitiative rolls in a timer after the start, before the first turn", async () => {
  const sb = game();
  const hero = sb.createCharacter({ name: "Hero", controlledby: PAT });
  const tokens = [sb.createToken({ name: "Hero", represents: hero.id }), sb.createToken({ name: "Orc" })];
  sb.loadCommunity("groupinitiative");
  sb.loadCommunity("combatmaster");
  sb.ready();
  sb.user.chat(GM, "!group-init-config --toggle-preserve-first");
  sb.user.chat(GM, "!cmaster --config,initiative,key=rollInitiative,value=Group-Init");
  sb.scriptDice(4, 18);
  sb.user.chat(GM, "!cmaster --turn,start", { selected: tokens });
  assert.deepEqual(sb.turnorder(), []);
  await sb.settle();
  assert.deepEqual(shown(sb), ["Orc", "Hero", "Round 1"]);
  sb.assertClean();
});

test("TurnMarker1 and CombatMaster: both round rows in one order; which one counts rounds depends on the load order", async () => {
  const play = async (models) => {
    const sb = game();
    const [a, b] = ["A", "B"].map((name) => sb.createToken({ name }));
    for (const model of models) sb.loadCommunity(model);
    sb.ready();
    sb.user.setTurnorder([row(a, "10"), row(b, "9"), ...sb.turnorder()]);
    sb.user.openTurnTracker();
    await sb.settle();
    for (let i = 0; i < 6; i++) {
      sb.user.advanceTurn();
      await sb.settle(); // the GM clicks seconds apart: the markers have joined the token layer
    }
    sb.assertClean();
    return [graphicWith(sb, TM_IMAGE)[0].get("name"), graphicWith(sb, CM_IMAGE)[0].get("name"), shown(sb)];
  };
  // TurnMarker1 first: when its marker comes up it counts and rotates, which brings CombatMaster's marker up; CombatMaster
  // hears the user's move only afterwards, finds its marker on top, and counts too
  assert.deepEqual(await play(["turnmarker1", "combatmaster"]), ["Round 3", "Round 4", ["A", "B", "Round 3", "Round 4"]]);
  // CombatMaster first: it takes TurnMarker1's marker for a token's turn; TurnMarker1 then rotates onto CombatMaster's
  // marker, which nobody hears: CombatMaster's marker is passed as a turn and it never counts a round
  assert.deepEqual(await play(["combatmaster", "turnmarker1"]), ["Round 2", "Round 1", ["A", "B", "Round 2", "Round 1"]]);
});

test("ambush's script beside each model, loaded in either order: their handlers run in load order, and turns run clean", async () => {
  for (const model of Object.keys(COMMUNITY_SCRIPTS)) {
    for (const ambushFirst of [true, false]) {
      const sb = game();
      const [a, b] = ["A", "B"].map((name) => sb.createToken({ name }));
      if (ambushFirst) sb.load(GURPS.file);
      sb.loadCommunity(model);
      if (!ambushFirst) sb.load(GURPS.file);
      sb.ready();
      const expected = ["groupinitiative", "initmaster"].includes(model) ? [`${GURPS.name}.js`] // no turn order event
        : model === "conditiontracker" ? [`${model}.js`, `${GURPS.name}.js`] // it binds as it loads, before any ready
          : ambushFirst ? [`${GURPS.name}.js`, `${model}.js`] : [`${model}.js`, `${GURPS.name}.js`];
      assert.deepEqual(sb.handlersOf("change:campaign:turnorder"), expected);
      sb.user.setTurnorder([row(a, "2"), row(b, "1"), ...sb.turnorder()]);
      sb.user.openTurnTracker();
      for (let i = 0; i < 4; i++) {
        sb.user.advanceTurn();
        await sb.settle();
      }
      sb.assertClean();
    }
  }
});

// ---------------------------------------------------------------------------------------------
// RoundMaster and InitMaster

/** RoundMaster (the version given) and InitMaster, with Fighter and Cleric (Pat's) and an Orc, the tracker open */
async function roundMasterGame({ version = "roundmaster", before = "" } = {}) {
  const sb = game();
  const make = (name, controlledby = "") => sb.createToken({ name, represents: sb.createCharacter({ name, controlledby }).id, controlledby, showplayers_name: true });
  const tokens = { Fighter: make("Fighter", PAT), Cleric: make("Cleric", PAT), Orc: make("Orc") };
  if (before) sb.loadSource(before, "Before.js");
  sb.loadCommunity(version);
  sb.loadCommunity("initmaster");
  sb.ready();
  await sb.settle();
  return { sb, ...tokens };
}

test("RoundMaster puts its round row in the order on ready, stopped; it handles no turn until !rounds --start", async () => {
  const { sb, Fighter, Orc } = await roundMasterGame();
  assert.deepEqual(sb.turnorder(), [{ id: "-1", pr: "-100", custom: "\u23F9 Round 1" }]);
  sb.user.setTurnorder([row(Fighter, 3), row(Orc, 5), ...sb.turnorder()]);
  sb.user.openTurnTracker();
  sb.user.advanceTurn();
  sb.user.advanceTurn();
  assert.deepEqual(shown(sb), ["\u23F9 Round 1", "Fighter", "Orc"], "stopped: its row came up and nothing happened");
  await sb.settle();
  sb.user.chat(GM, "!rounds --start");
  await sb.settle();
  assert.equal(shown(sb)[0], "\u23F5 Round 1");
  const from = sb.chat.length;
  sb.user.advanceTurn(); // off the round row: the rest sorted lowest first
  assert.deepEqual(shown(sb), ["Fighter", "Orc", "\u23F5 Round 1"]);
  await sb.settle();
  assert.ok(said(sb, from).includes("It is Fighter's turn"), "announced to everyone (a /desc)");
  assert.ok(sb.chat.slice(from).some((c) => c.type === "api" && c.content === "!init --clearmarkers"), "InitMaster is told at every change");
  sb.assertClean();
});

test("RoundMaster counts a round when a click brings its row up: announced, statuses counted down, order cleared and InitMaster's menu; standard initiative puts the Foes row", async () => {
  const { sb, Fighter, Cleric } = await roundMasterGame();
  sb.user.openTurnTracker();
  sb.user.chat(GM, "!rounds --start");
  sb.user.chat(GM, "!init --type standard");
  await sb.settle();
  sb.user.chat(GM, "!init --roll 3|5");
  await sb.settle();
  assert.deepEqual(shown(sb), ["\u23F5 Round 1", "Cleric", "Fighter", "Foes"], "a row for each of the party, one for everyone they fight");
  assert.deepEqual(sb.turnorder()[3], { id: "-1", pr: 5, custom: "Foes" });
  sb.user.chat(GM, "!rounds --addstatus webbed|2|-1|Caught|yellow", { selected: [Fighter] });
  await sb.settle();
  assert.equal(Fighter.get("statusmarkers"), "yellow@2", "a player's token shows the rounds left");
  for (let i = 0; i < 3; i += 1) sb.user.advanceTurn();
  assert.deepEqual(shown(sb), ["Foes", "\u23F5 Round 1", "Cleric", "Fighter"]);
  await sb.settle();
  const from = sb.chat.length;
  sb.user.advanceTurn();
  await sb.settle();
  assert.deepEqual(shown(sb), ["\u23F5 Round 2"], "a new round: the order emptied but for the round row");
  assert.equal(sb.read("state.roundMaster.round"), 2);
  const text = said(sb, from);
  assert.ok(text.includes("Round 2"));
  assert.ok(text.some((line) => /^\(to GM\) Initiative Dice Rolls for round 2: Cleric, Fighter/.test(line)), "InitMaster asks for the rolls");
  sb.user.chat(GM, "!init --roll 1|4");
  await sb.settle();
  sb.user.advanceTurn(); // off the round row: sorted lowest first, Cleric and Fighter 1 before the Foes' 4
  await sb.settle();
  assert.deepEqual(shown(sb), ["Cleric", "Fighter", "Foes", "⏵ Round 2"]);
  assert.equal(Fighter.get("statusmarkers"), "yellow@2", "the web counts down at his own turn, not at the round");
  sb.user.advanceTurn();
  await sb.settle();
  assert.equal(Fighter.get("statusmarkers"), "yellow@1", "his turn in round 2: one round left");
  sb.assertClean();
});

test("RoundMaster's !eot passes a turn for the token's controller, never for another script's message", async () => {
  const relay = `on("ready", function () { on("chat:message", function (msg) { if (msg.content === "!relay-eot") sendChat("Relay", "!eot"); }); });`;
  const { sb, Fighter, Orc } = await roundMasterGame({ version: "roundmaster@5.052", before: relay });
  sb.user.setTurnorder([row(Fighter, 1), row(Orc, 2), ...sb.turnorder()]);
  sb.user.openTurnTracker();
  sb.user.chat(GM, "!rounds --start");
  await sb.settle();
  sb.user.chat(SAM, "!eot");
  assert.equal(shown(sb)[0], "Fighter", "Sam does not control the Fighter");
  sb.user.chat(GM, "!relay-eot");
  await sb.settle();
  assert.equal(shown(sb)[0], "Fighter", "a script's !eot (its sender \"API\") is nobody's");
  sb.user.chat(PAT, "!eot");
  assert.equal(shown(sb)[0], "Orc", "Pat controls the Fighter: the turn passes, through the API (no event)");
  await sb.settle();
  sb.assertClean();
});

test("RoundMaster 5.067 runs each part of a !rounds command in a timer of its own, 5.052 at once", async () => {
  for (const [version, atOnce] of [["roundmaster@5.052", true], ["roundmaster", false]]) {
    const { sb } = await roundMasterGame({ version });
    sb.user.chat(GM, "!rounds --start");
    assert.equal(shown(sb)[0], atOnce ? "⏵ Round 1" : "⏹ Round 1", version);
    await sb.settle();
    assert.equal(shown(sb)[0], "⏵ Round 1", version);
    sb.assertClean();
  }
});

// ---------------------------------------------------------------------------------------------
// Gaslight

/** Gaslight writes its copies' rows without custom (line 3480): the one thing the sandbox warns of beside it */
function assertOnlyCopyRowWarnings(sb) {
  const warnings = sb.takeWarnings();
  assert.ok(warnings.length > 0 && warnings.every((w) => /token rows carry custom: ""/.test(w.message)), JSON.stringify(warnings));
}

/** A script standing for any other that moves the order through the API at its "!move": one row, as a Next does */
const MOVER = `on("ready", function () { on("chat:message", function (msg) { if (msg.content !== "!move") return;
  var rows = JSON.parse(Campaign().get("turnorder")); rows.push(rows.shift()); Campaign().set("turnorder", JSON.stringify(rows)); }); });`;

/**
 * A game with Gaslight and a split group: the Orc on the master page, his copy on Pat's page, linked; the scripts
 * named in `after` loaded after Gaslight
 */
async function gaslightGame(after = []) {
  const sb = game();
  const copies = sb.createPage("Pat's page");
  const [ava, orc] = ["Ava", "Orc"].map((name) => sb.createToken({ name }));
  const copy = sb.createToken({ name: "Orc", _pageid: copies.id });
  sb.state.Gaslight = { activeGroups: { pat: { masterPageId: sb.page.id, linkedTokens: { [orc.id]: [copy.id], [copy.id]: [orc.id] } } } };
  sb.loadCommunity("gaslight");
  for (const [source, name] of after) sb.loadSource(source, name);
  sb.ready();
  await sb.settle();
  return { sb, ava, orc, copy };
}

test("Gaslight adds a token's copies below it when its row is added, and a click onto a copy passes it in the same click", async () => {
  const { sb, ava, orc, copy } = await gaslightGame();
  sb.user.setTurnorder([row(ava, "2"), row(orc, "1")]);
  assert.deepEqual(sb.turnorder().map((r) => r.id), [ava.id, orc.id, copy.id]);
  assert.deepEqual(sb.turnorder()[2], { id: copy.id, pr: "1", _pageid: copy.get("_pageid") }, "a row without custom");
  sb.user.advanceTurn();
  assert.deepEqual(sb.turnorder().map((r) => r.id), [orc.id, copy.id, ava.id]);
  sb.user.advanceTurn();
  assert.deepEqual(sb.turnorder().map((r) => r.id), [ava.id, orc.id, copy.id], "the copy's turn passed at once");
  sb.user.setTurnorder([row(ava, "2")]);
  assert.deepEqual(sb.turnorder().map((r) => r.id), [ava.id], "the orc's row removed takes the copy's");
  await sb.settle();
  assertOnlyCopyRowWarnings(sb);
  sb.assertClean();
});

test("Gaslight hears no script's move: a copy a script's rotation brings to the top stays there", async () => {
  const { sb, ava, orc, copy } = await gaslightGame([[MOVER, "Mover.js"]]);
  sb.user.setTurnorder([row(orc, "2"), row(ava, "1")]);
  sb.user.chat(GM, "!move");
  assert.deepEqual(sb.turnorder().map((r) => r.id), [copy.id, ava.id, orc.id]);
  await sb.settle();
  assertOnlyCopyRowWarnings(sb);
  sb.assertClean();
});

// ---------------------------------------------------------------------------------------------
// ConditionTracker

/** The old icon names ConditionTracker's systems name, as a game's markers (docs/dev/roll20.md §5) */
const OLD_ICONS = ["overdrive", "pummeled"].map((tag, id) => ({ id, name: tag, tag, url: "" }));

test("ConditionTracker binds as it loads, puts a condition's row below its target, and ends a duration with its anchor's turn", async () => {
  for (const order of [["Before.js", "conditiontracker"], ["conditiontracker", "Before.js"]]) {
    const sb = game({ campaign: { token_markers: OLD_ICONS } });
    const [ava, orc, bob] = ["Ava", "Orc", "Bob"].map((name) => sb.createToken({ name }));
    for (const name of order) {
      if (name === "Before.js") sb.loadSource(LISTENER, "Before.js");
      else sb.loadCommunity(name);
    }
    sb.ready();
    assert.deepEqual(sb.handlersOf("change:campaign:turnorder"), ["conditiontracker.js", "Before.js"], "it runs first");
    sb.user.setTurnorder([row(ava, "3"), row(orc, "2"), row(bob, "1")]);
    sb.user.chat(GM, `!condition-tracker --config gameSystem wfrp4e`);
    sb.user.chat(GM, `!condition-tracker --source ${ava.id} --target ${orc.id} --condition Surprised --duration 1 round`);
    assert.deepEqual(shown(sb), ["Ava", "Orc", "Orc surprised by Ava", "Bob"]);
    assert.deepEqual(sb.turnorder()[2], { id: "-1", pr: "1", custom: "Orc surprised by Ava", _ct: "ct_model_1" });
    assert.equal(orc.get("statusmarkers"), "overdrive", "WFRP 4e's Surprised marker");
    sb.user.advanceTurn(); // Ava's turn ends
    assert.equal(sb.read("state.ConditionTracker.active").length, 1);
    sb.user.advanceTurn(); // onto the condition's row: the Orc's turn ends, and with it the condition
    assert.deepEqual(shown(sb), ["Bob", "Ava", "Orc"], "its row went");
    assert.equal(orc.get("statusmarkers"), "", "and its marker");
    await sb.settle();
    sb.assertClean();
  }
});

test("ConditionTracker ends only the turn it saw: a turn a script passes silently is never ended", async () => {
  const sb = game({ campaign: { token_markers: OLD_ICONS } });
  const [ava, orc, bob] = ["Ava", "Orc", "Bob"].map((name) => sb.createToken({ name }));
  sb.loadCommunity("conditiontracker");
  sb.loadSource(MOVER, "Mover.js");
  sb.ready();
  sb.user.setTurnorder([row(ava, "3"), row(orc, "2"), row(bob, "1")]);
  sb.user.chat(GM, `!condition-tracker --source ${ava.id} --target ${bob.id} --condition Dazed --duration 1 round`);
  sb.user.advanceTurn(); // onto the Orc
  sb.user.chat(GM, "!move"); // a script passes the Orc's turn: onto Bob, unheard
  sb.user.advanceTurn(); // Bob's turn ends, but ConditionTracker ends the Orc's
  assert.equal(sb.read("state.ConditionTracker.active").length, 1, "Bob's daze outlived his turn");
  await sb.settle();
  sb.assertClean();
});
