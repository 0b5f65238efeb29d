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
// fails loudly (a ReferenceError for a missing global, a HarnessError for unsupported chat syntax).
//
// What the product calls (templates/roll20/script.js, runtime/*.js):
//   on("ready" | "chat:message" | "change:campaign:turnorder" | "destroy:graphic", handler)
//   sendChat(name, "/w gm …" | '/w "Name" …' | "/direct …", null, {noarchive}); log; state[scriptName]
//   findObjs({_type: "player" | "macro", name}), getObj("graphic" | "character" | "player", id),
//   createObj("macro", {_playerid, name, action, visibleto, istokenaction}), playerIsGM, randomInteger,
//   getAttrByName(characterId, name) (sheet defaults for attributes never created)
//   Campaign().get("turnorder" | "token_markers" | "_token_markers"), Campaign().set("turnorder", JSON string)
//   token.get("name" | "represents" | "controlledby" | "_pageid"), token.set("status_<tag>", n | true | false),
//   character.get("name" | "controlledby"), player.get("_displayname")
//   msg.type, content, playerid, selected[]._id, inlinerolls[i].results.total
// What the test runners call:
//   createSandbox({players, campaign, randomInteger, sheetDefaults, attrNamesCaseInsensitive, gmWhoSuffix, echo})
//   sb.load/loadSource, ready, restart, settle, assertClean, scriptDice, diceLeft, takeErrors, takeWarnings,
//      read, evaluate, state, stateSnapshot, createToken, createCharacter, createObj, getObj, findObjs, campaign,
//      turnorder(), setGM, chat, chatLog, logs, errors, warnings, events, whispersTo, lastChat, page
//   sb.user.chat(playerId, text, {selected, queries, inlinerolls}), clickButton, setTurnorder, advanceTurn,
//      setTokenMarkers, remove, deleteGraphic
//
// Layout (tests/roll20/sandbox/): objects (types, defaults, the object wrapper, status markers), chat (macros,
// references, queries, inline rolls, sendChat), user (the UI actions that fire events), sandbox (the game,
// the script context, events, the queue, dice, state, attributes, records).

import { Sandbox } from "./sandbox/sandbox.mjs";

export { evaluateRoll } from "./sandbox/chat.mjs";
export {
  COLOUR_MARKERS, CREATABLE_TYPES, HarnessError, OBJECT_TYPES, Roll20Object, formatStatusMarkers, parseStatusMarkers,
} from "./sandbox/objects.mjs";
export { Sandbox };

/**
 * Create an emulated Roll20 Mod sandbox with its game (campaign, players, one page).
 *
 * Options:
 *   players        [{id, displayname, isGM}] (default: one GM, id "-Mh0000000000000GM01", named "GM")
 *   campaign       {turnorder: "" | array, token_markers: JSON string | array, playerpageid}
 *   randomInteger  undefined (default: dice come only from sandbox.scriptDice, running out is an error) or a
 *                  function (max) => 1..max used when no scripted face is queued
 *   sheetDefaults  {attrName: value | {current, max}}: what getAttrByName and @{…} return for attributes never
 *                  created (docs/dev/roll20.md §1)
 *   attrNamesCaseInsensitive  false (default, harness choice): getAttrByName and @{…} match attribute names exactly
 *   gmWhoSuffix    true (default): a GM's chat messages have who "Name (GM)" [I: scripts strip / \(GM\)$/]
 *   echo           false: also print log() output and errors to the console
 */
export function createSandbox(options = {}) {
  return new Sandbox(options);
}
