// ambush rules core — AD&D 1e / OSRIC-style surprise (docs/rules/adnd1e.md).
// A hand-written port of the Python rules core exporter/rules/adnd1e.py, not generated from it: change both together;
// the conformance vectors (fixtures/vectors/) hold them to the same outcomes.
import { RULES, SIDE_KEYS, SYSTEM } from "../config.js";
import { ZERO, exact, memberJson, shownName } from "../odds.js";
import { given, membersWithSides, scenarioOptions } from "../scenario.js";

/** Return the 1e surprise adjustment of a Dexterity score (docs/rules/adnd1e.md#dexterity, PHB p.11) */
function dexAdjustment(dex) {
  return RULES.dex_adjustment[String(dex)];
}

/** Return the member's explicit adjustment, else his Dex adjustment, else 0 */
function rawAdjustment(member) {
  if (given(member.surprise_adjustment)) {
    return member.surprise_adjustment;
  }
  if (given(member.dex)) {
    return dexAdjustment(member.dex);
  }
  return 0;
}

/** Return the adjustment that applies to the member's surprised segments */
function memberAdjustment(member, options) {
  const adjustment = rawAdjustment(member);
  if (options.dex_encumbrance_gate && member.encumbered && adjustment > 0) {
    return 0; // C5b
  }
  return adjustment;
}

/** Return the side's own chance to be surprised, its best member's with side_best_rating (C5a) */
function surprisedOn(side, options) {
  const ratings = [side.surprised_on ?? RULES.default_rating];
  if (options.side_best_rating) {
    ratings.push(...side.members.filter((member) => given(member.surprised_on)).map((member) => member.surprised_on));
  }
  return Math.min(...ratings);
}

/** Return the chance with which the side surprises its opponents, its best member's with side_best_rating (C5a) */
function surprisesOn(side, options) {
  const ratings = [side.surprises_on ?? RULES.default_rating];
  if (options.side_best_rating) {
    ratings.push(...side.members.filter((member) => given(member.surprises_on)).map((member) => member.surprises_on));
  }
  return Math.max(...ratings);
}

/** Return thr: the side is surprised on 1..thr of its d6, and does not roll at 0 */
function threshold(side, opponent, options) {
  const own = surprisedOn(side, options);
  if (side.aware || own === 0) {
    return 0;
  }
  return Math.max(0, Math.min(RULES.max_threshold, own + surprisesOn(opponent, options) - RULES.default_rating)); // docs/rules/adnd1e.md#threshold, DMG p.62
}

/** Return the side's surprised segments: the pips when the roll is within the threshold (C1) */
function surprisedSegments(sideThreshold, roll) {
  if (roll === null || roll > sideThreshold) {
    return 0;
  }
  return roll;
}

/** Return a member's own surprised segments after his adjustment; Dexterity never creates surprise (C3) */
function memberSegments(sideSegments, adjustment) {
  if (sideSegments === 0) {
    return 0;
  }
  return Math.max(0, sideSegments - adjustment);
}

/** Return how many segments a member cannot act: his own, or his side's too without C4 (C4) */
function frozenSegments(sideSegments, ownSegments, options) {
  if (options.dex_unsurprised_may_act) {
    return ownSegments;
  }
  return Math.max(ownSegments, sideSegments);
}

/** Return the side-level net segments, positive where side a acts alone */
const freeSegments = (segmentsA, segmentsB) => segmentsB - segmentsA;

/** Return which side gets the jump from the net segments */
function surpriseSide(netSegments) {
  if (netSegments > 0) {
    return "a";
  }
  return netSegments < 0 ? "b" : "none";
}

/** Return segments 1..the last surprise segment from combatants {name, side, frozen}: who acts, who is frozen */
function timeline(combatants, { missileTripleRate = false } = {}) {
  const last = Math.max(0, ...combatants.map((combatant) => combatant.frozen));
  const segments = [];
  for (let number = 1; number <= last; number += 1) {
    const acting = combatants.filter((combatant) => combatant.frozen < number);
    const frozen = combatants.filter((combatant) => combatant.frozen >= number);
    const surprise = acting.some((actor) => frozen.some((still) => actor.side !== still.side));
    const segment = {
      segment: number,
      kind: surprise ? "surprise" : "cancelled",
      acting: acting.map((combatant) => combatant.name),
      frozen: frozen.map((combatant) => combatant.name),
    };
    if (missileTripleRate) {
      segment.missile_triple_rate = surprise; // C5c
    }
    segments.push(segment);
  }
  while (segments.length > 0 && segments.at(-1).kind !== "surprise") {
    segments.pop();
  }
  return segments;
}

/** Return one timeline segment in the outcome's shape: the missile flag only when its option is on */
function segmentJson(segment) {
  const out = { segment: segment.segment, kind: segment.kind, acting: segment.acting };
  if (given(segment.missile_triple_rate)) {
    out.missile_triple_rate = segment.missile_triple_rate;
  }
  return out;
}

/** Return both sides' thresholds */
function sideThresholds(scenario, options) {
  const { a, b } = scenario.sides;
  return { a: threshold(a, b, options), b: threshold(b, a, options) };
}

/** Return every member's side, adjustment and own segments, given the sides' segments */
function memberResults(scenario, segments, options) {
  return membersWithSides(scenario).map(([key, member]) => {
    const adjustment = memberAdjustment(member, options);
    return { name: member.name, side: key, adjustment, segments: memberSegments(segments[key], adjustment) };
  });
}

/** Play one surprise check: side a rolls its d6, then side b; a side with threshold 0 does not roll */
async function resolve(scenario, roller) {
  const options = scenarioOptions(scenario);
  const thresholds = sideThresholds(scenario, options);
  const sides = {};
  for (const key of SIDE_KEYS) {
    const roll = thresholds[key] > 0 ? (await roller(1, RULES.die, { kind: "surprise", who: key, target: thresholds[key] }))[0] : null;
    sides[key] = { threshold: thresholds[key], roll, segments: surprisedSegments(thresholds[key], roll) };
  }
  const members = memberResults(scenario, { a: sides.a.segments, b: sides.b.segments }, options);
  const net = freeSegments(sides.a.segments, sides.b.segments);
  const combatants = members.map((member) => ({
    name: member.name,
    side: member.side,
    frozen: frozenSegments(sides[member.side].segments, member.segments, options),
  }));
  const segments = timeline(combatants, { missileTripleRate: options.missile_triple_rate });
  return {
    surprise: surpriseSide(net),
    sides,
    free_segments: net,
    members: Object.fromEntries(members.map((member) => [member.name, { adjustment: member.adjustment, segments: member.segments }])),
    timeline: segments.map(segmentJson),
  };
}

// --- Exact odds: who gets the jump, the free segments and each member's segments lost.
// The port of odds() in the Python rules core; tests/test_js_odds.py keeps the two within 1e-9.

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
  for (let face = 1; face <= RULES.die; face += 1) add(counts, surprisedSegments(sideThreshold, face), 1);
  return counts;
}

/** Return the odds of a rules scenario in the shape of `ambush odds --json`; members keyed by label, else name */
function odds(scenario) {
  const options = scenarioOptions(scenario);
  const { a, b } = scenario.sides;
  const thresholds = { a: threshold(a, b, options), b: threshold(b, a, options) };
  const dist = { a: segmentCounts(thresholds.a), b: segmentCounts(thresholds.b) };
  const die = RULES.die;
  const net = new Map();
  for (const [segA, countA] of dist.a) for (const [segB, countB] of dist.b) add(net, freeSegments(segA, segB), countA * countB);
  const surprise = { a: 0, b: 0, none: 0 };
  for (const [value, count] of net) surprise[surpriseSide(value)] += count;
  const members = []; // entries: a member called __proto__ stays a member
  for (const key of SIDE_KEYS) {
    const shared = new Map();
    for (const member of scenario.sides[key].members) {
      const adjustment = memberAdjustment(member, options);
      if (!shared.has(adjustment)) {
        const lost = new Map();
        for (const [segments, count] of dist[key]) add(lost, memberSegments(segments, adjustment), count);
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

export {
  dexAdjustment,
  memberAdjustment,
  threshold,
  surprisedSegments,
  memberSegments,
  frozenSegments,
  freeSegments,
  surpriseSide,
  timeline,
  resolve,
  odds,
};
