// Fallout TTRPG surprise at the table (docs/rules/fallout-ttrpg.md): the Surprise Round is the first table round begun after the
// trigger; surprised and sleeping combatants pass it; round 2 runs in Sequence order for everyone.
import * as Rules from "../rules/fallout-ttrpg.js";
import { listed, membersOf, scenarioOptions } from "../scenario.js";
import { mark, names, unmarkAll } from "../surprise-record.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = ["Chat.NobodySurprised", "Fallout.*", "Procedure.{procedure}"];

/** The parts of a surprise this runtime keeps by member id: none of its own (common/surprise-record.js) */
const MEMBER_PARTS = [];

/**
 * Return the turn order: everyone in the rules' Sequence order (B6 ties: the rules' order), the opener first
 * when his attack opens his Surprise Round turn (B1)
 */
function turnOrder(surprise, openerFirst) {
  const sequence = {};
  for (const member of membersOf(surprise.scenario)) sequence[member.name] = member.sequence ?? 0;
  const ids = surprise.outcome.normal_order;
  const first = openerFirst ? [surprise.opener] : [];
  return [...first, ...ids.filter((id) => !first.includes(id))].map((id) => ({ id, sequence: sequence[id] }));
}

/** Describe the test or the opening attacks */
function triggerLines(table, surprise) {
  const { outcome, labels } = surprise;
  const lines = [];
  for (const test of [outcome.test, outcome.enemy_test].filter(Boolean)) {
    lines.push(table.t(`Fallout.Test.${test.result}`, { name: labels[test.leader] ?? "?", roll: test.roll, total: test.total, dc: test.dc }));
  }
  for (const attack of outcome.openers ?? []) {
    const data = { name: labels[attack.name] ?? "?", first: attack.dice[0], second: attack.dice[1], total: attack.total, target: attack.target_number };
    lines.push(table.t(attack.hit ? "Fallout.Opener.hit" : "Fallout.Opener.miss", data));
  }
  return lines;
}

/** Roll the trigger, post the card, mark the surprised and the sleepers, put the turn order in Sequence order */
async function resolve(table, surprise, firstRound) {
  const outcome = await Rules.resolve(surprise.scenario, table.roll);
  surprise.outcome = outcome;
  surprise.firstRound = firstRound;
  surprise.rounds = 0;
  const round = outcome.surprise_round;
  surprise.opener = round && outcome.openers ? round.order[0] : null;
  surprise.openerFirst = Boolean(surprise.opener) && !scenarioOptions(surprise.scenario).opening_attack_is_free;
  // The test and the attack rolls are the GM's business; who is surprised and who acts is the table's.
  const details = triggerLines(table, surprise);
  const lines = [];
  if (!round) {
    lines.push(table.t("Chat.NobodySurprised"));
    surprise.done = true;
  } else {
    const nobody = "Fallout.Nobody";
    lines.push(table.t("Fallout.SurpriseRound", { side: surprise.scenario.sides[round.side].name, round: firstRound }));
    lines.push(table.t("Fallout.Order", { names: names(table, surprise, round.order, nobody) }));
    lines.push(table.t("Fallout.Surprised", { names: names(table, surprise, round.surprised, nobody) }));
    if (round.prone.length) lines.push(table.t("Fallout.Sleepers", { names: names(table, surprise, round.prone, nobody) }));
    for (const id of round.surprised) await mark(table, surprise, id, "surprised", true, { left: 1, from: firstRound });
    for (const id of round.prone) {
      await mark(table, surprise, id, "prone", true);
      await mark(table, surprise, id, "sleep", true);
    }
  }
  await table.arrange(turnOrder(surprise, surprise.openerFirst));
  await table.post({ title: table.t(`Procedure.${surprise.scenario.procedure}`), lines, details, record: { type: "resolve", outcome } });
}

/** In the Surprise Round, wake a Cautious Nature sleeper at his turn (B7); true = this combatant passes */
async function turnStarted(table, surprise, id) {
  const surpriseRound = surprise.outcome.surprise_round;
  if (!surpriseRound || surprise.rounds !== 1) return false;
  if (listed(surpriseRound.wake_at_turn_start, id)) await mark(table, surprise, id, "sleep", false);
  return !listed(surpriseRound.order, id);
}

/** Nothing happens at the end of a turn in the Fallout Surprise Round */
async function turnEnded() {}

/**
 * After the Surprise Round: Surprised falls off, sleepers wake (B8), Sequence order for everyone; the opener who
 * went first takes his Sequence place again. True when that moved the turn that had just begun.
 */
async function roundStarted(table, surprise) {
  surprise.rounds += 1;
  const surpriseRound = surprise.outcome.surprise_round;
  if (!surpriseRound || surprise.rounds !== 2) return false;
  for (const id of surpriseRound.surprised) await mark(table, surprise, id, "surprised", false);
  for (const id of surpriseRound.wake_at_end) await mark(table, surprise, id, "sleep", false);
  surprise.done = true;
  const everyone = names(table, surprise, surprise.outcome.normal_order, "Fallout.Nobody");
  await table.post({ title: table.t("Fallout.RoundTwoTitle"), lines: [table.t("Fallout.RoundTwo", { names: everyone })], record: { type: "end" } });
  if (!surprise.openerFirst) return false;
  surprise.openerFirst = false;
  return table.arrange(turnOrder(surprise, false));
}

/** A combatant left the fight: his statuses go */
async function left(table, surprise, id) {
  await unmarkAll(table, surprise, id);
}

/** Return who acts in the Surprise Round and who is surprised */
function statusLines(table, surprise) {
  const surpriseRound = surprise.outcome.surprise_round;
  if (!surpriseRound) return [table.t("Chat.NobodySurprised")];
  const nobody = "Fallout.Nobody";
  return [
    table.t("Fallout.Order", { names: names(table, surprise, surpriseRound.order, nobody) }),
    table.t("Fallout.Surprised", { names: names(table, surprise, surpriseRound.surprised, nobody) }),
  ];
}

export {
  MEMBER_PARTS, STRING_KEYS, left, resolve, roundStarted, statusLines, turnEnded, turnStarted,
};
