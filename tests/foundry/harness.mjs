// Node emulation of the Foundry VTT V13 and V14 clients, sized to what ambush's generated modules call.
//
// Sources: the project's notes on Foundry (docs/dev/foundry.md, cited as "docs/dev/foundry.md §n") and the public API docs
// (https://foundryvtt.com/api/v13/, https://foundryvtt.com/api/v14/). No Foundry source code was read. Where
// the docs are silent the emulation picks the stricter reading and says so in a comment marked "(harness choice)".
//
// What the product calls (templates/foundry/scripts/**):
//   Hooks.on/once: init, setup, ready, combatTurnChange, deleteCombat, renderCombatTracker (never fired here)
//   game: modules.get(id).api, settings.register/get, i18n.localize/format, user.isGM, users.activeGM?.isSelf,
//         combat, combats.has, actors.get
//   ui.notifications.warn; CONFIG.statusEffects (an array or, on V14, an object keyed by id); CONST.TOKEN_DISPOSITIONS
//   game.release.generation; renderCombatTracker (env.renderCombatTracker: root.ownerDocument, querySelector, append)
//   foundry.utils.getProperty/deepClone/saveDataToFile; foundry.applications.api.DialogV2.wait (content rendered into a
//   real DOM, render, buttons, callback, rejectClose: emulation/ui.mjs)
//   ChatMessage.create({content, speaker, rolls, whisper, flags}), getSpeaker({alias}), getWhisperRecipients("GM")
//   new Roll("NdM").evaluate(), roll.dice[0].results[].result
//   Combat: combatants.get/has, turns, started, round, turn, update({turn}), nextTurn, getCombatantsByToken,
//           updateEmbeddedDocuments("Combatant", [{_id, initiative}]), getFlag/setFlag/unsetFlag
//   Combatant: id, name, actor, token.disposition; Actor: id, statuses, effects, toggleStatusEffect(id, {active}),
//          deleteEmbeddedDocuments("ActiveEffect", ids)
//   ActiveEffect: statuses, disabled, duration.expired (V14), update({duration: {combat, rounds, startRound,
//          startTurn}}) (V13)
//
// The generations (createFoundry({generation: 13 | 14}), docs/dev/foundry.md §10): V14 has CONFIG.statusEffects as an object
// keyed by id, the duration {value, units, expiry, expired} with `start`, core expiry at its events with
// CONFIG.ActiveEffect.expiryAction "update" (emulation/expiry.mjs), core.messageMode for core.rollMode, a
// deprecation for the renderChatMessage hook, ChatMessage.applyMode for applyRollMode, no global foundry.utils
// aliases, a numeric ChatMessage type rejected, and worldTime.delta for advanceTime in turn and round options.
// What the test runners call:
//   createFoundry({systemId, users, userId, modules, language, lang, fallbackLang, randomUniform, generation,
//                  worldTime, settings, quiet, turnChangeFirst})
//   env.loadModule, boot, settle, teardown, assertClean, checkSettingsI18n, scriptDice, pendingDice,
//       createActor/createToken/createCombat, deleteActor/deleteToken/deleteCombat, advanceTime,
//       switchUser, setUserActive, remote(userId, fn), dialogAnswers, and the records errors, notifications,
//       messages, dialogs (each with its rendered element and form), downloads, writes, deniedWrites,
//       deprecations, warnings, missingI18n, earlyI18n, fallbackI18n, i18nFormatErrors, hookCalls
//   combat.startCombat/nextTurn/nextRound/delete/toObject, actor.effects, effect.duration/statuses/img
//
// Layout (tests/foundry/emulation/): core (CONST, utils, collections, validation), documents (Document, User,
// Actor, ActiveEffect, Scene, Token, status lists), combat, dice (Roll, Die, the dice script), chat
// (ChatMessage), hooks, settings, i18n, ui (notifications, DialogV2), database (the create/update/delete round
// trip), world (collections, test-side helpers), environment (wiring, boot, clients, time).

import { installedEnv } from "./emulation/core.mjs";
import { FoundryEnvironment } from "./emulation/environment.mjs";

export { CONST, Collection, utils } from "./emulation/core.mjs";
export { ActiveEffect, Actor, Document, Scene, TokenDocument, User } from "./emulation/documents.mjs";
export { Combat, Combatant } from "./emulation/combat.mjs";
export { ChatMessage } from "./emulation/chat.mjs";
export { Die, Roll } from "./emulation/dice.mjs";
export { FoundryEnvironment };

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
} = {}) {
  installedEnv()?.teardown();
  const environment = new FoundryEnvironment({
    systemId, users, userId, modules, language, lang, generation, quiet,
    turnChangeFirst,
  });
  environment._install();
  return environment;
}
