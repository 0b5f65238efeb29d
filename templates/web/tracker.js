// The page's turn tracker: the GM moves the turn on or back, the page shows the session each move (follow.js) and, as
// the table setting says, passes on the turns of those who may not act. Every turn shown is kept in the state's
// `turns`, with who showed which status then and whether it was passed on.

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [];

/** The most turns one move passes on: past it, nobody in the order can act for a long while, and the page stops */
const PASS_LIMIT = 1000;

/** Return what the page shows now, as the session reads it */
const lookOf = (table, forward) => ({ order: [...table.order], current: table.started ? table.turn : -1,
  round: table.round, forward, rotating: false });

/** Return each combatant's statuses now */
const statusesNow = (table) => Object.fromEntries(table.order.map((id) => [id, [...(table.statuses[id] ?? [])].sort()]));

/** Move the turn on by one: the next row, or the first row of the next round */
function forwardOne(table) {
  if (!table.started) Object.assign(table, { started: true, round: 1, turn: 0 });
  else if (table.turn + 1 < table.order.length) table.turn += 1;
  else Object.assign(table, { turn: 0, round: table.round + 1 });
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
    if (!table.started) return true;
    const turn = { round: table.round, id: table.order[table.turn], passed: false, statuses: statusesNow(table) };
    state.turns.push(turn);
    if (step.restart) {
      turn.passed = true;
      table.turn = 0;
      direction = null;
    } else if (step.skip) {
      turn.passed = true;
      forwardOne(table);
      direction = true;
    } else return true;
  }
  await session.flush();
  return false;
}

/** The GM moves the turn on: false when the page stopped passing turns on */
async function nextTurn(session, state) {
  forwardOne(state.table);
  return follow(session, state, true);
}

/** The GM moves the turn back; the rules never replay what was played (follow.js, 2) */
async function previousTurn(session, state) {
  if (!backOne(state.table)) return true;
  return follow(session, state, false);
}

export { STRING_KEYS, nextTurn, previousTurn, statusesNow };
