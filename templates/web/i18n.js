// The page's words: its strings in the language the GM picked (the campaign's default until then), numbers written as
// that language writes them (common/format.js).
import { DEFAULT_LANGUAGE, STRINGS } from "../common/config.js";
import { fill } from "../common/format.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [];

/** The languages the page speaks, in the campaign's order */
const LANGUAGES = Object.keys(STRINGS);

let current = DEFAULT_LANGUAGE;

/** Speak a language the page ships; any other leaves the language as it is */
function setLanguage(chosen) {
  if (LANGUAGES.includes(chosen)) current = chosen;
  return current;
}

/** Name the language the page speaks, a BCP 47 tag */
const language = () => current;

/** Translate a key, filling {placeholders}, numbers written as the language writes them; English where one is missing */
function t(key, data = {}) {
  const text = STRINGS[current]?.[key] ?? STRINGS[DEFAULT_LANGUAGE]?.[key] ?? STRINGS.en?.[key] ?? key;
  return fill(text, data, current);
}

export { STRING_KEYS, LANGUAGES, language, setLanguage, t };
