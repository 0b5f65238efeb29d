// ambush rules core — D&D 5th edition surprise (docs/rules/dnd5e.md): each hider's Stealth against each watcher's
// passive Perception; 2014 a lost first turn, 2024 Disadvantage on Initiative.
// A hand-written port of the Python rules core exporter/rules/dnd5e.py, not generated from it: change both together;
// the conformance vectors (fixtures/vectors/) hold them to the same outcomes.
import { RULES, SIDE_KEYS, SYSTEM } from "../config.js";
import {
  ONE, ZERO, atLeast, dieFaces, highestOf, isZero, lowestOf, memberJson, minus, plus, power, shownName, times, toFloat,
} from "../odds.js";
import { membersWithSides, scenarioOptions } from "../scenario.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = ["Dnd5e.GroupTooLarge"];

/** Return the face a d20 check keeps: the higher with Advantage, the lower with Disadvantage (D5) */
function keptFace(rolls, kind) {
  if (kind === "advantage") {
    return Math.max(...rolls);
  }
  if (kind === "disadvantage") {
    return Math.min(...rolls);
  }
  return rolls[0];
}

/** Return how a hider rolls his Stealth check: Advantage and Disadvantage together cancel (D5) */
function stealthKind(member) {
  const advantage = Boolean(member.stealth_advantage);
  if (advantage !== Boolean(member.stealth_disadvantage)) {
    return advantage ? "advantage" : "disadvantage";
  }
  return "normal";
}

/** Roll one d20 check of a kind with a bonus: 1d20, or 2d20 with Advantage or Disadvantage (D5); purpose: the roll's kind */
async function rollCheck(roller, name, kind, bonus, purpose) {
  const rolls = await roller(RULES.roll_dice[kind], RULES.d20, { kind: purpose, who: name });
  return { name, rolls, total: keptFace(rolls, kind) + bonus };
}

/** Tell whether a Stealth total stays hidden from a passive Perception; a tie as options.ties says (D4) */
function unnoticed(total, passive, options) {
  return total > passive || (total === passive && options.ties === "hider");
}

/** Count the Stealth totals, sorted ascending, that stay hidden from a passive Perception (D4): a search, not a walk */
function hiddenCount(totals, passive, options) {
  let low = 0;
  let high = totals.length;
  while (low < high) { // the first total that stays hidden
    const middle = (low + high) >> 1;
    if (unnoticed(totals[middle], passive, options)) high = middle;
    else low = middle + 1;
  }
  return totals.length - low;
}

/**
 * Tell whether hiders, their totals sorted ascending, stay hidden from one watcher: each of them, or with group_check
 * at least half (D6)
 */
function groupHidden(totals, passive, options) {
  const hidden = hiddenCount(totals, passive, options);
  if (options.group_check) {
    return hidden >= totals.length - hidden; // at least half: as many hidden as noticed, or more
  }
  return hidden === totals.length;
}

/** Return the Stealth totals a side's watchers face, sorted ascending; null when an opponent does not hide (D1) */
function facedTotals(opponents, totals) {
  if (!opponents.every((opponent) => opponent.hiding)) return null;
  return opponents.map((opponent) => totals.get(opponent.name)).sort((x, y) => x - y);
}

/** Tell whether a member is surprised where no Stealth check decides it (Alert, the GM's call); null elsewhere */
function surprisedWithoutDice(member, options) {
  if (options.rules === "2014" && member.alert) {
    return false; // D7: Alert, "you can't be surprised while you are conscious"
  }
  if (options.surprise_by === "gm") {
    return Boolean(member.gm_surprised); // D8: the GM's call
  }
  return null;
}

/**
 * Tell whether a member notices no threat: every opponent hides and stays hidden from him (D1-D3, D7, D8); `faced`
 * the opponents' totals, sorted, or null where one of them does not hide
 */
function memberSurprised(member, faced, options) {
  const decided = surprisedWithoutDice(member, options);
  if (decided !== null) {
    return decided;
  }
  if (faced === null) {
    return false; // D1: a creature not hiding is a threat noticed
  }
  return groupHidden(faced, member.passive_perception, options);
}

/** Return which side gets the jump: the one none of whose members is surprised, facing a surprised member (D10) */
function surpriseSide(surprised) {
  if (surprised.b && !surprised.a) {
    return "a";
  }
  if (surprised.a && !surprised.b) {
    return "b";
  }
  return "none";
}

/** Return the names by Initiative total, highest first; ties in scenario order, side a first (D9) */
function initiativeOrder(checks) {
  return [...checks].sort((first, second) => second.total - first.total).map((check) => check.name); // a stable sort
}

/** Return checks {name, rolls, total} as the outcome shows them, by name */
const checksJson = (checks) => Object.fromEntries(checks.map(({ name, rolls, total }) => [name, { rolls, total }]));

/**
 * Roll a member's Initiative (D9), of a kind (normal, or with Disadvantage): through the table's own roll where it has
 * one for him (`tableRoll(name, kind, bonus)`: a VTT's game system rolls with what its sheet adds), else 1d20 or 2d20
 * + his bonus
 */
async function rollInitiative(roller, member, kind, tableRoll) {
  const rolled = tableRoll ? await tableRoll(member.name, kind, member.initiative) : null;
  return rolled ? { name: member.name, rolls: rolled.rolls, total: rolled.total }
    : rollCheck(roller, member.name, kind, member.initiative, "initiative");
}

/**
 * Play one surprise: every hider's Stealth check in scenario order, then in 2024 everyone's Initiative; `initiative`,
 * where the table has its own Initiative roll (rollInitiative)
 */
async function resolve(scenario, roller, { initiative: tableRoll } = {}) {
  const options = scenarioOptions(scenario);
  const everyone = membersWithSides(scenario);
  const stealth = [];
  if (options.surprise_by === "stealth") {
    for (const [, member] of everyone.filter(([, each]) => each.hiding)) {
      // the roll's kind: a sneaking contest, as the table names the Stealth roll (it has no one target: every watcher)
      stealth.push(await rollCheck(roller, member.name, stealthKind(member), member.stealth, "contest"));
    }
  }
  const totals = new Map(stealth.map((check) => [check.name, check.total]));
  const faced = { a: facedTotals(scenario.sides.b.members, totals), b: facedTotals(scenario.sides.a.members, totals) };
  const members = everyone.map(([key, member]) => {
    const surprised = memberSurprised(member, faced[key], options);
    return { name: member.name, side: key, surprised, lost: surprised && options.rules === "2014" ? 1 : 0 };
  });
  const bySide = Object.fromEntries(SIDE_KEYS.map((key) => [key, members.some((m) => m.side === key && m.surprised)]));
  const outcome = {
    surprise: surpriseSide(bySide),
    stealth: checksJson(stealth),
    members: Object.fromEntries(members.map(({ name, surprised, lost }) => [name, { surprised, lost }])),
  };
  if (options.rules === "2024") { // D9: a surprised combatant has Disadvantage on his Initiative roll
    const initiative = [];
    for (const [index, [, member]] of everyone.entries()) {
      const kind = members[index].surprised ? "disadvantage" : "normal";
      initiative.push(await rollInitiative(roller, member, kind, tableRoll));
    }
    outcome.initiative = checksJson(initiative);
    outcome.order = initiativeOrder(initiative);
  }
  return outcome;
}

// --- Exact odds: each member's chance to be surprised, each side's chance to get the jump, and in 2024 the Initiative.
// The port of odds() in the Python rules core; tests/test_js_odds.py keeps the two within 1e-9.

/** Return the distribution of the kept d20 face of a check of a kind: entries [face, rational], faces ascending (D5) */
function keptDistribution(kind) {
  if (kind === "advantage") {
    return highestOf(RULES.roll_dice[kind], RULES.d20);
  }
  if (kind === "disadvantage") {
    return lowestOf(RULES.roll_dice[kind], RULES.d20);
  }
  return dieFaces(RULES.d20);
}

const KINDS = ["normal", "advantage", "disadvantage"];
/** The distribution of each kind of check, worked out once */
const CHECK_DISTRIBUTIONS = new Map(KINDS.map((kind) => [kind, keptDistribution(kind)]));

/** Return the distribution of the kept d20 face of a check of a kind */
const checkDistribution = (kind) => CHECK_DISTRIBUTIONS.get(kind);

/**
 * Count the opposing hiders by how they roll: {bonus, kind, count} in the order first met; null when one of them does
 * not hide (D1)
 */
function hiderGroups(opponents) {
  if (!opponents.every((opponent) => opponent.hiding)) return null;
  const groups = new Map();
  for (const opponent of opponents) {
    const kind = stealthKind(opponent);
    const key = `${opponent.stealth} ${kind}`;
    const group = groups.get(key) ?? { bonus: opponent.stealth, kind, count: 0 };
    group.count += 1;
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** Return the chance that a Stealth check of a kind with a bonus stays hidden from a passive Perception */
function hiddenChance(bonus, kind, passive, options) {
  return checkDistribution(kind)
    .filter(([face]) => unnoticed(face + bonus, passive, options))
    .reduce((sum, [, p]) => plus(sum, p), ZERO);
}

/** Return the exact chance a member is surprised, over the checks of the opposing hiders, counted by groups */
function surprisedChance(member, groups, options) {
  const decided = surprisedWithoutDice(member, options);
  if (decided !== null) {
    return decided ? ONE : ZERO;
  }
  if (groups === null) {
    return ZERO;
  }
  const chances = groups.map(({ bonus, kind }) => hiddenChance(bonus, kind, member.passive_perception, options));
  if (!options.group_check) {
    return groups.reduce((product, { count }, index) => times(product, power(chances[index], count)), ONE);
  }
  let hidden = [ONE]; // the chance that this many hiders stay hidden, one hider at a time
  const hiders = groups.flatMap(({ count }, index) => Array(count).fill(chances[index]));
  for (const chance of hiders) {
    const missed = minus(ONE, chance);
    const grown = [...hidden.map((p) => times(p, missed)), ZERO];
    hidden.forEach((p, count) => {
      grown[count + 1] = plus(grown[count + 1], times(p, chance));
    });
    hidden = grown;
  }
  return hidden.reduce((sum, p, count) => (count >= hiders.length - count ? plus(sum, p) : sum), ZERO); // D6: half
}

/** Return the distribution of an Initiative total, Disadvantage with the chance he is surprised: [total, rational] (D9) */
function initiativeDistribution(bonus, surprised) {
  const out = new Map();
  for (const [kind, weight] of [["disadvantage", surprised], ["normal", minus(ONE, surprised)]]) {
    if (isZero(weight)) continue;
    for (const [face, p] of checkDistribution(kind)) {
      out.set(face + bonus, plus(out.get(face + bonus) ?? ZERO, times(p, weight)));
    }
  }
  return [...out].sort(([x], [y]) => x - y);
}

/** Return a member's odds: 2014 the first turn lost with his chance to be surprised, 2024 his Initiative */
function memberOdds(chance, member, options) {
  if (options.rules === "2014") {
    const lost = [[0, minus(ONE, chance)], [1, chance]].filter(([, p]) => !isZero(p));
    return memberJson(lost.map(([turns, p]) => [turns, toFloat(p)]), ZERO, chance, { surprised: chance });
  }
  const initiative = initiativeDistribution(member.initiative, chance).map(([total, p]) => [total, toFloat(p)]);
  return memberJson([[0, 1]], ZERO, ZERO, { surprised: chance, initiative });
}

/** Return the odds of a rules scenario in the shape of `ambush odds --json`; members keyed by label, else name */
function odds(scenario) {
  const options = scenarioOptions(scenario);
  const members = []; // entries: a member called __proto__ stays a member
  const shared = new Map(); // members of one side with one profile
  const sideChance = { a: ZERO, b: ZERO };
  const groups = { a: hiderGroups(scenario.sides.b.members), b: hiderGroups(scenario.sides.a.members) }; // whom each faces
  for (const [key, member] of membersWithSides(scenario)) {
    const profile = JSON.stringify([key, member.passive_perception ?? null, Boolean(member.alert),
      Boolean(member.gm_surprised), options.rules === "2024" ? member.initiative : null]);
    if (!shared.has(profile)) {
      const chance = surprisedChance(member, groups[key], options);
      shared.set(profile, memberOdds(chance, member, options));
      // D10: a side has a surprised member exactly when its most easily surprised member is (a watcher surprised is
      // surprised at any lower passive Perception too); each side's surprise hangs on the other side's dice.
      if (!atLeast(sideChance[key], chance)) sideChance[key] = chance;
    }
    members.push([shownName(member), shared.get(profile)]);
  }
  const aJumps = times(sideChance.b, minus(ONE, sideChance.a));
  const bJumps = times(sideChance.a, minus(ONE, sideChance.b));
  const surprise = { a: aJumps, b: bJumps, none: minus(minus(ONE, aJumps), bJumps) };
  return {
    system: SYSTEM,
    procedure: scenario.procedure,
    surprise: Object.fromEntries(Object.entries(surprise).map(([side, p]) => [side, toFloat(p)])),
    members: Object.fromEntries(members),
  };
}

/**
 * Return what the rules refuse in a scenario the draft built, as a catalogue key and its data, or null: a group check
 * for more hiders on a side than its odds are worked out for (D6; the Python core refuses it too)
 */
function scenarioProblem(scenario) {
  const options = scenarioOptions(scenario);
  if (!options.group_check || options.surprise_by !== "stealth") return null;
  for (const key of SIDE_KEYS) {
    const side = scenario.sides[key];
    const hiders = side.members.filter((member) => member.hiding).length;
    if (hiders > RULES.group_check_hiders) {
      return { key: "Dnd5e.GroupTooLarge", data: { side: side.name, maximum: RULES.group_check_hiders } };
    }
  }
  return null;
}

export {
  STRING_KEYS,
  scenarioProblem,
  keptFace,
  stealthKind,
  unnoticed,
  groupHidden,
  memberSurprised,
  surpriseSide,
  initiativeOrder,
  resolve,
  odds,
};
