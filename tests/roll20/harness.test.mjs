// Self-tests of the Roll20 Mod sandbox emulation: each checks one documented behaviour a script
// could get wrong (sources cited in harness.mjs). Run: node --test tests/roll20/harness.test.mjs

import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";

import { CHAT_LIMIT, createSandbox, evaluateRoll, parseStatusMarkers } from "../../tools/harness/roll20/harness.mjs";

const GM = "-Mh000000000000GM001";
const PLAYER = "-Mh000000000000PL001";
const PLAYERS = [
  { id: GM, displayname: "Gina", isGM: true },
  { id: PLAYER, displayname: "Bob Smith", isGM: false },
];

function sandbox(options = {}) {
  return createSandbox({ players: PLAYERS, ...options });
}

/** Record events into a sandbox-global array `seen` that tests read back with evaluate() */
const RECORDER = `
var seen = [];
function record(name) {
  return function (obj, prev) {
    seen.push({ name: name, id: obj && obj.id, prev: prev, prevIsPlain: !!prev && Object.getPrototypeOf(prev) === Object.prototype && typeof prev.get === "undefined" });
  };
}
`;

const seen = (sb) => sb.read("seen");

// ---------------------------------------------------------------------------------------------
// Events: who fires them, in which order, with which arguments

test("changes made by scripts (set, createObj, Campaign().set) fire no events", async () => {
  const sb = sandbox();
  const token = sb.createToken({ name: "Orc" });
  sb.loadSource(`${RECORDER}
    on("ready", function () {
      ["change:campaign", "change:campaign:turnorder"].forEach(function (e) { on(e, record(e)); });
      on("chat:message", function (msg) {
        if (msg.content !== "!go") return;
        var t = getObj("graphic", "${token.id}");
        t.set({ name: "Goblin", status_red: 2 });
        t.set("statusmarkers", "blue");
        createObj("macro", { playerid: msg.playerid, name: "Made", action: "!go" });
        Campaign().set("turnorder", JSON.stringify([{ id: t.id, pr: 5, custom: "", _pageid: t.get("pageid") }]));
      });
    });`);
  sb.ready();
  sb.user.chat(GM, "!go");
  await sb.settle();
  assert.deepEqual(seen(sb), []);
  assert.equal(token.get("name"), "Goblin", "the script's set took effect");
  assert.equal(sb.turnorder().length, 1, "the script's turnorder write took effect");
  sb.assertClean();
});

test("a user change fires the property event, then the general events in binding order, with prev a plain object", () => {
  const sb = sandbox();
  const token = sb.createToken({ name: "Orc" });
  sb.loadSource(`${RECORDER}
    on("ready", function () {
      on("change:campaign", record("general-1"));
      on("change:campaign", record("general-2"));
      on("change:campaign:turnorder", function (obj, prev) {
        record("specific")(obj, prev);
        seen[seen.length - 1].now = obj.get("turnorder");
      });
    });`);
  sb.ready();
  const rows = [{ id: token.id, pr: "12", custom: "", _pageid: sb.page.id }];
  sb.user.setTurnorder(rows);
  const events = seen(sb);
  assert.deepEqual(events.map((e) => e.name), ["specific", "general-1", "general-2"]);
  for (const e of events) {
    assert.equal(e.prevIsPlain, true, "prev is a plain object: prev[\"turnorder\"], not prev.get()");
    assert.equal(e.prev.turnorder, "", "prev.turnorder is the raw string");
  }
  assert.equal(events[0].now, JSON.stringify(rows), "obj already carries the new value");
  assert.equal(typeof sb.campaign.get("turnorder"), "string");
  sb.user.setTurnorder(rows);
  assert.equal(seen(sb).length, 3, "a change that changes nothing fires nothing");
  sb.assertClean();
});

test("destroy: a user deletion fires destroy:graphic with the removed object still readable", () => {
  const sb = sandbox();
  const token = sb.createToken({ name: "Orc" });
  sb.loadSource(`var gone = [];
    on("ready", function () { on("destroy:graphic", function (obj) { gone.push([obj.get("name"), getObj("graphic", obj.id)]); }); });`);
  sb.ready();
  sb.user.deleteGraphic(token);
  assert.deepEqual(sb.read("gone"), [["Orc", null]]);
  sb.assertClean();
});

test("events that never fire are flagged: per-marker events, typos, events no emulated action fires", () => {
  const sb = sandbox();
  sb.loadSource(`on("change:graphic:status_red", function () {});
    on("change:campaign:turnOrder", function () {});
    on("chat:msg", function () {});
    on("add:graphic", function () {});
    on("change:campaign:turnorder", function () {});`);
  const warnings = sb.takeWarnings().map((w) => w.message);
  assert.equal(warnings.length, 4);
  assert.match(warnings[0], /no per-marker events/);
  assert.match(warnings[1], /turnOrder.*never fires/);
  assert.match(warnings[2], /chat:msg.*never fires/);
  assert.match(warnings[3], /add:graphic.*never fires/);
  sb.assertClean();
});

test("a thrown handler error crashes the sandbox: recorded, later events dropped, assertClean fails", () => {
  const sb = sandbox();
  const token = sb.createToken({ name: "Orc" });
  sb.loadSource(`var calls = 0;
    on("destroy:graphic", function () { calls++; null.boom; });
    on("chat:message", function () { calls++; });`);
  sb.ready();
  sb.user.deleteGraphic(token);
  sb.user.chat(GM, "hello");
  assert.equal(sb.read("calls"), 1, "nothing runs after the crash");
  assert.equal(sb.crashed, true);
  assert.equal(sb.errors.length, 1);
  assert.match(sb.errors[0].message, /sandbox has crashed \(destroy:graphic\).*TypeError/);
  assert.match(sb.errors[0].where, /^script1\.js:2:/, "the error maps back to the script line");
  assert.throws(() => sb.assertClean(), /not clean[\s\S]*crashed/);
  sb.takeErrors();
  sb.assertClean();
});

test("a rejected promise from an async handler also crashes the sandbox", async () => {
  const sb = sandbox();
  sb.loadSource(`on("chat:message", async function () { await null; throw new Error("late failure"); });`);
  sb.ready();
  sb.user.chat(GM, "!x");
  await sb.settle();
  assert.equal(sb.errors.length, 1);
  assert.match(sb.errors[0].message, /\(async\).*late failure/);
  sb.takeErrors();
});

test("chat messages and prev are frozen: a script mutating msg.content fails (clone it instead)", () => {
  const sb = sandbox();
  sb.loadSource(`on("chat:message", function (msg) { "use strict"; msg.content = msg.content.replace("!", ""); });`);
  sb.ready();
  sb.user.chat(GM, "!surprise");
  assert.equal(sb.errors.length, 1);
  assert.match(sb.errors[0].message, /read only|read-only|Cannot assign/);
  sb.takeErrors();
});

// ---------------------------------------------------------------------------------------------
// Objects

test("objects: id, get with optional underscore, read-only properties are not changed by set", () => {
  const sb = sandbox();
  const token = sb.createToken({ name: "Orc" });
  sb.loadSource(`var out = {};
    on("ready", function () {
      var t = getObj("graphic", "${token.id}");
      out.same = t.id === t.get("_id") && t.id === t.get("id");
      out.type = [t.get("_type"), t.get("type"), t.get("_subtype"), t.get("subtype")];
      out.page = t.get("pageid") === t.get("_pageid");
      t.set("_pageid", "elsewhere");
      t.set({ pageid: "elsewhere", name: "Goblin" });
      out.after = [t.get("_pageid") === "${sb.page.id}", t.get("name")];
      out.chained = t.set("controlledby", "") === t;
      out.missing = t.get("no_such_property");
    });`);
  sb.ready();
  const out = sb.read("out");
  assert.equal(out.same, true);
  assert.deepEqual(out.type, ["graphic", "graphic", "token", "token"]);
  assert.equal(out.page, true);
  assert.deepEqual(out.after, [true, "Goblin"], "read-only _pageid kept, name changed");
  assert.equal(out.chained, true);
  assert.equal(out.missing, undefined);
  const warnings = sb.takeWarnings().map((w) => w.message);
  assert.equal(warnings.length, 3);
  assert.match(warnings[0], /read-only property, not changed/);
  assert.match(warnings[1], /read-only property, not changed/);
  assert.match(warnings[2], /get\("no_such_property"\): not a property of graphic objects, or not emulated/);
  sb.assertClean();
});

test("createObj: only the documented types; unknown properties are flagged", () => {
  const sb = sandbox();
  sb.loadSource(`var made = createObj("macro", { playerid: "${GM}", name: "Surprise", action: "!surprise", visibleto: "all" });
    var macroPlayer = made.get("_playerid");
    var typo = createObj("macro", { name: "Help", actions: "oops" });`);
  assert.equal(sb.read("macroPlayer"), GM, "playerid and _playerid both set the read-only creator");
  assert.match(sb.takeWarnings()[0].message, /"actions" is not a property of macro/);
  sb.loadSource(`createObj("player", { _displayname: "X" });`);
  assert.match(sb.takeErrors()[0].message, /only graphic, text, path/);
  sb.loadSource(`createObj("handout", { name: "Notes" });`);
  assert.match(sb.takeErrors()[0].message, /handout objects are not emulated/);
  sb.assertClean();
});

test("getObj returns null for a missing id or the wrong type; findObjs compares strictly, ignoring case only when asked", () => {
  const sb = sandbox();
  const hero = sb.createCharacter({ name: "Hero", attributes: { SurpriseBonus: 1, level: 3 } });
  sb.loadSource(`var hero = "${hero.id}", loose = findObjs({ type: "attribute", characterid: hero, name: "surprisebonus" }, { caseInsensitive: true });
    var r = {
      missing: getObj("graphic", "-nope"),
      wrongType: getObj("graphic", hero),
      right: getObj("character", hero).get("name"),
      byUnderscore: findObjs({ _type: "attribute", _characterid: hero }).length,
      numberVsString: findObjs({ type: "attribute", current: 3 }).length,
      exactCase: findObjs({ type: "attribute", characterid: hero, name: "surprisebonus" }).length,
      anyCase: loose.map(function (a) { return a.get("name"); }),
      isRealArray: loose instanceof Array,
    };`);
  assert.deepEqual(sb.read("r"), {
    missing: null, wrongType: null, right: "Hero", byUnderscore: 2, numberVsString: 0, exactCase: 0, anyCase: ["SurpriseBonus"],
    isRealArray: true,
  }, "attribute values are strings (3 does not match \"3\"); arrays are made in the script realm");
  sb.assertClean();
});

test("globals no emulated script uses are not emulated: using one crashes the sandbox", () => {
  for (const call of ["filterObjs(function () { return true; })", "_.map([1], String)", "setInterval(function () {}, 10)", "sendPing(0, 0, \"\")"]) {
    const sb = sandbox();
    sb.loadSource(`${call};`);
    const errors = sb.takeErrors();
    assert.equal(errors.length, 1, call);
    assert.match(errors[0].message, /ReferenceError: .* is not defined/, call);
  }
});

// ---------------------------------------------------------------------------------------------
// Status markers (docs/dev/roll20.md §5)

test("status_<tag>: get returns false / true / badge string; set adds, badges, clamps, removes; a count must be a number", () => {
  const sb = sandbox();
  const token = sb.createToken({ name: "Orc", statusmarkers: "blue,red@2" });
  sb.loadSource(`var r = [];
    on("ready", function () {
      var t = getObj("graphic", "${token.id}");
      r.push(t.get("status_green"), t.get("status_blue"), t.get("status_red"));
      t.set("status_green", true);
      t.set("status_blue", 3);
      t.set("status_red", false);
      r.push(t.get("statusmarkers"));
      t.set("status_yellow", 12);
      t.set("status_dead", 4);
      t.set("status_pink", "2");
      r.push(t.get("statusmarkers"), t.get("status_dead"), t.get("status_yellow"));
    });`);
  sb.ready();
  assert.deepEqual(sb.read("r"), [
    false, true, "2",
    "blue@3,green",
    "blue@3,green,yellow@9,dead,pink", true, "9",
  ]);
  const warnings = sb.takeWarnings().map((w) => w.message);
  assert.equal(warnings.length, 2);
  assert.match(warnings[0], /badges are 0-9; clamped to 9/);
  assert.match(warnings[1], /status_pink = "2": expected a whole number, true or false/);
  sb.assertClean();
});

test("statusmarkers parse custom markers Name::id@N and keep order and repeats", () => {
  assert.deepEqual(parseStatusMarkers("red,Bane::59@3,red@1,dead"), [
    { tag: "red", badge: null }, { tag: "Bane::59", badge: "3" }, { tag: "red", badge: "1" }, { tag: "dead", badge: null },
  ]);
  assert.deepEqual(parseStatusMarkers(""), []);
  const markers = [{ id: 59, name: "Bane", tag: "Bane::59", url: "https://example.invalid/bane.png" }];
  const sb = sandbox({ campaign: { token_markers: markers } });
  const token = sb.createToken({ name: "Orc", statusmarkers: "Bane::59@3" });
  sb.loadSource(`var r = [];
    on("ready", function () {
      var t = getObj("graphic", "${token.id}");
      var set = JSON.parse(Campaign().get("token_markers"));
      r.push(t.get("status_Bane::59"), t.get("status_Bane"), set[0].tag, Campaign().get("_token_markers") === Campaign().get("token_markers"));
      t.set("status_Bane", true);
    });`);
  sb.ready();
  assert.deepEqual(sb.read("r"), ["3", false, "Bane::59", true]);
  const warnings = sb.takeWarnings().map((w) => w.message);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /"Bane" is not a colour, dead, or a tag of Campaign token_markers/);
  sb.assertClean();
});

test("token_markers is read-only; a user edit of the marker set fires change:campaign:_token_markers", () => {
  const sb = sandbox();
  sb.loadSource(`${RECORDER}
    on("change:campaign:_token_markers", record("markers"));
    on("ready", function () { Campaign().set("token_markers", "[]"); });`);
  sb.ready();
  assert.match(sb.takeWarnings()[0].message, /read-only/);
  sb.user.setTokenMarkers([{ id: 1, name: "Stun", tag: "Stun::1", url: "" }]);
  assert.deepEqual(seen(sb).map((e) => [e.name, e.prev._token_markers]), [["markers", "[]"]]);
  sb.assertClean();
});

// ---------------------------------------------------------------------------------------------
// Turn order (docs/dev/roll20.md §4)

test("advanceTurn moves the first row to the end and fires one event; a row's formula is not emulated", () => {
  const sb = sandbox();
  const a = sb.createToken({ name: "A" });
  const b = sb.createToken({ name: "B" });
  const rows = [
    { id: a.id, pr: 15, custom: "", _pageid: sb.page.id },
    { id: b.id, pr: 9, custom: "", _pageid: sb.page.id },
    { id: "-1", pr: "", custom: "Round 1", formula: "" },
  ];
  sb.loadSource(`${RECORDER} on("change:campaign:turnorder", record("turn"));`);
  sb.ready();
  sb.user.setTurnorder(rows);
  sb.user.advanceTurn();
  assert.deepEqual(sb.turnorder().map((r) => r.id), [b.id, "-1", a.id]);
  sb.user.advanceTurn();
  assert.deepEqual(sb.turnorder().map((r) => r.id), ["-1", a.id, b.id]);
  const events = seen(sb);
  assert.equal(events.length, 3);
  assert.equal(JSON.parse(events[2].prev.turnorder)[0].id, b.id, "prev[0] is the turn that just ended");
  sb.user.setTurnorder([rows[0], { ...rows[2], formula: "+1" }]);
  assert.throws(() => sb.user.advanceTurn(), /formula of a row reaching the top is not emulated/);
  sb.assertClean();
});

test("turnorder is a JSON string, \"\" when empty; script writes are checked: token rows with _pageid, custom rows with id \"-1\"", () => {
  const sb = sandbox();
  const a = sb.createToken({ name: "A" });
  sb.loadSource(`var raw = Campaign().get("turnorder");`);
  assert.equal(sb.read("raw"), "");
  assert.deepEqual(sb.turnorder(), []);
  sb.loadSource(`var parsed = JSON.parse(Campaign().get("turnorder"));`);
  assert.match(sb.takeErrors()[0].message, /SyntaxError/, "JSON.parse(\"\") throws: treat \"\" as []");
  sb.loadSource(`Campaign().set("turnorder", JSON.stringify([{ id: "${a.id}", pr: 3, custom: "" }, { id: -1, pr: 1, custom: "Round" }]));`);
  const warnings = sb.takeWarnings().map((w) => w.message);
  assert.equal(warnings.length, 2);
  assert.match(warnings[0], /must carry _pageid/);
  assert.match(warnings[1], /id must be a string/);
  sb.loadSource(`Campaign().set("turnorder", [{ id: "-1", pr: 1, custom: "Round" }]);`);
  assert.match(sb.takeErrors()[0].message, /must be a JSON string/);
});

// ---------------------------------------------------------------------------------------------
// Timers (setTimeout on a virtual clock, run by settle)

test("setTimeout: settle fires timers by due time, then by creation, with their arguments; nested timers; the clock moves", async () => {
  const sb = sandbox();
  sb.loadSource(`var fired = [];
    on("ready", function () {
      setTimeout(function () { fired.push("500"); setTimeout(function (a, b) { fired.push("500+1 " + a + b); }, 1, "x", "y"); }, 500);
      setTimeout(function () { fired.push("0 (as 1 ms)"); }, 0);
      setTimeout(function () { fired.push("1 (second)"); }, 1);
      setTimeout(function () { fired.push("-5 (as 1 ms)"); }, -5);
      setTimeout(function () { fired.push("100"); }, 100);
    });`);
  sb.ready();
  assert.deepEqual(sb.read("fired"), [], "nothing fires on its own");
  assert.throws(() => sb.assertClean(), /timers not fired yet[\s\S]*setTimeout\(500 ms\) from script1\.js/);
  await sb.settle();
  assert.deepEqual(sb.read("fired"), ["0 (as 1 ms)", "1 (second)", "-5 (as 1 ms)", "100", "500", "500+1 xy"]);
  assert.equal(sb.clock, 501);
  sb.assertClean();
});

test("setTimeout: messages and callbacks sent so far arrive before any timer; clearTimeout cancels; restart drops timers", async () => {
  const sb = sandbox();
  sb.loadSource(`var got = [];
    on("chat:message", function (msg) { got.push("message " + msg.content); });
    on("ready", function () {
      var cancelled = setTimeout(function () { got.push("cancelled"); }, 10);
      setTimeout(function () { got.push("timer"); sendChat("S", "from the timer"); }, 1);
      sendChat("S", "first");
      clearTimeout(cancelled);
      clearTimeout(undefined);
      clearTimeout(cancelled);
    });`);
  sb.ready();
  await sb.settle();
  assert.deepEqual(sb.read("got"), ["message first", "timer", "message from the timer"]);
  sb.restart();
  sb.restart();
  assert.throws(() => sb.assertClean(), /timers not fired yet \(await sandbox\.settle\(\)\): setTimeout\(1 ms\) from script1\.js$/m,
    "one timer pending: the one set on the last ready; the second restart dropped the first one's");
  await sb.settle();
  sb.assertClean();
});

test("setTimeout: an error in a timer crashes the sandbox, named after the timer; a callback that is no function throws", async () => {
  const sb = sandbox();
  sb.loadSource(`on("ready", function () { setTimeout(function () { null.boom; }, 5); });`);
  sb.ready();
  await sb.settle();
  const [crash] = sb.takeErrors();
  assert.match(crash.message, /crashed \(setTimeout\(5 ms\) from script1\.js\).*TypeError/);
  const other = sandbox();
  other.loadSource(`setTimeout("log('x')", 5);`);
  assert.match(other.takeErrors()[0].message, /callback must be a function/);
  sb.assertClean();
});

test("a timer set in a turn order handler reads the order after every handler of that event has run", async () => {
  const sb = sandbox();
  const [a, b, c] = ["A", "B", "C"].map((name) => sb.createToken({ name }));
  // The reader is bound first: in its handler it sees the user's move only; in its timer, what the rotating script did too
  sb.loadSource(`var seen = [];
    on("ready", function () {
      on("change:campaign:turnorder", function (obj) {
        seen.push(["handler", JSON.parse(obj.get("turnorder"))[0].id]);
        setTimeout(function () { seen.push(["timer", JSON.parse(Campaign().get("turnorder"))[0].id]); }, 0);
      });
    });`, "Reader.js");
  sb.loadSource(`on("ready", function () {
      on("change:campaign:turnorder", function () {
        var rows = JSON.parse(Campaign().get("turnorder"));
        if (rows[0].id === "${b.id}") { rows.push(rows.shift()); Campaign().set("turnorder", JSON.stringify(rows)); }
      });
    });`, "Skipper.js");
  sb.ready();
  sb.user.setTurnorder([a, b, c].map((t) => ({ id: t.id, pr: "1", custom: "", _pageid: sb.page.id })));
  await sb.settle();
  sb.user.advanceTurn();
  await sb.settle();
  assert.deepEqual(sb.read("seen"), [["handler", a.id], ["timer", a.id], ["handler", b.id], ["timer", c.id]]);
  assert.deepEqual(sb.handlersOf("change:campaign:turnorder"), ["Reader.js", "Skipper.js"]);
  sb.assertClean();
});

// ---------------------------------------------------------------------------------------------
// Campaign pages and the Turn Tracker; graphics; remove, toFront, toBack; who bound a handler

test("initiativepage: false until the GM opens the Turn Tracker (a user action with events); playerpageid is the page", () => {
  const sb = sandbox();
  sb.loadSource(`${RECORDER}
    var pages = [Campaign().get("initiativepage"), Campaign().get("playerpageid")];
    on("ready", function () { on("change:campaign:initiativepage", record("tracker")); });`);
  assert.deepEqual(sb.read("pages"), [false, sb.page.id]);
  sb.ready();
  sb.user.openTurnTracker();
  assert.equal(sb.campaign.get("initiativepage"), sb.page.id);
  sb.user.closeTurnTracker();
  assert.deepEqual(seen(sb).map((e) => [e.name, e.prev.initiativepage]), [["tracker", false], ["tracker", sb.page.id]]);
  const open = createSandbox({ campaign: { initiativepage: true } });
  assert.equal(open.campaign.get("initiativepage"), open.page.id, "a sandbox may start with the tracker open on its page");
  sb.assertClean();
});

test("a script sets initiativepage silently, to a page id or false; anything else is flagged", () => {
  const sb = sandbox();
  sb.loadSource(`${RECORDER}
    on("change:campaign:initiativepage", record("tracker"));
    on("ready", function () {
      Campaign().set("initiativepage", Campaign().get("playerpageid"));
      Campaign().set({ initiativepage: false });
      Campaign().set("initiativepage", true);
    });`);
  sb.ready();
  assert.deepEqual(seen(sb), []);
  const warnings = sb.takeWarnings().map((w) => w.message);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /initiativepage", true\): a page id or false/);
  sb.assertClean();
});

test("graphics: layer, image and placement; createObj on a page by pageid; findObjs by image and page", () => {
  const sb = sandbox();
  const hidden = sb.createToken({ name: "Spy", layer: "gmlayer" });
  sb.loadSource(`var r = {};
    on("ready", function () {
      var page = Campaign().get("playerpageid");
      var made = createObj("graphic", { name: "Round 0", pageid: page, layer: "gmlayer", imgsrc: "https://img.invalid/thumb.png?1",
        left: 0, top: 0, width: 70, height: 70, bar2_value: 0, showplayers_name: true, lastmove: "0,0" });
      r.found = findObjs({ imgsrc: "https://img.invalid/thumb.png?1", pageid: page }).map(function (g) { return g.id; });
      r.made = made.id;
      r.props = [made.get("pageid") === page, made.get("layer"), made.get("bar2_value"), made.get("showplayers_name"), made.get("_subtype")];
      r.spy = getObj("graphic", "${hidden.id}").get("layer");
      r.page = getObj("page", page).get("name");
      made.set({ layer: "objects", left: 140, top: 210 });
      r.moved = [made.get("layer"), made.get("left"), made.get("top")];
    });`);
  sb.ready();
  const r = sb.read("r");
  assert.deepEqual(r.found, [r.made]);
  assert.deepEqual(r.props, [true, "gmlayer", 0, true, "token"]);
  assert.equal(r.spy, "gmlayer");
  assert.equal(r.page, "Page 1");
  assert.deepEqual(r.moved, ["objects", 140, 210]);
  assert.deepEqual([sb.createToken().get("layer"), sb.createToken().get("width")], ["objects", 70]);
  sb.assertClean();
});

test("remove(): the object leaves the game silently; removing it twice, or the campaign, is flagged", () => {
  const sb = sandbox();
  const token = sb.createToken({ name: "Orc" });
  sb.loadSource(`${RECORDER}
    var after = [];
    on("destroy:graphic", record("destroy"));
    on("ready", function () {
      var t = getObj("graphic", "${token.id}");
      t.remove();
      after.push(getObj("graphic", "${token.id}"), findObjs({ _type: "graphic" }).length);
      t.remove();
      Campaign().remove();
    });`);
  sb.ready();
  assert.deepEqual(sb.read("after"), [null, 0]);
  assert.deepEqual(seen(sb), [], "no destroy event for a script's removal");
  const warnings = sb.takeWarnings().map((w) => w.message);
  assert.equal(warnings.length, 2);
  assert.match(warnings[0], /already removed/);
  assert.match(warnings[1], /removing a campaign is not emulated/);
  sb.assertClean();
});

test("toFront and toBack take a graphic still in the game; the drawing order itself is not emulated", () => {
  const sb = sandbox();
  const token = sb.createToken({ name: "Orc" });
  sb.loadSource(`on("ready", function () {
      var t = getObj("graphic", "${token.id}");
      toFront(t);
      toBack(t);
      toFront(Campaign());
      t.remove();
      toBack(t);
      toFront(null);
    });`);
  sb.ready();
  const warnings = sb.takeWarnings().map((w) => w.message);
  assert.equal(warnings.length, 3);
  assert.match(warnings[0], /toFront\(.*\): takes a graphic, path or text still in the game/);
  assert.match(warnings[1], /toBack/);
  assert.match(warnings[2], /toFront\(null\)/);
  sb.assertClean();
});

test("handlersOf names, in running order, the script that bound each handler (load order for handlers bound on ready)", () => {
  const sb = sandbox();
  sb.loadSource(`on("ready", function () { on("chat:message", function () {}); });`, "First.js");
  sb.loadSource(`on("chat:message", function () {}); on("ready", function () { on("chat:message", function () {}); });`, "Second.js");
  sb.ready();
  assert.deepEqual(sb.handlersOf("chat:message"), ["Second.js", "First.js", "Second.js"], "bound at load, then on ready in load order");
  assert.deepEqual(sb.handlersOf("ready"), ["First.js", "Second.js"]);
  sb.assertClean();
});

// ---------------------------------------------------------------------------------------------
// Chat (Mod:Chat; docs/dev/roll20.md §3, §6)

test("user chat: [[…]] become $[[n]] with documented inlinerolls; selection as {_id,_type} stubs; GM who suffix", () => {
  const sb = sandbox();
  const token = sb.createToken({ name: "Orc" });
  sb.loadSource(`var got = null; on("chat:message", function (msg) { got = msg; });`);
  sb.ready();
  sb.scriptDice(4, 6, 1);
  sb.user.chat(GM, "!surprise --roll [[1d6+2]] --other [[2d6]]", { selected: [token] });
  const msg = sb.read("got");
  assert.equal(msg.type, "api");
  assert.equal(msg.playerid, GM);
  assert.equal(msg.who, "Gina (GM)");
  assert.equal(msg.content, "!surprise --roll $[[0]] --other $[[1]]");
  assert.deepEqual(msg.selected, [{ _id: token.id, _type: "graphic" }]);
  const [first, second] = msg.inlinerolls;
  assert.equal(first.expression, "1d6+2");
  assert.equal(first.results.total, 6);
  assert.deepEqual(first.results.rolls, [{ type: "R", dice: 1, sides: 6, results: [{ v: 4 }] }, { type: "M", expr: "+2" }]);
  assert.equal(second.results.total, 7);
  assert.deepEqual(second.results.rolls, [{ type: "R", dice: 2, sides: 6, results: [{ v: 6 }, { v: 1 }] }]);
  sb.user.chat(PLAYER, "!surprise");
  const plain = sb.read("got");
  assert.equal(plain.who, "Bob Smith");
  assert.equal(plain.selected, undefined, "no selection: no selected field");
  assert.equal(plain.inlinerolls, undefined);
  sb.assertClean();
});

test("user chat asks queries: answered, defaulted, labelled options, identical prompts once; then rolls", () => {
  const sb = sandbox();
  sb.loadSource(`var got = [];
    on("chat:message", function (msg) { got.push(msg.content + " = " + (msg.inlinerolls || []).map(function (r) { return r.results.total; })); });`);
  sb.ready();
  sb.scriptDice(3, 3);
  sb.user.chat(GM, "!s --side ?{Side|Side A,a|Side B,b} [[1d6 + ?{Modifier?|0}[MOD]]] [[?{Modifier?|0}]]");
  sb.user.chat(GM, "!s [[1d6 + ?{Modifier?|0}]] ?{IQ}", { queries: { "Modifier?": "2", IQ: 12 } });
  assert.deepEqual(sb.read("got"), ["!s --side a $[[0]] $[[1]] = 3,0", "!s $[[0]] 12 = 5"]);
  assert.throws(() => sb.user.chat(GM, "!s ?{Name}"), /has no default/);
  sb.assertClean();
});

test("user chat: whispers have the documented fields; chat syntax the script never uses is not emulated", () => {
  const sb = sandbox();
  sb.loadSource(`var got = []; on("chat:message", function (msg) { got.push(msg); });`);
  sb.ready();
  sb.user.chat(PLAYER, "/w gm secret");
  sb.user.chat(GM, "/w \"Bob Smith\" for you");
  const [w1, w2] = sb.read("got");
  assert.deepEqual([w1.type, w1.target, w1.content], ["whisper", "gm", "secret"]);
  assert.deepEqual([w2.type, w2.target, w2.target_name, w2.content], ["whisper", PLAYER, "Bob Smith", "for you"]);
  for (const line of ["/em ducks", "/roll 3d6", "&{template:default} {{name=Check}}", "[[1d20 &{tracker}]]", "%{Hero|Attack}",
    "#Surprise", "!s @{selected|token_id}", "!s ?{A|?{B|1}}", "[[1d6 + [[1d4]]]]"]) {
    assert.throws(() => sb.user.chat(PLAYER, line), /not emulated/, line);
  }
  sb.assertClean();
});

test("sendChat records posted messages and parses whisper targets; an unquoted name with spaces misfires", async () => {
  const sb = sandbox();
  sb.loadSource(`on("ready", function () {
      sendChat("Surprise", "/w gm <b>GM only</b>", null, { noarchive: true });
      sendChat("Surprise", '/w "Bob Smith" quoted');
      sendChat("Surprise", "/w Bob Smith unquoted");
      sendChat("Surprise", "/direct <div>hello</div>");
    });`);
  sb.ready();
  await sb.settle();
  assert.equal(sb.chat.length, 4);
  assert.deepEqual(sb.chat.map((m) => m.whisperTo), ["gm", "Bob Smith", "Bob", null]);
  assert.deepEqual(sb.chat.map((m) => m.content), ["<b>GM only</b>", "quoted", "Smith unquoted", "<div>hello</div>"]);
  assert.deepEqual(sb.chat[0].options, { noarchive: true });
  assert.equal(sb.chat[1].target, PLAYER);
  assert.equal(sb.chat[3].direct, true);
  assert.equal(sb.chat[3].who, "Surprise");
  const errors = sb.takeErrors();
  assert.equal(errors.length, 1);
  assert.match(errors[0].message, /whisper to "Bob" matches no player/);
  sb.assertClean();
});

test("sendChat: a message larger than the chosen budget is an error, counted in UTF-8 bytes", async () => {
  const sb = sandbox();
  // "/w gm " (6 bytes), 5459 three-byte characters and one more byte fit 16384 exactly; another byte does not
  sb.loadSource(`on("ready", function () {
      sendChat("Surprise", "/w gm " + "\u4e2d".repeat(5459) + "a", null, { noarchive: true });
      sendChat("Surprise", "/w gm " + "\u4e2d".repeat(5459) + "ab", null, { noarchive: true });
    });`);
  sb.ready();
  await sb.settle();
  assert.equal(CHAT_LIMIT, 16384);
  const errors = sb.takeErrors();
  assert.equal(errors.length, 1);
  assert.match(errors[0].message, /a message of 16385 bytes is larger than 16384/);
});

test("sendChat: a message reaches every chat:message handler later, the sender's own too, a command as type api from API", async () => {
  const sb = sandbox();
  sb.loadSource(`var got = [];
    on("chat:message", function (msg) {
      got.push([msg.type, msg.playerid, msg.who, msg.content, "selected" in msg]);
      if (got.length < 50) sendChat("Surprise", "!other --ping");
    });
    on("ready", function () { sendChat("Surprise", "!other --ping"); got.push("sent"); });`);
  sb.ready();
  await sb.settle();
  const got = sb.read("got");
  assert.deepEqual(got.slice(0, 2), ["sent", ["api", "API", "Surprise", "!other --ping", false]]);
  assert.equal(got.length, 50, "the handler hears its own messages: a loop unless it ignores them");
  assert.equal(sb.chat.length, 49, "every posted message was heard");
  sb.assertClean();
});

test("sendChat with a callback: the callback gets an array of messages later; nothing is posted and no handler hears it", async () => {
  const sb = sandbox();
  sb.loadSource(`var got = [], heard = 0;
    on("chat:message", function () { heard++; });
    on("ready", function () {
      sendChat("", "0:[[1d20 + 3]]", function (ops) {
        got.push([Array.isArray(ops), ops.length, ops[0].type, ops[0].playerid, ops[0].content, ops[0].inlinerolls[0].results.total]);
      });
      got.push("sent");
    });`);
  sb.scriptDice(11);
  sb.ready();
  assert.deepEqual(sb.diceLeft(), [], "the roll takes its die when sendChat is called");
  assert.deepEqual(sb.read("got"), ["sent"], "the callback has not run yet");
  await sb.settle();
  assert.deepEqual(sb.read("got"), ["sent", [true, 1, "general", "API", "0:$[[0]]", 14]]);
  assert.equal(sb.read("heard"), 0);
  assert.equal(sb.chat.length, 0);
  sb.assertClean();
});

test("sendChat: escaped text is posted as it is; a reference, or an inline roll with a query, is an error; a roll takes a die", async () => {
  const sb = sandbox();
  sb.loadSource(`on("ready", function () {
      sendChat("S", "&#64;&#123;Hero&#124;dex&#125; &#91;&#91;1d6&#93;&#93; ?{Bonus|0} #macro");
      sendChat("S", "Dex @{Hero|dexterity}");
      sendChat("S", "[[1d6+?{Bonus|0}]]");
      sendChat("S", "[[1d6]]");
    });`);
  sb.scriptDice(4);
  sb.ready();
  await sb.settle();
  assert.deepEqual(sb.chat.map((m) => m.content), ["&#64;&#123;Hero&#124;dex&#125; &#91;&#91;1d6&#93;&#93; ?{Bonus|0} #macro", "$[[0]]"]);
  const errors = sb.takeErrors().map((e) => e.message);
  assert.equal(errors.length, 2);
  assert.match(errors[0], /@\{…\} attribute references \(escape @ as &#64;\) are not emulated/);
  assert.match(errors[1], /cannot evaluate roll "1d6\+\?\{Bonus\|0\}": unresolved \?\{…\}/);
  sb.assertClean();
});

test("user.clickButton sends a button's command (HTML entities decoded, queries answered)", () => {
  const sb = sandbox();
  sb.loadSource(`var got = [];
    on("chat:message", function (msg) { got.push(msg.content); });
    on("ready", function () { sendChat("S", '/w gm <a style="x" href="!surprise --apply&#64;x ?{Round|0}">Apply</a><a href="!surprise --help">&#63; Help</a>'); });`);
  sb.ready();
  const posted = sb.chat.at(-1);
  sb.user.clickButton(GM, posted, "Apply", { queries: { Round: "2" } });
  sb.user.clickButton(GM, posted, "? Help");
  assert.deepEqual(sb.read("got"), ["!surprise --apply@x 2", "!surprise --help"]);
  assert.throws(() => sb.user.clickButton(GM, posted, "Roll"), /no button "Roll" among \["Apply","\? Help"\]/);
});

// ---------------------------------------------------------------------------------------------
// Globals

test("playerIsGM follows the player list; 'API' is not a player", () => {
  const sb = sandbox();
  sb.loadSource(`var r = [playerIsGM("${GM}"), playerIsGM("${PLAYER}"), playerIsGM("API"), playerIsGM("-unknown")];`);
  assert.deepEqual(sb.read("r"), [true, false, false, false]);
  sb.assertClean();
});

test("randomInteger takes scripted faces; running out or a face above max is an error", () => {
  const sb = sandbox();
  sb.scriptDice(3, 20);
  sb.loadSource(`var a = randomInteger(6);`);
  assert.equal(sb.read("a"), 3);
  assert.deepEqual(sb.diceLeft(), [20]);
  assert.throws(() => sb.assertClean(), /unused scripted dice: 20/);
  sb.loadSource(`var b = randomInteger(6);`);
  assert.equal(sb.diceLeft().length, 0);
  const errors = sb.takeErrors().map((e) => e.message);
  assert.match(errors[0], /next scripted face 20 is larger than 6/);
  sb.loadSource(`var c = randomInteger(6);`);
  assert.match(sb.takeErrors()[0].message, /no scripted dice left/);
});

test("Math.random is flagged (roll with randomInteger)", () => {
  const sb = sandbox();
  sb.loadSource(`var x = Math.random();`);
  assert.match(sb.takeWarnings()[0].message, /randomInteger/);
});

test("getAttrByName: the value as stored, else the sheet default, else undefined; exact names", () => {
  const sb = sandbox({ sheetDefaults: { surprisebonus: "0", perception: "10" } });
  const hero = sb.createCharacter({ name: "Hero", attributes: { dexterity: 14, SurpriseBonus: 2 } });
  sb.loadSource(`function g(n) { return getAttrByName("${hero.id}", n); }
    var r = [g("dexterity"), g("surprisebonus"), g("SurpriseBonus"), g("perception"), g("never"), g("Dexterity")];`);
  assert.deepEqual(sb.read("r"), ["14", "0", "2", "10", undefined, undefined]);
  sb.loadSource(`g("repeating_skills_$0_name");`);
  assert.match(sb.takeErrors()[0].message, /repeating sections are not emulated/);
  sb.assertClean();
});

test("log records one line per call", () => {
  const sb = sandbox();
  sb.loadSource(`log("-=> Surprise v1.0.0 <=-"); log({ a: 1 });`);
  assert.deepEqual(sb.logs, ["-=> Surprise v1.0.0 <=-", "{\"a\":1}"]);
  sb.assertClean();
});

// ---------------------------------------------------------------------------------------------
// State and restarts

test("state survives a restart through JSON; ready fires again and handlers are bound anew", () => {
  const sb = sandbox();
  sb.state.Surprise = { version: 1, config: { marker: "red" } }; // an old schema seeded by the test
  const source = `var readyCount = 0;
    on("ready", function () {
      readyCount++;
      state.Surprise = state.Surprise || {};
      state.Surprise.version = 2;
      state.Surprise.runs = (state.Surprise.runs || 0) + 1;
    });`;
  sb.loadSource(source);
  sb.ready();
  assert.deepEqual(sb.stateSnapshot().Surprise, { version: 2, config: { marker: "red" }, runs: 1 });
  sb.restart();
  assert.equal(sb.read("readyCount"), 1, "a fresh script instance");
  assert.deepEqual(sb.stateSnapshot().Surprise, { version: 2, config: { marker: "red" }, runs: 2 });
  sb.assertClean();
});

test("non-JSON state is lost at restart and reported: functions, NaN, Roll20 objects, class instances", () => {
  const sb = sandbox();
  const token = sb.createToken({ name: "Orc" });
  sb.loadSource(`on("ready", function () {
      if (state.S) return;
      state.S = { fn: function () { return 1; }, n: NaN, token: getObj("graphic", "${token.id}"), when: new Date(0), ok: [1, "a"] };
    });`);
  sb.ready();
  assert.equal(sb.read("typeof state.S.fn"), "function", "fine until the sandbox restarts");
  sb.restart();
  assert.equal(sb.stateSnapshot().S.fn, undefined, "the function is gone");
  assert.equal(sb.stateSnapshot().S.n, null);
  assert.equal(typeof sb.stateSnapshot().S.token, "object");
  assert.equal(typeof sb.stateSnapshot().S.token.get, "undefined", "a stored Roll20 object comes back as plain data");
  assert.deepEqual(sb.stateSnapshot().S.ok, [1, "a"]);
  const errors = sb.takeErrors().map((e) => e.message);
  assert.equal(errors.length, 4);
  assert.match(errors.join("\n"), /S\.fn is a function[\s\S]*S\.n is NaN[\s\S]*S\.token is a Roll20 object[\s\S]*S\.when is a Date/);
});

// ---------------------------------------------------------------------------------------------
// Loading

test("scripts share one sandbox like Roll20's concatenated file: globals shared, line numbers continue", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "roll20-harness-"));
  try {
    const meta = (name) => `var API_Meta = API_Meta || {};
API_Meta.${name} = { offset: Number.MAX_SAFE_INTEGER, lineCount: -1 };
{ try { throw new Error(""); } catch (e) { API_Meta.${name}.offset = (parseInt(e.stack.split(/\\n/)[1].replace(/^.*:(\\d+):.*$/, "$1"), 10) - 3); } }
`;
    fs.writeFileSync(path.join(dir, "One.js"), `${meta("One")}const Shared = 1;\n`);
    fs.writeFileSync(path.join(dir, "Two.js"), `${meta("Two")}var seenShared = Shared;\n`);
    fs.writeFileSync(path.join(dir, "Three.js"), "const Shared = 2;\n");
    const sb = sandbox();
    sb.load(path.join(dir, "One.js")).load(path.join(dir, "Two.js"));
    assert.equal(sb.read("seenShared"), 1);
    assert.deepEqual(sb.read("[API_Meta.One.offset, API_Meta.Two.offset]"), [0, 5], "Two starts after One's 5 lines");
    sb.load(path.join(dir, "Three.js"));
    assert.match(sb.takeErrors()[0].message, /Identifier 'Shared' has already been declared/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("user actions need a ready game; ready cannot fire twice", () => {
  const sb = sandbox();
  assert.throws(() => sb.user.chat(GM, "hi"), /before ready/);
  sb.ready();
  assert.throws(() => sb.ready(), /already fired/);
  assert.throws(() => sb.loadSource("var late = 1;"), /before ready\(\)/);
});

// ---------------------------------------------------------------------------------------------
// Dice evaluator

test("inline roll evaluator: sums of NdX and numbers, labels; other syntax is rejected before any die is rolled", () => {
  const faces = [6, 2, 5, 1];
  const die = (sides) => {
    const f = faces.shift();
    assert.ok(f <= sides);
    return f;
  };
  assert.equal(evaluateRoll("2d6 + 3[BON]", die).results.total, 11);
  assert.equal(evaluateRoll("d6 - 1d4 - 2", die).results.total, 2);
  assert.equal(evaluateRoll("-2 + 3", die).results.total, 1);
  assert.deepEqual(faces, [], "every face used");
  for (const [expression, error] of [["1d6!", /not emulated/], ["2d20kh1", /not emulated/], ["1d6 fire", /unexpected/],
    ["{1d6, 1d6}kl1", /unexpected/], ["floor(7/2)", /unexpected/], ["(1d6 + 1) * 2", /unexpected/], ["1d6 + 1d8 +", /ends early/]]) {
    assert.throws(() => evaluateRoll(expression, () => assert.fail("no die is rolled for a malformed roll")), error, expression);
  }
});

// ---------------------------------------------------------------------------------------------
// End to end: a script following docs/dev/roll20.md §3 runs clean; each classic mistake is caught

const GOOD_SCRIPT = `
var API_Meta = API_Meta || {};
API_Meta.Demo = { offset: Number.MAX_SAFE_INTEGER, lineCount: -1 };
{ try { throw new Error(""); } catch (e) { API_Meta.Demo.offset = (parseInt(e.stack.split(/\\n/)[1].replace(/^.*:(\\d+):.*$/, "$1"), 10) - 4); } }

const Demo = (() => { // eslint-disable-line no-unused-vars
  const scriptName = "Demo", version = "1.0.0", schemaVersion = 2;
  const checkInstall = () => {
    log("-=> " + scriptName + " v" + version + " <=-");
    switch (state[scriptName] && state[scriptName].version) {
      case 1: state[scriptName].marker = state[scriptName].marker || "red"; state[scriptName].round = 0; /* falls through */
      case 2: state[scriptName].version = schemaVersion; break;
      default: state[scriptName] = { version: schemaVersion, marker: "red", round: 0 };
    }
  };
  const processInlinerolls = (msg) => (msg.inlinerolls || [])
    .reduce((text, roll, k) => text.replace("$[[" + k + "]]", roll.results.total || 0), msg.content);
  const turnOrder = () => { const raw = Campaign().get("turnorder"); return raw === "" ? [] : JSON.parse(raw); };
  const onTurnChange = (prevRaw) => {
    const cur = turnOrder(), prev = prevRaw === "" ? [] : JSON.parse(prevRaw);
    if (cur.length && prev.length && cur[0].id !== prev[0].id && cur[0].id === "-1") {
      state[scriptName].round += 1;
      sendChat(scriptName, "/w gm Round " + state[scriptName].round);
    }
  };
  const handleInput = (msg) => {
    if (msg.type !== "api" || !/^!demo(\\b\\s|$)/.test(msg.content)) return;
    if (!playerIsGM(msg.playerid)) return;
    const who = (getObj("player", msg.playerid) || { get: () => "API" }).get("_displayname");
    const args = processInlinerolls(msg).split(/\\s+--/).slice(1);
    const tokens = (msg.selected || []).map((o) => getObj("graphic", o._id)).filter(Boolean);
    args.forEach((arg) => {
      const [cmd, value] = arg.split(/\\s+/);
      if (cmd === "mark") tokens.forEach((t) => t.set("status_" + state[scriptName].marker, Math.min(9, Number(value))));
      if (cmd === "next") {
        const prevRaw = Campaign().get("turnorder");
        const rows = turnOrder();
        if (rows.length === 0) return;
        rows.push(rows.shift());
        Campaign().set("turnorder", JSON.stringify(rows));
        onTurnChange(prevRaw); // script changes fire no events: call our own handler
      }
      if (cmd === "roll") sendChat(scriptName, '/w "' + who + '" rolled ' + randomInteger(6));
    });
  };
  on("ready", () => {
    checkInstall();
    on("chat:message", handleInput);
    on("change:campaign:turnorder", (obj, prev) => onTurnChange(prev.turnorder));
  });
  return { version };
})();
`;

async function runDemo(source) {
  const sb = createSandbox({ players: [{ id: GM, displayname: "Gina Lee", isGM: true }] });
  const token = sb.createToken({ name: "Orc" });
  sb.state.Demo = { version: 1 };
  sb.loadSource(source, "Demo.js");
  sb.ready();
  sb.user.chat(GM, "!demo --next"); // empty turn order, nothing selected
  sb.user.setTurnorder([{ id: token.id, pr: "12", custom: "", _pageid: sb.page.id }, { id: "-1", pr: "1", custom: "Round" }]);
  sb.scriptDice(2, 5);
  sb.user.chat(GM, "!demo --mark [[1d4+1]] --next --roll", { selected: [token] });
  await sb.settle();
  sb.user.advanceTurn();
  sb.user.advanceTurn();
  await sb.settle();
  return { sb, token };
}

test("end to end: a script written the documented way runs clean", async () => {
  const { sb, token } = await runDemo(GOOD_SCRIPT);
  sb.assertClean();
  assert.equal(token.get("status_red"), "3");
  assert.deepEqual(sb.chat.map((m) => [m.whisperTo, m.content]), [["gm", "Round 1"], ["Gina Lee", "rolled 5"], ["gm", "Round 2"]]);
  assert.deepEqual(sb.stateSnapshot().Demo, { version: 2, marker: "red", round: 2 });
  assert.equal(sb.read("API_Meta.Demo.offset"), 0);
  assert.equal(sb.read("Demo.version"), "1.0.0");
});

const MISTAKES = [
  ["prev read with get()", "onTurnChange(prev.turnorder)", "onTurnChange(prev.get('turnorder'))", /prev\.get is not a function/],
  ["turnorder \"\" parsed as JSON", 'raw === "" ? [] : JSON.parse(raw)', "JSON.parse(raw)", /SyntaxError/],
  ["own handler not called after a script write", "onTurnChange(prevRaw); //", "//", /Round 1/],
  ["GM name taken from msg.who", '(getObj("player", msg.playerid) || { get: () => "API" }).get("_displayname")', "msg.who",
    /whisper to "Gina Lee \(GM\)" matches no player/],
  ["unquoted whisper name", `'/w "' + who + '" rolled '`, "'/w ' + who + ' rolled '", /whisper to "Gina" matches no player/],
  ["selection used without a guard", "(msg.selected || [])", "msg.selected", /reading 'map'/],
  ["inline roll placeholder used as the value", "processInlinerolls(msg)", "msg.content", /status_red = NaN/],
  ["badge set beyond 9", "Math.min(9, Number(value))", "Number(value) + 10", /clamped to 9/],
  ["a die rolled with Math.random", "randomInteger(6)", "Math.ceil(Math.random() * 6)", /Math\.random\(\) used|rolled 5/],
];

for (const [name, good, bad, expected] of MISTAKES) {
  test(`end to end: the mistake "${name}" is caught`, async () => {
    assert.ok(GOOD_SCRIPT.includes(good), `fixture text not found: ${good}`);
    const { sb } = await runDemo(GOOD_SCRIPT.replace(good, bad));
    let caught = null;
    try {
      sb.assertClean();
      assert.deepEqual(sb.chat.map((m) => m.content), ["Round 1", "rolled 5", "Round 2"]);
      assert.deepEqual(sb.stateSnapshot().Demo.round, 2);
    } catch (error) {
      caught = error;
    }
    assert.ok(caught, "the harness let the wrong script pass");
    assert.match(String(caught.message), expected);
  });
}
