// The module's strings, under its id in the game's translations (lang/<language>.json), with their numbers written as
// the language of the strings writes them (common/format.js).
import { LANGUAGES, MODULE_ID } from "../common/config.js";
import { written } from "../common/format.js";

/** Return the full i18n key of one of the module's strings */
export const i18nKey = (key) => `${MODULE_ID}.${key}`;

/** The language the module's strings show in: the client's where the module speaks it, else English, Foundry's fallback */
export const language = () => (LANGUAGES.includes(game.i18n.lang) ? game.i18n.lang : "en");

/** Translate one of the module's strings */
export const localize = (key) => game.i18n.localize(i18nKey(key));

/** Translate one of the module's strings, filling {placeholders}, numbers written as its language writes them */
export const format = (key, data) => game.i18n.format(i18nKey(key), written(data, language()));

/** Translate a string for the session and the form: with data, fill its {placeholders} */
export const t = (key, data) => (data ? format(key, data) : localize(key));
