// The Fallout TTRPG's test tail, the same for every runner (tests/js/outcomes.mjs): when its surprise has played out
// at a table, and its outcome rebuilt from what a runtime did. `surprise` is the surprise as the runtime keeps it.
import { own } from "../own.js";

/** How many rounds the surprise takes before the first normal round: the Surprise Round, if there is one */
export function surpriseRounds(surprise) {
  return surprise.outcome.surprise_round ? 1 : 0;
}

/** Tell whether the surprise has settled: it does at once */
export function settled() {
  return true;
}

/** Tell whether the surprise has played out by `round`, with the first normal round after it seen in full */
export function playedOut(surprise, round) {
  return round > 1 + surpriseRounds(surprise);
}

/** Rebuild the outcome: trigger rolls from the card; the Surprise Round from the statuses and the turns played */
export function rebuildOutcome(scenario, outcome, records, observed) {
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
