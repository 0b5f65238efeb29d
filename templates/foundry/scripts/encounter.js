import { draftOf } from "./draft.js";
import { scenarioToml } from "./export.js";
import { format, t } from "./i18n.js";
import { buildScenario } from "./inputs.js";
import { odds } from "./odds.js";

/** Tell whether a scenario object is a draft (api.draft's shape: its members carry their combatant ids). */
const isDraft = (scenario) => Array.isArray(scenario?.out)
  || ["a", "b"].some((key) => (scenario?.sides?.[key]?.members ?? []).some((member) => member?.id !== undefined));

/** Return the rules scenario of a draft, or a rules scenario as it is; a bad draft throws its one-line problem. */
function rulesScenario(scenario) {
  if (!isDraft(scenario)) return scenario;
  const built = buildScenario(scenario, t);
  if (built.problem) throw new Error(built.problem);
  return built.scenario;
}

/**
 * Return the exact odds of a draft (members keyed by their names) or of a rules scenario, the same object as
 * `ambush odds --json` prints for its scenario file (negative free_segments keys come after the others in JS).
 */
export const oddsOf = (scenario) => odds(rulesScenario(scenario));

/**
 * Return the encounter as the text of a scenario file that `ambush odds` and `ambush simulate` read, members named
 * as drafted; with download, also save it as a file. A bad draft throws its one-line problem.
 */
export function exportScenario(draft = draftOf(game.combat), { download = false } = {}) {
  const text = scenarioToml(rulesScenario(draft));
  if (download) {
    const file = `surprise-${draft.procedure}.toml`;
    foundry.utils.saveDataToFile(text, "application/toml", file);
    ui.notifications.info(format("Export.Saved", { file }));
  }
  return text;
}
