// ambush odds — GURPS 4e surprise (docs/rules/gurps4e.md): who gets the jump and the seconds each member loses, exactly.
// A hand-written port of odds() in exporter/rules/gurps4e.py: change both together; tests/test_js_odds.py keeps them
// within 1e-9.
import { RULES, SIDE_KEYS, SYSTEM } from "../config.js";
import * as Rules from "../rules/gurps4e.js";
import { other, scenarioOptions } from "../scenario.js";
import { ONE, TAIL_CUT, ZERO, atLeast, exact, isZero, memberJson, minus, plus, power, shownName, times, toFloat } from "./shared.js";

/** Return how many of the 3d6 totals (out of 216) each total is, from 3 to 18 */
function successRollCounts() {
  let counts = new Map([[0, 1]]);
  for (let die = 0; die < RULES.success_dice; die += 1) {
    const next = new Map();
    for (const [sum, count] of counts) {
      for (let face = 1; face <= RULES.success_die; face += 1) next.set(sum + face, (next.get(sum + face) ?? 0) + count);
    }
    counts = next;
  }
  return counts;
}

const ROLL_COUNTS = successRollCounts();
const ROLLS = RULES.success_die ** RULES.success_dice;

/** Return the exact chance of a success roll */
function successChance(effective) {
  const threshold = Rules.successThreshold(effective);
  if (threshold === null) return ZERO;
  let count = 0;
  for (const [roll, n] of ROLL_COUNTS) if (roll <= threshold) count += n;
  return exact(count, ROLLS);
}

/** Return every possible success roll of a skill with its count out of 216 (one unrolled attempt: all 216) */
function rollOutcomes(skill) {
  if (Rules.successThreshold(skill) === null) return [[{ skill, roll: null, success: false }, ROLLS]];
  return [...ROLL_COUNTS].sort(([x], [y]) => x - y)
    .map(([roll, n]) => [{ skill, roll, success: Rules.succeeds(skill, roll) }, n]);
}

/** Return the chance that the worst sneak beats every watcher; watchers with the same Per share the work */
function sneakWinChance(scenario, surprising) {
  const sneak = Rules.worstSneak(scenario.sides[surprising]);
  const watchers = new Map();
  for (const watcher of scenario.sides[other(surprising)].members) watchers.set(watcher.per ?? 0, (watchers.get(watcher.per ?? 0) ?? 0) + 1);
  let numerator = 0n;
  let denominator = BigInt(ROLLS);
  for (const count of watchers.values()) denominator *= BigInt(ROLLS) ** BigInt(count);
  const outcomes = new Map([...watchers.keys()].map((per) => [per, rollOutcomes(per)]));
  for (const [sneakRoll, n] of rollOutcomes(sneak.stealth ?? 0)) {
    let beatsAll = BigInt(n);
    for (const [per, count] of watchers) {
      let beaten = 0;
      for (const [roll, m] of outcomes.get(per)) if (Rules.quickContest(sneakRoll, roll) === "first") beaten += m;
      beatsAll *= BigInt(beaten) ** BigInt(count);
    }
    numerator += beatsAll;
  }
  return [numerator, denominator];
}

/** Return the exact chance that each side gets the jump, and what the loser suffers */
function surpriseChances(scenario, options) {
  const surprising = scenario.surprising ?? "a";
  if (scenario.procedure === "total" || scenario.procedure === "quick-contest") {
    const win = scenario.procedure === "total" ? ONE : sneakWinChance(scenario, surprising);
    const chances = { a: ZERO, b: ZERO, none: minus(ONE, win) };
    chances[surprising] = win;
    const watchers = scenario.sides[other(surprising)];
    const kind = scenario.procedure === "total" || !(watchers.expecting_trouble ?? true) ? "total" : "partial";
    return { chances, kind };
  }
  const modifier = (key) => Object.values(Rules.initiativeModifiers(scenario.sides[key], scenario.sides[other(key)], options))
    .reduce((sum, value) => sum + value, 0);
  const mods = { a: modifier("a"), b: modifier("b") };
  const counts = { a: 0, b: 0, none: 0 };
  const die = RULES.initiative_die;
  for (let rollA = 1; rollA <= die; rollA += 1) {
    for (let rollB = 1; rollB <= die; rollB += 1) counts[Rules.initiativeWinner({ a: rollA + mods.a, b: rollB + mods.b }) ?? "none"] += 1;
  }
  const chances = Object.fromEntries(Object.entries(counts).map(([key, count]) => [key, exact(count, die * die)]));
  return { chances, kind: "partial" };
}

/** Return how many turns of a constant-chance tail carry mass * (1 - chance)**k >= cut, decided exactly */
function tailLength(mass, chance, cut) {
  if (!atLeast(mass, cut)) return 0;
  const stay = minus(ONE, chance);
  if (isZero(stay)) return 1;
  const holds = (k) => atLeast(times(mass, power(stay, k)), cut);
  let length = Math.max(1, Math.floor(Math.log(toFloat(cut) / toFloat(mass)) / Math.log(toFloat(stay))) + 1);
  while (length > 1 && !holds(length - 1)) length -= 1;
  while (holds(length)) length += 1;
  return length;
}

/** Return the terms mass * chance * (1 - chance)**k of a tail, as floats */
function tailTerms(mass, chance, cut) {
  const terms = [];
  const stay = toFloat(minus(ONE, chance));
  let term = toFloat(times(mass, chance));
  for (let k = tailLength(mass, chance, cut); k > 0; k -= 1) {
    terms.push(term);
    term *= stay;
  }
  return terms;
}

const lossCache = new Map();

/** Return a surprised member's loss: [turn, float] entries, never and expected as rationals; one per stun profile */
function lossIfSurprised(member, kind) {
  const key = `${member.iq}|${Boolean(member.combat_reflexes)}|${kind}`;
  if (!lossCache.has(key)) lossCache.set(key, computeLoss(member, kind));
  return lossCache.get(key);
}

/** Compute what lossIfSurprised returns */
function computeLoss(member, kind) {
  if (Rules.neverRecovers(member, kind)) return { lost: [], never: ONE, expected: null };
  if (kind === "total" && !member.combat_reflexes) {
    const chance = successChance(member.iq);
    const freezes = RULES.freeze_die;
    // Each freeze f of 1..6 starts the same tail on turn f + 1 (cut at TAIL_CUT / 6).
    const terms = tailTerms(exact(1, freezes), chance, times(TAIL_CUT, exact(1, freezes)));
    const lost = [];
    for (let index = 0; index < terms.length + freezes - 1; index += 1) {
      let mass = 0;
      for (let k = Math.max(0, index - freezes + 1); k <= Math.min(index, terms.length - 1); k += 1) mass += terms[k];
      lost.push([index + 2, mass]);
    }
    return { lost, never: ZERO, expected: plus(exact(freezes + 1, 2), [chance[1], chance[0]]) };
  }
  const lost = [];
  let still = ONE;
  let expected = ZERO;
  for (let turn = 1; ; turn += 1) {
    const target = Rules.recoveryTarget(member, "partial", turn);
    const chance = successChance(target);
    if (Rules.successThreshold(target) === RULES.sure_failure - 1) {
      // From here every turn has the same chance: a geometric tail with a closed-form mean.
      expected = plus(expected, times(still, plus(exact(turn - 1), [chance[1], chance[0]])));
      tailTerms(still, chance, TAIL_CUT).forEach((p, index) => lost.push([turn + index, p]));
      return { lost, never: ZERO, expected };
    }
    const p = times(still, chance);
    if (!isZero(p)) lost.push([turn, toFloat(p)]);
    expected = plus(expected, times(exact(turn), p));
    still = times(still, minus(ONE, chance));
  }
}

/** Weigh a member's loss by the chance his side is surprised, adding 0 for the rest */
function unconditional(loss, surprised) {
  const weight = toFloat(surprised);
  const lost = isZero(surprised) ? [] : loss.lost.map(([key, p]) => [key, p * weight]);
  const rest = minus(ONE, surprised);
  if (!isZero(rest)) lost.unshift([0, toFloat(rest)]);
  const never = times(loss.never, surprised);
  return memberJson(lost, never, isZero(never) ? times(loss.expected ?? ZERO, surprised) : null);
}

/** Return the odds of a rules scenario in the shape of `ambush odds --json`; members keyed by label, else name */
function odds(scenario) {
  const options = scenarioOptions(scenario);
  const { chances, kind } = surpriseChances(scenario, options);
  const members = []; // entries: a member called __proto__ stays a member
  for (const key of SIDE_KEYS) {
    const shared = new Map();
    for (const member of scenario.sides[key].members) {
      const profile = `${member.iq}|${Boolean(member.combat_reflexes)}`;
      if (!shared.has(profile)) shared.set(profile, unconditional(lossIfSurprised(member, kind), chances[other(key)]));
      members.push([shownName(member), shared.get(profile)]);
    }
  }
  const surprise = Object.fromEntries(["a", "b", "none"].map((key) => [key, toFloat(chances[key])]));
  return { system: SYSTEM, procedure: scenario.procedure, surprise, members: Object.fromEntries(members) };
}

export { odds };
