// The page's state, kept in the browser (localStorage) after every change, so that a reload or a closed tab loses
// nothing: the draft being prepared, the surprise being played, the turn order and its statuses, the cards, the settings.
import { DEFAULT_LANGUAGE, SETTINGS, STORAGE_KEY } from "../common/config.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [];

/** The version of the stored state's shape: a state of another version is not read as this one */
const SCHEMA = 1;

const settingOf = (key) => SETTINGS.find((setting) => setting.key === key);

/** How the page is shown, as the GM left it: the players' view, the GM's cards shown, the draft open during a fight */
const DEFAULT_VIEW = { players: false, gmCards: false, form: false };

/**
 * A turn order before the fight: no round, no turn, nobody marked, nobody arrived late; rounds counted one after
 * another, the number the rules give one where it differs (tracker.js)
 */
const newTable = (order = []) => ({ order, started: false, round: 0, turn: 0, reached: 0, renumbered: [], statuses: {},
  late: {} });

/** Return the state of a page that holds no encounter: the settings and the language stay as given */
function freshState(draft, keep = {}) {
  return {
    schema: SCHEMA,
    language: keep.language ?? DEFAULT_LANGUAGE,
    settings: keep.settings ?? { skip: settingOf("skipSurprisedTurns").default, cards: settingOf("chatVisibility").default },
    dice: keep.dice ?? "page",
    view: { ...DEFAULT_VIEW, ...(keep.view ?? {}) },
    nextId: 1,
    actions: 0,
    draft,
    surprise: null,
    table: newTable(),
    log: [],
    turns: [],
  };
}

/** Tell whether stored data has the shape this page keeps */
const wellFormed = (data) => data && typeof data === "object" && data.schema === SCHEMA && data.draft && typeof data.draft === "object"
  && data.table && Array.isArray(data.table.order) && Array.isArray(data.log) && Array.isArray(data.turns);

/** Read the stored state: {state} or, for none, {state: null}; {damaged: true} when what is stored cannot be read */
function readStored() {
  let text = null;
  try {
    text = window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return { state: null, unavailable: true };
  }
  if (text === null) return { state: null };
  try {
    const data = JSON.parse(text);
    return wellFormed(data) ? { state: data } : { state: null, damaged: true };
  } catch {
    return { state: null, damaged: true };
  }
}

/** Keep the state, given as its JSON text; false when the browser refuses (storage full or off) */
function writeStored(text) {
  try {
    window.localStorage.setItem(STORAGE_KEY, text);
    return true;
  } catch {
    return false;
  }
}

export { DEFAULT_VIEW, STRING_KEYS, freshState, newTable, readStored, settingOf, writeStored };
