// The table session: everything between a system's table runtime and a virtual tabletop that is not the tabletop's own
// business. It turns a draft into a surprise and resolves it, follows the turns, clears, tells who leaves, writes the
// status lines, decides who sees which part of a card, and runs the work of one table one event at a time. It talks
// to the tabletop only through its host (below): Foundry's hooks and Roll20's events become session calls.
import { SIDE_KEYS } from "./config.js";
import { buildScenario } from "./inputs.js";
import { oddsLines } from "./odds/shared.js";
import { scenarioToml } from "./scenario-file.js";
import { clearMarks, newSurprise } from "./surprise.js";
import { rulesSystem } from "./system.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = ["Chat.ForGM"];

/**
 * What the session asks of a virtual tabletop, written once for every host.
 * @typedef {object} Host
 * @property {(key: string, data?: Record<string, unknown>) => string} t  Translate a catalogue key, filling {names}.
 * @property {import("./surprise.js").Roller} roll  Roll dice; the host keeps them for the next message that carries dice.
 * @property {(id: string, status: string, on: boolean, lasts: import("./surprise.js").Lasts | null,
 *   surprise: import("./surprise.js").Surprise) => Promise<boolean>} mark
 *   Show or hide a status on a combatant of the surprise; true when showing it applied it (the Table's mark).
 * @property {(order: Array<{id: string, sequence: number}>) => Promise<boolean>} arrange  The Table's arrange.
 * @property {(message: Message, surprise: import("./surprise.js").Surprise) => Promise<void>} send  Post one message.
 * @property {() => import("./surprise.js").Surprise | null} load  The surprise being played, to change and save.
 * @property {(surprise: import("./surprise.js").Surprise | null) => Promise<boolean>} save
 *   Keep the surprise (null: drop it); false when the host can no longer keep it, its fight being gone.
 * @property {() => TurnOrder} turnOrder  Read the turn order.
 * @property {() => Settings} settings  The table's settings.
 */

/**
 * The turn order as the session reads it.
 * @typedef {object} TurnOrder
 * @property {boolean} started  whether the fight's rounds are being counted
 * @property {number} round  the round being played (0 before the first)
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
 * @property {object | null} record  what the card says, kept with the message as data
 */

/**
 * What a step of the turns asks of the host afterwards.
 * @typedef {object} Step
 * @property {boolean} restart  the order changed under the round's first turn: start the round again there
 * @property {boolean} skip  the combatant whose turn began may not act, and the table passes such turns on
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

/** Build the Table the runtime plays on: the host's, with the cards sent by the table's choice of who sees what */
function tableOf(host, surprise) {
  let rolled = false;
  return {
    t: host.t,
    async roll(count, sides, purpose) {
      rolled = true;
      return host.roll(count, sides, purpose);
    },
    mark: (id, status, on, lasts = null) => host.mark(id, status, on, lasts, surprise),
    arrange: (order) => host.arrange(order),
    async post({ title, lines, details = [], record = null }) {
      const dice = rolled;
      rolled = false;
      for (const message of messagesOf({ title, lines, details, record }, dice, host.settings().cards, host.t)) {
        await host.send(message, surprise);
      }
    },
  };
}

/**
 * Split a card into its messages: what happened to everyone and the rolls, targets and attributes behind it to the
 * GMs alone ("split"), all of it to everyone ("public"), or all of it to the GMs ("gm"). The record goes with the
 * message that carries the details, so that it reaches whoever may read them.
 */
function messagesOf({ title, lines, details, record }, dice, cards, t) {
  if (cards !== "split") return [{ title, lines: [...lines, ...details], gm: cards === "gm", dice, record }];
  const secret = details.length > 0 || dice;
  const messages = [];
  if (lines.length) messages.push({ title, lines, gm: false, dice: false, record: secret ? null : record });
  if (secret) messages.push({ title: t("Chat.ForGM", { title }), lines: details, gm: true, dice, record });
  return messages;
}

/** Return the lines the GM reads before rolling: who gets the jump and each member's loss, or what is wrong */
function draftOddsLines(draft, t) {
  const { scenario, problem } = buildScenario(draft, t);
  return problem ? [problem] : oddsLines(rulesSystem().Odds.odds(scenario), t, scenario);
}

/** Tell whether an object is a draft (its members carry their combatants' ids) rather than a rules scenario */
const isDraft = (scenario) => Array.isArray(scenario?.out)
  || SIDE_KEYS.some((key) => (scenario?.sides?.[key]?.members ?? []).some((member) => member?.id !== undefined));

/** Return the rules scenario of a draft, or a rules scenario as it is; a bad draft throws its one-line problem */
function rulesScenario(scenario, t) {
  if (!isDraft(scenario)) return scenario;
  const built = buildScenario(scenario, t);
  if (built.problem) throw new Error(built.problem);
  return built.scenario;
}

/** Return the odds of a draft (members by name) or of a rules scenario: `ambush odds --json`'s object */
const oddsOf = (scenario, t) => rulesSystem().Odds.odds(rulesScenario(scenario, t));

/** Return a draft or a rules scenario as the text of a scenario file; a bad draft throws its one-line problem */
const scenarioText = (scenario, t) => scenarioToml(rulesScenario(scenario, t));

/** Return the number the VTT gives the round about to begin (the AD&D surprise segments are no rounds of the fight) */
function nextRoundNumber(surprise, proposed) {
  return surprise && !surprise.done ? rulesSystem().Runtime.nextRoundNumber(surprise, proposed) : proposed;
}

/**
 * Return the session of one table: what its host does, played by the rules. Each call loads the surprise, changes
 * it and saves it; the host runs the calls of one event inside queued().
 * @param {Host} host
 */
function tableSession(host) {
  const runtime = () => rulesSystem().Runtime;

  /** Keep the surprise; one its fight no longer has loses its statuses instead (they could never be removed) */
  async function keep(surprise) {
    if (!(await host.save(surprise))) await clearMarks(tableOf(host, surprise), surprise);
  }

  /** Return the surprise the turns follow: one being played, with the automation on */
  function following() {
    const surprise = host.load();
    return surprise && !surprise.done && host.settings().automation ? surprise : null;
  }

  return {
    /** Return the surprise being played, or null */
    current: () => host.load(),

    /** Tell whether the turns are being followed: a surprise is being played and the automation is on */
    isFollowing: () => following() !== null,

    /**
     * Resolve a draft: check it, clear the surprise before it, roll, post the card, mark, and keep the surprise with
     * what `extra(scenario)` adds for the host. Returns {surprise} or {problem}, one translated line.
     */
    async resolve(draft, extra = () => ({})) {
      const { scenario, problem } = buildScenario(draft, host.t);
      if (problem) return { problem };
      const previous = host.load();
      if (previous) await clearMarks(tableOf(host, previous), previous);
      const surprise = { ...newSurprise(scenario), ...extra(scenario) };
      // The surprise comes before round 1, or before the next round of a fight already running.
      const order = host.turnOrder();
      await runtime().resolve(tableOf(host, surprise), surprise, order.started ? order.round + 1 : 1);
      await keep(surprise);
      return { surprise };
    },

    /** End the surprise: remove what it marked and drop it; false when there was none */
    async clear() {
      const surprise = host.load();
      if (!surprise) return false;
      await clearMarks(tableOf(host, surprise), surprise);
      await host.save(null);
      return true;
    },

    /** A combatant left the fight: his statuses go, and the rules stop waiting for him */
    async left(id) {
      const surprise = host.load();
      if (!surprise || !Object.prototype.hasOwnProperty.call(surprise.labels, id)) return;
      await runtime().left(tableOf(host, surprise), surprise, id);
      await keep(surprise);
    },

    /**
     * Follow one change of turn: the turn that ended, whether a round began, the turn that began. Nothing happens
     * without a surprise being followed.
     * @returns {Promise<Step>}
     */
    async follow({ ended = null, roundBegan = false, started = null }) {
      const surprise = following();
      if (!surprise) return { restart: false, skip: false };
      const table = tableOf(host, surprise);
      if (ended) await runtime().turnEnded(table, surprise, ended);
      if (roundBegan && await runtime().roundStarted(table, surprise)) {
        await keep(surprise);
        return { restart: true, skip: false };
      }
      const passes = started ? await runtime().turnStarted(table, surprise, started) : false;
      await keep(surprise);
      return { restart: false, skip: passes && host.settings().skip };
    },

    /** Begin a round the host counts itself, whether or not the turns are followed (the Roll20 script's first) */
    async roundStarted() {
      const surprise = host.load();
      if (!surprise || surprise.done) return false;
      const restart = await runtime().roundStarted(tableOf(host, surprise), surprise);
      await keep(surprise);
      return restart;
    },

    /** Play these combatants' turns now, for tables that move the turns by hand; false without a surprise */
    async playTurns(ids) {
      const surprise = host.load();
      if (!surprise) return false;
      for (const id of ids) await runtime().turnStarted(tableOf(host, surprise), surprise, id);
      await keep(surprise);
      return true;
    },

    /** Return what the surprise tracks, a line each, or null without one */
    statusLines() {
      const surprise = host.load();
      return surprise ? runtime().statusLines(tableOf(host, surprise), surprise) : null;
    },

    /** Name the table round being played where the rules name it (an AD&D surprise segment), else null */
    roundName() {
      const surprise = host.load();
      return surprise ? runtime().roundName(tableOf(host, surprise), surprise) : null;
    },
  };
}

export {
  STRING_KEYS,
  draftOddsLines, isDraft, messagesOf, nextRoundNumber, oddsOf, queued, rulesScenario, scenarioText,
  tableSession,
};
