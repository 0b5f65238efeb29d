// When a vector's surprise has played out, per rules system, the same for every runner. No imports, so that the web
// runner's player (tests/web/play_vector.js) reads it inside the page too: tests/web_pages.py bundles it with the
// product's bundler (exporter/targets/modules.py). `surprise` is the surprise as the runtime keeps it.

/** How many rounds the surprise takes before the first normal round: GURPS a member's stunned turns, AD&D segments */
export function surpriseRounds(system, surprise) {
  if (system === "gurps4e") return Math.max(0, ...Object.values(surprise.tracks).map((track) => track.turns.length));
  if (system === "adnd1e") return surprise.outcome.timeline.length;
  return surprise.outcome.surprise_round ? 1 : 0;
}

/** Tell whether every GURPS member has recovered or never will (other systems settle at once) */
export function settled(system, surprise) {
  return system !== "gurps4e" || Object.values(surprise.tracks).every((track) => track.lost !== null || track.never);
}

/** Tell whether the surprise has played out by `round`, with the first normal round after it seen in full */
export function playedOut(system, surprise, round) {
  if (!surprise) return false;
  // A GURPS member's k-th own turn falls in round k (the surprise comes before round 1).
  if (system === "gurps4e") return settled(system, surprise) && round > surpriseRounds(system, surprise);
  return round > 1 + surpriseRounds(system, surprise);
}
