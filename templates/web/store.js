// The page's state, kept in the browser (localStorage) after every change, so that a reload or a closed tab loses
// nothing: the draft being prepared, the surprise being played, the turn order and its statuses, the cards, the settings.
// What is kept is read part by part (kept.js): a part that cannot be read is named, the rest kept. Before anything
// overwrites kept text that could not all be read, that text is set aside under a second key, for the GM to download;
// where it cannot be set aside, nothing is written over it until the GM has downloaded it.
import { DEFAULT_LANGUAGE, SETTINGS, STORAGE_KEY } from "../common/config.js";
import { PARTS, SCHEMA, readKept } from "./kept.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [];

/** Where the kept text that could not all be read is set aside until the GM deletes it */
const DAMAGED_KEY = `${STORAGE_KEY}:damaged`;

const settingOf = (key) => SETTINGS.find((setting) => setting.key === key);

/** How the page is shown, as the GM left it: the players' view, the GM's cards shown, the draft open during a fight */
const DEFAULT_VIEW = { players: false, gmCards: false, form: false };

/**
 * A turn order before the fight: no round, no turn, nobody marked, nobody arrived late; rounds counted one after
 * another, the number the rules give one where it differs (tracker.js)
 */
const newTracker = (order = []) => ({ order, started: false, round: 0, turn: 0, reached: 0, renumbered: [], statuses: {},
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
    table: newTracker(),
    log: [],
    turns: [],
  };
}

// Kept text that could not all be read and is set aside nowhere: the main key is not written over until the GM has it.
let unsaved = null;

/** Read a key; null for none; throws where the browser keeps nothing (storage off) */
const stored = (key) => window.localStorage.getItem(key);

/** Write a key; false when the browser refuses (storage full or off) */
function store(key, text) {
  try {
    window.localStorage.setItem(key, text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Set aside kept text that could not all be read: under DAMAGED_KEY, unless that holds other text not yet deleted; in
 * memory only, holding the main key, when it cannot be stored. Returns whether the browser holds it.
 */
function setAside(text, earlier) {
  if (earlier === text) return true;
  if (earlier === null && store(DAMAGED_KEY, text)) return true;
  unsaved = text;
  return false;
}

/**
 * What reading the kept state found, for the notice (kept-notice.js).
 * @typedef {object} Report
 * @property {boolean} unavailable  the browser keeps nothing (the page works, and a reload loses it)
 * @property {string[]} lost  the parts that could not be read (kept.js PARTS)
 * @property {boolean} repaired  something else was wrong and set right: nothing the GM made is lost
 * @property {boolean} newer  kept by a later version of the page, which this one does not read
 * @property {string | null} damaged  the kept text that could not all be read, or an earlier one set aside: to download
 * @property {boolean} held  the damaged text is in this tab only: nothing is kept until it is downloaded
 * @property {boolean} earlier  the damaged text was set aside by an earlier visit, the state read now being fine
 */

/**
 * Read the kept state: {state, report, afresh}. `emptyDraft()` makes the draft of a page that holds none. Never throws:
 * what cannot be read is named in the report and left out of the state. `afresh()` returns the state without its draft
 * and fight, for a page that could not show them after all, and names them too.
 */
async function openStore(emptyDraft) {
  const report = { unavailable: false, lost: [], repaired: false, newer: false, damaged: null, held: false,
    earlier: false };
  let text;
  let earlier;
  try {
    text = stored(STORAGE_KEY);
    earlier = stored(DAMAGED_KEY);
  } catch {
    const afresh = () => freshState(emptyDraft());
    return { state: afresh(), report: { ...report, unavailable: true }, afresh };
  }
  /** Set the kept text aside and name what was not read of it */
  const damaged = (found) => Object.assign(report, found, { damaged: text, earlier: false,
    held: !setAside(text, earlier) });
  let read;
  try {
    read = await readKept(JSON.parse(text ?? "null"), freshState(emptyDraft()));
  } catch {
    read = { state: freshState(emptyDraft()), lost: [...PARTS], repaired: false, newer: false };
  }
  const { state, ...found } = read;
  if (text !== null && (found.lost.length || found.repaired || found.newer)) damaged(found);
  else Object.assign(report, { damaged: earlier, earlier: earlier !== null });
  const afresh = () => {
    const lost = [...new Set([...report.lost, "draft", "fight"])];
    if (text === null) report.lost = lost;
    else damaged({ lost });
    return freshState(emptyDraft(), state);
  };
  return { state, report, afresh };
}

/** The damaged text held in this tab is in the GM's hands, or he let it go: the page may write over it again */
function released() {
  unsaved = null;
}

/** Delete the damaged text set aside in the browser (the GM has downloaded it or does not want it) */
function forgetDamaged() {
  try {
    window.localStorage.removeItem(DAMAGED_KEY);
  } catch {
    // nothing kept, nothing to delete
  }
}

/**
 * Keep the state, given as its JSON text; false when the browser refuses (storage full or off), or holds damaged text
 * not yet downloaded
 */
const writeStored = (text) => unsaved === null && store(STORAGE_KEY, text);

export { DAMAGED_KEY, DEFAULT_VIEW, STRING_KEYS, forgetDamaged, freshState, newTracker, openStore, released, settingOf, writeStored };
