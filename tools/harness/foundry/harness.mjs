// Node emulation of the Foundry VTT V13 and V14 clients, cut to what ambush's Foundry host calls and the tests drive.
//
// Sources: the project's notes on Foundry (docs/dev/foundry.md, cited as "docs/dev/foundry.md §n") and the public API docs
// (https://foundryvtt.com/api/v13/, https://foundryvtt.com/api/v14/). No Foundry source code was read. Where
// the docs are silent the emulation picks the stricter reading and says so in a comment marked "(harness choice)";
// an API, option or field the product does not use is not emulated and throws, or is dropped with a warning.
//
// What the product calls (templates/foundry/*.js; the common modules, templates/common/, touch no Foundry global):
//   Hooks.once: init, setup, ready; Hooks.on: combatRound, combatTurn, preUpdateCombat (their options' advanceTime
//         and worldTime.delta), updateCombat, updateCombatant, createCombatant, deleteCombat, deleteCombatant,
//         renderCombatTracker (fired by env.renderCombatTracker: html.jquery, querySelector, ownerDocument, append;
//         the markup of core's tracker and of ARS's own, emulation/dom.mjs)
//   game: modules.get(id).api, settings.register/get, settings.settings.has (a game system's setting: ARS's variant,
//         rollInitEachRound), i18n.localize/format, user.isGM, users.activeGM?.isSelf, combat, combats.has, actors.get,
//         release.generation, system.id, system.version
//   ui.notifications.warn/info; CONFIG.statusEffects (an array or, on V14, an object keyed by id); CONST.TOKEN_DISPOSITIONS
//   foundry.utils.getProperty/deepClone/saveDataToFile; foundry.applications.api.DialogV2.wait({window: {title},
//         content, buttons: [{action, label, default, callback(event, button)}], render(event, dialog), rejectClose}),
//         rendered into a real DOM (emulation/ui.mjs): button.form.elements, dialog.element, its input and change events
//   ChatMessage.create({content, speaker, rolls, whisper, flags}), getSpeaker({alias}), getWhisperRecipients("GM")
//   new Roll("NdM").evaluate(), roll.dice[0].results[].result
//   Combat: id, combatants.get/has, turns, combatant, started, round, turn, update({turn}), nextTurn,
//           getCombatantsByToken, updateEmbeddedDocuments("Combatant", [{_id, initiative}]), getFlag/setFlag/unsetFlag
//   Combatant: id, name, parent, initiative, actor, token.disposition
//   Actor: id, name, system (through foundry.utils.getProperty; prepared by the game system where it derives values),
//          _source (the stored data), effects, items (GGA 1.0's traits and skills: Item id, name, type, system),
//          toggleStatusEffect(id, {active}),
//          deleteEmbeddedDocuments("ActiveEffect", ids); GURPS Game Aid's findAdvantage and GURPS.findSkillSpell where
//          the system has them, as a cross-check (emulation/game-systems.mjs)
//   ActiveEffect: id, statuses, disabled, duration.expired (V14), update({duration: {combat, rounds, startRound,
//          startTurn}}) (V13), update({duration: {value, expiry}}) (V14)
//   canvas.tokens.controlled (api.recoveryRoll: the tokens the GM selected; env.controlTokens selects them)
//   Not emulated: actor.prototypeToken (a combatant without a token takes no side).
//
// The generations (createFoundry({generation: 13 | 14}), docs/dev/foundry.md §10) differ where the product does:
// CONFIG.statusEffects an array or an object keyed by id; V14's duration {value, units, expiry, expired} with `start`,
// core expiry at its events leaving expired effects inactive on the actor (emulation/expiry.mjs), V13 duration keys
// dropped with a warning; a numeric ChatMessage type and Roll#evaluate's async option rejected on V14, deprecated on
// V13. turnChangeFirst fires combatTurnChange before updateCombat (docs/dev/foundry.md §7 leaves their order open).
//
// What the test runners call:
//   createFoundry({generation, systemId, systemVersion, modules, users, userId, language, lang, quiet, turnChangeFirst,
//       expiryInMemory (V14 core expiry as foundryvtt#13743 reports it: in this client's memory only), worldSettings
//       ({"<namespace>.<key>": value}: what the world kept from an earlier session, read once the setting is registered)})
//   env.loadModule(folder), boot, settle, teardown, scriptDice, pendingDice, createActor/createToken/createCombat,
//       deleteActor/deleteToken/deleteCombat, switchUser, remote(userId, fn), renderCombatTracker({popout, tracker, jquery}),
//       checkSettingsI18n, dialogAnswers (answers get the dialog's record: element, form, content, config, dialog,
//       fill, click, absentFields, result), options, and the records errors, notifications, messages, dialogs,
//       downloads, writes, deniedWrites, deprecations, warnings, missingI18n (with earlyI18n, fallbackI18n and
//       i18nFormatErrors beside it)
//   game.settings.set, game.users.get, game.actors, game.combats.get, game.scenes.active.tokens, Hooks.on/callAll,
//       combat.startCombat/nextTurn/nextRound/previousTurn/previousRound/update/delete/toObject, combatant.delete,
//       actor/token.toObject, actor.createEmbeddedDocuments("ActiveEffect"), message.whisper/content/rolls/flags
//   game.time.worldTime and the updateWorldTime hook (the clock core's and ARS's round methods advance)
//   runGeneration, GENERATIONS, statusEntries, addStatusEntry (below); ggaList, installGgaFinders, installGgaActors
//       (with actor.toggleExpand), installGga1Actors (GGA 1.0's Items, actor.items), installArsActors,
//       installArsInitiative, installArsTurnMethods, installArsTime, installDnd5eExpiryStamp (emulation/game-systems.mjs)
//
// Layout (tools/harness/foundry/emulation/): core (CONST, utils, collections, validation), documents (Document, User,
// Actor, ActiveEffect, Scene, Token, status lists), combat, expiry (V14 core expiry), dice (Roll, Die, the dice
// script), chat (ChatMessage), hooks, settings, i18n, ui (notifications, DialogV2), dom (the Combat Tracker), database
// (the create/update/delete round trip), world (collections, test-side helpers), game-systems (GGA, ARS),
// environment (wiring, boot, clients).

import { installedEnv } from "./emulation/core.mjs";
import { FoundryEnvironment } from "./emulation/environment.mjs";

export { CONST, Collection } from "./emulation/core.mjs";

/** The Foundry generations the emulation runs */
export const GENERATIONS = [13, 14];

/** The generation a test run asks for in FOUNDRY_GENERATION (13 when unset) */
export function runGeneration() {
  const generation = Number(process.env.FOUNDRY_GENERATION ?? 13);
  if (!GENERATIONS.includes(generation)) throw new Error(`FOUNDRY_GENERATION=${process.env.FOUNDRY_GENERATION} is not emulated`);
  return generation;
}

/** The entries of CONFIG.statusEffects, whatever its shape (docs/dev/foundry.md §6): for tests */
export function statusEntries() {
  const list = globalThis.CONFIG.statusEffects;
  return Array.isArray(list) ? list : Object.values(list);
}

/** Add an entry to CONFIG.statusEffects in the shape it has, as a game system would: for tests */
export function addStatusEntry(entry) {
  const list = globalThis.CONFIG.statusEffects;
  if (Array.isArray(list)) list.push(entry);
  else list[entry.id] = entry;
}

const DEFAULT_USERS = [
  { id: "gamemaster000001", name: "Gamemaster", isGM: true, active: true },
  { id: "player0000000001", name: "Player", isGM: false, active: true },
];

/**
 * Create an emulated Foundry client and install its globals (Hooks, game, CONFIG, CONST, foundry, ui,
 * Roll, ChatMessage). A previous environment is torn down first.
 */
export function createFoundry({
  systemId = "gurps",
  users = DEFAULT_USERS,
  userId,
  modules = [],
  language = "en",
  lang = {},
  generation = 13,
  quiet = false,
  turnChangeFirst = false,
  expiryInMemory = false,
  systemVersion = null,
  worldSettings = {},
} = {}) {
  installedEnv()?.teardown();
  const environment = new FoundryEnvironment({
    systemId, users, userId, modules, language, lang, generation, quiet, turnChangeFirst, expiryInMemory, systemVersion,
    worldSettings,
  });
  environment._install();
  return environment;
}
