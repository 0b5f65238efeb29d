// What the GM does through the module's API and macros: resolve a draft, clear, play the selected tokens' turns,
// and the odds and scenario file of an encounter.
import { oddsOf as sessionOdds, scenarioText } from "../common/session.js";
import { draftOf } from "./sheets.js";
import { actorRefs, combatSession, serialized } from "./host.js";
import { format, localize, t } from "./i18n.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["Export.Saved", "Notify.GMOnly", "Notify.NoCombat", "Notify.NoSurprise"];

/** Tell the user why nothing happened */
function refuse(key) {
  ui.notifications.warn(localize(key));
  return null;
}

/** Tell whether the GM may act on a combat; if not, say why */
const mayAct = (combat) => (!game.user.isGM ? refuse("Notify.GMOnly") : !combat ? refuse("Notify.NoCombat") : true);

/**
 * Resolve a surprise in a combat from a draft in the shape api.draft returns (its members carry their combatant
 * ids): roll, post the card, apply the statuses, and store the surprise the turn-by-turn automation follows.
 * Returns the rules outcome, or null (and the GM is told why).
 */
export async function resolveSurprise(draft, combat = game.combat) {
  if (!mayAct(combat)) return null;
  return serialized(async () => {
    const { surprise, problem } = await combatSession(combat).resolve(draft, (scenario) => ({ actors: actorRefs(combat, scenario) }));
    if (problem) {
      ui.notifications.warn(problem);
      return null;
    }
    return surprise.outcome;
  });
}

/** Remove the module's statuses and surprise from a combat */
export async function clearSurprise(combat = game.combat) {
  if (!mayAct(combat)) return null;
  return serialized(() => combatSession(combat).clear());
}

/** Play the current turn's surprise step for the selected tokens now (tables without the automation) */
export async function manualStep(combat = game.combat) {
  if (!mayAct(combat)) return null;
  const tokens = canvas?.tokens?.controlled ?? [];
  return serialized(async () => {
    const ids = tokens.flatMap((token) => combat.getCombatantsByToken(token.document ?? token).map((combatant) => combatant.id));
    if (!(await combatSession(combat).playTurns(ids))) ui.notifications.warn(localize("Notify.NoSurprise"));
  });
}

/**
 * Return the exact odds of a draft (members keyed by their names) or of a rules scenario, the same object as
 * `ambush odds --json` prints for its scenario file (negative free_segments keys come after the others in JS).
 */
export const oddsOf = (scenario) => sessionOdds(scenario, t);

/**
 * Return the encounter as the text of a scenario file that `ambush odds` and `ambush simulate` read, members named
 * as drafted; with download, also save it as a file. A bad draft throws its one-line problem.
 */
export function exportScenario(draft = draftOf(game.combat), { download = false } = {}) {
  const text = scenarioText(draft, t);
  if (download) {
    const file = `surprise-${draft.procedure}.toml`;
    foundry.utils.saveDataToFile(text, "application/toml", file);
    ui.notifications.info(format("Export.Saved", { file }));
  }
  return text;
}
