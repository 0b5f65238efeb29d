// Rebuild a vector's expected outcome from what a generated runtime did at the (emulated) table, the same
// way for Foundry and Roll20. `observed` holds {turns: [{round, name, passed, statuses}], afterTrigger, end},
// statuses by member name in the module's own terms (surprised, unaware, prone, sleep); `records` are the
// runtime's turn records {member, turn} in the order it wrote them. Names are data ("constructor" is a
// fine name): results are built from Maps, and statuses are read as own properties only. Every runner ends a vector
// with playedOut and rebuilds it with rebuildOutcome: the per-system tail is written here once.
import { own } from "./compare.mjs";

export { playedOut, settled, surpriseRounds } from "./played_out.js";

/** Return the resolve record among a runtime's records, or throw `missing` */
export function resolveRecord(records, missing = "no resolve card was posted") {
  const resolved = records.find((record) => record.type === "resolve");
  if (!resolved) throw new Error(missing);
  return resolved;
}

/** Rebuild a vector's expected shape from the resolve record's outcome, the runtime's records and what it did */
export function rebuildOutcome(scenario, outcome, records, observed) {
  if (scenario.system === "gurps4e") return checkedGurps(rebuildGurps(outcome, records), observed);
  if (scenario.system === "adnd1e") return checkedAdnd(rebuildAdnd(outcome, observed), observed);
  return rebuildFallout(scenario, outcome, observed);
}

/** GURPS: the resolve card, then each stunned member's turn cards in the order they were posted. */
export function rebuildGurps(outcome, records) {
  const members = new Map();
  for (const record of records.filter((r) => r.type === "turn")) {
    if (!members.has(record.member)) members.set(record.member, { lost: null, turns: [] });
    const entry = members.get(record.member);
    entry.turns.push(record.turn);
    if (record.turn.success) entry.lost = record.turn.turn;
  }
  return { surprise: outcome.surprise, surprise_kind: outcome.surprise_kind, initiative: outcome.initiative,
           contest: outcome.contest, freeze: outcome.freeze, members: Object.fromEntries(members) };
}

/**
 * GURPS: the cards must match the table. On a member's k-th turn (round k) the stun status shows exactly
 * when the card says defences are at -4, and every stunned turn is passed on (Do Nothing); after the
 * last turn only members who never recover are still stunned.
 */
export function checkedGurps(result, observed) {
  const stunned = (statuses) => (statuses ?? []).includes("surprised");
  for (const [name, member] of Object.entries(result.members)) {
    for (const turn of member.turns) {
      const seen = observed.turns.find((t) => t.round === turn.turn && t.name === name);
      if (!seen) throw new Error(`${name} had no turn in round ${turn.turn}`);
      if (stunned(own(seen.statuses, name)) !== (turn.defence === -4)) {
        throw new Error(`${name}, turn ${turn.turn}: statuses ${own(seen.statuses, name)} but defence ${turn.defence}`);
      }
      if (!seen.passed) throw new Error(`${name}, turn ${turn.turn}: a stunned turn was not passed on`);
    }
    if (stunned(own(observed.end, name)) !== (member.lost === null)) {
      throw new Error(`${name} ends with statuses ${own(observed.end, name)} though lost is ${member.lost}`);
    }
  }
  return result;
}

/** AD&D: rolls and segments from the card; who acted in each segment from the turns the module kept. */
export function rebuildAdnd(outcome, observed) {
  const timeline = outcome.timeline.map((segment) => ({
    ...segment,
    acting: observed.turns.filter((t) => t.round === segment.segment && !t.passed).map((t) => t.name),
  }));
  return { ...outcome, timeline };
}

/** AD&D: in segment n exactly those who do not act show Surprised; after the last segment nobody does. */
export function checkedAdnd(result, observed) {
  for (const turn of observed.turns) {
    const segment = result.timeline[turn.round - 1];
    for (const [name, statuses] of Object.entries(turn.statuses)) {
      const frozen = segment ? !segment.acting.includes(name) : false;
      if (statuses.includes("surprised") !== frozen) {
        throw new Error(`round ${turn.round}: ${name} shows ${statuses} but ${frozen ? "is" : "is not"} frozen`);
      }
    }
  }
  return result;
}

/** Fallout: trigger rolls from the card; the Surprise Round from the statuses and the turns played. */
export function rebuildFallout(scenario, outcome, observed) {
  const everyone = ["a", "b"].flatMap((key) => scenario.sides[key].members.map((m) => m.name));
  const round = outcome.surprise_round;
  let surprise_round = null;
  if (round) {
    const acted = observed.turns.filter((t) => t.round === 1 && !t.passed).map((t) => t.name);
    const free = scenario.options?.opening_attack_is_free ?? false;
    const opener = outcome.openers?.find((o) => o.hit)?.name;
    const after = observed.afterTrigger;
    const statusesOf = (statuses, name) => own(statuses, name) ?? [];
    const has = (name, status) => statusesOf(after, name).includes(status);
    const sleepers = everyone.filter((n) => has(n, "sleep"));
    const roundOneTurns = observed.turns.filter((t) => t.round === 1);
    const lastOfRoundOne = roundOneTurns.at(-1)?.statuses ?? {};
    surprise_round = {
      side: round.side,
      order: opener && free ? [opener, ...acted] : acted,
      surprised: everyone.filter((n) => has(n, "surprised")),
      prone: everyone.filter((n) => has(n, "prone")),
      // Woken at his own turn: asleep after the roll, awake when his Surprise Round turn is left.
      wake_at_turn_start: sleepers.filter((n) => roundOneTurns.some((t) => t.name === n && !statusesOf(t.statuses, n).includes("sleep"))),
      // Woken at the end: still asleep as the Surprise Round's last turn is left, awake in round 2.
      wake_at_end: sleepers.filter((n) => statusesOf(lastOfRoundOne, n).includes("sleep") && !statusesOf(observed.end, n).includes("sleep")),
    };
  }
  const roundOne = observed.turns.filter((t) => t.round === 1 && !t.passed).map((t) => t.name);
  const normalRound = round ? 2 : 1;
  // The first normal round: once the surprise is over the runtime passes no turn on, except the one it
  // leaves at once when it puts the order back into Sequence. (Roll20 counts no rounds after the surprise.)
  const normal_order = observed.turns.filter((t) => t.round >= normalRound && !t.passed).slice(0, everyone.length).map((t) => t.name);
  const surprisedSide = round ? (round.side === "a" ? "b" : "a") : null;
  const membersOut = new Map();
  for (const key of ["a", "b"]) {
    for (const member of scenario.sides[key].members) {
      membersOut.set(member.name, { lost: key === surprisedSide && !roundOne.includes(member.name) ? 1 : 0 });
    }
  }
  const result = { surprise: outcome.surprise, test: outcome.test };
  if (outcome.enemy_test) result.enemy_test = outcome.enemy_test;
  return { ...result, openers: outcome.openers, surprise_round, normal_order, members: Object.fromEntries(membersOut) };
}
