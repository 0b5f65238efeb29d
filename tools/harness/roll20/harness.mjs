// Node emulation of the Roll20 Mod (API) sandbox, sized to what the script ambush generates calls.
//
// Sources (no Roll20 server code exists publicly; none was read):
//   - the project's notes on the Mod sandbox (docs/dev/roll20.md, cited as "docs/dev/roll20.md §n");
//   - Roll20/roll20-api-scripts `.types/index.d.ts` (official type definitions; cited as "index.d.ts");
//   - https://wiki.roll20.net/Mod:Objects, Mod:Events, Mod:Chat, Mod:Function/Roll20_object and
//     https://help.roll20.net/hc/en-us/articles/360037256754-API-Chat (cited as "Mod:Objects" etc.).
// Where the documentation is silent the emulation picks the STRICTER reading, so that wrong script
// code fails, and says so in a comment marked "(harness choice)". Marks [I] and [U] are those of docs/dev/roll20.md:
// inferred from scripts' behaviour, and unverified. Anything the script does not use is not emulated and
// fails loudly (a ReferenceError for a missing global, a HarnessError for unsupported chat syntax, a warning for an
// unknown property or an event that never fires).
//
// What the product calls (templates/roll20/*.js, bundled with templates/common/ into <Name>.js; checked against
// the built example scripts):
//   globals: on, sendChat, findObjs, getObj, createObj, Campaign, log, playerIsGM, randomInteger, getAttrByName,
//     setTimeout(fn, 0) (to look at the order after the other handlers of an event), state[scriptName], and, read
//     only, state.TurnMarker and state.COMBATMASTER (their marker images) and GroupInitiative.ObserveTurnOrderChange
//     where GroupInitiative is loaded (nothing else: no _, filterObjs, Math.random); the API_Meta idiom, which reads
//     its line in the concatenated file from an Error's stack (docs/dev/roll20.md §3), and API_Meta[name].command
//   on("ready" | "chat:message" | "change:campaign:turnorder" | "destroy:graphic", handler); the destroy handler
//     reads obj.id
//   graphic.get("imgsrc") (another script's round marker)
//   sendChat(name, "/w gm <html>" | '/w "Display Name" <html>', null, {noarchive: true}), sendChat(name, "/direct <html>"):
//     cards of inline-styled HTML of at most CHAT_LIMIT bytes (docs/dev/roll20.md §6.1; a larger one is an error),
//     user text escaped as entities (&#64; &#123; &#91; …), buttons
//     <a href="!surprise …"> whose commands carry roll queries ?{Prompt|default} and ?{Prompt|Label,value|…}
//   findObjs({_type: "player"}), findObjs({_type: "macro", name}), findObjs({_type: "attribute", _characterid[, name]},
//     {caseInsensitive: true} with a name); getObj("graphic" | "character" | "player", id)
//   createObj("macro", {_playerid, playerid, name, action, visibleto, istokenaction}) (its action holds a roll query)
//   getAttrByName(characterId, name) (sheet defaults for attributes never created)
//   Campaign().get("turnorder" | "token_markers" | "_token_markers"), Campaign().set("turnorder", JSON string)
//   token.id, token.get("name" | "represents" | "controlledby"), token.set("status_<tag>", 1..9 | true | false),
//   character.get("name" | "controlledby"), attribute.get("name" | "current"), player.id, player.get("_displayname")
//   msg.type, content, playerid, selected[]._id, inlinerolls[i].results.total
// What the community script models call (tools/harness/roll20/community/, docs/dev/roll20.md §4), on top of that:
//   setTimeout(fn, ms, ...args) and clearTimeout on a virtual clock that settle() runs; toFront, toBack (checked, no
//     drawing order); obj.remove() (silent); sendChat(name, text, callback) (results passed to the callback, nothing
//     posted); sendChat(name, "/desc <html>") (RoundMaster); Campaign().get/set("initiativepage" | "playerpageid");
//     createObj("graphic", {pageid, imgsrc, layer, left, top, width, height, bar2_value, lastmove, showplayers_*});
//     findObjs({imgsrc, pageid}), findObjs({_type: "graphic", _subtype: "token"}), findObjs({_type: "player",
//     _displayname}); graphic layer, placement and bar properties; getObj("page", id); token.set("statusmarkers")
//   and the script, besides: the other scripts' globals and state it reads to know them (TurnMarker,
//     TurnMarker.TurnOrderChange, CombatMaster, RoundMaster, Gaslight, initMaster; state.roundMaster,
//     state.initMaster, state.Gaslight, state.ConditionTracker, state.COMBATMASTER), on("chat:message") for their turn
//     commands, setTimeout(fn, 50)
// What the test runners call (script, robustness and sheets tests, conformance.mjs, table_encounters.mjs,
// js/hostile_cards.mjs, test_roll20_banner.py):
//   createSandbox({players, campaign: {token_markers}, sheetDefaults})
//   sb.load, ready, restart, settle, assertClean({allowWarnings}), scriptDice, diceLeft, takeErrors, read,
//      state (its keys seeded before load), stateSnapshot, createToken, createCharacter, getObj, findObjs,
//      campaign (conformance wraps its set), turnorder(), logs, chat (entries' content, whisperTo, direct)
//   sb.user.chat(playerId, text, {selected}), clickButton(playerId, message, label), setTurnorder, advanceTurn,
//      setTokenMarkers, deleteGraphic
//   and for the community models: createSandbox({campaign: {initiativepage}}), createToken({layer, _pageid, …}),
//      createPage, loadCommunity("name@version"), clock, handlersOf(event), user.openTurnTracker, user.closeTurnTracker
// The self-tests (harness.test.mjs) also call loadSource, takeWarnings, errors, crashed, page, user.chat's queries
// option and the exports evaluateRoll and parseStatusMarkers; nothing else is offered.
// The sandbox's language level (ES2020, docs/dev/roll20.md §8) is not emulated here: parse_es2020.mjs parses every
// generated script and module at it (test_roll20_publishing.py, test_common_js.py).
//
// Layout (tools/harness/roll20/sandbox/): objects (types, defaults, the object wrapper, status markers), chat (queries,
// inline rolls, whispers, sendChat), user (the UI actions that fire events), sandbox (the game, the script context,
// events, the queue, dice, state, attributes, records).

import { Sandbox } from "./sandbox/sandbox.mjs";

export { COMMUNITY_SCRIPTS } from "./sandbox/sandbox.mjs";

export { CHAT_LIMIT, evaluateRoll } from "./sandbox/chat.mjs";
export { parseStatusMarkers } from "./sandbox/objects.mjs";

/**
 * Create an emulated Roll20 Mod sandbox with its game (campaign, players, one page).
 *
 * Options:
 *   players        [{id, displayname, isGM}] (default: one GM, id "-Mh0000000000000GM01", named "GM")
 *   campaign       {token_markers: JSON string | array, initiativepage: true (the tracker open on the sandbox's page),
 *                  a page id, or false (closed, the default)}
 *   sheetDefaults  {attrName: value}: what getAttrByName returns for attributes never created (docs/dev/roll20.md §1)
 * The dice come only from sandbox.scriptDice: running out is an error.
 */
export function createSandbox(options = {}) {
  return new Sandbox(options);
}
