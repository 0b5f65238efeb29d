// AD&D 1e's test tail, the same for every runner (tests/js/outcomes.mjs): when its surprise has played out at a
// table, and its outcome rebuilt from what a runtime did. `surprise` is the surprise as the runtime keeps it.

/** How many rounds the surprise takes before the first normal round: its segments */
export function surpriseRounds(surprise) {
  return surprise.outcome.timeline.length;
}

/** Tell whether the surprise has settled: it does at once */
export function settled() {
  return true;
}

/** Tell whether the surprise has played out by `round`, with the first normal round after it seen in full */
export function playedOut(surprise, round) {
  return round > 1 + surpriseRounds(surprise);
}

/** Rebuild the outcome: rolls and segments from the card, who acted in each segment from the turns the module kept;
 * in segment n exactly those who do not act show Surprised, after the last segment nobody does */
export function rebuildOutcome(scenario, outcome, records, observed) {
  const timeline = outcome.timeline.map((segment) => ({
    ...segment,
    acting: observed.turns.filter((t) => t.round === segment.segment && !t.passed).map((t) => t.name),
  }));
  for (const turn of observed.turns) {
    const segment = timeline[turn.round - 1];
    for (const [name, statuses] of Object.entries(turn.statuses)) {
      const frozen = segment ? !segment.acting.includes(name) : false;
      if (statuses.includes("surprised") !== frozen) {
        throw new Error(`round ${turn.round}: ${name} shows ${statuses} but ${frozen ? "is" : "is not"} frozen`);
      }
    }
  }
  return { ...outcome, timeline };
}
