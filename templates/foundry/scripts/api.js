import { SYSTEM } from "./constants.js";
import { foundryTable } from "./adapter.js";
import { openSurpriseDialog } from "./dialog.js";
import { draftOf } from "./draft.js";
import { exportScenario, oddsOf } from "./encounter.js";
import { localize } from "./i18n.js";
import { PROCEDURES } from "./inputs.js";
import { getState, saveState, serialized } from "./state.js";
import { clearSurprise, resolveSurprise } from "./surprise.js";
import * as runtime from "./runtime.js";

/** Play the current turn's surprise step for the selected tokens now (tables without the automation). */
async function manualStep(combat = game.combat) {
  if (!game.user.isGM || !combat) return ui.notifications.warn(localize(combat ? "Notify.GMOnly" : "Notify.NoCombat"));
  const tokens = canvas?.tokens?.controlled ?? [];
  return serialized(async () => {
    const surprise = getState(combat);
    if (!surprise) return ui.notifications.warn(localize("Notify.NoSurprise"));
    const table = foundryTable(combat, surprise);
    for (const token of tokens) {
      for (const combatant of combat.getCombatantsByToken(token.document ?? token)) {
        await runtime.turnStarted(table, surprise, combatant.id);
      }
    }
    await saveState(combat, surprise);
  });
}

/** The module's public API, at game.modules.get(MODULE_ID).api; the macros call it. */
export function buildApi() {
  return {
    system: SYSTEM,
    procedures: PROCEDURES.map((procedure) => procedure.id),
    draft: draftOf,
    odds: oddsOf,
    exportScenario,
    openDialog: openSurpriseDialog,
    resolve: resolveSurprise,
    clear: clearSurprise,
    state: getState,
    recoveryRoll: manualStep,
    sideRoll: openSurpriseDialog,
    spotTest: openSurpriseDialog,
  };
}
