// Entry point: wiring only. Settings at init; statuses and the game system's adapter at setup, after the game system has
// set its own; the API at ready; the surprise dialog as a combat begins; the automation follows the combat turn by
// turn. The rules system's own entry (common/systems/<id>.js) is listed beside this one in module.json.
import { MODULE_ID } from "../common/config.js";
import { buildApi } from "./api.js";
import {
  onCombatChange, onCreateCombatant, onDeleteCombat, onDeleteCombatant, onPreUpdateCombat, onUpdateCombat, onUpdateCombatant,
} from "./automation.js";
import { LOG_PREFIX } from "./constants.js";
import { registerSettings } from "./settings.js";
import { gameSystemAdapter } from "./game-systems/registry.js";
import { holdCombatStart } from "./start.js";
import { addStatusEffects } from "./statuses.js";
import { addTrackerButton } from "./tracker.js";
import { registerVersionSetting, tellUncheckedVersion } from "./versions.js";

Hooks.once("init", () => {
  registerSettings();
  registerVersionSetting();
});

Hooks.once("setup", () => {
  addStatusEffects();
  gameSystemAdapter().prepareWorld?.();
});

Hooks.once("ready", () => {
  game.modules.get(MODULE_ID).api = buildApi();
  tellUncheckedVersion().catch((error) => console.error(error));
  console.log(`${LOG_PREFIX}ready`);
});

Hooks.on("combatRound", onCombatChange);
Hooks.on("combatTurn", onCombatChange);
Hooks.on("preUpdateCombat", holdCombatStart); // before the others: a beginning held back changes nothing else
Hooks.on("preUpdateCombat", onPreUpdateCombat);
Hooks.on("updateCombat", onUpdateCombat);
Hooks.on("updateCombatant", onUpdateCombatant);
Hooks.on("createCombatant", onCreateCombatant);
Hooks.on("deleteCombat", onDeleteCombat);
Hooks.on("deleteCombatant", onDeleteCombatant);
Hooks.on("renderCombatTracker", addTrackerButton);
