// Random sequences of table events through the table session on a fake table, the invariants of following the table
// checked after every event (docs/dev/architecture.md, following the table). Run by tests/test_follow.py:
//   node tests/js/follow_cases.mjs CASES.json
// CASES.json: {tree, system, cases: [{name, rotating, draft, dice, premarked: {id: [status]}, groups: {row: [ids]},
// endless (a member never recovers: the surprise cannot end), events: [[kind, n?]]}]}, the tree a folder holding common/ with a build's config.js. `groups`: rows that stand for
// several members (InitMaster's "Foes"), which take the place of those members' own rows. Events: next, back (a step
// back; back 0 without saying so, as ARS's own methods do), skip n (another script or system moves n rows on at once),
// command (another script passes one turn through its own command, !eot: the table moves on without saying which
// way), sort (the order sorted anew, the current combatant kept where the table keeps it), remove (the current row's
// combatants leave the order), add (a row that is no member joins), reroll (a linear table's next round with every
// initiative rolled anew, as ARS does: every row without a place, then one placed at a time, the order sorted and the
// turn set to 0 after each).
// Prints one JSON line per case: {name, ok, problems: [...]}.
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";

const { tree, system, cases } = JSON.parse(await readFile(process.argv[2], "utf8"));
const root = pathToFileURL(`${tree}/common/`).href;
const { provideSystem } = await import(`${root}system.js`);
const parts = { Rules: await import(`${root}rules/${system}.js`) };
const runtime = await import(`${root}runtime/${system}.js`);
const { tableSession } = await import(`${root}session.js`);

/** What the runtime was asked, per case: each start of a turn with the round it fell in and whether it passes, each round begun */
let calls = [];
let rounds = 0;
provideSystem(system, {
  ...parts,
  Runtime: {
    ...runtime,
    async turnStarted(table, surprise, id) {
      const call = { kind: "start", id, round: rounds };
      calls.push(call);
      call.passes = await runtime.turnStarted(table, surprise, id);
      return call.passes;
    },
    async roundStarted(table, surprise) {
      rounds += 1;
      calls.push({ kind: "round", round: rounds });
      return runtime.roundStarted(table, surprise);
    },
  },
});

/** Dice that never run out: the scripted faces, then faces cycling through the die */
function dice(faces) {
  let used = 0;
  return async (count, sides) => Array.from({ length: count }, () => {
    used += 1;
    return used <= faces.length ? Math.min(faces[used - 1], sides) : ((used * 7) % sides) + 1;
  });
}

/** A fake table: an order of row ids, whose turn it is, a round counter where it is not rotating */
class Table {
  constructor({ rotating, order, faces, premarked, groups = {}, members = order }) {
    Object.assign(this, { rotating, order: [...order], turn: 0, round: rotating ? null : 0, forward: null, unplaced: [] });
    this.groups = groups;
    this.marks = new Map(members.map((id) => [id, new Set(premarked[id] ?? [])]));
    this.premarked = premarked;
    this.messages = [];
    this.stored = null;
    this.roll = dice(faces);
  }

  host() {
    return {
      t: (key, data) => (data ? `${key} ${JSON.stringify(data)}` : key),
      roll: (count, sides) => this.roll(count, sides),
      mark: async (id, status, on, lasts, surprise) => {
        const shown = this.marks.get(id);
        if (!shown) return false;
        if (on && shown.has(status) && !(surprise.applied[id] ?? []).includes(status)) return false;
        if (on) shown.add(status);
        else shown.delete(status);
        return true;
      },
      arrange: async (order) => {
        const current = this.order[this.turn];
        const listed = order.map((entry) => entry.id).filter((id) => this.order.includes(id));
        this.order = [...listed, ...this.order.filter((id) => !listed.includes(id))];
        if (this.rotating) return false;
        this.turn = Math.max(0, this.order.indexOf(current));
        return this.round > 0 && this.turn !== 0;
      },
      send: async (message) => { this.messages.push(message); },
      load: () => (this.stored === null ? null : JSON.parse(this.stored)),
      save: async (surprise) => {
        this.stored = surprise === null ? null : JSON.stringify(surprise);
        return true;
      },
      turnOrder: () => ({ round: this.round }),
      language: () => "en",
      settings: () => ({ automation: true, skip: true, cards: "split" }),
    };
  }

  look() {
    const stands = this.groups;
    if (this.rotating) return { order: [...this.order], current: this.order.length ? 0 : -1, round: null, forward: null, rotating: true, stands };
    return { order: [...this.order], current: this.round > 0 && this.order.length ? this.turn : -1, round: this.round,
      forward: this.forward, rotating: false, unplaced: [...this.unplaced], stands };
  }

  /** The members a row stands for: a group's, or the row's own id */
  membersOf(row) {
    return Object.hasOwn(this.groups, row) ? this.groups[row] : [row];
  }

  /** The row whose turn it is, or null */
  currentRow() {
    if (!this.order.length || (!this.rotating && this.round === 0)) return null;
    return this.order[this.rotating ? 0 : this.turn];
  }

  /** Move n rows on: a rotating order turns, a linear one moves its pointer and counts a round where it wraps */
  next(n = 1) {
    if (!this.order.length) return;
    for (let step = 0; step < n; step += 1) {
      if (this.rotating) this.order.push(this.order.shift());
      else if (this.round === 0) this.round = 1;
      else if (++this.turn >= this.order.length) Object.assign(this, { turn: 0, round: this.round + 1 });
    }
    this.forward = true;
  }

  back(told = true) {
    if (this.rotating || this.round === 0) {
      if (this.rotating && this.order.length) this.order.unshift(this.order.pop());
      return;
    }
    if (this.turn > 0) this.turn -= 1;
    else if (this.round > 1) Object.assign(this, { round: this.round - 1, turn: this.order.length - 1 });
    this.forward = told ? false : null;
  }

  /** A linear table's next round, its order rolled anew: yields after each change, for a look */
  *reroll(seed) {
    if (this.rotating || !this.order.length) return;
    Object.assign(this, { round: this.round + 1, turn: 0, forward: true, unplaced: [...this.order] });
    yield;
    this.forward = null;
    while (this.unplaced.length) {
      this.unplaced.shift();
      const placed = this.order.filter((id) => !this.unplaced.includes(id));
      placed.sort((x, y) => ((x.charCodeAt(1) * seed) % 5) - ((y.charCodeAt(1) * seed) % 5) || x.localeCompare(y));
      this.order = [...placed, ...this.unplaced];
      this.turn = 0;
      yield;
    }
  }

  sort(seed) {
    const current = this.order[this.turn];
    this.order.sort((x, y) => ((x.charCodeAt(1) * seed) % 7) - ((y.charCodeAt(1) * seed) % 7) || x.localeCompare(y));
    if (!this.rotating) this.turn = Math.max(0, this.order.indexOf(current));
    this.forward = null;
  }

  remove() {
    if (this.order.length < 2) return;
    const index = this.rotating ? 0 : this.turn;
    this.order.splice(index, 1);
    if (!this.rotating && this.turn >= this.order.length) this.turn = 0;
    this.forward = null;
  }

  add(count) {
    const id = `x${count}`;
    this.order.push(id);
    this.marks.set(id, new Set());
    this.forward = null;
  }
}

/** Play one case and return the invariants it broke */
async function play(entry) {
  calls = [];
  rounds = 0;
  const members = [...entry.draft.sides.a.members, ...entry.draft.sides.b.members].map((member) => member.id);
  const groups = entry.groups ?? {};
  const grouped = new Set(Object.values(groups).flat());
  // Each group's row takes the place of its first member's row; its members have no row of their own
  const rows = members.flatMap((id) => {
    if (!grouped.has(id)) return [id];
    const row = Object.keys(groups).find((key) => groups[key][0] === id);
    return row ? [row] : [];
  });
  const table = new Table({ rotating: entry.rotating, order: rows, faces: entry.dice, premarked: entry.premarked, groups, members });
  const session = tableSession(table.host());
  const problems = [];
  const resolved = await session.resolve(entry.draft);
  if (resolved.problem) return [`refused: ${resolved.problem}`];
  let added = 0;
  let skips = 0;
  let highest = 0;
  const look = async (what) => {
    const before = calls.length;
    const messagesBefore = table.messages.length;
    const row = table.currentRow();
    let step = await session.observe(table.look());
    for (let again = 0; step.restart && again < 3; again += 1) {
      if (!table.rotating) table.turn = 0;
      table.forward = null;
      step = await session.observe(table.look());
    }
    const made = calls.slice(before);
    // A row is passed when every member it stands for may not act, and only then
    const ofRow = made.filter((call) => call.kind === "start" && row !== null && table.membersOf(row).includes(call.id));
    if (step.skip && !(ofRow.length && ofRow.every((call) => call.passes))) {
      problems.push(`${what}: row ${row} passed though ${JSON.stringify(ofRow)}`);
    }
    if (!step.skip && !step.restart && ofRow.length && ofRow.every((call) => call.passes)) {
      problems.push(`${what}: row ${row} kept though none of ${JSON.stringify(ofRow.map((c) => c.id))} may act`);
    }
    // 6: no turn of the round starts while the order is still being rolled.
    if (table.unplaced.length && made.some((call) => call.kind === "start" && call.round === rounds)) {
      problems.push(`${what}: a turn started while the order was being rolled: ${JSON.stringify(made)}`);
    }
    // 1: on a table that counts rounds, every member at a row the round has passed had his start as soon as it was seen.
    highest = Math.max(highest, table.round ?? 0);
    if (!table.rotating && table.round > 0 && table.round === highest && !JSON.parse(table.stored ?? "null")?.done) {
      const gone = new Set(JSON.parse(table.stored).follow.gone);
      const starts = new Set(calls.filter((c) => c.kind === "start" && c.round === rounds).map((c) => c.id));
      const passed = table.order.slice(0, table.turn).flatMap((row) => table.membersOf(row));
      for (const id of passed.filter((member) => members.includes(member) && !gone.has(member))) {
        if (!starts.has(id)) problems.push(`${what}: ${id}'s row was passed in round ${rounds} without his start`);
      }
    }
    if (what === "back" && !table.rotating && made.length) problems.push(`a step back played ${JSON.stringify(made)}`);
    // 2, 3: on a table that counts rounds, a round begins only where the counter reaches a round not seen before.
    if (!table.rotating && rounds > highest) problems.push(`${what}: ${rounds} rounds begun, the table reached ${highest}`);
    const begun = made.filter((call) => call.kind === "round").length;
    if (table.messages.length - messagesBefore > 4 + 4 * begun) {
      problems.push(`${what}: ${table.messages.length - messagesBefore} messages for one look`);
    }
    if (step.skip) {
      if ((skips += 1) > 200) throw new Error("the session never stops skipping");
      table.next();
      await look("skip by the session");
    }
  };
  await look("start");
  if (!table.rotating) {
    table.next();
    await look("start of the fight");
  }
  for (const [kind, n] of entry.events) {
    if (kind === "next") table.next();
    else if (kind === "command") {
      table.next();
      table.forward = null;
    } else if (kind === "skip") table.next(n);
    else if (kind === "back") table.back(n !== 0);
    else if (kind === "sort") table.sort(n);
    else if (kind === "remove") table.remove();
    else if (kind === "add") table.add((added += 1));
    skips = 0;
    if (kind === "reroll") {
      for (const _ of table.reroll(n)) await look(kind);
    } else await look(kind);
  }
  // The surprise ends: the table goes on turn by turn until it is over, as long as a member is still in the order
  // (an order with none of them left is one cleared to be rolled anew: 4).
  const stored = () => JSON.parse(table.stored ?? "null");
  if (table.order.some((row) => table.membersOf(row).some((id) => members.includes(id)))) {
    for (let step = 0; step < 60 * (table.order.length + 1) && !stored()?.done; step += 1) {
      table.next();
      skips = 0;
      await look("next, to the end");
    }
    if (!stored()?.done && !entry.endless) problems.push(`the surprise never ended (${rounds} rounds)`);
  }
  // 1: at most one start of each member's turn per round.
  const seen = new Set();
  for (const call of calls.filter((c) => c.kind === "start")) {
    const key = `${call.id}@${call.round}`;
    if (seen.has(key)) problems.push(`${call.id} started twice in round ${call.round}`);
    seen.add(key);
  }
  // 1: every member in the order when a round ended had his start in it.
  const final = JSON.parse(table.stored ?? "null");
  const gone = new Set(final?.follow.gone ?? []);
  for (let round = 1; round < (final?.done ? 0 : rounds); round += 1) {
    for (const id of members.filter((member) => !gone.has(member))) {
      if (!seen.has(`${id}@${round}`)) problems.push(`${id} had no start in round ${round}, which ended`);
    }
  }
  // Only what it set: after clear, every mark left is one the table had before.
  await session.clear();
  for (const [id, shown] of table.marks) {
    const before = new Set(entry.premarked[id] ?? []);
    for (const status of shown) if (!before.has(status)) problems.push(`${id} keeps ${status} after clear`);
    for (const status of before) if (!shown.has(status)) problems.push(`${id} lost its own ${status}`);
  }
  return problems;
}

for (const entry of cases) {
  try {
    const problems = await play(entry);
    console.log(JSON.stringify({ name: entry.name, ok: problems.length === 0, problems }));
  } catch (error) {
    console.log(JSON.stringify({ name: entry.name, ok: false, problems: [String(error?.stack ?? error)] }));
  }
}
