// Node emulation of the Foundry VTT V12/V13 client, sized to what ambush's generated modules call.
//
// Sources: the project's notes on Foundry (cited as "FOUNDRY.md §n") and the public API docs
// (https://foundryvtt.com/api/, https://foundryvtt.com/api/v12/). No Foundry source code was read. Where the docs
// are silent the emulation picks the stricter reading and says so in a comment marked "(harness choice)".
//
// What the product calls (templates/foundry/scripts/**):
//   Hooks.on/once: init, setup, ready, combatTurnChange, deleteCombat, renderCombatTracker (never fired here)
//   game: modules.get(id).api, settings.register/get, i18n.localize/format, user.isGM, users.activeGM?.isSelf,
//         combat, combats.has, actors.get
//   ui.notifications.warn; CONFIG.statusEffects (some, push; read by toggleStatusEffect); CONST.TOKEN_DISPOSITIONS
//   foundry.utils.getProperty/deepClone; foundry.applications.api.DialogV2.wait (buttons, callback, rejectClose)
//   ChatMessage.create({content, speaker, rolls, whisper, flags}), getSpeaker({alias}), getWhisperRecipients("GM")
//   new Roll("NdM").evaluate(), roll.dice[0].results[].result
//   Combat: combatants.get/has, turns, started, round, turn, update({turn}), nextTurn, getCombatantsByToken,
//           updateEmbeddedDocuments("Combatant", [{_id, initiative}]), getFlag/setFlag/unsetFlag
//   Combatant: id, name, actor, token.disposition; Actor: id, statuses, toggleStatusEffect(id, {active})
//   ActiveEffect: update({duration: {combat, rounds, startRound, startTurn}})
// What the test runners call:
//   createFoundry({systemId, users, userId, modules, language, lang, fallbackLang, randomUniform, generation,
//                  worldTime, settings, quiet, turnChangeFirst})
//   env.loadModule, boot, settle, teardown, assertClean, checkSettingsI18n, scriptDice, pendingDice,
//       createActor/createToken/createCombat, deleteActor/deleteToken/deleteCombat, advanceTime,
//       switchUser, setUserActive, remote(userId, fn), dialogAnswers, and the records errors, notifications,
//       messages, dialogs, writes, deniedWrites, deprecations, warnings, missingI18n, earlyI18n, fallbackI18n,
//       i18nFormatErrors, hookCalls
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
  fallbackLang = {},
  randomUniform,
  generation = 13,
  worldTime = 0,
  settings = {},
  quiet = false,
  turnChangeFirst = false,
} = {}) {
  installedEnv()?.teardown();
  const environment = new FoundryEnvironment({
    systemId, users, userId, modules, language, lang, fallbackLang, randomUniform, generation, worldTime, settings, quiet,
    turnChangeFirst,
  });
  environment._install();
  return environment;
}
