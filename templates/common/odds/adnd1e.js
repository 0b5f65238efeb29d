// ambush odds — AD&D 1e surprise (docs/rules/adnd1e.md): who gets the jump, the free segments and each member's segments lost.
// A hand-written port of odds() in exporter/rules/adnd1e.py: change both together; tests/test_js_odds.py keeps them
// within 1e-9.
import { RULES, SIDE_KEYS, SYSTEM } from "../config.js";
import * as Rules from "../rules/adnd1e.js";
import { scenarioOptions } from "../scenario.js";
import { ZERO, exact, memberJson, shownName } from "./shared.js";

/** Return a map's entries in ascending key order */
const sorted = (map) => [...map].sort(([x], [y]) => x - y);

/** Add count at key of a map of counts */
function add(map, key, count) {
  map.set(key, (map.get(key) ?? 0) + count);
}

/** Return how many of the die's faces give each number of surprised segments */
function segmentCounts(sideThreshold) {
  const counts = new Map();
  if (sideThreshold === 0) return new Map([[0, RULES.die]]); // the side does not roll: all mass on 0
  for (let face = 1; face <= RULES.die; face += 1) add(counts, Rules.surprisedSegments(sideThreshold, face), 1);
  return counts;
}

/** Return the odds of a rules scenario in the shape of `ambush odds --json`; members keyed by label, else name */
function odds(scenario) {
  const options = scenarioOptions(scenario);
  const { a, b } = scenario.sides;
  const thresholds = { a: Rules.threshold(a, b, options), b: Rules.threshold(b, a, options) };
  const dist = { a: segmentCounts(thresholds.a), b: segmentCounts(thresholds.b) };
  const die = RULES.die;
  const net = new Map();
  for (const [segA, countA] of dist.a) for (const [segB, countB] of dist.b) add(net, Rules.freeSegments(segA, segB), countA * countB);
  const surprise = { a: 0, b: 0, none: 0 };
  for (const [value, count] of net) surprise[Rules.surpriseSide(value)] += count;
  const members = []; // entries: a member called __proto__ stays a member
  for (const key of SIDE_KEYS) {
    const shared = new Map();
    for (const member of scenario.sides[key].members) {
      const adjustment = Rules.memberAdjustment(member, options);
      if (!shared.has(adjustment)) {
        const lost = new Map();
        for (const [segments, count] of dist[key]) add(lost, Rules.memberSegments(segments, adjustment), count);
        const expected = exact(sorted(lost).reduce((sum, [value, count]) => sum + value * count, 0), die);
        shared.set(adjustment, memberJson(sorted(lost).map(([value, count]) => [value, count / die]), ZERO, expected));
      }
      members.push([shownName(member), shared.get(adjustment)]);
    }
  }
  return {
    system: SYSTEM,
    procedure: scenario.procedure,
    surprise: Object.fromEntries(Object.entries(surprise).map(([side, count]) => [side, count / (die * die)])),
    members: Object.fromEntries(members),
    free_segments: Object.fromEntries(sorted(net).map(([value, count]) => [String(value), count / (die * die)])),
  };
}

export { odds };
