// A behavioural model of TurnMarker1, for ambush's emulated Roll20 sandbox (tests only; never shipped).
//
// Models: TurnMarker1 1.3.12 by The Aaron, in Roll20/roll20-api-scripts at commit 9d634d31, file
// `TurnMarker1/TurnMarker1.js` (the same text as `TurnMarker1/1.3.12/TurnMarker1.js`). Written in our own words from
// reading that file: none of its code is copied. Line numbers below are that file's. Marks: [I] inferred, [U] not
// verified (as in docs/dev/roll20.md). Only what touches the turn order, and the chat that goes with it, is modelled.
//
// What a GM gets (checkInstall, lines 41-90; defaults, lines 56-80), kept in state.TurnMarker as the script does, so a
// test changes a setting by writing it there after ready, or with the GM's command:
//   autoskipHidden true        after a turn change, rotate at once past rows whose token is missing or on the GM
//                              layer (!tm toggle-skip-hidden)                                  changes the order
//   announceRounds true        a "Round N" card for everyone when the marker comes round (!tm toggle-announce)
//   announceTurnChange true    a card for everyone at each turn change (!tm toggle-announce-turn)
//   announcePlayerInTurnAnnounce true   the controlling players' names in that card (!tm toggle-announce-player)
//   tokenName "Round", tokenURL (the marker's image)                 the marker's name prefix and how it is found
//   (playAnimations, rotation, auras, scale, autoPull: animation, size and pings, not modelled)
//
// The marker (getMarker, lines 309-341): a graphic with the tokenURL image on the player page (Campaign playerpageid),
// created when none is found, named "Round 0", on the GM layer, round count in bar2_value. Its row is a TOKEN row,
// {id: marker id, pr: -1, custom: "", _pageid}, appended to the end of the order whenever it is missing: getMarker
// runs on ready, on every turn change and from the GroupInitiative hook, so the row comes back if a GM deletes it.
// The script recognises its round row by that id (the graphic found by image on the player page), nothing else.
//
// Handlers (registerEventHandlers, lines 768-776; bound on ready, lines 787-792, in this order):
//   change:campaign:initiativepage -> dispatchInitiativePage; change:campaign:turnorder -> handleTurnOrderChange;
//   destroy:graphic -> handleDestroyGraphic; chat:message -> handleInput; then dispatchInitiativePage() at once.
//   (change:graphic:lastmove -> checkForTokenMove, lines 367-386, moves the marker with the current token: not modelled,
//   and the sandbox fires no such event.)
//
// Not modelled: animations (stepAnimation, lines 343-366), pings (ping-target and autoPull, lines 172-212, 527-534),
// the help card (lines 92-141), Mark.Reset() called after each rotation when a script named Mark is installed (lines
// 808-810, 814-816), the 1.16 schema migration (lines 47-49), the marker's aura, rotation and bar1 resets.
//
// [U] getObj: the script treats a row as hidden when `getObj("graphic", id)` is `undefined` (NextVisible, line 824).
// Roll20's own type definitions (.types/index.d.ts) say getObj returns null for a missing object, and then line 825
// would throw on a custom row or a deleted token's row met while skipping GM-layer rows. The model follows the
// script's evident intent (a missing token is skipped), which is what happens if Roll20 returns undefined.

/* global GroupInitiative */
var TurnMarker = TurnMarker || (function () {
  "use strict";

  var version = "1.3.12";
  var schemaVersion = 1.18;
  // True while the tracker is open (startMarker); !eot and !pot work only then (lines 388, 409)
  var active = false;

  /** A fresh state.TurnMarker (lines 56-80) */
  function freshSettings() {
    return {
      version: schemaVersion,
      announceRounds: true,
      announceTurnChange: true,
      announcePlayerInTurnAnnounce: true,
      announcePlayerInTurnAnnounceSize: "100%",
      autoPull: "none",
      autoskipHidden: true,
      tokenName: "Round",
      tokenURL: "https://s3.amazonaws.com/files.d20.io/images/4095816/086YSl3v0Kz3SlDAu245Vg/thumb.png?1400535580",
      playAnimations: false,
      rotation: false,
      animationSpeed: 5,
      scale: 1.7,
      aura1: { pulse: false, size: 5, color: "#ff00ff" },
      aura2: { pulse: false, size: 5, color: "#00ff00" },
    };
  }

  function settings() {
    return state.TurnMarker;
  }

  /**
   * checkInstall (lines 41-90): a state of another schema is replaced by the defaults; an empty order ("") becomes "[]";
   * the script asks GroupInitiative to call it after each of its turn order changes.
   */
  function checkInstall() {
    log("-=> TurnMarker v" + version + " <=-  [behavioural model]");
    if (!state.TurnMarker || state.TurnMarker.version !== schemaVersion) state.TurnMarker = freshSettings();
    if (Campaign().get("turnorder") === "") Campaign().set("turnorder", "[]");
    if (typeof GroupInitiative !== "undefined" && GroupInitiative.ObserveTurnOrderChange) {
      GroupInitiative.ObserveTurnOrderChange(handleExternalTurnOrderChange);
    }
  }

  // -------------------------------------------------------------------------------------------
  // The marker and its row

  /** getMarker (lines 309-341): find or make the marker graphic, and make sure its row is in the order */
  function getMarker() {
    var page = Campaign().get("playerpageid");
    var marker = findObjs({ imgsrc: settings().tokenURL, pageid: page })[0];
    if (!marker) {
      marker = createObj("graphic", {
        name: settings().tokenName + " 0", pageid: page, layer: "gmlayer", imgsrc: settings().tokenURL,
        left: 0, top: 0, lastmove: "0,0", width: 70, height: 70, bar2_value: 0,
        showplayers_name: true, showplayers_aura1: true, showplayers_aura2: true,
      });
    }
    if (!TurnOrder.HasTurn(marker.id)) {
      TurnOrder.AddTurn({ id: marker.id, pr: -1, custom: "", _pageid: marker.get("pageid") });
    }
    return marker;
  }

  /**
   * handleMarkerTurn (lines 580-598): when the marker's row is on top, count a round (back one when going backwards),
   * rename the marker "Round N", announce it, and rotate past the row (forwards, or backwards).
   */
  function countRoundIfMarkerOnTop(backwards) {
    var marker = getMarker();
    var rows = TurnOrder.Get();
    if (rows[0].id !== marker.id) return;
    var round = (parseInt(marker.get("bar2_value"), 10) || 0) + (backwards ? -1 : 1);
    marker.set({ name: settings().tokenName + " " + round, bar2_value: round });
    announceRound(round);
    if (backwards) TurnOrder.Prev();
    else TurnOrder.Next();
  }

  /**
   * Put the marker on the current token (lines 500-525): its place and size (the larger side times the scale); its
   * layer becomes the token's, half a second later when the marker leaves the GM layer. Then the token comes to front.
   */
  function moveMarkerOnto(marker, token) {
    var size = Math.max(token.get("height"), token.get("width")) * settings().scale;
    var place = {
      lastmove: marker.get("left") + "," + marker.get("top"),
      top: token.get("top"), left: token.get("left"), height: size, width: size,
    };
    if (marker.get("layer") === "gmlayer" && token.get("layer") !== "gmlayer") {
      marker.set(place);
      setTimeout(function () {
        marker.set({ layer: token.get("layer") });
      }, 500);
    } else {
      place.layer = token.get("layer");
      marker.set(place);
    }
    toFront(token);
  }

  // -------------------------------------------------------------------------------------------
  // Turn changes

  /**
   * turnOrderChange (lines 453-536), the heart of the script. With the tracker open and a non-empty order whose top row
   * is not a custom row: count a round if the marker is on top; with autoskipHidden, rotate past hidden rows and count
   * a round again if that brought the marker up; then, unless the marker is on top, announce the turn (only for a
   * turn change proper) and move the marker onto the current token. All rotations are API writes: no event.
   */
  function turnOrderChange(firstTurnChanged, backwards) {
    var marker = getMarker();
    if (!Campaign().get("initiativepage")) return;
    var rows = TurnOrder.Get();
    if (!rows.length) return;
    if (rows[0].id === "-1") return; // a custom row on top: nothing at all (line 473)
    countRoundIfMarkerOnTop(backwards);
    if (settings().autoskipHidden) {
      TurnOrder.NextVisible();
      countRoundIfMarkerOnTop(backwards);
    }
    rows = TurnOrder.Get();
    if (rows[0].id === marker.id) return;
    var current = getObj("graphic", rows[0].id);
    if (!current) return;
    if (firstTurnChanged) announceTurnChange();
    moveMarkerOnto(marker, current);
  }

  /**
   * handleTurnOrderChange (lines 546-558), bound to change:campaign:turnorder: a turn change is a new first row, both
   * orders being non-empty.
   */
  function handleTurnOrderChange(obj, prev) {
    var before = JSON.parse(prev.turnorder || "[]");
    var now = JSON.parse(obj.get("turnorder") || "[]");
    if (Array.isArray(before) && Array.isArray(now) && before.length && now.length && now[0].id !== before[0].id) {
      turnOrderChange(true);
    }
  }

  /**
   * handleExternalTurnOrderChange (lines 560-578), exported as TurnMarker.TurnOrderChange and given to
   * GroupInitiative.ObserveTurnOrderChange: when the marker's row no longer has pr -1 (GroupInitiative rolled for
   * it), it gets -1 back and moves to the TOP, other rows showing the marker's image being dropped; then, deferred
   * (underscore's _.defer: a 1 ms timer), the tracker's state is dispatched again, which handles the top row as a turn
   * change (so a marker put on top counts a round at once).
   */
  function handleExternalTurnOrderChange() {
    var marker = getMarker();
    var raw = Campaign().get("turnorder");
    var rows = raw === "" ? [] : JSON.parse(raw);
    var mine = rows.filter(function (row) { return row.id === marker.id; })[0];
    if (mine.pr !== -1) {
      mine.pr = -1;
      var others = rows.filter(function (row) {
        if (row.id === marker.id) return false;
        var graphic = getObj("graphic", row.id);
        return !(graphic && graphic.get("imgsrc") === settings().tokenURL);
      });
      Campaign().set("turnorder", JSON.stringify([mine].concat(others)));
    }
    setTimeout(dispatchInitiativePage, 1);
  }

  /**
   * handleDestroyGraphic (lines 538-544): a deleted token loses its row, and the removal is handled as a turn order
   * change (the old order taken from the campaign's JSON [I: a Roll20 object's JSON holds its properties]).
   */
  function handleDestroyGraphic(obj) {
    if (!TurnOrder.HasTurn(obj.id)) return;
    var before = Campaign().get("turnorder");
    TurnOrder.RemoveTurn(obj.id);
    handleTurnOrderChange(Campaign(), { turnorder: before });
  }

  /** resetMarker (lines 724-741): the tracker is closed: back to the GM layer, in the corner, one square large */
  function resetMarker() {
    active = false;
    getMarker().set({ layer: "gmlayer", left: 35, top: 35, height: 70, width: 70 });
  }

  /** startMarker (lines 742-760): the tracker is open: the current top row is handled as a turn change */
  function startMarker() {
    getMarker();
    active = true;
    turnOrderChange(true);
  }

  /** dispatchInitiativePage (lines 761-767), bound to change:campaign:initiativepage and run on ready */
  function dispatchInitiativePage() {
    if (!Campaign().get("initiativepage")) resetMarker();
    else startMarker();
  }

  // -------------------------------------------------------------------------------------------
  // Chat: the two cards, and the commands that touch the order

  /** announceRound (lines 429-451): a card for everyone, with a button to reset the count */
  function announceRound(round) {
    if (!settings().announceRounds) return;
    sendChat("", "/direct <div style='background-color: #4B0082; color: white; font-weight: bold; text-align: center;'>"
      + "Round " + round + "</div>"
      + '<a style="color: white;" href="!tm reset ?{Round number|0}">Reset &#x21ba;</a>');
  }

  /** Who controls a character, as the turn card lists them (lines 646-696): "All", or each player's display name */
  function controllerNames(token) {
    var character = token.get("represents") ? getObj("character", token.get("represents")) : null;
    if (!character) return [];
    return character.get("controlledby").split(",").map(function (id) {
      if (id === "all") return "All";
      var player = getObj("player", id);
      return player ? player.get("displayname") : null;
    }).filter(function (name) { return name !== null; });
  }

  /**
   * handleAnnounceTurnChange (lines 599-723): unless the current token is on the GM layer, a card for everyone naming
   * the turn just done (the LAST row whose token is there, off the GM layer and not the marker, lines 608-613) and the
   * turn begun, names shown only for tokens whose name players may see (showplayers_name), with POT and EOT buttons.
   * (The real card also shows both tokens' images.)
   */
  function announceTurnChange() {
    if (!settings().announceTurnChange) return;
    var marker = getMarker();
    var rows = TurnOrder.Get();
    var current = getObj("graphic", rows[0].id);
    if (current.get("layer") === "gmlayer") return;
    var previousRow = rows.filter(function (row) {
      var token = getObj("graphic", row.id);
      return token && token.get("layer") !== "gmlayer" && row.id !== marker.id;
    }).pop();
    var previous = getObj("graphic", previousRow.id);
    var done = previous.get("showplayers_name") ? previous.get("name") + "'s turn is done." : "The Previous turn is done.";
    var begun = current.get("showplayers_name") ? current.get("name") + ", it's now your turn!" : "The next turn has begun!";
    var players = settings().announcePlayerInTurnAnnounce
      ? controllerNames(current).map(function (name) { return "<div>" + name + "</div>"; }).join("") : "";
    sendChat("", "/direct <div style='background-color: #4B0082; color: white;'>"
      + '<a href="!tm ping-target ' + previous.id + '">&#x25c9;</a> ' + done
      + '<a href="!tm ping-target ' + current.id + '">&#x25c9;</a> ' + begun
      + '<a href="!pot">&#x23ea; POT</a><a href="!eot">EOT &#x23e9;</a>' + players + "</div>");
  }

  /** May this player pass a turn of this row's token: a GM, or a controller of the token or of its character */
  function mayControl(playerid, row) {
    if (playerIsGM(playerid)) return true;
    var token = getObj("graphic", (row || {}).id);
    var character = token ? getObj("character", token.get("represents")) : null;
    var controls = function (obj) {
      var ids = obj.get("controlledby").split(",");
      return ids.indexOf(playerid) >= 0 || ids.indexOf("all") >= 0;
    };
    return Boolean((token && controls(token)) || (character && controls(character)));
  }

  /** requestTurnAdvancement (lines 408-428), !eot: the current row's controller (or a GM) passes the turn */
  function endOfTurn(playerid) {
    if (!active) return;
    if (!mayControl(playerid, TurnOrder.Get()[0])) return;
    TurnOrder.Next();
    turnOrderChange(true);
  }

  /** requestTurnRetreat (lines 387-407), !pot: the LAST row's controller (or a GM) takes the order back one turn */
  function previousTurn(playerid) {
    if (!active) return;
    if (!mayControl(playerid, TurnOrder.Get().pop())) return;
    TurnOrder.Prev();
    turnOrderChange(true, true);
  }

  var TOGGLES = {
    "toggle-announce": ["announceRounds", "Announce Rounds"],
    "toggle-announce-turn": ["announceTurnChange", "Announce Turn Changes"],
    "toggle-announce-player": ["announcePlayerInTurnAnnounce", "Player Name in Announce"],
    "toggle-skip-hidden": ["autoskipHidden", "Auto-skip Hidden"],
  };

  /**
   * handleInput (lines 143-307): API messages only; words split on white space. !tm (or !turnmarker) reset [N] and
   * the toggles are a GM's (lines 159-170, 214-244); !eot and !pot anyone's (lines 300-305).
   */
  function handleInput(msg) {
    if (msg.type !== "api") return;
    var who = (getObj("player", msg.playerid) || { get: function () { return "API"; } }).get("_displayname");
    var words = msg.content.split(/\s+/);
    if (words[0] === "!eot") return endOfTurn(msg.playerid);
    if (words[0] === "!pot") return previousTurn(msg.playerid);
    if (words[0] !== "!tm" && words[0] !== "!turnmarker") return;
    if (!playerIsGM(msg.playerid)) return;
    if (words[1] === "reset") {
      var value = parseInt(words[2], 10) || 0;
      getMarker().set({ name: settings().tokenName + " " + value, bar2_value: value });
      sendChat("", '/w "' + who + '" <b>Round</b> count is reset to <b>' + value + "</b>.");
    } else if (Object.prototype.hasOwnProperty.call(TOGGLES, words[1])) {
      var key = TOGGLES[words[1]][0];
      settings()[key] = !settings()[key];
      sendChat("", '/w "' + who + '" <b>' + TOGGLES[words[1]][1] + "</b> is now <b>" + (settings()[key] ? "ON" : "OFF") + "</b>.");
    }
    // help, ping-target, autopull and the animation toggles: not modelled
  }

  function registerEventHandlers() {
    on("change:campaign:initiativepage", dispatchInitiativePage);
    on("change:campaign:turnorder", handleTurnOrderChange);
    on("destroy:graphic", handleDestroyGraphic);
    on("chat:message", handleInput);
    dispatchInitiativePage();
  }

  return {
    CheckInstall: checkInstall,
    RegisterEventHandlers: registerEventHandlers,
    TurnOrderChange: handleExternalTurnOrderChange,
  };
}());

on("ready", function () {
  "use strict";
  TurnMarker.CheckInstall();
  TurnMarker.RegisterEventHandlers();
});

/**
 * The script's global TurnOrder helper (lines 794-855), which other scripts can call too. Every write is an API write:
 * no event. NextVisible (lines 818-839) rotates past the leading rows whose token is missing or on the GM layer, in one
 * write, if some row further down is visible; the marker's row is judged by the marker's own layer like any other.
 */
var TurnOrder = TurnOrder || (function () {
  "use strict";

  function read() {
    var raw = Campaign().get("turnorder");
    return JSON.parse(raw === "" ? "[]" : raw);
  }

  function write(rows) {
    Campaign().set({ turnorder: JSON.stringify(rows) });
  }

  function isVisible(row) {
    var token = getObj("graphic", row.id); // [U] see the header: a missing token counts as hidden
    return Boolean(token) && token.get("layer") !== "gmlayer";
  }

  return {
    Get: read,
    Set: write,
    Next: function () { write(read().rotate(1)); },
    Prev: function () { write(read().rotate(-1)); },
    NextVisible: function () {
      var rows = read();
      var skipped = 0;
      while (skipped < rows.length && !isVisible(rows[skipped])) skipped += 1;
      if (skipped < rows.length && skipped > 0) write(rows.rotate(skipped));
    },
    HasTurn: function (id) { return read().some(function (row) { return row.id === id; }); },
    AddTurn: function (row) { write(read().concat([row])); },
    RemoveTurn: function (id) { write(read().filter(function (row) { return row.id !== id; })); },
  };
}());

// The script also gives every array of the sandbox a non-enumerable rotate(count) (lines 857-874): the first `count`
// elements move to the end (a negative count brings the last ones to the front); the array is changed and returned.
Object.defineProperty(Array.prototype, "rotate", {
  enumerable: false,
  writable: true,
  value: function (count) {
    var length = this.length;
    if (length === 0) return this;
    var shift = (((count | 0) % length) + length) % length;
    var moved = this.splice(0, shift);
    for (var i = 0; i < moved.length; i++) this.push(moved[i]);
    return this;
  },
});
