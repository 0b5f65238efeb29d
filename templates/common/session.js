// The table session: everything between a system's table runtime and a virtual tabletop that is not the tabletop's own
// business. It turns a draft into a surprise and resolves it, follows the table (follow.js), clears, tells who leaves,
// writes the status lines, decides who sees which part of a card, and runs the work of one table one event at a time.
// It talks to the tabletop only through its host (below): Foundry's hooks and Roll20's events become session calls.
import { added, newRecord, plan } from "./follow.js";
import { scenarioFromDraft } from "./draft.js";
import { oddsLines } from "./odds.js";
import { scenarioToml } from "./scenario-file.js";
import { clearMarks, newSurprise } from "./surprise-record.js";
import { rulesSystem } from "./system.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = ["Chat.ForGM", "Follow.PassedOver", "Follow.Title"];

/**
 * What the session asks of a virtual tabletop, written once for every host.
 * @typedef {object} Host
 * @property {(key: string, data?: Record<string, unknown>) => string} t  Translate a catalogue key, filling {names},
 *   numbers written as the language writes them (common/format.js).
 * @property {() => string} language  The language t translates to, a BCP 47 tag, for numbers written outside t.
 * @property {import("./surprise-record.js").Roller} roll  Roll dice; the host keeps them for the next message that carries dice.
 * @property {import("./surprise-record.js").InitiativeRoller} [rollInitiative]  Roll a combatant's Initiative through the
 *   game system's own roll, where it has one; kept as roll's dice are.
 * @property {(id: string, status: string, on: boolean, lasts: import("./surprise-record.js").Lasts | null,
 *   surprise: import("./surprise-record.js").Surprise) => Promise<boolean>} mark
 *   Show or hide a status on a combatant of the surprise; true when showing it applied it (the RuntimeTable's mark).
 * @property {(order: Array<{id: string, sequence: number}>) => Promise<boolean>} arrange  The RuntimeTable's arrange.
 * @property {(message: Message, surprise: import("./surprise-record.js").Surprise) => Promise<void>} send  Post one message.
 * @property {() => import("./surprise-record.js").Surprise | null} load  The surprise being played, to change and save.
 * @property {() => import("./surprise-record.js").Surprise | null} [peek]  The surprise being played, to read only (where
 *   the host can give it without a copy); load where absent.
 * @property {(surprise: import("./surprise-record.js").Surprise | null, changed: Set<string> | null) => Promise<boolean>} save
 *   Keep the surprise (null: drop it); false when the host can no longer keep it, its fight being gone. `changed`:
 *   the members whose parts the event changed (surprise-record.js FIXED_PARTS), null when it may have changed any part.
 * @property {() => TurnOrder} turnOrder  Read the turn order as a surprise is resolved.
 * @property {() => Settings} settings  The table's settings.
 */

/**
 * The turn order as the session reads it when a surprise is resolved.
 * @typedef {object} TurnOrder
 * @property {number | null} round  the round the table counts (0 before the fight starts), null where it counts none
 * @property {number | null} [shown]  where the table counts no rounds but another script shows a count the session
 *   cannot renumber (Roll20 beside RoundMaster): the number it shows for the round being played, from which every round
 *   the surprise plays is numbered as one of that count
 */

/**
 * The settings of the automation, as the GM set them at the table.
 * @typedef {object} Settings
 * @property {boolean} automation  follow the turns
 * @property {boolean} skip  pass on the turns of those who may not act
 * @property {"split" | "public" | "gm"} cards  who sees a card: its outcome to all and the rolls behind it to the GMs,
 *   all of it to all, or all of it to the GMs
 */

/**
 * One chat message of a card.
 * @typedef {object} Message
 * @property {string} title
 * @property {string[]} lines  plain text: the host escapes it
 * @property {boolean} gm  whispered to the GMs
 * @property {boolean} dice  carries the dice rolled since the last card
 * @property {object[]} records  what the card says, as data: one record, or a summary's, one per card it sums up
 */

/**
 * What a look at the table asks of the host afterwards.
 * @typedef {object} Followed
 * @property {boolean} restart  the rules put the order in another order as the round began: look again
 * @property {boolean} skip  the combatants whose turn began (all those the current row stands for) may not act, and
 *   the table passes such turns on
 * @property {string[]} waiting  the rows not placed in the order yet, before which no turn starts (follow.js, 6)
 * @property {string[]} started  the members whose turn started at this look, late or at their row, in order
 */

let queue = Promise.resolve();

/**
 * Run the work of the table one task after another: a change of turn may arrive while the previous one is still
 * rolling, and both read and write the same surprise. A task that fails is reported and the queue goes on.
 */
function queued(task, report) {
  const run = queue.then(task);
  queue = run.catch(report);
  return run;
}

/**
 * Split a card into its messages: what happened to everyone and the rolls, targets and attributes behind it to the
 * GMs alone ("split"), all of it to everyone ("public"), or all of it to the GMs ("gm"). The records go with the
 * message that carries the details, so that they reach whoever may read them.
 */
function messagesOf({ title, lines, details, records }, dice, cards, t) {
  if (cards !== "split") return [{ title, lines: [...lines, ...details], gm: cards === "gm", dice, records }];
  const secret = details.length > 0 || dice;
  const messages = [];
  if (lines.length) messages.push({ title, lines, gm: false, dice: false, records: secret ? [] : records });
  if (secret) messages.push({ title: t("Chat.ForGM", { title }), lines: details, gm: true, dice, records });
  return messages;
}

/** Sum cards up as one: the first one's title, then every card's lines, details and records in order */
const summed = (cards) => cards.reduce((all, card) => ({
  title: all.title, lines: [...all.lines, ...card.lines], details: [...all.details, ...card.details],
  records: [...all.records, ...card.records],
}));

/**
 * Build the RuntimeTable the runtime plays on: the host's, with the cards sent by the table's choice of who sees what. While
 * `holding()` (the turns of those who may not act, one after another), cards wait in the surprise and go out as one
 * when the session flushes them: one GM action posts a few cards, however many turns it passes on.
 */
function tableOf(host, surprise, holding = () => false, changed = new Set()) {
  let rolled = false;
  const send = async (card, dice) => {
    for (const message of messagesOf(card, dice, host.settings().cards, host.t)) await host.send(message, surprise);
  };
  const table = {
    t: host.t,
    language: host.language,
    async roll(count, sides, purpose) {
      rolled = true;
      return host.roll(count, sides, purpose);
    },
    mark(id, status, on, lasts = null) {
      changed.add(id);
      return host.mark(id, status, on, lasts, surprise);
    },
    rollInitiative: host.rollInitiative && (async (id, kind, bonus) => {
      const rolledThere = await host.rollInitiative(id, kind, bonus);
      rolled = rolled || rolledThere !== null;
      return rolledThere;
    }),
    arrange: (order) => host.arrange(order),
    async post({ title, lines, details = [], record = null }) {
      const card = { title, lines, details, records: record ? [record] : [] };
      const dice = rolled;
      rolled = false;
      if (holding()) {
        // Kept by number, "0" the first: a VTT storing what changed adds one card a turn (surprise-record.js ADDED_ONLY)
        const held = surprise.held ?? { cards: {}, dice: false };
        held.cards[String(Object.keys(held.cards).length)] = card;
        held.dice = held.dice || dice;
        surprise.held = held;
        return;
      }
      await table.flush();
      await send(card, dice);
    },
    /** Send the cards held back as one card (the key stays: a VTT may merge a stored surprise into the one before) */
    async flush() {
      const held = surprise.held;
      surprise.held = null;
      const cards = Object.values(held?.cards ?? {}); // in their numbers' order (a list, as held before, the same)
      if (cards.length) await send(summed(cards), held.dice);
    },
  };
  return table;
}

/** Return the lines the GM reads before rolling: who gets the jump and each member's loss, or what is wrong */
function draftOddsLines(draft, t) {
  const { scenario, problem } = scenarioFromDraft(draft, t);
  return problem ? [problem] : oddsLines(rulesSystem().Rules.odds(scenario), t, scenario);
}

/**
 * Tell a draft from a rules scenario by its type: a draft always lists those at the table out of the fight (`out`,
 * empty when everyone fights: draftFromCombatants, a scenario file read, every edit), a rules scenario never does
 */
const isDraft = (scenario) => Array.isArray(scenario?.out);

/** Return the rules scenario of a draft; a bad draft throws its one-line problem */
function builtScenario(draft, t) {
  const built = scenarioFromDraft(draft, t);
  if (built.problem) throw new Error(built.problem);
  return built.scenario;
}

/** Return the odds of a draft (members by name) or of a rules scenario: `ambush odds --json`'s object */
const oddsOf = (scenario, t) => rulesSystem().Rules.odds(isDraft(scenario) ? builtScenario(scenario, t) : scenario);

/** Return a draft as the text of a scenario file; a bad draft throws its one-line problem */
const scenarioText = (draft, t) => scenarioToml(builtScenario(draft, t));

/**
 * Return the number the VTT gives the round about to begin after round `current` (the AD&D surprise segments are no
 * rounds of the fight). A table stepped back behind the session's round keeps its own numbers until it is back.
 */
function nextRoundNumber(surprise, current, proposed) {
  if (!surprise || surprise.done || current !== surprise.follow?.tableRound) return proposed;
  const own = rulesSystem().Runtime.nextRoundNumber; // optional: a runtime without it keeps the VTT's numbers
  return own ? own(surprise, proposed) : proposed;
}

/**
 * Return the world time a change of the table's round or turn passes, given the `seconds` the table passes for it
 * (negative for a step back): a round the rules time themselves (an AD&D surprise segment is no round of the fight)
 * passes at most its own time at its end and none turn by turn. `from` is the table's round before the change, `to`
 * the round after it as the table proposes it (`from` again for a change of turn). The session knows the changes next
 * to its round: within it, on from it, back from it, and on into it again from the round before; every other change
 * passes the table's own time. So the time only ever shrinks, and a step back takes back what the step on passed.
 */
function passedSeconds(surprise, from, to, seconds) {
  const record = surprise?.follow;
  if (!record || !Number.isFinite(seconds) || !Number.isInteger(record.tableRound)) return seconds;
  const at = record.tableRound;
  // The round after the roll (1 the first) whose time the change passes, or takes back
  let index = null;
  if (to === from) index = from === at ? record.round : null;
  else if (to > from) index = from === at ? record.round : from === at - 1 ? record.round - 1 : null;
  else index = from === at ? record.round - 1 : null;
  const timed = rulesSystem().Runtime.roundSeconds; // optional: a runtime without it times no round itself
  const own = index >= 1 && timed ? timed(surprise, index) : null;
  if (own === null) return seconds;
  if (to === from) return 0;
  return Math.sign(seconds) * Math.min(Math.abs(seconds), own);
}

/** Tell whether a combatant is a member of a surprise */
const isMember = (surprise, id) => Object.prototype.hasOwnProperty.call(surprise.labels, id);

/**
 * Return the session of one table: what its host does, played by the rules. Each call loads the surprise, changes
 * it and saves it; the host runs the calls of one event inside queued().
 * @param {Host} host
 */
function tableSession(host) {
  const runtime = () => rulesSystem().Runtime;

  /**
   * Return the surprise being played, in today's form, with `whole` set when it was stored in an earlier one (to be
   * kept whole); `readOnly` reads it where the host can give it without a copy
   */
  function loaded(readOnly = false) {
    const stored = readOnly && host.peek ? host.peek() : host.load();
    const upgraded = stored && runtime().upgraded?.(stored); // optional: a runtime whose stored form never changed
    return { surprise: upgraded ?? stored, whole: Boolean(upgraded) };
  }

  /** Return the surprise being played, to read only */
  const reading = () => loaded(true).surprise;

  /**
   * Keep the surprise, with the members whose parts changed (null: any part); one its fight no longer has loses its
   * statuses instead (they could never be removed)
   */
  async function keep(surprise, changed) {
    if (!(await host.save(surprise, changed))) await clearMarks(tableOf(host, surprise), surprise);
  }

  /**
   * Carry out the steps a look at the table asked for (follow.js). The turns started are held back and summed up in
   * one card, which goes out once a turn is played at the table, or before a new round's card.
   */
  async function carryOut(surprise, steps, whole) {
    let holding = false;
    const changed = new Set(steps.filter((step) => step.id !== undefined).map((step) => step.id));
    const table = tableOf(host, surprise, () => holding, changed);
    // The current row passes when every member it stands for may not act
    let starts = 0;
    let passes = 0;
    for (const step of steps) {
      if (step.kind === "left") await runtime().left(table, surprise, step.id);
      else if (step.kind === "end") await runtime().turnEnded(table, surprise, step.id);
      else if (step.kind === "round") {
        await table.flush();
        if (await runtime().roundStarted(table, surprise)) {
          // The rules put the order in another order under the round's first turn: nothing of the round has started.
          Object.assign(surprise.follow, { started: [], active: null, together: [] });
          await keep(surprise, whole ? null : changed);
          return { restart: true, skip: false };
        }
      } else {
        holding = true;
        if (step.kind === "late") {
          const name = surprise.labels[step.id] ?? "?";
          await table.post({ title: host.t("Follow.Title"), lines: [host.t("Follow.PassedOver", { name })] });
          await runtime().turnStarted(table, surprise, step.id);
          await runtime().turnEnded(table, surprise, step.id);
        } else {
          starts += 1;
          if (await runtime().turnStarted(table, surprise, step.id)) passes += 1;
        }
        holding = false;
      }
    }
    const skip = starts > 0 && passes === starts && host.settings().skip;
    if (!skip || surprise.done) await table.flush();
    await keep(surprise, whole ? null : changed);
    return { restart: false, skip };
  }

  return {
    /** Return the surprise being played, or null */
    current: reading,

    /**
     * Resolve a draft: check it, clear the surprise before it, roll, post the card, mark, and keep the surprise with
     * what `extra(scenario)` adds for the host. Returns {surprise} or {problem}, one translated line.
     */
    async resolve(draft, extra = () => ({})) {
      const { scenario, problem } = scenarioFromDraft(draft, host.t);
      if (problem) return { problem };
      const { surprise: previous } = loaded();
      if (previous) await clearMarks(tableOf(host, previous), previous);
      const surprise = { ...newSurprise(scenario), ...extra(scenario) };
      // The surprise comes before round 1, or before the next round of a fight already running.
      const { round, shown = null } = host.turnOrder();
      surprise.follow = newRecord(round);
      await runtime().resolve(tableOf(host, surprise), surprise, shown ?? (round ?? 0) + 1, shown !== null);
      await keep(surprise, null);
      return { surprise };
    },

    /** End the surprise: remove what it marked and drop it; false when there was none */
    async clear() {
      const { surprise } = loaded();
      if (!surprise) return false;
      await clearMarks(tableOf(host, surprise), surprise);
      await host.save(null, null);
      return true;
    },

    /** A combatant left the fight: his statuses go, and the rules stop waiting for him */
    async left(id) {
      const { surprise, whole } = loaded();
      if (!surprise || !isMember(surprise, id) || surprise.follow.gone.includes(id)) return;
      surprise.follow.gone = added(surprise.follow.gone, id);
      const changed = new Set([id]);
      await runtime().left(tableOf(host, surprise, undefined, changed), surprise, id);
      await keep(surprise, whole ? null : changed);
    },

    /**
     * Follow the table: compare what it shows now with what the session played, and play what the rules say should
     * have happened (follow.js). With the automation off, or the surprise over, only a member leaving counts.
     * @param {import("./follow.js").Observation} seen
     * @returns {Promise<Followed>}
     */
    async observe(seen) {
      const { surprise, whole } = loaded();
      if (!surprise) return { restart: false, skip: false, waiting: [], started: [] };
      const idle = surprise.done || !host.settings().automation;
      const members = { has: (id) => isMember(surprise, id) }; // by key: the labels are the surprise's members
      const { steps, record, waiting } = plan(surprise.follow, members, seen, idle);
      surprise.follow = record;
      const followed = await carryOut(surprise, steps, whole);
      const started = steps.filter((step) => step.kind === "start" || step.kind === "late").map((step) => step.id);
      return { ...followed, waiting, started };
    },

    /**
     * Return the members whose turn a look at the table would start, late or at their row, without playing anything:
     * a host that moves the order itself asks before it moves
     * @param {import("./follow.js").Observation} seen
     */
    wouldStart(seen) {
      const surprise = reading();
      if (!surprise || surprise.done || !host.settings().automation) return [];
      const { steps } = plan(surprise.follow, { has: (id) => isMember(surprise, id) }, seen);
      return steps.filter((step) => step.kind === "start" || step.kind === "late").map((step) => step.id);
    },

    /** Send the cards held back for a summary now: the host passes no more turns on in this action */
    async flush() {
      const { surprise, whole } = loaded();
      if (!surprise?.held) return;
      await tableOf(host, surprise).flush();
      await keep(surprise, whole ? null : new Set());
    },

    /** Play these combatants' turns now, for tables that move the turns by hand; false without a surprise */
    async playTurns(ids) {
      const { surprise, whole } = loaded();
      if (!surprise) return false;
      const changed = new Set(ids);
      const table = tableOf(host, surprise, undefined, changed);
      for (const id of ids) {
        await runtime().turnStarted(table, surprise, id);
        if (isMember(surprise, id) && !surprise.follow.started.includes(id)) surprise.follow.started = added(surprise.follow.started, id);
      }
      await keep(surprise, whole ? null : changed);
      return true;
    },

    /** Return what the surprise tracks, a line each, or null without one */
    statusLines() {
      const surprise = reading();
      return surprise ? runtime().statusLines(tableOf(host, surprise), surprise) : null;
    },

    /**
     * Name the table round being played where the rules name it (an AD&D surprise segment), else null; or, given
     * `rounds`, the round that many rounds after the roll (1 the first), for a table stepped back to it
     */
    roundName(rounds = undefined) {
      const surprise = reading();
      const named = runtime().roundName; // optional: a runtime without it names no round
      return surprise && named ? named(tableOf(host, surprise), surprise, rounds) : null;
    },
  };
}

export {
  STRING_KEYS,
  draftOddsLines, isDraft, messagesOf, nextRoundNumber, oddsOf, passedSeconds, queued, scenarioText,
  tableSession,
};
