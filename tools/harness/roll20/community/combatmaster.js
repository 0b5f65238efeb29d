// A behavioural model of CombatMaster, for ambush's emulated Roll20 sandbox (tests only; never shipped).
//
// Models: Combat Master 2.48 by Victor B (after Robin Kuiper, with changes by The Aaron), in Roll20/roll20-api-scripts
// at commit 9d634d31, file `CombatMaster/2.48/CombatMaster.js` (the latest version folder; `CombatMaster/CombatMaster.js`
// is the same text). Written in our own words from reading that file: none of its code is copied. Line numbers below
// are that file's. Marks: [I] inferred, [U] not verified (as in docs/dev/roll20.md). Only the turn order, and what of
// the script's state and chat goes with it, is modelled: not its conditions, spells, timer, macros, menus or help.
//
// What a GM gets (setDefaults, lines 3245-4068; the defaults at lines 3256-3319), kept in state.COMBATMASTER.config as
// the script does; missing keys are filled in on ready, so a test may seed a partial config before loading, write
// state after ready, or send the GM's `!cmaster --config,<section>,key=<key>,value=<value>` (editCombatState, lines
// 1037-1073; "true"/"false" become booleans, line 224). The settings that change the turn order:
//   turnorder.sortTurnOrder true      re-sort the order (highest pr first) when a round begins, and after rolling
//   initiative.rollInitiative "CombatMaster"   what --turn,start rolls: "CombatMaster" (d20 + the initiativeAttributes,
//                                     "initiative_bonus"), "Group-Init" (GroupInitiative.RollForTokenIDs), "None"
//   initiative.rollEachRound false    roll again for every token at each new round, instead of rotating
//   initiative.initiativeDie 20, initiative.initiativeAttributes "initiative_bonus"
//   turnorder.useMarker true          the round marker follows the current token onto the token layer
//   announcements.announceRound true, announceTurn true, whisperToGM false, showNPCTurns false   the chat cards
//   (centerToken true pings the map to the current token: not modelled; the "NextMarker" graphic of
//   nextMarkerType "External URL", which shows the next token and has no row, is not modelled either)
//
// The round row (getOrCreateMarker and checkMarkerturn, lines 1810-1867): a graphic with the marker image
// (turnorder.externalMarkerURL, reduced to its "thumb" size by getCleanImgsrc, lines 1347-1353) on the player page,
// created when none is found, named "Round 1" on the GM layer; extra copies are removed. Its row is a TOKEN row,
// {id, pr: -1, custom: "", _pageid}, appended whenever it is missing, and that happens on every turn change: with
// CombatMaster installed, the first turn change a GM makes creates the marker and its row even if no combat was
// started. The round count is a variable of the script (`round`, line 13), not in state: back to 1 after a restart.
// The script recognises its round row by the marker's id, and treats every custom row ("-1") as something to pass.
//
// Handlers, bound on ready (registerEventHandlers, lines 4545-4573; ready at lines 4589-4594): chat:message, then
// change:campaign:turnorder. (Also bound and not modelled: "close:campaign:turnorder", which is no Roll20 event; the
// initiativepage handler, which does nothing (its stopCombat is commented out, lines 3131-3135); the marker's move with
// a moved current token (handleGraphicMovement, lines 3149-3163); status markers and concentration.)
//
// Anyone may send !cmaster commands: the script checks no GM (inputHandler, lines 107-172). A message whose sender is
// neither a GM nor a player (a script's, playerid "API") makes it throw, as the real one does (line 140).

var CombatMaster = CombatMaster || (function () {
  "use strict";

  var version = "2.48";
  var KEY = "COMBATMASTER";
  var round = 1;

  /** The defaults of the settings the model uses (lines 3262-3319) */
  function defaults() {
    return {
      hold: { held: false, turnorder: [], conditions: [], round: 1 },
      initiative: {
        rollInitiative: "CombatMaster", initiativeDie: 20, initiativeAttributes: "initiative_bonus",
        showInitiative: false, rollEachRound: false, apiTargetTokens: "None",
      },
      turnorder: {
        useMarker: true, markerType: "External URL",
        externalMarkerURL: "https://s3.amazonaws.com/files.d20.io/images/52550079/U-3U950B3wk_KRtspSPyuw/thumb.png?1524507826",
        nextMarkerType: "External URL",
        nextExternalMarkerURL: "https://s3.amazonaws.com/files.d20.io/images/66352183/90UOrT-_Odg2WvvLbKOthw/thumb.png?1541422636",
        tokenMarkerName: "None", tokenMarkerURL: null, markerSize: 1.35, animateMarker: false,
        sortTurnOrder: true, centerToken: true,
      },
      announcements: { announceTurn: true, whisperToGM: false, announceRound: true, handleLongName: true, showNPCTurns: false },
    };
  }

  function cfg() {
    return state[KEY].config;
  }

  /** checkInstall and setDefaults (lines 4536-4543, 3749-4068): keep what is there, fill in what is missing */
  function checkInstall() {
    state[KEY] = state[KEY] || {};
    if (!state[KEY].config) state[KEY].config = {};
    var fresh = defaults();
    Object.keys(fresh).forEach(function (section) {
      var have = state[KEY].config[section];
      if (!have) state[KEY].config[section] = fresh[section];
      else Object.keys(fresh[section]).forEach(function (key) { if (!(key in have)) have[key] = fresh[section][key]; });
    });
    if (!state[KEY].conditions) state[KEY].conditions = [];
    log(version + " CombatMaster Ready! Command: !cmaster --main  [behavioural model]");
  }

  // -------------------------------------------------------------------------------------------
  // The order (getTurnorder, setTurnorder, addToTurnorder, sortTurnorder, lines 2084-2113)

  function readOrder() {
    var raw = Campaign().get("turnorder");
    return raw === "" ? [] : JSON.parse(raw);
  }

  function writeOrder(rows) {
    Campaign().set("turnorder", JSON.stringify(rows));
  }

  /** sortTurnorder (lines 2084-2092): highest pr first, pr compared as numbers (text that is no number ties) */
  function sortOrder() {
    writeOrder(readOrder().sort(function (a, b) { return b.pr - a.pr; }));
  }

  // -------------------------------------------------------------------------------------------
  // The round marker

  /** getCleanImgsrc (lines 1347-1353): the "thumb" size of a Roll20 image URL; a URL without a query gets a random one */
  function cleanImage(url) {
    var parts = url.match(/(.*\/images\/.*)(thumb|med|original|max)([^?]*)(\?[^?]+)?$/);
    if (!parts) return undefined;
    return parts[1] + "thumb" + parts[3] + (parts[4] ? parts[4] : "?" + Math.round(Math.random() * 9999999));
  }

  function markerImage() {
    var t = cfg().turnorder;
    return cleanImage(t.markerType === "External URL" ? t.externalMarkerURL : t.tokenMarkerURL);
  }

  /** getOrCreateMarker (lines 1810-1849): find, de-duplicate or create the marker; its row; sent to the back */
  function roundMarker() {
    var page = Campaign().get("playerpageid");
    var image = markerImage();
    var found = findObjs({ pageid: page, imgsrc: image });
    found.slice(1).forEach(function (extra) { extra.remove(); });
    var marker = found[0];
    if (!marker) {
      marker = createObj("graphic", {
        name: "Round 1", imgsrc: image, pageid: page, layer: "gmlayer", showplayers_name: true,
        left: 35, top: 35, width: 70, height: 70,
      });
    }
    ensureMarkerRow(marker);
    toBack(marker);
    return marker;
  }

  /** checkMarkerturn (lines 1851-1867): append the marker's row when the order lacks it */
  function ensureMarkerRow(marker) {
    var rows = readOrder();
    if (rows.some(function (row) { return row.id === marker.id; })) return;
    rows.push({ id: marker.id, pr: -1, custom: "", _pageid: marker.get("pageid") });
    writeOrder(rows);
  }

  /**
   * resetMarker (lines 1790-1808): the current row's token is not on the player page: the marker goes back to the GM
   * layer, in the corner, named for the round (its read-only pageid is also given, which changes nothing [I]).
   */
  function resetMarker() {
    var marker = roundMarker();
    marker.set({ name: "Round " + round, imgsrc: markerImage(), layer: "gmlayer", left: 35, top: 35, width: 70, height: 70 });
  }

  /**
   * changeMarker (lines 1875-1912): onto the current token, scaled by markerSize. A marker on the GM layer moves at once
   * and comes up to the token layer half a second later (if useMarker); one on another layer than the token's goes
   * down to the GM layer at once and moves half a second later.
   */
  function moveMarker(token) {
    var marker = roundMarker();
    var place = {
      top: token.get("top"), left: token.get("left"),
      width: token.get("width") * cfg().turnorder.markerSize, height: token.get("height") * cfg().turnorder.markerSize,
    };
    if (token.get("layer") !== marker.get("layer")) {
      if (marker.get("layer") === "gmlayer") {
        marker.set(place);
        setTimeout(function () { if (cfg().turnorder.useMarker) marker.set({ layer: "objects" }); }, 500);
      } else {
        marker.set({ layer: "gmlayer" });
        setTimeout(function () { marker.set(place); }, 500);
      }
    } else {
      marker.set(place);
    }
    toBack(marker);
  }

  /** removeMarkers (lines 1869-1873): the marker is deleted (its row, if any, stays) */
  function removeMarker() {
    roundMarker().remove();
  }

  // -------------------------------------------------------------------------------------------
  // Chat

  /** makeAndSendMenu (lines 2436-2440): a card, to everyone or whispered, kept out of the archive */
  function menu(contents, title, whisper) {
    var to = whisper && whisper !== "" ? "/w " + whisper + " " : "";
    sendChat("CombatMaster", to + "<div>" + (title === undefined ? "" : "<div>" + title + "</div>") + contents + "</div>", null, { noarchive: true });
  }

  /**
   * announcePlayer (lines 2300-2363): a card for a token that represents a character: to everyone for a player's
   * character (to the GM with whisperToGM), to the GM for a character nobody controls (to everyone with showNPCTurns);
   * it has "Done" (!cmaster --turn,next) and "Delay" (!cmaster --turn,delay) buttons. Long names are cut to their first
   * word, 8 characters at most (handleLongString, lines 3122-3125). (The conditions' durations it also counts down are
   * not modelled.)
   */
  function announcePlayer(token) {
    var character = getObj("character", token.get("represents"));
    if (!character || !cfg().announcements.announceTurn) return;
    var name = token.get("name");
    if (cfg().announcements.handleLongName) {
      name = name.split(" ")[0];
      if (name.length > 8) name = name.slice(0, 8) + "...";
    }
    var players = character.get("controlledby").split(",");
    var target = players[0] !== ""
      ? (cfg().announcements.whisperToGM ? "gm" : "")
      : (cfg().announcements.showNPCTurns ? "" : "gm");
    var title = 'Conditions<a href="!cmaster --turn,next">Done with Round</a><a href="!cmaster --turn,delay">Delay your Turn</a>';
    menu("<div>" + name + "'s Turn</div><div></div>", title, target);
  }

  function announceRound(marker) {
    if (cfg().announcements.announceRound) menu('<span style="font-weight: bold;">' + marker.get("name") + "</span>", " ");
  }

  // -------------------------------------------------------------------------------------------
  // Turns and rounds (lines 1978-2237)

  /** verifyTurnorder (lines 1983-1996): an empty order stops the combat */
  function orderIsThere() {
    if (readOrder().length > 0) return true;
    menu("The Turnorder is empty.  Combat not started", null, "gm");
    stopCombat();
    return false;
  }

  /** doRoundCalls (lines 2584-2625): the per-round macros and API calls (none by default, not modelled) */
  function roundCalls() {
    if (!orderIsThere()) return;
    roundMarker();
  }

  /**
   * doTurnorderChange (lines 1998-2062), run for every turn change: the marker and its row are made sure of first;
   * then a custom row on top is passed at once (a rotation through the API: no event), the marker's row on top begins
   * the next round (or goes back one, going backwards), and a token of the player page has its turn: brought to front,
   * the marker moved onto it, its card sent (a token elsewhere, or missing, keeps the turn and the marker is reset).
   */
  function turnChanged(backwards) {
    if (!orderIsThere()) return;
    var turn = readOrder()[0];
    var marker = roundMarker();
    var token = findObjs({ _id: turn.id, _pageid: Campaign().get("playerpageid"), _type: "graphic" })[0];
    if (turn.id === "-1") {
      roundCalls();
      nextTurn();
      return;
    }
    if (turn.id === marker.id) {
      if (backwards) prevRound();
      else nextRound();
      return;
    }
    if (token) {
      toFront(token);
      moveMarker(token);
      announcePlayer(token);
    } else {
      resetMarker();
    }
  }

  /** nextTurn (lines 2149-2161): the top row to the end, then the turn change */
  function nextTurn() {
    var rows = readOrder();
    rows.push(rows.shift());
    writeOrder(rows);
    turnChanged(false);
  }

  /** previousTurn (lines 2163-2170): the last row to the top, then the turn change, backwards */
  function previousTurn() {
    var rows = readOrder();
    rows.unshift(rows.pop());
    writeOrder(rows);
    turnChanged(true);
  }

  /**
   * nextRound (lines 2172-2201): the count goes up, the marker is renamed "Round N" and announced; then the order
   * rotates past the marker (the next token's turn begins) and is re-sorted; or, with rollEachRound, it is emptied,
   * the marker's row put back, every token of the old order rolled again (custom rows are lost) and the top played.
   */
  function nextRound() {
    var marker = roundMarker();
    round += 1;
    marker.set({ name: "Round " + round });
    announceRound(marker);
    if (cfg().initiative.rollEachRound) {
      var rows = readOrder();
      Campaign().set({ turnorder: "" });
      ensureMarkerRow(marker);
      rollInitiative(rows.map(function (row) { return { _type: "graphic", _id: row.id }; }), cfg().initiative);
      turnChanged(false);
    } else {
      nextTurn();
      if (cfg().turnorder.sortTurnOrder) sortOrder();
    }
  }

  /** prevRound (lines 2226-2237): the count goes down, the marker is renamed and announced, the order goes back one */
  function prevRound() {
    var marker = roundMarker();
    round -= 1;
    marker.set({ name: "Round " + round });
    if (cfg().announcements.announceRound) menu('<span style="font-weight: bold;">' + marker.get("name") + "</span>");
    previousTurn();
  }

  /**
   * delayTurn (lines 2117-2147): the current row swaps with the next one, which then has its turn; when the next row is
   * the marker, the round begins first (as nextRound does) and the delayed row is put second in the new round.
   */
  function delayTurn() {
    var rows = readOrder();
    var current = rows.shift();
    // The row after the current one, read from the stored order (getVeryNextTurn, lines 2218-2224): with a single row
    // there is none, and reading its id throws, as in the script
    var veryNext = readOrder()[1];
    if (veryNext.id === roundMarker().id) {
      writeOrder(rows);
      nextRound();
      var after = readOrder();
      var first = after.shift();
      writeOrder([first, current].concat(after));
      return;
    }
    var next = rows.shift();
    writeOrder([next, current].concat(rows));
    turnChanged(false);
  }

  /** handleTurnorderChange (lines 2064-2082), bound to change:campaign:turnorder */
  function handleTurnorderChange(obj, prev) {
    var raw = obj.get("turnorder");
    if (raw === prev.turnorder) return;
    var now = raw === "" ? [] : JSON.parse(raw);
    var before = prev.turnorder === "" ? [] : JSON.parse(prev.turnorder);
    // The script compares the new value with [] by ==, which holds only for "": emptying the order stops the combat
    if (raw === "") {
      stopCombat();
      return;
    }
    if (now.length && before.length && now[0].id !== before[0].id) turnChanged(false);
  }

  // -------------------------------------------------------------------------------------------
  // Combat: start, stop, hold (lines 1461-1684)

  /**
   * rollInitiative (lines 1610-1672): for each selected token that represents a character, a die (initiativeDie) plus
   * the sum of its initiativeAttributes (parseFloat, so a missing one gives NaN); when the sheet has initiative_style,
   * two more dice are rolled and, for "{@{d20},@{d20}}kh1", the higher one counts. Each token's row is APPENDED (a token
   * already in the order gets a second row); then the order is sorted when sortTurnOrder is on.
   */
  function rollInitiative(selected, initiative) {
    selected.forEach(function (ref) {
      if (!ref || ref._type !== "graphic") return;
      var token = getObj("graphic", ref._id);
      if (!token) return;
      var character = getObj("character", token.get("represents"));
      if (!character) return;
      var die = initiative.initiativeDie;
      var roll = die ? randomInteger(die) : 0;
      var bonus = 0;
      initiative.initiativeAttributes.split(",").forEach(function (name) {
        bonus += parseFloat(getAttrByName(character.id, name, "current"));
      });
      var style = getAttrByName(character.id, "initiative_style", "current");
      if (typeof style !== "undefined") {
        var first = die ? randomInteger(die) : 0;
        var second = die ? randomInteger(die) : 0;
        if (style === "{@{d20},@{d20}}kh1") roll = Math.max(first, second);
        else if (initiative.showInitiative) roll = first;
      }
      var total = bonus + roll;
      var rows = readOrder();
      rows.push({ id: token.id, pr: Number.isInteger(total) ? total : total.toFixed(2), custom: "", _pageid: token.get("pageid") });
      writeOrder(rows);
    });
    if (cfg().turnorder.sortTurnOrder) sortOrder();
  }

  /** rollGroupInit (lines 1674-1683): GroupInitiative rolls for the selected tokens, when it is installed */
  function rollGroupInit(selected) {
    if (typeof GroupInitiative !== "undefined" && GroupInitiative.RollForTokenIDs) {
      GroupInitiative.RollForTokenIDs((selected || []).map(function (ref) { return ref._id; }), { manualBonus: 0 });
    }
  }

  /**
   * startCombat (lines 1500-1534) with verifySetup (lines 1461-1498): tokens must be selected (unless a combat is held);
   * the tracker opens on the player page (a script's write: no event); a held combat comes back, or initiative is
   * rolled; two seconds later the first turn is played (its round calls, then a turn change).
   */
  function startCombat(selected) {
    var initiative = cfg().initiative;
    var hold = cfg().hold;
    if ((!selected || selected.length === 0) && !hold.held) {
      menu("No tokens selected.  Combat not started", " ");
      return;
    }
    if (initiative.rollInitiative === "None" && readOrder().length === 0) {
      menu("Auto Roll Initiative has been set to None and your turn order is currently empty", " ");
      if (!hold.held) return;
    } else if (initiative.rollInitiative === "CombatMaster" && !hold.held) {
      selected.forEach(function (ref) {
        var token = ref._type === "graphic" ? getObj("graphic", ref._id) : null;
        if (token && !getObj("character", token.get("represents"))) menu("A token was found not assigned to a character sheet", " ");
      });
    }
    Campaign().set("initiativepage", Campaign().get("playerpageid"));
    if (hold.held) {
      restartCombat(hold);
    } else if (initiative.rollInitiative === "CombatMaster") {
      rollInitiative(selected, initiative);
    } else if (initiative.rollInitiative === "Group-Init") {
      rollGroupInit(selected);
    }
    setTimeout(function () {
      roundCalls();
      turnChanged(false);
    }, 2000);
  }

  /** restartCombat (lines 1536-1549): the held order and round come back; the hold is cleared two seconds later */
  function restartCombat(hold) {
    round = hold.round;
    writeOrder(hold.turnorder);
    state[KEY].conditions = hold.conditions;
    setTimeout(function () { clearHold(hold); }, 2000);
  }

  /** clearHold (lines 1599-1608) */
  function clearHold(hold) {
    hold.held = false;
    hold.round = 1;
    hold.turnorder = [];
    hold.conditions = [];
  }

  /** stopCombat (lines 1551-1577): the marker is deleted, the order emptied (""), the tracker closed, the count reset */
  function stopCombat() {
    clearHold(cfg().hold);
    removeMarker();
    Campaign().set({ initiativepage: false, turnorder: "" });
    round = 1;
    setTimeout(function () { state[KEY].conditions = []; }, 2000);
  }

  /** holdCombat (lines 1579-1597): the order and the round are kept in state; the order is emptied, the tracker closed */
  function holdCombat() {
    var hold = cfg().hold;
    hold.held = true;
    hold.turnorder = readOrder();
    hold.round = round;
    hold.conditions = state[KEY].conditions.slice();
    Campaign().set({ initiativepage: false, turnorder: "" });
    setTimeout(function () { state[KEY].conditions = []; }, 2000);
  }

  // -------------------------------------------------------------------------------------------
  // Commands (inputHandler, cmdExtract and commandHandler, lines 107-440)

  /** "turn,next" -> {action: "turn", details: {next: "next"}}; "config,turnorder,key=K,value=V" -> details.key, value */
  function parseCommand(text) {
    var action = (text.match(/turn|show|config|back|reset|main|remove|add|new|delete|import|export|help|spell|ignore|clear/) || [])[0];
    var details = {};
    text.replace(action + ",", "").split(",").forEach(function (part) {
      var pair = part.match(/^([^:=]*)[:=]([^,]+)$/);
      if (!pair) {
        details[part] = part;
        return;
      }
      details[pair[1]] = pair[2] === "true" ? true : pair[2] === "false" ? false : pair[2];
    });
    return { action: action, details: details };
  }

  function runCommand(command, msg) {
    var d = command.details;
    if (command.action === "turn") {
      if (d.next) nextTurn();
      if (d.delay) delayTurn();
      if (d.previous) previousTurn();
      if (d.start) startCombat(msg.selected);
      if (d.stop) stopCombat();
      if (d.hold) holdCombat();
      if (d.sort) sortOrder();
    } else if (command.action === "config") {
      ["initiative", "turnorder", "announcements"].some(function (section) {
        if (!d[section]) return false;
        cfg()[section][d.key] = d.value;
        return true;
      });
    }
    // main, show and the other menus, conditions, spells, import and export: not modelled
  }

  /** inputHandler (lines 107-172): any message that starts with !cmaster, each " --" part a command */
  function handleInput(msg) {
    if (msg.content.indexOf("!cmaster") !== 0) return;
    if (playerIsGM(msg.playerid)) cfg().gmPlayerID = msg.playerid;
    else getObj("player", msg.playerid).get("displayname"); // who: throws for a sender that is no player (line 140)
    var content = msg.content;
    (msg.inlinerolls || []).forEach(function (roll, i) { content = content.replace("$[[" + i + "]]", roll.results.total || 0); });
    if (content.indexOf("import") >= 0) return;
    var parts = content.split(/\s+--/);
    if (parts[0] !== "!cmaster") return;
    parts.slice(1).forEach(function (part) { runCommand(parseCommand(part), msg); });
  }

  function registerEventHandlers() {
    on("chat:message", handleInput);
    on("change:campaign:turnorder", handleTurnorderChange);
  }

  return {
    CheckInstall: checkInstall,
    RegisterEventHandlers: registerEventHandlers,
  };
}());

on("ready", function () {
  "use strict";
  CombatMaster.CheckInstall();
  CombatMaster.RegisterEventHandlers();
});
