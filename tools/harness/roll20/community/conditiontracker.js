// A behavioural model of Condition Tracker, for ambush's emulated Roll20 sandbox (tests only; never shipped).
//
// Models: Condition Tracker 1.1.0 by MidNiteShadow7, in Roll20/roll20-api-scripts at commit 9d634d31, file
// `ConditionTracker/1.1.0/ConditionTracker.js` (built from `ConditionTracker/src/`, whose files are named below). Written
// in our own words from reading those files: none of their code is copied. Line numbers are those of the built 1.1.0
// file. Marks: [I] inferred, [U] not verified. Only conditions as turn order rows, their markers and their durations are
// modelled.
//
// The script is one IIFE that binds its handlers AS IT LOADS, not on ready (registerEventHandlers, lines 35736-35745):
// ready (checkInstall), chat:message, change:graphic (HP and dead-marker cleanup: not modelled, and the sandbox fires no
// such event), destroy:graphic, change:campaign:turnorder. So its turn order handler runs before that of every script
// that binds on ready, whatever the load order. It defines no global and exports nothing: no observer, and no command
// passes a turn.
//
// State (ensureState, lines 27389-27440): state.ConditionTracker {version "1.1.0", config {gameSystem "dnd5e", useMarkers
// true, markers (condition name -> marker, the system's defaults; WFRP 4e's Surprised is "overdrive"), language,
// suppressPublicChat false}, active: [conditions], runtime {previousFirstTurnId, previousTurnSignature, ...}}.
//
// A condition (buildConditionRecord, lines 33912-33946): {id, sourceTokenId, targetTokenId, condition, displayText,
// marker, duration}. Its row (createConditionRow, lines 29604-29612) is a CUSTOM row {id: "-1", pr: rounds left or "",
// custom: displayText, _ct: id}, put right below the target's token row and its other condition rows, or at the end when
// the target has no row (insertConditionRow and getInsertIndex, lines 29642-29740). Its marker is added to the target
// unless the token already shows that marker (applyMarker, lines 29187-29201), and removed when the condition goes and no
// other condition of the script on that token names it (removeMarkerIfUnused, lines 29209-29233), whoever set it.
// Durations (src/durations.js; lines 29053-29160): "N rounds" is {type: "rounds", remaining: N (+1 when the target's
// turn is the current one), anchor: target}; "end of target's next turn" is a turnEnd of 1 (or 2); "until removed".
//
// How it learns of a turn change (handleTurnOrderChange, lines 35530-35580): only from change:campaign:turnorder. It keeps
// the order's signature and the id of the token row that was on top (runtime.previousFirstTurnId; a custom row on top
// counts as none, getCurrentTurnTokenId, lines 29576-29583); at a change whose signature differs, if the token on top is
// another than the one it noted, the noted token's turn has ended: each duration anchored to it goes down by one, the
// rows show the rounds left, and a condition at 0 goes (row, marker, a card and a whisper). So a turn passed by a
// script's write, which it never hears, is one it never ends: the next change it hears ends only the token it noted.
//
// Commands (GM only, isGmMessage line 32563): `!condition-tracker --source S --target T --condition C --duration D`
// (handleApply, lines 33875-33901; S and T token ids here), `--remove ID`, `--config marker C=M`, `--config gameSystem
// ID` (only dnd5e's and wfrp4e's default markers are modelled). Not modelled: the wizards and menus, saved effects,
// custom effect types, advantage rows, the reorder prompt, HP cleanup, macros and handouts, the 30 languages.

(function () {
  "use strict";

  var KEY = "ConditionTracker";
  var COMMAND = "!condition-tracker";
  // DEFAULT_MARKERS of the dnd5e and wfrp4e profiles (lines 23228-23240, 26670-26684)
  var DEFAULT_MARKERS = {
    dnd5e: { Confused: "interdiction", Dazed: "pummeled", Fear: "screaming", Stunned: "pummeled", Spell: "aura", Ability: "fist" },
    wfrp4e: { Bleeding: "half-heart", Prone: "back-pain", Stunned: "pummeled", Surprised: "overdrive", Ability: "fist" },
  };
  var PAST = { Surprised: "surprised", Stunned: "stunned", Prone: "knocked prone", Dazed: "dazed", Confused: "confused" };
  var created = 0;

  function ensureState() {
    var s = state[KEY];
    if (s && s.version === "1.1.0" && s.config && Array.isArray(s.active) && s.runtime) return s;
    s = state[KEY] = s || {};
    s.version = "1.1.0";
    s.config = s.config || { gameSystem: "dnd5e", useMarkers: true, suppressPublicChat: false, markers: Object.assign({}, DEFAULT_MARKERS.dnd5e) };
    s.active = Array.isArray(s.active) ? s.active : [];
    s.runtime = s.runtime || { previousFirstTurnId: "", previousTurnSignature: "", previousTokenIds: [] };
    return s;
  }

  function readOrder() {
    var raw = Campaign().get("turnorder");
    return raw ? JSON.parse(raw) : [];
  }

  function writeOrder(rows) {
    Campaign().set("turnorder", JSON.stringify(rows));
  }

  /** getTokenRowId: a token row's id, "" for a custom row */
  function tokenRowId(row) {
    var id = String((row && row.id) || "");
    return id && id !== "-1" ? id : "";
  }

  /** getTurnSignature (lines 29946-29965): every row's id, label, pr, formula and _ct */
  function signature() {
    return readOrder().map(function (row) {
      return [row.id, row.custom, row.pr, row.formula, row._ct].map(function (v) { return v === undefined ? "" : String(v); }).join("|");
    }).join("\n");
  }

  function currentTokenId() {
    var rows = readOrder();
    return rows.length ? tokenRowId(rows[0]) : "";
  }

  function announce(html) {
    if (!ensureState().config.suppressPublicChat) sendChat("Condition Tracker", "/direct " + html);
  }

  function whisperGM(html) {
    sendChat("Condition Tracker", "/w gm " + html);
  }

  // -------------------------------------------------------------------------------------------
  // Markers (applyMarker, removeMarkerIfUnused, getMarkerBase: lines 29187-29350)

  function markersOf(token) {
    return String(token.get("statusmarkers") || "").split(",").map(function (m) { return m.trim(); }).filter(Boolean);
  }

  function base(marker) {
    return String(marker).split("@")[0].split("::")[0];
  }

  function applyMarker(token, marker) {
    var markers = markersOf(token);
    if (!marker || markers.some(function (m) { return m === marker || base(m) === marker; })) return false;
    markers.push(marker);
    token.set("statusmarkers", markers.join(","));
    return true;
  }

  function removeMarkerIfUnused(condition) {
    if (!condition.marker) return;
    var needed = ensureState().active.some(function (c) {
      return c.targetTokenId === condition.targetTokenId && c.marker === condition.marker && c.id !== condition.id;
    });
    var token = getObj("graphic", condition.targetTokenId);
    if (needed || !token) return;
    var markers = markersOf(token);
    var kept = markers.filter(function (m) { return !(m === condition.marker || base(m) === condition.marker); });
    if (kept.length !== markers.length) token.set("statusmarkers", kept.join(","));
  }

  // -------------------------------------------------------------------------------------------
  // Conditions

  /** parseDuration and createRoundDuration (lines 29053-29110) */
  function parseDuration(text, targetId) {
    var key = String(text || "until removed").trim().toLowerCase();
    var current = currentTokenId();
    if (key === "until removed") return { type: "untilRemoved", remaining: null, anchor: null };
    if (key === "end of target's next turn" || key === "end of target next turn") {
      return { type: "turnEnd", remaining: targetId === current ? 2 : 1, anchor: targetId };
    }
    var rounds = /^(\d+)\s*(?:round|rounds)?$/.exec(key);
    if (rounds && Number(rounds[1]) > 0) return { type: "rounds", remaining: Number(rounds[1]) + (targetId === current ? 1 : 0), anchor: targetId };
    return null;
  }

  function prOf(duration) {
    return !duration || duration.type === "untilRemoved" ? "" : String(duration.remaining);
  }

  /** handleApply (lines 33875-33901): record, marker, row below the target, a public card and a GM whisper */
  function apply(args) {
    var source = getObj("graphic", args.source);
    var target = getObj("graphic", args.target);
    var conditionName = args.condition;
    if (!source || !target || !conditionName) return;
    var duration = parseDuration(args.duration, target.id);
    if (!duration) return;
    var s = ensureState();
    created += 1;
    var condition = {
      id: "ct_model_" + created, sourceTokenId: source.id, targetTokenId: target.id, condition: conditionName,
      displayText: target.get("name") + " " + (PAST[conditionName] || conditionName.toLowerCase()) + " by " + source.get("name"),
      marker: s.config.useMarkers ? s.config.markers[conditionName] || "" : "", duration: duration,
    };
    if (condition.marker) applyMarker(target, condition.marker);
    s.active.push(condition);
    var rows = readOrder();
    var at = rows.length;
    for (var i = 0; i < rows.length; i += 1) {
      if (tokenRowId(rows[i]) !== target.id) continue;
      at = i + 1;
      while (at < rows.length && rows[at]._ct && s.active.some(function (c) { return c.id === rows[at]._ct && c.targetTokenId === target.id; })) at += 1;
      break;
    }
    rows.splice(at, 0, { id: "-1", pr: prOf(duration), custom: condition.displayText, _ct: condition.id });
    writeOrder(rows);
    announce("<div>" + source.get("name") + " " + conditionName.toLowerCase() + " " + target.get("name") + ".</div>");
    whisperGM("<div>Condition applied: " + condition.displayText + "</div>");
  }

  /** removeConditionById: state, row, marker, a public card and a whisper */
  function remove(id, why) {
    var s = ensureState();
    var condition = s.active.filter(function (c) { return c.id === id; })[0];
    if (!condition) return;
    s.active = s.active.filter(function (c) { return c !== condition; });
    writeOrder(readOrder().filter(function (row) { return row._ct !== id; }));
    removeMarkerIfUnused(condition);
    announce("<div>" + condition.displayText + ": removed.</div>");
    whisperGM("<div>Condition Removed (" + why + "): " + condition.displayText + "</div>");
  }

  /** handleTurnOrderChange (lines 35530-35580) */
  function onTurnOrder() {
    var s = ensureState();
    var now = signature();
    if (now === s.runtime.previousTurnSignature) return;
    var ended = s.runtime.previousFirstTurnId;
    var current = currentTokenId();
    // reconcileActiveConditionsWithTurnOrder: a condition whose row is gone goes, silently, marker and all
    var rowIds = readOrder().map(function (row) { return row._ct; }).filter(Boolean);
    s.active.filter(function (c) { return rowIds.indexOf(c.id) < 0; }).forEach(function (c) {
      s.active = s.active.filter(function (other) { return other !== c; });
      removeMarkerIfUnused(c);
    });
    s.runtime.previousFirstTurnId = current;
    s.runtime.previousTurnSignature = now;
    s.runtime.previousTokenIds = readOrder().map(tokenRowId).filter(Boolean);
    if (!ended || ended === current) return;
    var expired = [];
    s.active.forEach(function (c) {
      if (!c.duration || c.duration.type === "untilRemoved" || c.duration.anchor !== ended) return;
      c.duration.remaining -= 1;
      if (c.duration.remaining <= 0) expired.push(c);
      else {
        var rows = readOrder();
        rows.forEach(function (row) { if (row._ct === c.id) row.pr = prOf(c.duration); });
        writeOrder(rows);
      }
    });
    expired.forEach(function (c) { remove(c.id, "duration expired"); });
  }

  function onDestroy(token) {
    var s = ensureState();
    var gone = s.active.filter(function (c) { return c.sourceTokenId === token.id || c.targetTokenId === token.id; });
    if (!gone.length) return;
    s.active = s.active.filter(function (c) { return gone.indexOf(c) < 0; });
    var ids = gone.map(function (c) { return c.id; });
    writeOrder(readOrder().filter(function (row) { return ids.indexOf(row._ct) < 0; }));
    gone.forEach(removeMarkerIfUnused);
  }

  /** collectFlags (lines 29481-29505): "--key value words" pairs */
  function flags(content) {
    var args = {};
    var key = null;
    content.slice(COMMAND.length).trim().split(/\s+/).forEach(function (word) {
      if (word.indexOf("--") === 0) {
        key = word.slice(2);
        args[key] = true;
      } else if (key) args[key] = args[key] === true ? word : args[key] + " " + word;
    });
    return args;
  }

  function onChat(msg) {
    if (msg.type !== "api" || msg.content.indexOf(COMMAND) !== 0) return;
    var s = ensureState();
    var args = flags(msg.content);
    if (!playerIsGM(msg.playerid)) return;
    if (args.remove) remove(args.remove, "removed");
    else if (typeof args.config === "string") {
      var words = args.config.split(" ");
      if (words[0] === "marker" && words[1]) {
        var pair = words[1].split("=");
        s.config.markers[pair[0]] = pair[1];
      } else if (words[0] === "gameSystem" && DEFAULT_MARKERS[words[1]]) {
        s.config.gameSystem = words[1];
        s.config.markers = Object.assign({}, DEFAULT_MARKERS[words[1]]);
      }
    } else if (args.source || args.target || args.condition) apply(args);
  }

  function checkInstall() {
    ensureState();
    log("-=> Condition Tracker v1.1.0 <=-  [behavioural model]");
  }

  on("ready", checkInstall);
  on("chat:message", onChat);
  on("destroy:graphic", onDestroy);
  on("change:campaign:turnorder", onTurnOrder);
}());
