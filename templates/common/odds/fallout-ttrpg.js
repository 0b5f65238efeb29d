// ambush odds — Fallout TTRPG homebrew surprise (docs/rules/fallout-ttrpg.md): who gets the Surprise Round and each member's rounds lost.
// A hand-written port of odds() in exporter/rules/fallout_ttrpg.py: change both together; tests/test_js_odds.py keeps them
// within 1e-9.
import { RULES, SIDE_KEYS, SYSTEM } from "../config.js";
import * as Rules from "../rules/fallout-ttrpg.js";
import { other, scenarioOptions } from "../scenario.js";
import { ONE, ZERO, exact, isZero, memberJson, minus, plus, shownName, times, toFloat } from "./shared.js";
const RESULTS = ["success", "failure", "poor-failure"];

/** Return the exact chance of each test result for one roller */
function testResultChances(member, dc, hunting, options) {
  const counts = Object.fromEntries(RESULTS.map((result) => [result, 0]));
  for (let roll = 1; roll <= RULES.test_die; roll += 1) counts[Rules.testResult(Rules.testTotal(member, roll), dc, hunting, options)] += 1;
  return RESULTS.map((result) => [result, exact(counts[result], RULES.test_die)]);
}

/** Return the exact chance of each Surprise Round side after the World Map spot check */
function worldMapChances(scenario, options) {
  const chances = { a: ZERO, b: ZERO, none: ZERO };
  const hunting = Boolean(scenario.hunting);
  for (const [partyResult, pParty] of testResultChances(Rules.groupLeader(scenario.sides.a), scenario.dc, hunting, options)) {
    if (!Rules.needsEnemyTest(partyResult, hunting, options)) {
      const side = Rules.worldMapSurprise(partyResult, null);
      chances[side] = plus(chances[side], pParty);
      continue;
    }
    for (const [enemyResult, pEnemy] of testResultChances(Rules.groupLeader(scenario.sides.b), scenario.dc, false, options)) {
      const side = Rules.worldMapSurprise(partyResult, enemyResult);
      chances[side] = plus(chances[side], times(pParty, pEnemy));
    }
  }
  return chances;
}

/** Return how many of the 400 rolls of 2d20 keep the higher plus the bonus reach the target number */
function hitCount(attackBonus, targetNumber) {
  const die = RULES.test_die;
  let hits = 0;
  for (let first = 1; first <= die; first += 1) {
    for (let second = 1; second <= die; second += 1) if (Rules.attackHits(Math.max(first, second) + attackBonus, targetNumber)) hits += 1;
  }
  return hits;
}

/**
 * Return the exact chance that each side's opener hits first, and that every opener misses, counted over 400 per
 * opener. Each opener maps (the ways side a's opener hit first, the ways every one missed) to the same over one
 * more opener: a' = 400 a + hits * missed if he is of side a, missed' = (400 - hits) * missed; composing these maps
 * halves first costs a few products of large integers instead of one pass over ever larger integers per opener.
 */
function sneakAttackChances(scenario) {
  const sideOf = new Map(SIDE_KEYS.flatMap((key) => scenario.sides[key].members.map((member) => [member.name, key])));
  const rolls = BigInt(RULES.test_die ** RULES.advantage_dice);
  const hits = new Map();
  const steps = Rules.openingOrder(scenario).map((opener) => {
    const key = `${opener.attack_bonus}|${opener.target_number}`;
    if (!hits.has(key)) hits.set(key, BigInt(hitCount(opener.attack_bonus, opener.target_number)));
    return [hits.get(key), sideOf.get(opener.name)];
  });
  /** Return the map of openers low..high-1 as [p, q, r]: a' = p a + q missed, missed' = r missed */
  function composed(low, high) {
    if (high - low === 1) {
      const [hit, side] = steps[low];
      return [rolls, side === "a" ? hit : 0n, rolls - hit];
    }
    const middle = Math.floor((low + high) / 2);
    const [p1, q1, r1] = composed(low, middle);
    const [p2, q2, r2] = composed(middle, high);
    return [p1 * p2, p2 * q1 + q2 * r1, r1 * r2];
  }
  const [everything, firstA, allMissed] = steps.length ? composed(0, steps.length) : [1n, 0n, 1n];
  return { a: [firstA, everything], b: [everything - firstA - allMissed, everything], none: [allMissed, everything] };
}

/** Return the odds of a rules scenario in the shape of `ambush odds --json`; members keyed by label, else name */
function odds(scenario) {
  const options = scenarioOptions(scenario);
  const chances = scenario.procedure === "world-map" ? worldMapChances(scenario, options) : sneakAttackChances(scenario);
  const members = []; // entries: a member called __proto__ stays a member
  const shared = new Map(); // by the side whose surprise costs the member his round ("" for none)
  for (const key of SIDE_KEYS) {
    for (const member of scenario.sides[key].members) {
      const loser = Rules.actsWhenSurprised(member, options) ? "" : other(key);
      if (!shared.has(loser)) {
        const loseRound = loser ? chances[loser] : ZERO;
        const lost = [[0, minus(ONE, loseRound)], [1, loseRound]].filter(([, p]) => !isZero(p));
        shared.set(loser, memberJson(lost.map(([value, p]) => [value, toFloat(p)]), ZERO, loseRound));
      }
      members.push([shownName(member), shared.get(loser)]);
    }
  }
  const surprise = Object.fromEntries(["a", "b", "none"].map((side) => [side, toFloat(chances[side])]));
  return { system: SYSTEM, procedure: scenario.procedure, surprise, members: Object.fromEntries(members) };
}

export { odds };
