// Fallout TTRPG surprise at the table (RULES.md 2): the Surprise Round is the first round after the
// trigger; surprised and sleeping combatants pass it; round 2 runs in Sequence order for everyone.
import { OPTIONS } from "./constants.js";
import { postCard } from "./chat.js";
import { format, localize } from "./i18n.js";
import { mark } from "./marks.js";
import * as rules from "./rules.js";

/** List labels as one text. */
const names = (state, ids) => ids.map((id) => state.labels[id]).join(", ") || localize("Fallout.Nobody");

/**
 * Initiative values that sort the tracker into Sequence order: the Sequence plus a fraction below 1 that
 * breaks ties by the rules' order (RULES.md B6).
 */
function sequenceInitiative(state) {
  const order = state.outcome.normal_order;
  const members = [...state.scenario.sides.a.members, ...state.scenario.sides.b.members];
  const sequence = Object.fromEntries(members.map((member) => [member.name, member.sequence ?? 0]));
  return Object.fromEntries(order.map((id, index) => [id, sequence[id] + Math.round(((order.length - index) / (order.length + 1)) * 100) / 100]));
}

/** Set the tracker's initiative values; the opener acts first in the Surprise Round (RULES.md B1). */
async function setInitiative(combat, state, openerFirst) {
  const values = sequenceInitiative(state);
  if (openerFirst) values[state.opener] = Math.max(...Object.values(values)) + 1;
  const updates = Object.entries(values)
    .filter(([id]) => combat.combatants.has(id))
    .map(([id, initiative]) => ({ _id: id, initiative }));
  await combat.updateEmbeddedDocuments("Combatant", updates);
}

/** Describe the test or the opening attacks. */
function triggerLines(state) {
  const { outcome } = state;
  const lines = [];
  for (const test of [outcome.test, outcome.enemy_test].filter(Boolean)) {
    lines.push(format(`Fallout.Test.${test.result}`, { name: state.labels[test.leader], roll: test.roll, total: test.total, dc: test.dc }));
  }
  for (const attack of outcome.openers ?? []) {
    const data = { name: state.labels[attack.name], first: attack.dice[0], second: attack.dice[1], total: attack.total, target: attack.target_number };
    lines.push(format(attack.hit ? "Fallout.Opener.hit" : "Fallout.Opener.miss", data));
  }
  return lines;
}

/** Roll the trigger, post the card, mark the surprised and the sleepers, order the tracker. */
export async function resolve(combat, state, roller, rolls) {
  const outcome = await rules.resolve(state.scenario, roller);
  state.outcome = outcome;
  state.srRound = combat.started ? combat.round + 1 : 1;
  const round = outcome.surprise_round;
  const lines = triggerLines(state);
  state.opener = round?.order[0] && outcome.openers ? round.order[0] : null;
  if (!round) {
    lines.push(localize("Chat.NobodySurprised"));
    state.done = true;
    await setInitiative(combat, state, false);
  } else {
    lines.push(format("Fallout.SurpriseRound", { side: state.scenario.sides[round.side].name, round: state.srRound }));
    lines.push(format("Fallout.Order", { names: names(state, round.order) }));
    lines.push(format("Fallout.Surprised", { names: names(state, round.surprised) }));
    if (round.prone.length) lines.push(format("Fallout.Sleepers", { names: names(state, round.prone) }));
    for (const id of round.surprised) await mark(combat, state, id, "surprised", true, { startRound: state.srRound, rounds: 1 });
    for (const id of round.prone) {
      await mark(combat, state, id, "prone", true);
      await mark(combat, state, id, "sleep", true);
    }
    await setInitiative(combat, state, Boolean(state.opener) && !OPTIONS.opening_attack_is_free);
  }
  await postCard({ title: localize(`Procedure.${state.scenario.procedure}`), lines, rolls, record: { type: "resolve", outcome } });
}

/** In the Surprise Round, wake a Cautious Nature sleeper at his turn (B7); true = this combatant passes. */
export async function onTurnStart(combat, state, combatant) {
  const round = state.outcome.surprise_round;
  if (!round || combat.round !== state.srRound) return false;
  if (round.wake_at_turn_start.includes(combatant.id)) await mark(combat, state, combatant.id, "sleep", false);
  return !round.order.includes(combatant.id);
}

/**
 * After the Surprise Round: Surprised falls off, sleepers wake (B8), Sequence order for everyone. The
 * opener who went first takes his Sequence place again; the round then restarts at its new first turn,
 * so returns true when the turn that just began is no longer the right one.
 */
export async function onRoundStart(combat, state, round) {
  const surprise = state.outcome.surprise_round;
  if (!surprise || round !== state.srRound + 1) return false;
  for (const id of surprise.surprised) await mark(combat, state, id, "surprised", false);
  for (const id of surprise.wake_at_end) await mark(combat, state, id, "sleep", false);
  state.done = true;
  await postCard({ title: localize("Fallout.RoundTwoTitle"), lines: [format("Fallout.RoundTwo", { names: names(state, state.outcome.normal_order) })], record: { type: "end" } });
  if (!state.opener || OPTIONS.opening_attack_is_free) return false;
  await setInitiative(combat, state, false);
  if (combat.turn === 0) return false;
  await combat.update({ turn: 0 });
  return true;
}

/** Nothing happens at the end of a turn in the Fallout Surprise Round. */
export async function onTurnEnd() {}
