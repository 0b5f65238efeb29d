// The module's public API, at game.modules.get(MODULE_ID).api: the macros call it (docs/dev/architecture.md, the
// Foundry API).
import { PROCEDURES, SYSTEM } from "../common/config.js";
import { clearSurprise, exportScenario, manualStep, oddsOf, resolveSurprise } from "./actions.js";
import { openSurpriseDialog } from "./dialog.js";
import { draftOf } from "./sheets.js";
import { playedState } from "./host.js";

/** Return the module's public API */
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
    state: playedState,
    recoveryRoll: manualStep,
    sideRoll: openSurpriseDialog,
    spotTest: openSurpriseDialog,
  };
}
