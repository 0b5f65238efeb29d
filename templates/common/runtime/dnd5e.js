// D&D 5e surprise at the table (docs/rules/dnd5e.md): the hiders' Stealth checks decide who is surprised. 2014 rules
// (D11): a surprised creature passes its first turn of the fight, the first table round begun after the roll, and
// shows Surprised until that turn ends. 2024 rules (D9): nobody loses a turn; everyone's Initiative is rolled, the
// surprised with Disadvantage, and the turn order set from it.
import * as Rules from "../rules/dnd5e.js";
import { scenarioOptions } from "../scenario.js";
import { mark, names, unmarkAll } from "../surprise-record.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = ["Chat.NobodySurprised", "Dnd5e.*", "Procedure.{procedure}"];

/** The parts of a surprise this runtime keeps by member id, changed a member at a time (common/surprise-record.js) */
const MEMBER_PARTS = ["waiting"];

/** Return the ids of the surprised members, in scenario order */
const surprisedIds = (outcome) => Object.entries(outcome.members).filter(([, m]) => m.surprised).map(([id]) => id);

/** Describe the Stealth checks (or why there are none) and, in 2024, the Initiative rolls: the GM's business */
function rollLines(table, surprise) {
  const { outcome, labels } = surprise;
  const line = (key, id, { rolls: [first, second], total }) => table.t(second === undefined ? `${key}.OneDie` : `${key}.TwoDice`,
    { name: labels[id] ?? "?", roll: first, first, second, total });
  const lines = Object.entries(outcome.stealth).map(([id, check]) => line("Dnd5e.Stealth", id, check));
  if (!lines.length) {
    lines.push(table.t(scenarioOptions(surprise.scenario).surprise_by === "gm" ? "Dnd5e.GmCall" : "Dnd5e.NobodyHides"));
  }
  for (const [id, check] of Object.entries(outcome.initiative ?? {})) lines.push(line("Dnd5e.Initiative", id, check));
  return lines;
}

/**
 * Roll the Stealth checks (and in 2024 the Initiative), post the card, mark the surprised (2014) or put the turn order
 * in Initiative order (2024)
 */
async function resolve(table, surprise, firstRound) {
  const outcome = await Rules.resolve(surprise.scenario, table.roll, { initiative: table.rollInitiative });
  const rules2014 = scenarioOptions(surprise.scenario).rules === "2014";
  surprise.outcome = outcome;
  surprise.firstRound = firstRound;
  surprise.rounds = 0;
  surprise.waiting = {};
  const surprised = surprisedIds(outcome);
  const lines = [];
  if (!surprised.length) lines.push(table.t("Chat.NobodySurprised"));
  else {
    const key = rules2014 ? "Dnd5e.Surprised2014" : "Dnd5e.Surprised2024";
    lines.push(table.t(key, { names: names(table, surprise, surprised), round: firstRound }));
  }
  if (rules2014) {
    for (const id of surprised) {
      surprise.waiting[id] = true;
      await mark(table, surprise, id, "surprised", true, { left: 1, from: firstRound });
    }
  } else {
    const totals = Object.fromEntries(Object.entries(outcome.initiative).map(([id, check]) => [id, check.total]));
    lines.push(table.t("Dnd5e.Order", { names: names(table, surprise, outcome.order) }));
    await table.arrange(outcome.order.map((id) => ({ id, sequence: totals[id] })));
  }
  surprise.done = !rules2014 || !surprised.length;
  await table.post({ title: table.t(`Procedure.${surprise.scenario.procedure}`), lines, details: rollLines(table, surprise),
    record: { type: "resolve", outcome } });
}

/** In the first round a surprised creature may not move or act on its turn (D11); true = this combatant passes */
async function turnStarted(table, surprise, id) {
  return surprise.rounds === 1 && Boolean(surprise.waiting?.[id]);
}

/** A surprised creature's first turn has ended: he may take reactions again, Surprised goes (D11) */
async function turnEnded(table, surprise, id) {
  if (surprise.rounds !== 1 || !surprise.waiting?.[id]) return;
  delete surprise.waiting[id];
  await mark(table, surprise, id, "surprised", false);
}

/** At each new table round: after the first, whoever had no turn in it is no longer surprised; the surprise is over */
async function roundStarted(table, surprise) {
  if (surprise.done) return false;
  surprise.rounds += 1;
  if (surprise.rounds < 2) return false;
  for (const id of Object.keys(surprise.waiting)) await mark(table, surprise, id, "surprised", false);
  surprise.waiting = {};
  surprise.done = true;
  await table.post({ title: table.t("Dnd5e.OverTitle"), lines: [table.t("Dnd5e.Over")], record: { type: "end" } });
  return false;
}

/** A combatant left the fight: his statuses go, and he is no longer waiting for his first turn */
async function left(table, surprise, id) {
  await unmarkAll(table, surprise, id);
  delete surprise.waiting?.[id];
}

/** Return who is still surprised, waiting for the end of his first turn */
function statusLines(table, surprise) {
  const waiting = Object.keys(surprise.waiting ?? {});
  if (!surprisedIds(surprise.outcome).length) return [table.t("Chat.NobodySurprised")];
  return waiting.length ? [table.t("Dnd5e.Waiting", { names: names(table, surprise, waiting) })] : [];
}

export {
  MEMBER_PARTS, STRING_KEYS, left, resolve, roundStarted, statusLines, turnEnded, turnStarted,
};
