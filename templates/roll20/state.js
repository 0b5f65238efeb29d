// The script's state (state[SCRIPT_NAME]): its settings, the draft being edited and the surprise being played, and
// what a stored value must hold to be read.
import { MARKERS, SCRIPT_NAME, SETTINGS } from "../common/config.js";
import { procedureDef } from "../common/draft.js";
import { DEFAULT_LANGUAGE } from "./text.js";

/** The version of the state's shape; install.js migrates older ones */
export const SCHEMA_VERSION = 4;

/** Return the setting of a key, as the campaign gives it to every target */
const settingOf = (key) => SETTINGS.find((setting) => setting.key === key);

/** Who may see the cards: the choices of the chatVisibility setting */
export const CARDS = settingOf("chatVisibility").choices;

/** Return the script's state */
export const store = () => state[SCRIPT_NAME];

/** The settings a GM can change with !surprise config */
export const defaultConfig = () => ({
  automation: settingOf("automation").default, skip: settingOf("skipSurprisedTurns").default,
  cards: settingOf("chatVisibility").default, marker: MARKERS.surprised, language: DEFAULT_LANGUAGE,
});

/** Tell whether a value is an object of keys and values: not null, not an array */
export const isRecord = (value) => Boolean(value) && typeof value === "object" && !Array.isArray(value);

/** Tell whether a stored surprise has the parts every step reads */
export const isWholeSurprise = (surprise) => isRecord(surprise) && Array.isArray(surprise.log)
  && ["scenario", "labels", "applied", "outcome", "follow"].every((key) => isRecord(surprise[key]));

/** Tell whether a stored draft has the parts the commands read */
export const isWholeDraft = (draft) => isRecord(draft) && Boolean(procedureDef(draft.procedure)) && Array.isArray(draft.out)
  && ["a", "b"].every((key) => Array.isArray(draft.sides?.[key]?.members));
