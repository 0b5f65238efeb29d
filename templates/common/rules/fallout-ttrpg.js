// ambush rules core — Fallout TTRPG homebrew surprise (docs/rules/fallout-ttrpg.md).
// A hand-written port of the Python rules core exporter/rules/fallout_ttrpg.py, not generated from it: change both together;
// the conformance vectors (fixtures/vectors/) hold them to the same outcomes.
import { RULES, SIDE_KEYS, SYSTEM } from "../config.js";
import { ONE, ZERO, exact, isZero, memberJson, minus, plus, shownName, times, toFloat } from "../odds.js";
import { given, membersWithSides, other, scenarioOptions } from "../scenario.js";

/** Return the side key of a member */
function sideOf(scenario, name) {
  return membersWithSides(scenario).find(([, member]) => member.name === name)[0];
}

/** List every member's name in descending Sequence; ties: side a first, then listed order (B6) */
function sequenceOrder(scenario) {
  return membersWithSides(scenario)
    .map(([, member]) => member)
    .sort((first, second) => (second.sequence ?? 0) - (first.sequence ?? 0))
    .map((member) => member.name);
}

// --- the PER + Survival Test (docs/rules/fallout-ttrpg.md#mechanics, docs/rules/fallout-ttrpg.md#world-map)

/** Return PER + Survival, the score that picks a Group Test leader (B11) */
const spotScore = (member) => member.per + member.survival;

/** Return what a member adds to the d20 of a PER + Survival Test: (PER - baseline) + Survival [F1] */
const testModifier = (member) => spotScore(member) - RULES.special_baseline;

/** Return a PER + Survival Test total: d20 + (PER - baseline) + Survival, no natural 1 or 20 rule [F1] */
const testTotal = (member, roll) => roll + testModifier(member);

/** Classify a test total: success, normal failure, or poor failure (docs/rules/fallout-ttrpg.md#world-map, B3) */
function testResult(total, dc, hunting, options) {
  if (total >= dc) {
    return "success";
  }
  if (hunting || total <= dc - options.poor_failure_margin) {
    return "poor-failure";
  }
  return "failure";
}

/** Return the member who rolls for the side: highest PER + Survival, first listed on a tie (B11) */
function groupLeader(side) {
  return side.members.reduce((leader, member) => (spotScore(member) > spotScore(leader) ? member : leader));
}

/** Tell whether side b's leader rolls his own test after the party's (B5) */
function needsEnemyTest(partyResult, hunting, options) {
  return Boolean(options.enemy_spot_roll) && partyResult !== "success" && !hunting;
}

/** Decide who gets the Surprise Round from the party's test and, when rolled, the enemies' test (B4, B5) */
function worldMapSurprise(partyResult, enemyResult) {
  if (partyResult === "success") {
    return "a";
  }
  if (enemyResult !== null) {
    return enemyResult === "success" ? "b" : "none";
  }
  return partyResult === "poor-failure" ? "b" : "none";
}

/** Let a side's leader roll 1d20 for the PER + Survival Test */
async function rollSpotTest(side, dc, hunting, options, roller) {
  const leader = groupLeader(side);
  const [roll] = await roller(1, RULES.test_die, { kind: "spot", who: leader.name, target: dc });
  const total = testTotal(leader, roll);
  return { leader: leader.name, roll, total, dc, result: testResult(total, dc, hunting, options) };
}

// --- the opening Sneak Attack (docs/rules/fallout-ttrpg.md#sneak-attack, B2, B10)

/** Return the declared openers, a lone attacker counting as one */
function scenarioOpeners(scenario) {
  if (given(scenario.openers)) {
    return scenario.openers;
  }
  if (!given(scenario.attacker) || !given(scenario.attack_bonus) || !given(scenario.target_number)) {
    return [];
  }
  return [{ name: scenario.attacker, attack_bonus: scenario.attack_bonus, target_number: scenario.target_number }];
}

/** Order the openers as they attack: descending Sequence, ties side a first, then listed order */
function openingOrder(scenario) {
  const rank = new Map(sequenceOrder(scenario).map((name, index) => [name, index]));
  return [...scenarioOpeners(scenario)].sort((first, second) => rank.get(first.name) - rank.get(second.name));
}

/** Tell whether an attack total reaches the target number */
const attackHits = (total, targetNumber) => total >= targetNumber;

/** Roll the openers in order with Advantage until one hits; later openers take no dice (B2, B10) */
async function rollOpeners(scenario, roller) {
  const attacks = [];
  for (const opener of openingOrder(scenario)) {
    const dice = await roller(RULES.advantage_dice, RULES.test_die, { kind: "sneak-attack", who: opener.name, target: opener.target_number });
    const total = Math.max(...dice) + opener.attack_bonus;
    const hit = attackHits(total, opener.target_number);
    attacks.push({ name: opener.name, side: sideOf(scenario, opener.name), dice, total, target_number: opener.target_number, hit });
    if (hit) {
      break;
    }
  }
  return attacks;
}

// --- the Surprise Round (docs/rules/fallout-ttrpg.md#surprise-round)

/** Tell whether a member of the surprised side still acts in the Surprise Round (B7, B9) */
function actsWhenSurprised(member, options) {
  if (!member.cautious_nature) {
    return false;
  }
  return !member.asleep || options.cautious_sleeper_wakes === "sr_turn_start";
}

/** Build the Surprise Round of side, opened by opener's Sneak Attack when there is one */
function surpriseRound(scenario, side, opener = null) {
  const options = scenarioOptions(scenario);
  const victims = scenario.sides[other(side)].members;
  const surprised = victims.filter((member) => !member.cautious_nature).map((member) => member.name); // B9
  const prone = victims.filter((member) => member.asleep).map((member) => member.name);
  const cautiousSleepersWakeEarly = options.cautious_sleeper_wakes === "sr_turn_start"; // B7
  const wakeAtTurnStart = victims
    .filter((member) => member.asleep && member.cautious_nature && cautiousSleepersWakeEarly)
    .map((member) => member.name);
  const wakeAtEnd = prone.filter((name) => !wakeAtTurnStart.includes(name)); // B8
  const actors = new Set(scenario.sides[side].members.map((member) => member.name));
  victims.filter((member) => actsWhenSurprised(member, options)).forEach((member) => actors.add(member.name));
  if (opener !== null && !options.opening_attack_is_free) {
    actors.delete(opener); // B1
  }
  const inSequence = sequenceOrder(scenario).filter((name) => actors.has(name));
  return {
    side,
    order: opener !== null ? [opener, ...inSequence] : inSequence,
    surprised,
    prone,
    wake_at_turn_start: wakeAtTurnStart,
    wake_at_end: wakeAtEnd,
  };
}

/** Return every member's lost rounds: 1 on the surprised side unless he acts in the Surprise Round */
function roundsLost(scenario, surprise) {
  const options = scenarioOptions(scenario);
  return Object.fromEntries(
    membersWithSides(scenario).map(([key, member]) => {
      const onSurprisedSide = surprise !== "none" && key === other(surprise);
      return [member.name, onSurprisedSide && !actsWhenSurprised(member, options) ? 1 : 0];
    }),
  );
}

/** Assemble the outcome once the dice have decided who gets the Surprise Round */
function finished(scenario, surprise, opener, test, enemyTest, openers) {
  const outcome = { surprise, test };
  if (enemyTest !== null) {
    outcome.enemy_test = enemyTest;
  }
  outcome.openers = openers;
  outcome.surprise_round = surprise === "none" ? null : surpriseRound(scenario, surprise, opener);
  outcome.normal_order = sequenceOrder(scenario);
  outcome.members = Object.fromEntries(
    Object.entries(roundsLost(scenario, surprise)).map(([name, lost]) => [name, { lost }]),
  );
  return outcome;
}

/** Play the World Map spot check: the party's test, then side b's when enemy_spot_roll asks for it */
async function resolveWorldMap(scenario, roller) {
  const options = scenarioOptions(scenario);
  const hunting = Boolean(scenario.hunting);
  const test = await rollSpotTest(scenario.sides.a, scenario.dc, hunting, options, roller);
  let enemyTest = null;
  if (needsEnemyTest(test.result, hunting, options)) {
    enemyTest = await rollSpotTest(scenario.sides.b, scenario.dc, false, options, roller);
  }
  const surprise = worldMapSurprise(test.result, enemyTest === null ? null : enemyTest.result);
  return finished(scenario, surprise, null, test, enemyTest, null);
}

/** Play the opening Sneak Attacks: the first hit gives its side the Surprise Round */
async function resolveSneakAttack(scenario, roller) {
  const attacks = await rollOpeners(scenario, roller);
  const hit = attacks.find((attack) => attack.hit) ?? null;
  return finished(scenario, hit === null ? "none" : hit.side, hit === null ? null : hit.name, null, null, attacks);
}

/** Play one surprise with the roller's dice */
async function resolve(scenario, roller) {
  if (scenario.procedure === "world-map") {
    return resolveWorldMap(scenario, roller);
  }
  return resolveSneakAttack(scenario, roller);
}

// --- Exact odds: who gets the Surprise Round and each member's rounds lost.
// The port of odds() in the Python rules core; tests/test_js_odds.py keeps the two within 1e-9.

const RESULTS = ["success", "failure", "poor-failure"];

/** Return the exact chance of each test result for one roller */
function testResultChances(member, dc, hunting, options) {
  const counts = Object.fromEntries(RESULTS.map((result) => [result, 0]));
  for (let roll = 1; roll <= RULES.test_die; roll += 1) counts[testResult(testTotal(member, roll), dc, hunting, options)] += 1;
  return RESULTS.map((result) => [result, exact(counts[result], RULES.test_die)]);
}

/** Return the exact chance of each Surprise Round side after the World Map spot check */
function worldMapChances(scenario, options) {
  const chances = { a: ZERO, b: ZERO, none: ZERO };
  const hunting = Boolean(scenario.hunting);
  for (const [partyResult, pParty] of testResultChances(groupLeader(scenario.sides.a), scenario.dc, hunting, options)) {
    if (!needsEnemyTest(partyResult, hunting, options)) {
      const side = worldMapSurprise(partyResult, null);
      chances[side] = plus(chances[side], pParty);
      continue;
    }
    for (const [enemyResult, pEnemy] of testResultChances(groupLeader(scenario.sides.b), scenario.dc, false, options)) {
      const side = worldMapSurprise(partyResult, enemyResult);
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
    for (let second = 1; second <= die; second += 1) if (attackHits(Math.max(first, second) + attackBonus, targetNumber)) hits += 1;
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
  const steps = openingOrder(scenario).map((opener) => {
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
    const middle = (low + high) >>> 1; // halfway, rounded down
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
      const loser = actsWhenSurprised(member, options) ? "" : other(key);
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

export {
  testTotal,
  testResult,
  groupLeader,
  needsEnemyTest,
  worldMapSurprise,
  sequenceOrder,
  openingOrder,
  attackHits,
  actsWhenSurprised,
  surpriseRound,
  roundsLost,
  resolve,
  odds,
};
