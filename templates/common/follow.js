// Following a real table (docs/dev/architecture.md, following the table): the record of which turns of which round the
// session has played, and what one look at the turn order asks it to play now. Pure: the session carries the steps out
// with the system's runtime.
//
// A real table is not a row of "next turn" clicks: other scripts and game systems move, skip, re-sort and re-roll the
// order, GMs step back, combatants leave. So the session never counts events: at every look it compares what the table
// shows with its record, and plays what the rules say should have happened.
//   1. A member of the surprise gets exactly one start of his turn per round: at his turn, or, when his row was jumped
//      over or sorted behind the current one, as soon as the session sees it (a late start, which the card says). A row
//      may stand for several members (a group's row, "Foes"): its turn is the turn of each of them.
//   2. Stepping back never starts a turn again and never begins a round; going forward again to where the table was
//      replays nothing. A step back is what the table says it is, or, where it does not say, a round counter that went
//      down.
//   3. A round begins when the table's round counter moves on, or the table moves forward to an earlier row under the
//      same count (a VTT that counts rounds, where the rules may number a round as the one before: AD&D's first round
//      after the surprise segments); or, on a table without a counter (a Roll20 turn order turns round), when a member
//      whose turn this round already started comes to the top again after every member present had his turn: never
//      because a row of ours or another script's reached the top.
//   4. A row that is no member of the surprise is never a turn; a member whose row leaves the order leaves the fight,
//      unless no member is left in it: an order cleared (to be rolled anew, or damaged) leaves the surprise waiting.
//   5. A turn in progress ends when another row's turn is shown, or a round begins.
//   6. While the order is still being rolled (a row has no place in it yet: ARS re-rolls every initiative as a round
//      begins, a GM resets them), a round may begin and turns may end, but no turn starts.

/**
 * What the session keeps of the turns it played, with the surprise.
 * @typedef {object} FollowRecord
 * @property {number} round  rounds begun since the surprise, as the session counts them (0 before the first)
 * @property {number | null} tableRound  the table's round counter in the session's round, where it has one
 * @property {boolean} back  the table shows an earlier round than the session's, stepped back to
 * @property {string[]} started  the members whose turn started this round, in that order
 * @property {string | null} active  the member whose turn is in progress
 * @property {string[]} [together]  the other members of the row whose turn is in progress (a row standing for several)
 * @property {string[]} seen  the members the turn order showed, so that one who leaves it can be told
 * @property {string[]} gone  the members who left the order
 * @property {string | null} row  the row whose turn the table showed at the last look, member or not
 * Its lists are replaced when they change, never changed in place (common/surprise-record.js REPLACED_ONLY).
 */

/**
 * One look at the turn order.
 * @typedef {object} Observation
 * @property {string[]} order  the rows' ids as the table shows them, members of the surprise and others
 * @property {number} current  the index of the row whose turn it is, -1 when none
 * @property {number | null} round  the table's round counter, null where it has none
 * @property {boolean | null} forward  the direction of the change where the table tells it: true forward, false back
 * @property {boolean} rotating  the order turns round (Roll20): the current row is the top, passed rows go last
 * @property {string[]} [unplaced]  the rows without a place in the order yet (no initiative rolled)
 * @property {Record<string, string[]>} [stands]  the members a row stands for, by the row's id, where that is not the
 *   member of the row's own id: a row of a group ("Foes"), or a copy of a member's token; other rows stand for their id
 */

/**
 * A step the session carries out, in order: a member leaves, a turn ends, a passed-over turn starts late (and ends),
 * a round begins, the current turn starts.
 * @typedef {{kind: "left" | "end" | "late" | "round" | "start", id?: string}} Step
 */

/** Return a fresh record, the table's round counter as it stands when the surprise is resolved */
const newRecord = (tableRound = null) => ({
  round: 0, tableRound, back: false, started: [], active: null, together: [], seen: [], gone: [], row: null,
});

/** Return the rows a rotating table passed this round: those from the first member started this round to the end */
function passedRotating(order, record) {
  if (!record.started.length) return [];
  const started = new Set(record.started);
  const placed = new Set(); // a row listed twice has its first place only
  for (const [index, id] of order.entries()) {
    if (placed.has(id)) continue;
    if (index > 0 && started.has(id)) return order.slice(index);
    placed.add(id);
  }
  return [];
}

/**
 * Copy a record, its lists shared: a list that changes is replaced (added), never changed in place, so that the record
 * given stays as it was and a host storing what changed tells an unchanged list by identity (foundry/stored.js)
 */
const copied = (record) => ({ ...record, together: record.together ?? [] });

/** The list each list made by `added` grew from, so that a host storing what changed writes the new id alone */
const origins = new WeakMap();

/** Return a list with one more id at its end: a new list, the one given left as it was */
function added(list, id) {
  const grown = [...list, id];
  origins.set(grown, list);
  origins.delete(list); // one step is kept, not a chain of every list of the round (a host finds the rest by comparing)
  return grown;
}

/** Return the list a list grew from by one id at its end (added), or undefined */
const grownFrom = (list) => origins.get(list);

/** Tell whether a row stands for others than the member of its own id */
const standsFor = (stands, id) => Object.prototype.hasOwnProperty.call(stands, id) && stands[id].length > 0;

/**
 * Return a look with each row that stands for several members replaced by them, in place, the current row's members
 * as `group` (null when no row stands for others: the look as it is)
 */
function expanded(seen) {
  const stands = seen.stands ?? {};
  // most tables have no such row: the few entries of stands are asked, not every row of the order
  if (!Object.keys(stands).some((id) => stands[id].length > 0) || !seen.order.some((id) => standsFor(stands, id))) {
    return { ...seen, group: null };
  }
  const order = [];
  let current = -1;
  let group = [];
  seen.order.forEach((id, index) => {
    const ids = standsFor(stands, id) ? stands[id] : [id];
    if (index === seen.current) [current, group] = [order.length, ids];
    order.push(...ids);
  });
  const unplaced = (seen.unplaced ?? []).flatMap((id) => (standsFor(stands, id) ? stands[id] : [id]));
  return { ...seen, order, current, group, unplaced };
}

/** Tell whether two lists hold the same ids in the same order, or the first `length` of each do */
const sameIds = (one, other, length = null) => {
  if (length === null ? one.length !== other.length : length > one.length || length > other.length) return false;
  const compared = length === null ? one.length : length;
  for (let index = 0; index < compared; index += 1) if (one[index] !== other[index]) return false;
  return true;
};

/**
 * Plan the common look without looking anything up: the table shows the members it showed last time, in that order and
 * nobody else, forward under the same round counter, the turns of this round started from the top down. Then every
 * row before the current one is started, in order, and the current one starts unless it has: plan's own rules for
 * this case (1, 3, 5), as comparisons of ids in place. Returns null for any other look, which plan works out in full.
 */
function steadyPlan(given, seen, done) {
  if (given.gone.length || (given.together ?? []).length || !sameIds(seen.order, given.seen) || (seen.unplaced ?? []).length) {
    return null;
  }
  if (done) return { steps: [], record: copied(given), waiting: [] };
  const { order, current } = seen;
  // where the last look's row is: most often the row before this one (order has each id once here)
  const before = given.row === null ? -1 : order[current - 1] === given.row ? current - 1 : order.indexOf(given.row);
  const onRow = current >= 0 && current < order.length ? order[current] : null;
  const wrapped = onRow !== null && before >= 0 && current <= before && onRow !== order[before];
  const started = given.started.length;
  if (seen.forward !== true || seen.rotating || given.back || seen.round === null || seen.round !== given.tableRound
    || given.round === 0 || onRow === null || wrapped || !sameIds(given.started, order, started)) return null;
  const record = copied(given);
  const steps = [];
  record.row = onRow;
  if (record.active !== null && record.active !== onRow) steps.push({ kind: "end", id: record.active });
  if (record.active !== onRow) record.active = null;
  for (let index = started; index < current; index += 1) {
    steps.push({ kind: "late", id: order[index] });
    record.started = added(record.started, order[index]);
  }
  if (current >= record.started.length) {
    steps.push({ kind: "start", id: onRow });
    record.started = added(record.started, onRow);
    record.active = onRow;
  }
  return { steps, record, waiting: [] };
}

/**
 * Plan what a look at the table asks of the session: the steps to carry out, in order, and the record after them.
 * `members` are the surprise's members, a list or anything with has(id); once the surprise is `done`, only a member
 * leaving still counts.
 * @param {FollowRecord} given
 * @param {string[] | {has: (id: string) => boolean}} members
 * @param {Observation} seen
 * @returns {{steps: Step[], record: FollowRecord, waiting: string[]}}  waiting: the rows the order waits for (6)
 */
function plan(given, members, look, done = false) {
  const seen = expanded(look);
  const steady = seen.group ? null : steadyPlan(given, seen, done);
  if (steady) return steady;
  const record = copied(given);
  const steps = [];
  // Sets of the lists a look asks about again and again: each row is looked up, not searched for, once per look.
  const gone = new Set(record.gone);
  const listed = Array.isArray(members) ? new Set(members) : members;
  const inFight = { has: (id) => listed.has(id) && !gone.has(id) };
  const shown = new Set(seen.order.filter((id) => inFight.has(id)));
  const present = [...shown]; // each member once, at his first row
  const started = new Set(record.started);
  const start = (kind, id) => {
    steps.push({ kind, id });
    record.started = added(record.started, id);
    started.add(id);
  };
  const endActive = () => {
    for (const id of [record.active, ...record.together].filter((id) => id !== null)) steps.push({ kind: "end", id });
    record.active = null;
    record.together = [];
  };
  const beginRound = () => {
    steps.push({ kind: "round" });
    record.round += 1;
    record.started = [];
    started.clear();
  };
  // 4: a member the order showed and no longer shows has left the fight, unless the host said so already (session.left).
  for (const id of present.length ? record.seen.filter((id) => !shown.has(id) && !gone.has(id)) : []) {
    steps.push({ kind: "left", id });
    record.gone = added(record.gone, id);
    record.started = record.started.filter((other) => other !== id);
    started.delete(id);
    if (record.active === id) record.active = null;
    record.together = record.together.filter((other) => other !== id);
  }
  const same = record.seen.length === present.length && record.seen.every((id, index) => id === present[index]);
  if (present.length && !same) {
    const known = new Set(record.seen);
    record.seen = [...record.seen.filter((id) => shown.has(id)), ...present.filter((id) => !known.has(id))];
  }
  const unplaced = new Set(seen.unplaced ?? []);
  const waiting = unplaced.size ? seen.order.filter((id) => unplaced.has(id)) : [];
  const outcome = () => ({ steps, record, waiting });
  if (done) return { steps, record, waiting: [] };
  // The current row's members in the fight; a row standing for several shows its first one
  const rowMembers = (seen.group ?? (seen.current >= 0 ? [seen.order[seen.current]] : [])).filter((id) => inFight.has(id));
  const onRow = rowMembers[0] ?? (seen.current >= 0 ? seen.order[seen.current] : null);
  const current = rowMembers[0] ?? null;
  const before = record.row === null ? -1 : seen.order.indexOf(record.row);
  record.row = onRow;
  if (record.active !== null && record.active !== onRow) endActive();
  // 2: a step back plays nothing; the table is in the past until it shows the session's round again.
  const counterDown = seen.round !== null && record.tableRound !== null && seen.round < record.tableRound;
  if (seen.forward === false || (seen.forward === null && counterDown)) {
    record.back = record.back || (seen.round !== null && seen.round !== record.tableRound);
    return outcome();
  }
  const resumed = record.back;
  if (record.back) {
    if (counterDown) return outcome();
    record.back = false;
  }
  // 3: the table's counter moved on, or went forward to an earlier row: who was passed over at the end of the round
  // starts his turn before it ends. Back in the session's round after a step back, the table wrapped nowhere.
  const wrapped = seen.forward === true && !resumed && onRow !== null && before >= 0 && seen.current <= before
    && onRow !== seen.order[before];
  if (seen.round !== null && (seen.round !== record.tableRound || (wrapped && record.round > 0))) {
    endActive();
    if (record.round > 0) for (const id of present.filter((id) => !started.has(id))) start("late", id);
    beginRound();
    record.tableRound = seen.round;
  }
  // The surprise comes before the table's next round: nothing is played until that round begins.
  if (seen.round !== null && record.round === 0) return outcome();
  // 6: the order is still being rolled.
  if (waiting.length) return outcome();
  // 1: rows passed this round, before the current one or, on a rotating table, behind the first one started.
  const passed = seen.rotating ? passedRotating(seen.order, record) : seen.order.slice(0, Math.max(seen.current, 0));
  for (const id of passed.filter((id) => inFight.has(id) && !started.has(id))) start("late", id);
  // 3: a rotating table comes round again, or shows its first member since the surprise.
  const cameRound = current !== null && started.has(current) && present.every((id) => started.has(id));
  if (seen.round === null && current !== null && (record.round === 0 || cameRound)) {
    endActive();
    beginRound();
  }
  if (current !== null && !started.has(current)) {
    start("start", current);
    record.active = current;
  }
  // 1: the others the current row stands for start with the first
  for (const id of rowMembers.slice(1).filter((id) => !started.has(id))) {
    start("start", id);
    record.together = added(record.together, id);
  }
  return outcome();
}

export { added, grownFrom, newRecord, plan };
