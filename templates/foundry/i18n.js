// The module's strings, under its id in the game's translations (lang/<language>.json).
import { MODULE_ID } from "../common/config.js";

/** Return the full i18n key of one of the module's strings */
export const i18nKey = (key) => `${MODULE_ID}.${key}`;

/** Translate one of the module's strings */
export const localize = (key) => game.i18n.localize(i18nKey(key));

/** Translate one of the module's strings, filling {placeholders} */
export const format = (key, data) => game.i18n.format(i18nKey(key), data);

/** Translate a string for the session and the form: with data, fill its {placeholders} */
export const t = (key, data) => (data ? format(key, data) : localize(key));
