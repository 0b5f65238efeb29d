// A behavioural model of InitMaster, for ambush's emulated Roll20 sandbox (tests only; never shipped).
//
// Models: InitMaster 3.2.0 by Richard @ Damery (RPGMaster suite) with the RPGMaster Library 3.2.1 it needs, in
// Roll20/roll20-api-scripts at commit 9d634d31, files `InitMaster/3.2.0/initMaster.js` and
// `RPGMlibrary AD+D2e/3.2.1/libRPGMaster2e.js`. Written in our own words from reading those files: none of their code is
// copied. Line numbers are those of initMaster.js unless said otherwise. Marks: [I] inferred, [U] not verified. Only
// what touches the turn order is modelled: the "standard" initiative that puts one row for the whole party's each
// character and ONE custom row, "Foes", for every creature the party fights, and the round RoundMaster tells it.
//
// It writes the turn order only through RoundMaster's commands (`!rounds --addtotracker`, `--removefromtracker`, sent
// with sendChat: API writes, no event), and it follows no turn: RoundMaster tells it each new round
// (`!init --isRound N --init ||rounds`), upon which it shows the GM the initiative menu.
//
// State (init, lines 655-700): state.initMaster {round, initType ("individual" by default; `!init --type standard`),
// playerChars (the party: the tokens whose character a player controls, [{name, id}] by name, lines 999-1019; the
// script reads them with filterObjs, the model with findObjs), playerRoll, dmRoll, dispRollOnInit (true)}.
//
// Commands (handleChatMessage and doInitCmd, lines 3965-4152): `!init`, each " --" part run in a timer of its own (0 ms,
// 1 ms... for a GM), the sender found by the message's name (libRPGMaster findThePlayer, library lines 9379-9395): a
// script's message, whose name is no player's, counts as the GM's.
//   --isRound N[|changed]   (GM) the round (doIsRound, lines 3184-3206)
//   --init P|F|cmd          (GM) the menu of initiative rolls for standard and group initiative (doInitDiceRoll, lines
//                           3379-3423), a whisper to the GM (the real one uses the default roll template, which the
//                           sandbox does not emulate: the model sends the same buttons as plain HTML)
//   --roll P|F[|menu]       the rolls entered: for standard initiative, a row per party member with the party's roll and
//                           one "Foes" row with the GM's (doInitRoll, lines 3430-3465; the real one shuffles the party
//                           with _.shuffle, the model keeps its order)
//   --type T                (GM) the kind of initiative
//   --redo ID|silent        the token may roll again: its rows leave the order (doRedo, lines 3137-3175)
//   --clearmarkers          (the initiative markers on tokens: not modelled)
// Not modelled: the "please wait" messages (sendWait), group and individual initiative menus, the character sheets'
// actions, the handshake with RoundMaster, end of day, help.

var initMaster = (function () {
  "use strict";

  function sendFeedback(html) {
    sendChat("InitMaster", "/w GM " + html, null, { noarchive: true, use3d: false });
  }

  /** libRPGMaster sendAPI (library lines 8644-8656): a command as the sender, or as nobody */
  function sendApi(command) {
    sendChat("", command, null, { noarchive: true, use3d: false });
  }

  /** getPlayerCharList (lines 999-1019): tokens of characters controlled by players (not "all"), one per name, by name */
  function partyList() {
    var seen = {};
    return findObjs({ _type: "graphic", _subtype: "token" }).filter(function (token) {
      var character = getObj("character", token.get("represents"));
      if (!character) return false;
      var controllers = character.get("controlledby");
      return controllers.length > 0 && controllers.toLowerCase() !== "all";
    }).map(function (token) { return { name: token.get("name"), id: token.id }; })
      .filter(function (entry) { return seen[entry.name] ? false : (seen[entry.name] = true); })
      .sort(function (a, b) { return a.name < b.name ? -1 : a.name > b.name ? 1 : 0; });
  }

  /** doInitDiceRoll: the menu with the party, the kind of initiative and buttons to enter both rolls */
  function initMenu(args) {
    var s = state.initMaster;
    if (s.initType !== "individual") {
      s.playerRoll = args[0] || "";
      s.dmRoll = args[1] || "";
    }
    if ((args[2] || "").toLowerCase() === "rounds" && !s.dispRollOnInit) return;
    sendFeedback("<div>Initiative Dice Rolls for round " + s.round + ": "
      + s.playerChars.map(function (c) { return c.name; }).join(", ")
      + ' <a href="!init --roll ?{Enter 1d10 roll|1}|' + s.dmRoll + '|menu">Enter Party Roll</a>'
      + ' <a href="!init --roll ' + s.playerRoll + '|?{Enter 1d10 roll|1}|menu">Enter Foes Roll</a></div>');
  }

  /** doInitRoll: standard initiative puts the party's rows and the Foes row with RoundMaster */
  function enterRolls(args, isGM) {
    var s = state.initMaster;
    var party = parseInt(args[0], 10);
    var foes = parseInt(args[1], 10);
    var isMenu = (args[2] || "") === "menu";
    if (!isGM && !isNaN(parseInt(s.playerRoll, 10))) return;
    if (!isMenu && isNaN(party)) party = parseInt(s.playerRoll, 10);
    if (!isMenu && (!isGM || isNaN(foes))) foes = parseInt(s.dmRoll, 10);
    if (s.initType !== "standard") return;
    if (!isNaN(party)) {
      s.playerChars.forEach(function (c) {
        sendApi("!rounds --addtotracker " + c.name + "|" + c.id + "|=" + party + "|last|doing an action");
      });
    }
    if (!isNaN(foes)) sendApi("!rounds --addtotracker Foes|-1|=" + foes + "|last");
    if (isMenu) initMenu([isNaN(party) ? "" : String(party), isNaN(foes) ? "" : String(foes)]);
  }

  /** doRedo: the token's rows leave the order, through RoundMaster */
  function redo(args) {
    var token = getObj("graphic", args[0]);
    if (!token || !getObj("character", token.get("represents"))) return;
    sendApi("!rounds --removefromtracker " + token.get("name") + "|" + token.id + "|0");
  }

  function run(part, isGM) {
    var space = part.indexOf(" ");
    var command = (space < 0 ? part : part.slice(0, space)).trim().toLowerCase();
    var args = (space < 0 ? "" : part.slice(space + 1).trim()).split("|");
    if (command === "isround" && isGM) state.initMaster.round = parseInt(args[0], 10) || state.initMaster.round;
    else if (command === "init" && isGM) initMenu(args);
    else if (command === "roll") enterRolls(args, isGM);
    else if (command === "type" && isGM) state.initMaster.initType = (args[0] || "").toLowerCase();
    else if (command === "redo") redo(args);
  }

  function onChat(msg) {
    if (msg.type !== "api" || msg.content.indexOf("!init") !== 0) return;
    var sender = findObjs({ _type: "player", _displayname: msg.who })[0];
    var isGM = !sender || playerIsGM(sender.id);
    msg.content.split(" --").slice(1).forEach(function (part, index) {
      setTimeout(function () { run(part, isGM); }, (isGM ? 1 : 10) * index);
    });
  }

  function init() {
    var s = state.initMaster = state.initMaster || {};
    if (!s.round) s.round = 1;
    if (!s.playerChars) s.playerChars = partyList();
    if (!s.initType) s.initType = "individual";
    if (s.playerRoll === undefined) s.playerRoll = "";
    if (s.dmRoll === undefined) s.dmRoll = "";
    if (s.dispRollOnInit === undefined) s.dispRollOnInit = true;
    on("chat:message", onChat);
    log("-=> InitMaster v3.2.0 <=-  [behavioural model]");
  }

  return { init: init };
}());

on("ready", function () {
  "use strict";
  initMaster.init();
});
