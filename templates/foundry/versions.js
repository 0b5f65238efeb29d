// The game-system versions ambush was checked against (exporter/game_systems/, docs/game-systems.md): a world on another
// version is told so once, by its active GM, so that he checks the values the dialog reads before trusting them.
import { CHECKED_VERSIONS, MODULE_ID } from "../common/config.js";
import { format } from "./i18n.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["Notify.UncheckedVersion"];

/** The hidden world setting that keeps the system and version the GM was last told about */
const TOLD = "uncheckedVersionTold";

/** Register the hidden world setting (run in the init hook) */
export function registerVersionSetting() {
  game.settings.register(MODULE_ID, TOLD, { scope: "world", config: false, type: String, default: "" });
}

/**
 * ready: tell the GM, once per world and version, that the game system runs a version ambush was not checked
 * against. A world whose system reports no version, or runs another system, is told nothing.
 */
export async function tellUncheckedVersion() {
  const { id, version, title } = game.system ?? {};
  if (!CHECKED_VERSIONS || id !== CHECKED_VERSIONS.system_id || typeof version !== "string" || !version) return;
  if (CHECKED_VERSIONS.versions.includes(version) || !game.users.activeGM?.isSelf) return;
  const met = `${id}@${version}`;
  if (game.settings.get(MODULE_ID, TOLD) === met) return;
  ui.notifications.warn(format("Notify.UncheckedVersion", {
    system: title || id, version, checked: CHECKED_VERSIONS.versions.join(", "),
  }), { permanent: true });
  await game.settings.set(MODULE_ID, TOLD, met);
}
