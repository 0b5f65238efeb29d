// The page's turn tracker: the GM moves the turn on or back, takes a combatant out of the fight or adds one who arrives
// late; the page shows the session each move (follow.js) and, as the table setting says, passes on the turns of those
// who may not act. Every turn shown is kept in the state's `turns`: whose turn in which round, whether it was passed
// on, and the statuses that changed since the turn before (a fight of hundreds keeps a line per turn, not a copy of
// every combatant's statuses: a browser keeps 5 MB at most).
//
// The table counts its rounds one after another (`round`: the n-th round since the roll, what the session follows and
// the turns record); the number the GM reads is the one the rules give it (session.js nextRoundNumber: AD&D's first
// normal round after the surprise segments is round 1 again, as the card says), kept where it differs (`renumbered`),
// and the furthest round begun (`reached`), so that a round stepped back over and begun again keeps its number.
import { nextRoundNumber } from "../common/session.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [];

/** The most turns one move passes on: past it, nobody in the order can act for a long while, and the page stops */
const PASS_LIMIT = 1000;

/** Return the number the GM reads for the table's round: the rules' renumbering from where it began, else its count */
function roundNumber(table) {
  const from = (table.renumbered ?? []).filter((entry) => entry.at <= table.round).at(-1);
  return from ? from.number + table.round - from.at : table.round;
}

/** Name a row of the order: a member of the surprise by his label, one who came late by the name he was given */
const nameOf = (state, id) => state.surprise?.labels[id] ?? state.table.late?.[id]?.name ?? id;

/** Return what the page shows now, as the session reads it */
const lookOf = (table, forward) => ({ order: [...table.order], current: table.started ? table.turn : -1,
  round: table.round, forward, rotating: false });

/** Return each combatant's statuses now, sorted; those without any left out */
const statusesNow = (table) => Object.fromEntries(table.order.filter((id) => table.statuses[id]?.length)
  .map((id) => [id, [...table.statuses[id]].sort()]));

const statusesAt = (object, id) => (Object.prototype.hasOwnProperty.call(object, id) ? object[id] : []);
const sameList = (one, other) => one.length === other.length && one.every((item, index) => item === other[index]);

/** Return the statuses that differ between two {id: sorted statuses} maps, as they are now ([] for none left) */
function changesOf(before, now) {
  const changed = {};
  for (const id of new Set([...Object.keys(before), ...Object.keys(now)])) {
    if (!sameList(statusesAt(before, id), statusesAt(now, id))) changed[id] = statusesAt(now, id);
  }
  return changed;
}

// The statuses after the last record of a list of turn records, so that each turn adds its changes to them rather than
// adding up the whole list again; a list read from the browser (or put back after a failed action) is added up once.
const lastSeen = new WeakMap();

/** Return each combatant's statuses as the turn records leave them, those without any left out */
function statusesAfter(turns) {
  const known = lastSeen.get(turns);
  if (known?.length === turns.length) return known.statuses;
  const statuses = {};
  for (const turn of turns) {
    for (const [id, list] of Object.entries(turn.changed ?? {})) {
      if (list.length) statuses[id] = list;
      else delete statuses[id];
    }
  }
  lastSeen.set(turns, { length: turns.length, statuses });
  return statuses;
}

/** Keep the record of a turn shown: who, in which round, whether passed on, and the statuses changed since the last */
function record(turns, table, passed) {
  const now = statusesNow(table);
  const changed = changesOf(statusesAfter(turns), now);
  const turn = { round: table.round, id: table.order[table.turn], passed };
  if (Object.keys(changed).length) turn.changed = changed;
  turns.push(turn);
  lastSeen.set(turns, { length: turns.length, statuses: now });
}

/** Begin the table's next round, numbered as the rules number it; a round begun before keeps its number */
function nextRound(state) {
  const { table } = state;
  const proposed = roundNumber(table) + 1;
  const number = nextRoundNumber(state.surprise, table.round, proposed);
  table.round += 1;
  table.turn = 0;
  if (table.round <= table.reached) return;
  table.reached = table.round;
  if (number !== proposed) table.renumbered = [...(table.renumbered ?? []), { at: table.round, number }];
}

/** Move the turn on by one: the next row, or the first row of the next round */
function forwardOne(state) {
  const { table } = state;
  if (!table.started) Object.assign(table, { started: true, round: 1, turn: 0, reached: 1, renumbered: [] });
  else if (table.turn + 1 < table.order.length) table.turn += 1;
  else nextRound(state);
}

/** Move the turn back by one; false when the fight is at its first turn */
function backOne(table) {
  if (!table.started || (table.round <= 1 && table.turn === 0)) return false;
  if (table.turn > 0) table.turn -= 1;
  else Object.assign(table, { turn: table.order.length - 1, round: table.round - 1 });
  return true;
}

/**
 * Show the session the turn now shown, and go on as it asks: back to the round's first turn after it arranged the
 * order, past turns of those who may not act. Returns false when it stopped passing turns on (PASS_LIMIT).
 */
async function follow(session, state, forward) {
  let direction = forward;
  for (let passes = 0; passes < PASS_LIMIT; passes += 1) {
    const table = state.table;
    const step = await session.observe(lookOf(table, direction));
    if (!table.started || !table.order.length) return true;
    record(state.turns, table, step.restart || step.skip);
    if (step.restart) {
      table.turn = 0;
      direction = null;
    } else if (step.skip) {
      forwardOne(state);
      direction = true;
    } else return true;
  }
  await session.flush();
  return false;
}

/** The GM moves the turn on: false when the page stopped passing turns on */
async function nextTurn(session, state) {
  forwardOne(state);
  return follow(session, state, true);
}

/** The GM moves the turn back; the rules never replay what was played (follow.js, 2) */
async function previousTurn(session, state) {
  if (!backOne(state.table)) return true;
  return follow(session, state, false);
}

/**
 * The GM takes a combatant out of the fight: the session lets him go (his statuses go, the rules stop waiting for
 * him), his row leaves the order, the others keep theirs. Where it was his turn, the turn passes to the next row, as a
 * tracker's does when the current combatant is deleted. False when the page stopped passing turns on.
 */
async function takeOut(session, state, id) {
  const { table } = state;
  const index = table.order.indexOf(id);
  if (index < 0) return true;
  await session.left(id);
  table.order.splice(index, 1);
  delete table.statuses[id];
  if (!table.started || index > table.turn) return true;
  if (index < table.turn) {
    table.turn -= 1;
    return true;
  }
  if (!table.order.length) {
    table.turn = 0;
    return true;
  }
  if (table.turn >= table.order.length) nextRound(state);
  return follow(session, state, true);
}

/**
 * Add a combatant who arrives late at the end of the order: no member of the surprise, so he acts in turn, unsurprised.
 * Returns his id.
 */
function addLate(state, id, name, side) {
  state.table.late = { ...(state.table.late ?? {}), [id]: { name, side } };
  state.table.order.push(id);
  return id;
}

export { STRING_KEYS, addLate, changesOf, nameOf, nextTurn, previousTurn, roundNumber, takeOut };
