// GURPS 4e's test tail, the same for every runner (tests/js/outcomes.mjs): when its surprise has played out at a
// table, and its outcome rebuilt from what a runtime did. `surprise` is the surprise as the runtime keeps it.
import { own } from "../own.js";

/** How many rounds the surprise takes before the first normal round: the most stunned turns of a member */
export function surpriseRounds(surprise) {
  return Math.max(0, ...Object.values(surprise.tracks).map((track) => track.turns.length));
}

/** Tell whether every member has recovered or never will */
export function settled(surprise) {
  return Object.values(surprise.tracks).every((track) => track.lost !== null || track.never);
}

/** Tell whether the surprise has played out by `round`: a member's k-th own turn falls in round k (the surprise
 * comes before round 1) */
export function playedOut(surprise, round) {
  return settled(surprise) && round > surpriseRounds(surprise);
}

/** Rebuild the outcome from the resolve card and each stunned member's turn cards, held to what the table showed */
export function rebuildOutcome(scenario, outcome, records, observed) {
  return checked(rebuilt(outcome, records), observed);
}

/** The resolve card, then each stunned member's turn cards in the order they were posted. */
function rebuilt(outcome, records) {
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
 * The cards must match the table. On a member's k-th turn (round k) the stun status shows exactly when the card
 * says defences are at -4, and every stunned turn is passed on (Do Nothing); after the last turn only members who
 * never recover are still stunned.
 */
function checked(result, observed) {
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
