// ambush rules core — GURPS 4e surprise (docs/rules/gurps4e.md).
// A hand-written port of the Python rules core exporter/rules/gurps4e.py, not generated from it: change both together;
// the conformance vectors (fixtures/vectors/) hold them to the same outcomes.
import { RULES, SIDE_KEYS, SYSTEM } from "../config.js";
import { ONE, TAIL_CUT, ZERO, atLeast, dieMean, exact, isZero, memberJson, minus, plus, power, shownName, times, toFloat } from "../odds.js";
import { other, scenarioOptions } from "../scenario.js";

/** Add up a list of numbers */
const sum = (values) => values.reduce((total, value) => total + value, 0);

/** Roll count dice of one size through the roller and return their sum */
async function rollSum(roller, count, sides, purpose) {
  return sum(await roller(count, sides, purpose));
}

// --- primitives (B343-B348)

/** Return the highest 3d6 roll that succeeds, or null when the roll cannot be attempted */
function successThreshold(effective) {
  if (effective < RULES.lowest_rollable) {
    return null;
  }
  return Math.max(RULES.sure_success, Math.min(effective, RULES.sure_failure - 1));
}

/** Tell whether a 3d6 roll succeeds against an effective skill */
function succeeds(effective, roll) {
  const threshold = successThreshold(effective);
  return threshold !== null && roll <= threshold;
}

/** Return one success roll as plain data; roll is null when it could not be attempted */
function successRoll(name, skill, roll) {
  return {
    name,
    skill,
    roll,
    margin: roll === null ? null : skill - roll,
    success: roll !== null && succeeds(skill, roll),
  };
}

/** Roll 3d6 against a skill, taking no dice when the roll cannot be attempted */
async function makeSuccessRoll(roller, name, skill, kind) {
  if (successThreshold(skill) === null) {
    return successRoll(name, skill, null);
  }
  const purpose = { kind, who: name, target: successThreshold(skill) };
  return successRoll(name, skill, await rollSum(roller, RULES.success_dice, RULES.success_die, purpose));
}

/** Rank a roll for a Quick Contest: not attempted, then failures, then successes, each by margin (B348) */
function contestRank(attempt) {
  if (attempt.roll === null) {
    return [-1, 0];
  }
  return [attempt.success ? 1 : 0, attempt.skill - attempt.roll];
}

/** Decide a Quick Contest between two success rolls; criticals do not matter, only success and margin */
function quickContest(first, second) {
  const [a, b] = [contestRank(first), contestRank(second)];
  const order = a[0] !== b[0] ? a[0] - b[0] : a[1] - b[1];
  if (order > 0) {
    return "first";
  }
  return order < 0 ? "second" : "tie";
}

// --- initiative (B393, partial surprise)

/** Return a side's leader, or null for a leaderless side */
function leadingMember(side) {
  return side.members.find((member) => member.name === side.leader) ?? null;
}

/** Return the highest IQ on a side */
const highestIq = (side) => Math.max(...side.members.map((member) => member.iq));

/** Tell whether a leaderless side escapes the leaderless penalty: animals, or highest IQ at most the low-IQ limit (A5, A9) */
function exemptFromLeaderlessPenalty(side) {
  return Boolean(side.animals) || highestIq(side) <= RULES.low_iq_group;
}

/** Return the IQ a side's initiative compares: its leader's, or null when leaderless (A7) */
function comparisonIq(side, options) {
  const leader = leadingMember(side);
  if (leader !== null) {
    return leader.iq;
  }
  return options.leaderless_iq_bonus ? highestIq(side) : null;
}

/** Return the non-zero initiative modifiers of one side, keyed as the outcome shows them (docs/rules/gurps4e.md#initiative) */
function initiativeModifiers(side, opponent, options) {
  const bonus = RULES.initiative_bonus;
  const leader = leadingMember(side);
  const modifiers = {};
  if (leader !== null && leader.combat_reflexes) {
    modifiers.combat_reflexes = bonus.combat_reflexes;
  } else if (side.members.some((member) => member.combat_reflexes)) {
    modifiers.ally_combat_reflexes = bonus.ally_combat_reflexes; // A8
  }
  const ownIq = comparisonIq(side, options);
  const theirIq = comparisonIq(opponent, options);
  if (ownIq !== null && theirIq !== null && ownIq > theirIq) {
    modifiers.higher_iq = bonus.higher_iq;
  }
  const tactics = leader === null ? 0 : (leader.tactics ?? 0);
  if (tactics >= 1) {
    modifiers.tactics = tactics >= RULES.tactics_master_level ? bonus.tactics_master : bonus.tactics; // A6
  }
  if (leader === null && !exemptFromLeaderlessPenalty(side)) {
    modifiers.leaderless = bonus.leaderless;
  }
  if (side.gm_modifier) {
    modifiers.gm = side.gm_modifier;
  }
  return modifiers;
}

/** Roll one side's initiative: 1d6 plus its modifiers */
async function rollInitiative(scenario, key, roller, options) {
  const roll = await rollSum(roller, 1, RULES.initiative_die, { kind: "initiative", who: key });
  const modifiers = initiativeModifiers(scenario.sides[key], scenario.sides[other(key)], options);
  return { roll, modifiers, total: roll + sum(Object.values(modifiers)) };
}

/** Return the side with the higher total, or null on a tie (nobody surprised) */
function initiativeWinner(totals) {
  if (totals.a === totals.b) {
    return null;
  }
  return totals.a > totals.b ? "a" : "b";
}

// --- the contest that replaces initiative when sneaking (Kromm [G2])

/** Return the sneak with the lowest Stealth, the first listed on a tie (A10) */
function worstSneak(side) {
  return side.members.reduce((worst, member) => ((member.stealth ?? 0) < (worst.stealth ?? 0) ? member : worst));
}

/** Decide one watcher's contest against the sneak's roll */
function watcherResult(sneak, watcher) {
  return { first: "sneak", second: "watcher", tie: "tie" }[quickContest(sneak, watcher)];
}

/** Return the side that surprises by the GM's call (total) or sneaks (quick-contest): side a unless the scenario says */
const surprisingSide = (scenario) => scenario.surprising ?? "a";

/** Roll the worst sneak's Stealth, then each watcher's Per in listed order, and decide each contest */
async function rollContest(scenario, roller) {
  const sneakMember = worstSneak(scenario.sides[surprisingSide(scenario)]);
  const sneak = await makeSuccessRoll(roller, sneakMember.name, sneakMember.stealth ?? 0, "contest");
  const watchers = [];
  for (const watcher of scenario.sides[other(surprisingSide(scenario))].members) {
    const attempt = await makeSuccessRoll(roller, watcher.name, watcher.per ?? 0, "contest");
    watchers.push({ ...attempt, winner: watcherResult(sneak, attempt) });
  }
  return { sneak, watchers };
}

/** Tell whether the sneak beat every watcher: one tie or loss spoils it (A10, A11) */
const sneaksWin = (contest) => contest.watchers.every((watcher) => watcher.winner === "sneak");

/** Return what a won sneak does to the watchers: partial if they expected trouble, else total */
const contestKind = (watchers) => ((watchers.expecting_trouble ?? true) ? "partial" : "total");

// --- the stun, turn by turn (docs/rules/gurps4e.md#partial-surprise, docs/rules/gurps4e.md#total-surprise, docs/rules/gurps4e.md#turn-by-turn)

/** Return the IQ roll's target on a member's own turn (A3, A4, A12) */
function recoveryTarget(member, kind, turn) {
  if (kind === "partial" || member.combat_reflexes) {
    return member.iq + (member.combat_reflexes ? RULES.combat_reflexes_recovery : 0) + (turn - 1);
  }
  return member.iq;
}

/** Tell whether a member can never roll his way out (total surprise, no CR, IQ too low to roll) */
function neverRecovers(member, kind) {
  return kind === "total" && !member.combat_reflexes && member.iq < RULES.lowest_rollable;
}

/** Roll the total-surprise freeze: once for the side or once each (A2); CR never freezes */
async function freezeRolls(members, roller, options, side) {
  const freezers = members.filter((member) => !member.combat_reflexes);
  if (freezers.length === 0) {
    return {};
  }
  if (options.freeze_roll_scope === "side") {
    const shared = await rollSum(roller, 1, RULES.freeze_die, { kind: "freeze", who: side });
    return Object.fromEntries(freezers.map((member) => [member.name, shared]));
  }
  const freeze = [];
  for (const member of freezers) {
    freeze.push([member.name, await rollSum(roller, 1, RULES.freeze_die, { kind: "freeze", who: member.name })]);
  }
  return Object.fromEntries(freeze);
}

/** Start a surprised member's stun track: his freeze, no turns yet */
const stunTrack = (member, freeze) => ({ name: member.name, freeze, turns: [], lost: null, never: false });

/** Tell whether a member has recovered or can never recover */
const trackDone = (track) => track.lost !== null || track.never;

/**
 * Tell whether a successful recovery roll lifts the stun's defence penalty at once (rolled at the start of the turn)
 * rather than at the end of that turn (docs/rules/gurps4e.md#a1)
 */
const recoveryLiftsAtOnce = (options) => options.stun_roll_timing === "start";

/** Play one of a stunned member's own turns, append it to his track and return it (docs/rules/gurps4e.md#turn-by-turn) */
async function takeStunTurn(track, member, kind, turn, roller, options) {
  if (turn <= track.freeze) {
    const frozen = { turn, state: "frozen", defence: RULES.stun_defence };
    track.turns.push(frozen);
    return frozen;
  }
  const target = recoveryTarget(member, kind, turn);
  const attempt = await makeSuccessRoll(roller, member.name, target, "recovery");
  const recovered = attempt.success;
  const defence = recovered && recoveryLiftsAtOnce(options) ? 0 : RULES.stun_defence; // A1
  const stunned = { turn, state: "stunned", target, roll: attempt.roll, success: recovered, defence };
  track.turns.push(stunned);
  if (recovered) {
    track.lost = turn;
  } else if (neverRecovers(member, kind)) {
    track.never = true;
  }
  return stunned;
}

/** Decide who is surprised and how, and roll the freeze; returns the loser's stun tracks, no turns played yet */
async function openSurprise(scenario, roller) {
  const options = scenarioOptions(scenario);
  let initiative = null;
  let contest = null;
  let winner;
  let kind;
  if (scenario.procedure === "partial") {
    initiative = {};
    for (const key of SIDE_KEYS) {
      initiative[key] = await rollInitiative(scenario, key, roller, options);
    }
    winner = initiativeWinner({ a: initiative.a.total, b: initiative.b.total });
    kind = "partial";
  } else if (scenario.procedure === "quick-contest") {
    contest = await rollContest(scenario, roller);
    winner = sneaksWin(contest) ? surprisingSide(scenario) : null;
    kind = contestKind(scenario.sides[other(surprisingSide(scenario))]);
  } else {
    winner = surprisingSide(scenario); // docs/rules/gurps4e.md#procedures: total surprise by GM fiat
    kind = "total";
  }
  if (winner === null) {
    return { surprise: "none", surprise_kind: null, initiative, contest, freeze: {}, loser: null, tracks: [] };
  }
  const loser = other(winner);
  const members = scenario.sides[loser].members;
  const freeze = kind === "total" ? await freezeRolls(members, roller, options, loser) : {};
  const tracks = members.map((member) => stunTrack(member, Object.hasOwn(freeze, member.name) ? freeze[member.name] : 0));
  return { surprise: winner, surprise_kind: kind, initiative, contest, freeze, loser, tracks };
}

/** Play one surprise with the roller's dice: turn 1, 2, ... each unfinished member in listed order */
async function resolve(scenario, roller) {
  const options = scenarioOptions(scenario);
  const opened = await openSurprise(scenario, roller);
  if (opened.loser !== null) {
    const members = scenario.sides[opened.loser].members;
    for (let turn = 1; !opened.tracks.every(trackDone); turn += 1) {
      for (const [index, track] of opened.tracks.entries()) {
        if (!trackDone(track)) {
          await takeStunTurn(track, members[index], opened.surprise_kind, turn, roller, options);
        }
      }
    }
  }
  return {
    surprise: opened.surprise,
    surprise_kind: opened.surprise_kind,
    initiative: opened.initiative,
    contest: opened.contest,
    freeze: opened.freeze,
    members: Object.fromEntries(opened.tracks.map((track) => [track.name, { lost: track.lost, turns: track.turns }])),
  };
}

// --- Exact odds: who gets the jump and the seconds each member loses, exactly.
// The port of odds() in the Python rules core; tests/test_js_odds.py keeps the two within 1e-9.

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
  const threshold = successThreshold(effective);
  if (threshold === null) return ZERO;
  let count = 0;
  for (const [roll, n] of ROLL_COUNTS) if (roll <= threshold) count += n;
  return exact(count, ROLLS);
}

/** Return every possible success roll of a skill with its count out of 216 (one unrolled attempt: all 216) */
function rollOutcomes(skill) {
  if (successThreshold(skill) === null) return [[{ skill, roll: null, success: false }, ROLLS]];
  return [...ROLL_COUNTS].sort(([x], [y]) => x - y)
    .map(([roll, n]) => [{ skill, roll, success: succeeds(skill, roll) }, n]);
}

/** Return the chance that the worst sneak beats every watcher; watchers with the same Per share the work */
function sneakWinChance(scenario, surprising) {
  const sneak = worstSneak(scenario.sides[surprising]);
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
      for (const [roll, m] of outcomes.get(per)) if (quickContest(sneakRoll, roll) === "first") beaten += m;
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
  const modifier = (key) => Object.values(initiativeModifiers(scenario.sides[key], scenario.sides[other(key)], options))
    .reduce((sum, value) => sum + value, 0);
  const mods = { a: modifier("a"), b: modifier("b") };
  const counts = { a: 0, b: 0, none: 0 };
  const die = RULES.initiative_die;
  for (let rollA = 1; rollA <= die; rollA += 1) {
    for (let rollB = 1; rollB <= die; rollB += 1) counts[initiativeWinner({ a: rollA + mods.a, b: rollB + mods.b }) ?? "none"] += 1;
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
  if (neverRecovers(member, kind)) return { lost: [], never: ONE, expected: null };
  if (kind === "total" && !member.combat_reflexes) {
    const chance = successChance(member.iq);
    const freezes = RULES.freeze_die;
    // Each freeze f of 1..6 starts the same tail on turn f + 1 (cut at TAIL_CUT / 6).
    const terms = tailTerms(exact(1, freezes), chance, times(TAIL_CUT, exact(1, freezes)));
    const lost = [];
    for (let index = 0; index < terms.length + freezes - 1; index += 1) {
      let mass = 0;
      for (let k = Math.max(0, index - freezes + 1); k <= Math.min(index, terms.length - 1); k += 1) mass += terms[k];
      // Entry `index` is turn 1 + index + 1: the shortest freeze (1 s) plus index turns, the tail starting a turn after.
      lost.push([1 + index + 1, mass]);
    }
    return { lost, never: ZERO, expected: plus(dieMean(freezes), [chance[1], chance[0]]) };
  }
  const lost = [];
  let still = ONE;
  let expected = ZERO;
  for (let turn = 1; ; turn += 1) {
    const target = recoveryTarget(member, "partial", turn);
    const chance = successChance(target);
    if (successThreshold(target) === RULES.sure_failure - 1) {
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

export {
  successThreshold,
  succeeds,
  quickContest,
  initiativeModifiers,
  initiativeWinner,
  worstSneak,
  recoveryTarget,
  neverRecovers,
  recoveryLiftsAtOnce,
  openSurprise,
  takeStunTurn,
  resolve,
  odds,
};
