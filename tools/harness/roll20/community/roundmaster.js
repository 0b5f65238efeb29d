// A behavioural model of RoundMaster, for ambush's emulated Roll20 sandbox (tests only; never shipped).
//
// Models: RoundMaster by Ken L. & Richard @ Damery (RPGMaster suite), in Roll20/roll20-api-scripts at commit 9d634d31,
// files `RoundMaster/5.052/RoundMaster.js` (version 5.052) and `RoundMaster/5.067/RoundMaster.js` (whose own version line
// says 5.066). Written in our own words from reading those files: none of their code is copied. Line numbers are those
// of 5.052 unless said otherwise. Marks: [I] inferred, [U] not verified (as in docs/dev/roll20.md). Only the turn order,
// the round, the statuses' countdown and markers, and the chat that goes with them are modelled.
//
// The two versions act alike on the turn order (handleAdvanceTurn, prepareTurnorder, doClearTurnorder, doAddToTracker
// and the status functions are the same text but for one guard). They differ in how a !rounds command runs: 5.052 runs
// each " --" part at once (handleChatMessage, lines 6035-6245); 5.067 runs each part in a timer of its own, 1 ms, 2 ms...
// after the message (handleChatMessage, 5.067 lines 7440-7510). Load the model as "roundmaster" (5.067) or
// "roundmaster@5.052" (sb.loadCommunity).
//
// What a GM gets (flags, lines 567-587: script variables, not in state, so a restart brings the defaults back):
//   the tracker STOPPED             until `!rounds --start`: no turn change is handled (handleAdvanceTurn, line 2647)
//   clearonnewround true            at a new round the order is emptied but for the round row, and InitMaster is asked
//                                   to let everyone roll again (`!rounds --clearonround on|off`)
//   newRoundSort NUMASCEND          the order sorted lowest pr first as a round begins (AD&D: low goes first)
//                                   (`!rounds --sortorder ascending|descending|nosort`)
//   canUseInitMaster true           the round number is sent to InitMaster: `!init --isRound N --init ||rounds`
//
// The round row (prepareTurnorder, lines 1598-1648; isTracker, lines 2476-2483): a CUSTOM row {id: "-1", pr: "-100",
// custom: "Round N"}, put at the end when the order has none: on ready (init, line 1276), when the tracker opens, after
// every row added with --addtotracker. Its label carries the tracker's state in front (updateTurnorderMarker, lines
// 1811-1855): "⏵ " running, "⏸ " paused, "⏹ " stopped. A row is the round row when its id is -1, its pr -100 and its
// label holds "Round <digits>".
//
// Handlers, bound on ready in this order (registerAPI, lines 6539-6550): chat:message, change:campaign:turnorder,
// change:campaign:initiativepage. (Also bound and not modelled: the player page, graphic moves and names, a token
// marked dead, a token deleted; the sandbox fires none of them.)
//
// How it learns of a turn change: only from change:campaign:turnorder (a person's change; handleChangeCampaignTurnorder,
// lines 6268-6276) and from its own `!eot` (doPlayerAdvanceTurn, lines 4926-4943), which it honours only for a
// controller of the top row's token or a GM: a script's message (playerid "API") is neither, so another script cannot
// pass a turn through it. It offers no observer and exports nothing but init and registerAPI (lines 6552-6555).
//
// Not modelled: the tracker graphic that follows the current token and its animation, the "viewer" player, effect
// macros (an Effects-DB ability run as a status starts, turns and ends: sendAPImacro), areas of effect, favourites,
// the menus and help, the ChatSetAttr round counter (only with an "Initiative" character), `!init --clearmarkers`'s
// effect in InitMaster (the message itself is sent).

var RoundMaster = (function () {
  "use strict";

  // eslint-disable-next-line no-undef
  var version = typeof CommunityModelVersion === "string" && CommunityModelVersion === "5.052" ? "5.052" : "5.067";
  var ACTIVE = "active", PAUSED = "paused", STOPPED = "stopped";
  var INDICATOR = { active: "\u23F5 ", paused: "\u23F8 ", stopped: "\u23F9 " };
  var flags = { state: STOPPED, clearonnewround: true, sort: "ascending", canUseInitMaster: true };

  // -------------------------------------------------------------------------------------------
  // Chat (sendPublic, sendFeedback, sendRmAPI: lines 5787-5880)

  /** sendPublic: a description card for everyone (/desc), kept out of the archive */
  function sendPublic(html) {
    sendChat("", "/desc " + html, null, { noarchive: true, use3d: false });
  }

  /** sendFeedback: a whisper to the GM, as "RoundMaster" */
  function sendFeedback(html) {
    sendChat("RoundMaster", "/w GM " + html, null, { noarchive: true, use3d: false });
  }

  /** sendRmAPI: an API command to the other RPGMaster scripts */
  function sendApi(command) {
    sendChat("", command, null, { noarchive: true, use3d: false });
  }

  // -------------------------------------------------------------------------------------------
  // The order

  function readOrder() {
    var raw = Campaign().get("turnorder");
    return raw ? JSON.parse(raw) : [];
  }

  /** storeTurnorder (lines 1315-1326): every token row gets its token's page, then the order is written */
  function writeOrder(rows) {
    rows.forEach(function (row) {
      var token = getObj("graphic", row.id);
      if (token) row._pageid = token.get("pageid");
    });
    Campaign().set("turnorder", JSON.stringify(rows));
  }

  function isRoundRow(row) {
    return Boolean(row) && parseInt(row.id, 10) === -1 && parseInt(row.pr, 10) === -100 && /Round\s*\d+/.test(row.custom);
  }

  function roundOf(row) {
    return parseInt(row.custom.slice(row.custom.indexOf("Round")).match(/\d+/)[0], 10);
  }

  /** The sort a new round applies (newRoundSort inside handleAdvanceTurn, lines 2654-2666): pr compared by parseInt */
  function sorted(rows) {
    if (flags.sort === "ascending") return rows.sort(function (a, b) { return parseInt(a.pr, 10) - parseInt(b.pr, 10); });
    if (flags.sort === "descending") return rows.sort(function (a, b) { return parseInt(b.pr, 10) - parseInt(a.pr, 10); });
    return rows;
  }

  /** updateTurnorderMarker (lines 1811-1855): the round row's label shows the tracker's state; the round is kept */
  function showState(rows) {
    var row = rows.filter(isRoundRow)[0];
    if (row) {
      state.roundMaster.round = roundOf(row);
      row.custom = INDICATOR[flags.state] + "Round " + state.roundMaster.round;
    }
    writeOrder(rows);
  }

  /** prepareTurnorder (lines 1598-1648): a round row at the end when there is none, "Round 1"; else InitMaster is told the round */
  function prepare(rows) {
    rows = rows || readOrder();
    var row = rows.filter(isRoundRow)[0];
    if (row) {
      if (flags.canUseInitMaster) sendApi("!init --isRound " + roundOf(row));
    } else {
      rows.push({ id: "-1", pr: "-100", custom: "Round 1" });
      if (!state.roundMaster.round) state.roundMaster.round = 1;
      showState(rows);
    }
    return rows;
  }

  // -------------------------------------------------------------------------------------------
  // Statuses (doAddStatus lines 3062-3228, updateStatusDisplay 1659-1705, updateGlobalStatus 1711-1745,
  // updateAllTokenMarkers 1747-1806)

  /** Is a token's character controlled by a player who is not a GM (isPlayerControlled, lines 1351-1375) */
  function isPlayerControlled(token) {
    var character = getObj("character", token.get("represents"));
    if (!character || !character.get("controlledby")) return false;
    return character.get("controlledby").split(",").some(function (id) {
      return Boolean(getObj("player", id)) && !playerIsGM(id);
    });
  }

  /** The statuses in play, by name: {name, marker (a tag), refc (how many tokens carry it)} */
  function statusNamed(name) {
    return state.roundMaster.statuses.filter(function (status) { return status.name === name; })[0];
  }

  function countStatus(name, marker, change) {
    var status = statusNamed(name);
    if (!status) {
      state.roundMaster.statuses.push({ name: name, marker: marker, tag: marker, refc: change });
      return undefined;
    }
    status.refc += change;
    if (status.refc <= 0) state.roundMaster.statuses = state.roundMaster.statuses.filter(function (s) { return s !== status; });
    return status;
  }

  /**
   * updateAllTokenMarkers: for every token with statuses, a status just gone loses its marker; then each status's
   * marker is taken off and put on again, with its rounds left as a badge for a player's token (1 to 9, counting) and
   * without one for others (libTokenMarkers removeFrom, applyWithNumberTo: token.set("status_<tag>", ...)).
   */
  function refreshMarkers(gone) {
    Object.keys(state.roundMaster.effects).forEach(function (id) {
      var token = getObj("graphic", id);
      if (!token) return;
      var effects = (state.roundMaster.effects[id] || []).slice().sort(function (a, b) { return b.duration - a.duration; });
      (gone || []).forEach(function (status) {
        if (status && !effects.some(function (e) { return e.name === status.name; })) token.set("status_" + status.tag, false);
      });
      effects.forEach(function (effect) {
        var status = statusNamed(effect.name);
        if (!status || !status.tag) return;
        token.set("status_" + status.tag, false);
        var counted = isPlayerControlled(token) && effect.duration > 0 && effect.duration <= 9 && effect.direction !== 0;
        token.set("status_" + status.tag, counted ? effect.duration : true);
      });
    });
  }

  /**
   * updateStatusDisplay(token, isTurn): at the token's turn, each status not yet counted this round moves on by its
   * direction once per round passed; one that reaches 0 ends, and its marker goes.
   */
  function countDown(token, isTurn) {
    var effects = state.roundMaster.effects[token.id];
    if (!effects || !effects.length) return;
    var gone = [];
    effects.forEach(function (effect) {
      if (isTurn && effect.round !== state.roundMaster.round) {
        var change = Math.max(state.roundMaster.round - effect.round, 0);
        effect.duration += effect.direction * change;
        effect.round = state.roundMaster.round;
      }
    });
    state.roundMaster.effects[token.id] = effects.filter(function (effect) {
      if (effect.duration > 0) return true;
      gone.push(countStatus(effect.name, undefined, -1));
      return false;
    });
    refreshMarkers(gone);
  }

  /** --addstatus name|duration|direction|message|marker (GM, the selected tokens; doAddStatus, lines 3062-3228) */
  function addStatus(args, selected) {
    var name = (args[0] || "").trim().toLowerCase();
    var duration = parseInt(args[1], 10);
    var direction = parseInt(args[2], 10);
    var marker = (args[4] || "").trim().toLowerCase();
    if (!name || isNaN(duration) || isNaN(direction)) return;
    (selected || []).forEach(function (ref) {
      var token = getObj("graphic", ref._id);
      if (!token) return;
      var effects = state.roundMaster.effects[token.id] || (state.roundMaster.effects[token.id] = []);
      var same = effects.filter(function (e) { return e.name === name; })[0];
      if (same) {
        same.duration = duration;
        same.direction = direction;
        return;
      }
      effects.push({ name: name, duration: duration, direction: direction, round: state.roundMaster.round, msg: args[3] || "" });
      countStatus(name, marker, 1);
    });
    var status = statusNamed(name);
    if (status && !status.marker && marker) {
      status.marker = marker;
      status.tag = marker;
    }
    refreshMarkers();
    sendFeedback("<div>Add Status: " + name + ", duration " + duration + "</div>");
  }

  // -------------------------------------------------------------------------------------------
  // Turns and rounds

  /** makeRoundDisplay and announceRound (lines 2115-2124, 2544-2549) */
  function announceRound(round) {
    sendPublic('<div style="text-align: center;">Round ' + round + "</div>");
  }

  /**
   * announceTurn and makeTurnDisplay (lines 2129-2210, 2554-2568), in a 0 ms timer: "It is <name>'s turn" for everyone,
   * the name only when players may see it (showplayers_name), with what the row says the token does; for a token no
   * player controls, the same card with the name to the GM too.
   */
  function announceTurn(token, action) {
    var card = function (named) {
      var name = named || token.get("showplayers_name") ? token.get("name") : "";
      return "<div>" + (name ? "It is " + name + "'s turn " + (action || "") : "Turn") + "</div>";
    };
    setTimeout(function () {
      sendPublic(card(false));
      if (!isPlayerControlled(token)) sendFeedback(card(true));
    }, 0);
  }

  /**
   * doClearTurnorder (lines 4947-5010): InitMaster is asked to let each token of the order roll again
   * (`!init --redo <id>|silent`, one command), the order is emptied, the round row put back with its round, and
   * InitMaster told the round (doResetTurnorder, lines 4330-4378)
   */
  function clearOrder() {
    var rows = readOrder();
    var row = rows.filter(isRoundRow)[0];
    if (!row) return;
    var round = roundOf(row);
    var redo = rows.filter(function (r) { return parseInt(r.id, 10) !== -1; }).map(function (r) { return " --redo " + r.id + "|silent"; });
    if (redo.length) sendApi("!init" + redo.join(""));
    Campaign().set("turnorder", "");
    var fresh = prepare([]);
    fresh.filter(isRoundRow)[0].custom = "Round " + round;
    showState(fresh);
    state.roundMaster.round = round;
    if (flags.canUseInitMaster) sendApi("!init --isRound " + round + "|true");
    Object.keys(state.roundMaster.effects).forEach(function (id) {
      var token = getObj("graphic", id);
      if (token) countDown(token, false);
    });
  }

  /**
   * handleAdvanceTurn (lines 2646-2817), given the order and the one before it: nothing while the tracker is stopped or
   * paused. The round row on top (and not on top before) begins a round: the count goes up, the row is renamed and
   * announced, taken off the top, every token's statuses count down, the row goes to the end, InitMaster is told the
   * round, and with clearonnewround the order is emptied at the end (else sorted). Coming off the round row, the order
   * but the last row is sorted. Then, unless a round began, a token row on top gets its turn: its statuses count down
   * and its turn is announced (at every change handled, the top changed or not, line 2806). The order is written back.
   */
  function advance(rows, before) {
    if (flags.state !== ACTIVE || !rows || !before) return;
    var current = rows[0];
    var newRound = false;
    if (!current) return;
    if (rows.length > 1 && isRoundRow(current)) {
      // An empty order before makes the script throw on before[0] (line 2680); the error is caught and reported [I]
      if (!before.length || isRoundRow(before[0])) return;
      var round = roundOf(current) + 1;
      current.custom = current.custom.slice(0, current.custom.indexOf("Round")) + "Round " + round;
      announceRound(round);
      rows.shift();
      newRound = flags.clearonnewround;
      if (!newRound) rows = sorted(rows);
      Object.keys(state.roundMaster.effects).forEach(function (id) {
        var token = getObj("graphic", id);
        if (token) countDown(token, true);
      });
      rows.push(current);
      current = rows[0];
      showState(rows);
      state.roundMaster.round = round;
      if (flags.canUseInitMaster) sendApi("!init --isRound " + round + " --init ||rounds");
    } else if (rows.length > 1 && before.length && isRoundRow(before[0])) {
      var last = rows.pop();
      rows = sorted(rows);
      rows.push(last);
      showState(rows);
      current = rows[0];
    }
    // A custom row's id is the text "-1", which the script compares with the number -1 (line 2757): so it looks the row
    // up as a token, finds none and announces nothing.
    if (!newRound && current.id !== -1) {
      var token = getObj("graphic", current.id);
      if (token) {
        countDown(token, true);
        announceTurn(token, current.custom);
      }
    }
    writeOrder(rows);
    if (newRound) clearOrder();
  }

  /** handleChangeCampaignTurnorder (lines 6268-6276): InitMaster clears its markers; the change is handled */
  function onTurnorder(obj, prev) {
    sendApi("!init --clearmarkers");
    advance(JSON.parse(obj.get("turnorder") || "null"), JSON.parse(prev.turnorder || "null"));
  }

  /** handleChangeCampaignInitativepage (lines 6278-6291): the tracker opened: the round row is made sure of */
  function onTracker(obj) {
    if (obj.get("initiativepage")) prepare();
  }

  /** doPlayerAdvanceTurn, !eot (lines 4926-4943): the top row's token's controller, or a GM, passes the turn */
  function endOfTurn(playerid) {
    if (!playerid || flags.state !== ACTIVE) return;
    var rows = readOrder();
    if (!rows.length) return;
    var token = getObj("graphic", rows[0].id);
    if (!token || !isTokenController(token, playerid)) return;
    var before = JSON.parse(JSON.stringify(rows));
    rows.push(rows.shift());
    advance(rows, before);
  }

  /** isTokenController (lines 4488-4502): a GM, or in the token's or its character's controlledby */
  function isTokenController(token, playerid) {
    if (playerIsGM(playerid)) return true;
    if (token.get("controlledby").split(",").indexOf(playerid) >= 0) return true;
    var character = getObj("character", token.get("represents"));
    return Boolean(character) && character.get("controlledby").split(",").indexOf(playerid) >= 0;
  }

  /**
   * --addtotracker name|tokenId|priority|qualifier|message (doAddToTracker, lines 5042-5148): with the qualifier "last"
   * the rows of that token (or, for a custom row, whose label matches the name) are dropped and one row is put at the
   * end, {id, pr, custom}: a custom row's label is the name, a token row's the message. Then the round row is made sure
   * of and the order written.
   */
  function addToTracker(args) {
    var name = args[0];
    var id = args[1];
    var text = args[2] || "";
    var pr = parseInt(text.charAt(0) === "=" ? text.slice(1) : text, 10);
    var qualifier = (args[3] || "0").toLowerCase();
    if (isNaN(pr) || ["first", "last", "smallest", "largest", "all", "0"].indexOf(qualifier) < 0) return;
    var rows = readOrder();
    if (qualifier !== "all" && qualifier !== "0") {
      rows = rows.filter(function (row) {
        if (parseInt(row.id, 10) === -1) return !new RegExp(name, "").test(row.custom);
        return parseInt(id, 10) === -1 || row.id !== id;
      });
    }
    rows.push({ id: id, pr: pr, custom: parseInt(id, 10) !== -1 ? args[4] || "" : name });
    showState(prepare(rows));
  }

  /** --removefromtracker name|tokenId|retain (doRemoveFromTracker, lines 5221-5290): the token's rows go */
  function removeFromTracker(args) {
    var id = args[1];
    showState(readOrder().filter(function (row) { return row.id !== id; }));
  }

  /** doStartTracker (lines 4836-4872): a toggle; running, it makes sure of the round row and shows "⏵" */
  function start(args) {
    if ((args[0] || "").toLowerCase() !== "always" && flags.state === ACTIVE) {
      flags.state = PAUSED;
      showState(readOrder());
      return;
    }
    flags.state = ACTIVE;
    prepare();
    showState(readOrder());
  }

  /** One " --" part of a !rounds command (execCmd; the cases of lines 6049-6240) */
  function run(part, selected, isGM) {
    var space = part.indexOf(" ");
    var command = (space < 0 ? part : part.slice(0, space)).trim().toLowerCase();
    var args = (space < 0 ? "" : part.slice(space + 1).trim()).split("|");
    if (command === "start" && isGM) start(args);
    else if (command === "pause" && isGM) {
      flags.state = PAUSED;
      showState(readOrder());
    } else if (command === "stop" && isGM) {
      flags.state = STOPPED;
      showState(readOrder());
    } else if (command === "addtotracker") addToTracker(args);
    else if (command === "removefromtracker") removeFromTracker(args);
    else if (command === "addstatus" && isGM) addStatus(args, selected);
    else if (command === "clearonround" && isGM) flags.clearonnewround = (args[0] || "").toLowerCase() !== "off";
    else if (command === "sortorder" && isGM) flags.sort = (args[0] || "").toLowerCase();
    // the other commands: not modelled
  }

  /**
   * handleChatMessage: `!eot` first (for anyone it applies to); then `!rounds` (or `!tj`), each " --" part a command.
   * A sender who is no player (a script's message) is taken for the GM (findTheGM, lines 6027-6036).
   */
  function onChat(msg) {
    if (msg.type !== "api") return;
    if (msg.content.indexOf("!eot") === 0) {
      endOfTurn(msg.playerid);
      return;
    }
    if (msg.content.indexOf("!rounds") !== 0 && msg.content.indexOf("!tj") !== 0) return;
    var isGM = playerIsGM(msg.playerid) || !getObj("player", msg.playerid);
    var parts = msg.content.split(" --").slice(1);
    parts.forEach(function (part, index) {
      if (version === "5.052") run(part, msg.selected, isGM);
      else setTimeout(function () { run(part, msg.selected, isGM); }, index + 1);
    });
  }

  /** init (lines 1232-1284): the state's parts, the round row made sure of and its label updated */
  function init() {
    state.roundMaster = state.roundMaster || {};
    ["effects", "favs"].forEach(function (key) { state.roundMaster[key] = state.roundMaster[key] || {}; });
    state.roundMaster.statuses = state.roundMaster.statuses || [];
    if (!state.roundMaster.round) state.roundMaster.round = 1;
    showState(prepare());
    log("-=> RoundMaster v" + version + " <=-  [behavioural model]");
  }

  function registerAPI() {
    on("chat:message", onChat);
    on("change:campaign:turnorder", onTurnorder);
    on("change:campaign:initiativepage", onTracker);
  }

  return { init: init, registerAPI: registerAPI };
}());

on("ready", function () {
  "use strict";
  RoundMaster.init();
  RoundMaster.registerAPI();
});
