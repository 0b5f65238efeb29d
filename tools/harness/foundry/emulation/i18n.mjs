// game.i18n: translations load after init (hookEvents.i18nInit); a missing key returns the key itself
// (https://foundryvtt.com/api/classes/foundry.helpers.Localization.html). Every miss, early lookup,
// English fallback and unfilled {placeholder} is recorded on the environment.

import { deepClone, getProperty, mergeInto } from "./core.mjs";
import { CORE_STATUS_NAMES } from "./documents.mjs";

const KEY_PATTERN = /^[\w-]+(\.[\w-]+)+$/;

/** Core strings the emulated core itself localizes */
const CORE_TRANSLATIONS = { EFFECT: CORE_STATUS_NAMES, COMBAT: { UnknownCombatant: "Unknown Combatant" } };

/** Find a translation by flat or nested key; subtrees are not translations */
function find(dictionary, key) {
  const value = Object.hasOwn(dictionary, key) ? dictionary[key] : getProperty(dictionary, key);
  return typeof value === "string" ? value : undefined;
}

/** Build game.i18n for one environment */
export function createI18n(environment) {
  const i18n = {
    lang: environment.options.language,
    translations: {},
    _fallback: {},
    localize(key) {
      if (!environment.phase.translations) {
        environment.earlyI18n.push(key);
        return key;
      }
      const value = find(i18n.translations, key);
      if (value !== undefined) return value;
      const fallback = find(i18n._fallback, key);
      if (fallback !== undefined) {
        environment.fallbackI18n.push(key);
        return fallback;
      }
      if (!environment.missingI18n.includes(key)) environment.missingI18n.push(key);
      return key;
    },
    format(key, data = {}) {
      return i18n.localize(key).replace(/{([^}]+)}/g, (match, name) => {
        if (Object.hasOwn(data, name)) return String(data[name]);
        environment.i18nFormatErrors.push({ key, placeholder: name });
        return match;
      });
    },
  };
  return i18n;
}

/** Load the translations: core strings, the module's lang files, then the test's own; English is the fallback */
export function loadTranslations(environment, langFiles) {
  const { language, lang } = environment.options;
  const i18n = environment.game.i18n;
  const merged = (...sources) => sources.reduce((all, source) => mergeInto(all, deepClone(source ?? {})), {});
  i18n.translations = merged(CORE_TRANSLATIONS, langFiles[language], lang);
  i18n._fallback = language === "en" ? {} : merged(CORE_TRANSLATIONS, langFiles.en);
  environment.phase.translations = true;
}

/** Core-side localization: only strings that look like keys are looked up */
export function softLocalize(environment, text) {
  if (typeof text !== "string" || !KEY_PATTERN.test(text)) return text;
  return environment.game.i18n.localize(text);
}
