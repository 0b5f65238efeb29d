// ambush rules core — Fallout TTRPG homebrew surprise (docs/rules/fallout-ttrpg.md).
// A hand-written port of the Python rules core exporter/rules/fallout_ttrpg.py, not generated from it: change both together;
// the conformance vectors (fixtures/vectors/) hold them to the same outcomes.
import { RULES } from "../config.js";
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
};
