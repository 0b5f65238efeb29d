// D&D 5e's test tail, the same for every runner (tests/js/outcomes.mjs): when its surprise has played out at a table,
// and its outcome rebuilt from what a runtime did. `surprise` is the surprise as the runtime keeps it.
import { own } from "../own.js";

/** How many rounds the surprise takes before the first round that owes it nothing: 2014's first round, if anybody is
 * surprised; none in 2024 */
export function surpriseRounds(surprise) {
  return surprise.outcome.initiative === undefined && Object.values(surprise.outcome.members).some((m) => m.surprised) ? 1 : 0;
}

/** Tell whether the surprise has settled: it does at once */
export function settled() {
  return true;
}

/** Tell whether the surprise has played out by `round`, with the first round after it seen in full */
export function playedOut(surprise, round) {
  return round > 1 + surpriseRounds(surprise);
}

/**
 * Rebuild the outcome: the rolls from the card; who is surprised from the statuses after the roll (2014: Surprised
 * shown until his first turn ends, that turn passed, nobody surprised in round 2) or, in 2024, the order from the
 * turns played from round 1 on
 */
export function rebuildOutcome(scenario, outcome, records, observed) {
  const everyone = ["a", "b"].flatMap((key) => scenario.sides[key].members.map((m) => m.name));
  const statusesOf = (statuses, name) => own(statuses, name) ?? [];
  const rules2024 = outcome.initiative !== undefined;
  const members = new Map();
  for (const name of everyone) {
    const passed = observed.turns.filter((t) => t.round === 1 && t.name === name && t.passed).length;
    const shown = statusesOf(observed.afterTrigger, name).includes("surprised");
    for (const turn of observed.turns.filter((t) => t.round >= 2)) {
      if (statusesOf(turn.statuses, name).includes("surprised")) throw new Error(`${name} still shows Surprised in round ${turn.round}`);
    }
    if (rules2024) {
      // A turn a host leaves at once as the order is set by Initiative is passed, not lost: nobody loses one in 2024.
      if (shown) throw new Error(`2024 rules: ${name} shows Surprised`);
      members.set(name, { surprised: outcome.members[name].surprised, lost: 0 });
    } else {
      if (shown !== Boolean(passed)) throw new Error(`${name}: Surprised ${shown}, but passed ${passed} turn(s) in round 1`);
      members.set(name, { surprised: shown, lost: passed ? 1 : 0 });
    }
  }
  const result = { surprise: outcome.surprise, stealth: outcome.stealth, members: Object.fromEntries(members) };
  if (rules2024) {
    result.initiative = outcome.initiative;
    result.order = observed.turns.filter((t) => t.round >= 1 && !t.passed).slice(0, everyone.length).map((t) => t.name);
  }
  return result;
}
