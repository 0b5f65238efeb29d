// The module's world settings: the automation's, as the campaign gives them to every target.
import { MODULE_ID, SETTINGS } from "../common/config.js";
import { i18nKey } from "./i18n.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["Settings.*"];

/** Register every world setting of the module (run in the init hook) */
export function registerSettings() {
  for (const setting of SETTINGS) {
    const config = {
      name: i18nKey(`Settings.${setting.key}.Name`),
      hint: i18nKey(`Settings.${setting.key}.Hint`),
      scope: "world",
      config: true,
      type: setting.type === "boolean" ? Boolean : String,
      default: setting.default,
    };
    if (setting.choices.length) {
      config.choices = Object.fromEntries(
        setting.choices.map((choice) => [choice, i18nKey(`Settings.${setting.key}.Choices.${choice}`)]),
      );
    }
    game.settings.register(MODULE_ID, setting.key, config);
  }
}

/** Read one of the module's settings */
export const setting = (key) => game.settings.get(MODULE_ID, key);
