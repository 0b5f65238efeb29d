// The module's strings, under its id in the game's translations (lang/<language>.json), filled by common/format.js:
// numbers written and plural choices made as the language of the strings does. game.i18n.format fills only {name}
// and would break a plural choice's nested braces (docs/dev/foundry.md §10), so the module reads the raw translation
// and fills it itself.
import { LANGUAGES, MODULE_ID } from "../common/config.js";
import { fill } from "../common/format.js";

/** Return the full i18n key of one of the module's strings */
export const i18nKey = (key) => `${MODULE_ID}.${key}`;

/** The language the module's strings show in: the client's where the module speaks it, else English, Foundry's fallback */
export const language = () => (LANGUAGES.includes(game.i18n.lang) ? game.i18n.lang : "en");

/** Translate one of the module's strings, as the lang file has it */
export const localize = (key) => game.i18n.localize(i18nKey(key));

/** Translate one of the module's strings, filling its {placeholders} and plural choices from data */
export const format = (key, data) => fill(localize(key), data, language());

/** Translate a string for the session and the form: with data, fill it */
export const t = (key, data) => (data ? format(key, data) : localize(key));
