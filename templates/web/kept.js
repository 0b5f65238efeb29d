// The page's kept state, checked whole as it is read (store.js): each part against its shape, written once here; the
// parts of the fight against each other; the surprise tried out on a copy, as the next click would play it. A part
// that cannot be read is named and never played: the page starts without it, with every part that could be read.
// A state of an earlier page (schema 1: every turn record a copy of every combatant's statuses) is brought into this
// shape; a state of a later page is not read as this one.
import { SETTINGS, SIDE_KEYS, STATUSES, SYSTEM } from "../common/config.js";
import { draftForm, typed } from "../common/form.js";
import { inputsAt, procedureDef, scenarioFromDraft } from "../common/draft.js";
import { tableSession } from "../common/session.js";
import { webHost } from "./host.js";
import { LANGUAGES, t } from "./i18n.js";
import { changesOf, nextTurn, previousTurn } from "./tracker.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [];

/** The version of the kept state's shape; 1: turn records held every combatant's statuses, 2: what changed */
const SCHEMA = 2;

/** The parts of the state a GM can lose on their own, in the order the notice names them */
const PARTS = ["language", "settings", "dice", "draft", "fight"];

// --- shapes: each a function (value, path) => the path of the first thing that does not fit, or null --------------

const plain = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const has = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
const fits = (test) => (value, path) => (test(value) ? null : path);

const text = fits((value) => typeof value === "string");
const flag = fits((value) => typeof value === "boolean");
const count = fits((value) => Number.isSafeInteger(value) && value >= 0);
const oneOf = (values) => fits((value) => values.includes(value));
const nullOr = (shape) => (value, path) => (value === null ? null : shape(value, path));
/** The ids the page gives its combatants (main.js nextId): c1, c2 ... */
const ID = /^c[1-9][0-9]{0,14}$/;
const id = fits((value) => typeof value === "string" && ID.test(value));
const STATUS_IDS = STATUSES.map((status) => status.id);

/** A list, each item of a shape; `unique`: no item twice */
const listOf = (shape, { unique = false } = {}) => (value, path) => {
  if (!Array.isArray(value) || (unique && new Set(value).size !== value.length)) return path;
  for (const [index, item] of value.entries()) {
    const problem = shape(item, `${path}.${index}`);
    if (problem) return problem;
  }
  return null;
};

/** An object of these keys, each of its shape; the keys of `optional` may be missing, others there only when `open` */
const record = (required, optional = {}, { open = false } = {}) => (value, path) => {
  if (!plain(value)) return path;
  const unknown = open ? undefined : Object.keys(value).find((key) => !has(required, key) && !has(optional, key));
  if (unknown !== undefined) return `${path}.${unknown}`;
  for (const [key, shape] of Object.entries(required)) {
    const problem = has(value, key) ? shape(value[key], `${path}.${key}`) : `${path}.${key}`;
    if (problem) return problem;
  }
  for (const [key, shape] of Object.entries(optional)) {
    const problem = has(value, key) && value[key] !== undefined ? shape(value[key], `${path}.${key}`) : null;
    if (problem) return problem;
  }
  return null;
};

/** An object whose keys pass `key` and whose values have a shape */
const mapOf = (key, shape) => (value, path) => {
  if (!plain(value)) return path;
  for (const [name, item] of Object.entries(value)) {
    const problem = key(name) ? shape(item, `${path}.${name}`) : `${path}.${name}`;
    if (problem) return problem;
  }
  return null;
};

const statuses = listOf(oneOf(STATUS_IDS), { unique: true });
const byCombatant = mapOf((name) => ID.test(name), statuses);

const settingChoices = (key) => SETTINGS.find((setting) => setting.key === key)?.choices ?? [];

/** The parts of the state a page of this version keeps, each by its shape */
const SHAPES = {
  language: oneOf(LANGUAGES),
  settings: record({ skip: flag, cards: oneOf(settingChoices("chatVisibility")) }),
  dice: oneOf(["page", "typed"]),
  view: record({}, { players: flag, gmCards: flag, form: flag }),
  nextId: fits((value) => Number.isSafeInteger(value) && value >= 1),
  actions: count,
  // reached, renumbered and late: since the page's tracker numbers rounds as the rules do and takes late arrivals
  table: record({
    order: listOf(id, { unique: true }), started: flag, round: count, turn: count, statuses: byCombatant,
  }, {
    reached: count, renumbered: listOf(record({ at: count, number: count })),
    late: mapOf((name) => ID.test(name), record({ name: text, side: oneOf(SIDE_KEYS) })),
  }),
  log: listOf(record({ title: text, lines: listOf(text), gm: flag, dice: listOf(text), round: count,
    records: listOf(fits(plain)) }, { action: count })),
  turns: listOf(record({ round: count, id, passed: flag }, { changed: byCombatant })),
};

/** A turn record of schema 1: every combatant's statuses */
const turnV1 = record({ round: count, id, passed: flag, statuses: byCombatant });

/** The bookkeeping every system's surprise keeps (common/surprise-record.js, follow.js); the rest is its runtime's, tried */
const surpriseShape = record({
  scenario: fits(plain), labels: mapOf((name) => ID.test(name), text), applied: byCombatant, done: flag,
  outcome: fits(plain),
  follow: record({ round: count, tableRound: nullOr(count), back: flag, started: listOf(id), active: nullOr(id),
    seen: listOf(id), gone: listOf(id), row: nullOr(id) }, { together: listOf(id) }),
}, {}, { open: true });
const heldCard = record({ title: text, lines: listOf(text), details: listOf(text), records: listOf(fits(plain)) });
/** The cards held for a summary: by number ("0" the first, none missing), or the list an earlier page kept */
const heldCards = (value, path) => {
  if (Array.isArray(value)) return listOf(heldCard)(value, path);
  if (!plain(value)) return path;
  const numbers = Object.keys(value);
  if (!numbers.every((number, index) => number === String(index))) return path;
  return mapOf(() => true, heldCard)(value, path);
};
const heldShape = nullOr(record({ cards: heldCards, dice: flag }));

// --- the draft: its shape follows its procedure's inputs -----------------------------------------------------------

/**
 * The shape of the values of some inputs, as optional keys of a record: each of its input's type, or none; a number or
 * a yes/no may hold the text the GM typed that is not one yet (form.js applyEdits keepTyped), which Roll refuses
 */
const valuesOf = (inputs) => Object.fromEntries(inputs.map((input) => [
  input.key, fits((value) => typed(input.type, value ?? null)
    || (["number", "boolean"].includes(input.type) && typeof value === "string")),
]));

/** Return the path of the first thing in a draft that does not fit its procedure's inputs, or null */
function draftProblem(draft) {
  if (!plain(draft) || draft.system !== SYSTEM || !procedureDef(has(draft, "procedure") ? draft.procedure : null)) {
    return "draft";
  }
  const at = (level) => inputsAt(draft.procedure, level);
  const member = record({ id, name: text }, { named: text, unread: listOf(text), ...valuesOf(at("member")) });
  const side = record({ members: listOf(member) }, { name: nullOr(text), ...valuesOf(at("side")) });
  const scenarioInputs = at("scenario");
  const openers = scenarioInputs.find((input) => input.type === "openers");
  const sides = record(Object.fromEntries(SIDE_KEYS.map((key) => [key, side])));
  const shape = record({ system: text, procedure: text, sides }, {
    out: listOf(member),
    ...valuesOf(scenarioInputs.filter((input) => input !== openers)),
    ...(openers ? { openers: listOf(record({}, valuesOf(openers.fields))) } : {}),
  });
  const problem = shape(draft, "draft");
  if (problem) return problem;
  const ids = [...SIDE_KEYS.flatMap((key) => draft.sides[key].members), ...(draft.out ?? [])].map((entry) => entry.id);
  if (new Set(ids).size !== ids.length) return "draft.id";
  try {
    draftForm(draft, t);
    scenarioFromDraft(draft, t);
  } catch {
    return "draft";
  }
  return null;
}

// --- the fight: the surprise, the turn order, the turn records and the cards, which must agree --------------------

/** Return the ids of a surprise's members, or null when its scenario has not the shape of this build's */
function membersOfSurprise(scenario) {
  if (scenario.system !== SYSTEM || !procedureDef(scenario.procedure) || !plain(scenario.sides)) return null;
  const ids = [];
  for (const key of SIDE_KEYS) {
    const side = scenario.sides[key];
    if (!plain(side) || !Array.isArray(side.members)) return null;
    for (const member of side.members) {
      if (!plain(member) || typeof member.name !== "string" || !ID.test(member.name)) return null;
      ids.push(member.name);
    }
  }
  return new Set(ids).size === ids.length ? ids : null;
}

/**
 * Return the path of the first thing in which the surprise, the table and the turn records disagree, or null. The order
 * holds the surprise's members but those the GM took out (the session let them go: follow.gone), and those who
 * arrived late (`late`, kept when taken out again), who are no members; the turn records name only these.
 */
function disagreement({ surprise, table, turns }) {
  const inOrder = new Set(table.order);
  const listed = (ids) => ids.every((entry) => inOrder.has(entry));
  const late = new Set(Object.keys(table.late ?? {}));
  if (!listed(Object.keys(table.statuses))) return "table.statuses";
  const turnShown = table.started ? table.round >= 1 && (table.turn < table.order.length || !table.order.length)
    : table.round === 0 && table.turn === 0;
  if (!turnShown || (table.reached ?? table.round) < table.round) return "table.turn";
  if (surprise === null) return null;
  const members = membersOfSurprise(surprise.scenario);
  if (!members) return "surprise.scenario";
  const isMember = new Set(members);
  const { follow } = surprise;
  const gone = new Set(follow.gone);
  const inFight = (who) => isMember.has(who) || late.has(who);
  if ([...late].some((who) => isMember.has(who)) || !table.order.every(inFight)
    || !members.every((who) => inOrder.has(who) || gone.has(who))) return "table.order";
  if (!turns.every((turn) => inFight(turn.id) && Object.keys(turn.changed ?? {}).every(inFight))) return "turns";
  const labelled = Object.keys(surprise.labels);
  if (labelled.length !== members.length || !labelled.every((who) => isMember.has(who))) return "surprise.labels";
  for (const [who, applied] of Object.entries(surprise.applied)) {
    const shown = table.statuses[who] ?? [];
    if (!isMember.has(who) || (inOrder.has(who) && !applied.every((status) => shown.includes(status)))) {
      return "surprise.applied";
    }
  }
  const followed = [...follow.started, ...follow.seen, ...follow.gone, ...(follow.together ?? []), follow.active, follow.row];
  if (!followed.every((who) => who === null || inFight(who))) return "surprise.follow";
  return heldShape(surprise.held ?? null, "surprise.held");
}

/**
 * Try the surprise as the page will play it, on copies: what the tracker shows (the status lines, the round's name),
 * the turn before, and the turns ahead until every row's turn has come once more, so that a surprise its system's
 * runtime cannot play is found now, not at a click. Returns null, or "surprise".
 */
async function untried(fight, settings) {
  const copy = () => ({ ...JSON.parse(JSON.stringify(fight)), settings: { ...settings }, dice: "page" });
  // The page's host, rolling its own dice, its surprise changed in place: the copy is the trial's to spoil, and a copy
  // of the surprise at every step (what the page's host hands the session) would make the trial cost seconds.
  const sessionOf = (state) => tableSession({ ...webHost(state, { askDice: null, saved: () => {} }),
    load: () => state.surprise,
    save: async (surprise) => {
      state.surprise = surprise;
      return true;
    } });
  try {
    const shown = copy();
    sessionOf(shown).statusLines();
    sessionOf(shown).roundName();
    const back = copy();
    await previousTurn(sessionOf(back), back);
    const ahead = copy();
    const session = sessionOf(ahead);
    while (ahead.turns.length <= fight.turns.length + fight.table.order.length) await nextTurn(session, ahead);
    return null;
  } catch {
    return "surprise";
  }
}

/** Return the path of the first thing of a fight that cannot be read or played, or null */
async function fightProblem(fight, settings) {
  for (const part of ["table", "log", "turns"]) {
    const problem = SHAPES[part](fight[part], part);
    if (problem) return problem;
  }
  if (fight.surprise !== null) {
    const problem = fight.surprise === undefined ? "surprise" : surpriseShape(fight.surprise, "surprise");
    if (problem) return problem;
  }
  return disagreement(fight) ?? (fight.surprise === null ? null : untried(fight, settings));
}

// --- schema 1 ------------------------------------------------------------------------------------------------------

/** Bring schema 1's turn records into this shape: each keeps the statuses that changed since the record before */
function turnsFromV1(turns) {
  if (listOf(turnV1)(turns, "turns")) return turns; // not of schema 1's shape either: refused as it is
  let before = {};
  return turns.map(({ statuses: now, ...turn }) => {
    const changed = changesOf(before, now);
    before = now;
    return Object.keys(changed).length ? { ...turn, changed } : turn;
  });
}

// --- the whole state -------------------------------------------------------------------------------------------------

/** Return the highest number of the page's combatant ids in a draft and a fight, 0 without any */
function highestId(state) {
  let highest = 0;
  const note = (value) => {
    if (typeof value === "string" && ID.test(value)) highest = Math.max(highest, Number(value.slice(1)));
  };
  for (const key of SIDE_KEYS) for (const member of state.draft.sides[key].members) note(member.id);
  for (const member of state.draft.out ?? []) note(member.id);
  for (const entry of state.table.order) note(entry);
  for (const member of state.surprise ? membersOfSurprise(state.surprise.scenario) : []) note(member);
  return highest;
}

/**
 * Read kept data part by part onto `state`, the state of a page that holds nothing (its draft empty). Returns
 * {state, lost, repaired, newer}: lost names the parts (PARTS) that could not be read, repaired tells that something
 * else was wrong and set right (the next combatant id, keys this page does not keep), newer that a later page kept it.
 */
async function readKept(data, state) {
  if (!plain(data)) return { state, lost: [...PARTS], repaired: false, newer: false };
  const newer = Number.isSafeInteger(data.schema) && data.schema > SCHEMA;
  if (newer) return { state, lost: [], repaired: false, newer };
  const lost = [];
  let repaired = data.schema !== SCHEMA && data.schema !== 1;
  const known = ["schema", "language", "settings", "dice", "view", "nextId", "actions", "draft", "surprise", "table",
    "log", "turns"];
  if (Object.keys(data).some((key) => !known.includes(key))) repaired = true;
  /** Keep a part that has no problem; name one that has, here and for whoever reads the console */
  const taken = (part, problem, take) => {
    if (!problem) take();
    else {
      lost.push(part);
      console.warn(`ambush: the kept ${problem} cannot be read; the page starts without ${part}`);
    }
  };
  for (const part of ["language", "settings", "dice"]) {
    taken(part, SHAPES[part](data[part], part), () => {
      state[part] = data[part];
    });
  }
  taken("draft", draftProblem(data.draft), () => {
    state.draft = data.draft;
  });
  const fight = { surprise: data.surprise, table: data.table, log: data.log,
    turns: data.schema === SCHEMA ? data.turns : turnsFromV1(data.turns) };
  taken("fight", await fightProblem(fight, state.settings), () => Object.assign(state, fight, {
    table: { reached: fight.table.round, renumbered: [], late: {}, ...fight.table },
  }));
  // How the page was shown and how many actions it counted: set right where wrong, nothing the GM made is lost.
  if (data.view !== undefined && SHAPES.view(data.view, "view")) repaired = true;
  else state.view = { ...state.view, ...(data.view ?? {}) };
  const actions = Math.max(0, ...state.log.map((message) => message.action ?? 0));
  if (data.actions !== undefined && (SHAPES.actions(data.actions, "actions") || data.actions < actions)) repaired = true;
  state.actions = Math.max(actions, Number.isSafeInteger(data.actions) ? data.actions : 0);
  const lowest = highestId(state) + 1;
  if (SHAPES.nextId(data.nextId, "nextId") || data.nextId < lowest) repaired = true;
  state.nextId = Math.max(lowest, Number.isSafeInteger(data.nextId) ? data.nextId : 1);
  return { state, lost, repaired, newer: false };
}

export { PARTS, SCHEMA, STRING_KEYS, readKept };
