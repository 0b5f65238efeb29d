// What every system's exact odds share: rationals, so the odds decide what is zero or one as the Python core's Fractions do
// and become floats only at the end; a member's odds JSON; and the lines the GM reads.
import { SIDE_KEYS, TAIL_CUT as TAIL_CUT_PAIR, UNIT } from "./config.js";
import { decimal, percent } from "./format.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = ["Odds.Expected.{unit}", "Odds.Jump", "Odds.Never", "Odds.Surprised"];

// Exact rationals as [numerator, denominator] pairs of BigInt, denominators positive, left unreduced.
const ZERO = [0n, 1n];
const ONE = [1n, 1n];
const TAIL_CUT = TAIL_CUT_PAIR.map(BigInt);

/** Return the rational n / d of two integers */
const exact = (n, d = 1) => [BigInt(n), BigInt(d)];

/** The mean of a die of `faces` faces, (faces + 1) / 2, as a rational */
const dieMean = (faces) => exact(faces + 1, 2);

/** Multiply two rationals */
const times = (x, y) => [x[0] * y[0], x[1] * y[1]];

/** Add two rationals, keeping a shared denominator as it is */
const plus = (x, y) => (x[1] === y[1] ? [x[0] + y[0], x[1]] : [x[0] * y[1] + y[0] * x[1], x[1] * y[1]]);

/** Subtract a rational from another */
const minus = (x, y) => plus(x, [-y[0], y[1]]);

/** Raise a rational to a whole power */
const power = (x, k) => [x[0] ** BigInt(k), x[1] ** BigInt(k)];

/** Tell whether a rational is zero */
const isZero = (x) => x[0] === 0n;

/** Tell whether x >= y */
const atLeast = (x, y) => x[0] * y[1] >= y[0] * x[1];

/** Return the nearest float of a rational (to about 60 bits before the last rounding; the odds need 1e-9) */
function toFloat([n, d]) {
  if (n === 0n) return 0;
  const sign = n < 0n ? -1 : 1;
  const magnitude = n < 0n ? -n : n;
  const shift = 64 - (magnitude.toString(16).length - d.toString(16).length) * 4;
  const quotient = Number(shift >= 0 ? (magnitude << BigInt(shift)) / d : magnitude / (d << BigInt(-shift)));
  const half = Math.trunc(shift / 2); // two steps: 2 ** -shift alone can leave the float range
  return sign * quotient * 2 ** -half * 2 ** -(shift - half);
}

/** Return the distribution of one fair die: entries [face, rational], faces ascending */
function dieFaces(sides) {
  return Array.from({ length: sides }, (_, index) => [index + 1, exact(1, sides)]);
}

/** Return the distribution of the highest of `count` fair dice (Advantage keeps the higher): entries [face, rational] */
function highestOf(count, sides) {
  const k = BigInt(count);
  return Array.from({ length: sides }, (_, index) => {
    const face = BigInt(index + 1);
    return [index + 1, exact(face ** k - (face - 1n) ** k, BigInt(sides) ** k)];
  });
}

/** Return the distribution of the lowest of `count` fair dice (Disadvantage keeps the lower): entries [face, rational] */
function lowestOf(count, sides) {
  const k = BigInt(count);
  return Array.from({ length: sides }, (_, index) => {
    const above = BigInt(sides - index); // the faces from this one up
    return [index + 1, exact(above ** k - (above - 1n) ** k, BigInt(sides) ** k)];
  });
}

/**
 * Return the odds JSON of one member from his exact loss distribution (entries [key, float], keys ascending); where the
 * rules tell them apart, also his chance to be surprised (a rational) and his Initiative (entries [total, float], totals
 * ascending)
 */
function memberJson(lost, never, expected, { surprised = null, initiative = null } = {}) {
  const out = {
    unit: UNIT,
    lost: Object.fromEntries(lost.map(([key, p]) => [String(key), p])),
    never: toFloat(never),
    expected_lost: expected === null ? null : toFloat(expected),
  };
  if (surprised !== null) out.surprised = toFloat(surprised);
  if (initiative !== null) out.initiative = Object.fromEntries(initiative.map(([key, p]) => [String(key), p]));
  return out;
}

/** Return the name the odds show for a member: his label (a drafted member's name) or his name */
const shownName = (member) => member.label ?? member.name;

/**
 * Describe the odds of a scenario for the GM in translated lines: who gets the jump, then each member's chance to be
 * surprised where the rules tell it apart, else his expected loss (or his chance of never recovering), in the
 * scenario's order. `t(key, data)` translates, and writes the percentages
 * and decimals as its language writes them.
 */
function oddsLines(result, t, scenario) {
  const { a, b, none } = result.surprise;
  const lines = [t("Odds.Jump", { a: percent(a), b: percent(b), none: percent(none) })];
  // The scenario gives the order: an object lists integer-like keys ("2") before the others.
  for (const name of SIDE_KEYS.flatMap((key) => scenario.sides[key].members.map(shownName))) {
    const member = result.members[name];
    if (member.surprised !== undefined) lines.push(t("Odds.Surprised", { name, chance: percent(member.surprised) }));
    else if (member.expected_lost === null) lines.push(t("Odds.Never", { name, chance: percent(member.never) }));
    else lines.push(t(`Odds.Expected.${member.unit}`, { name, value: decimal(member.expected_lost, 2) }));
  }
  return lines;
}

export {
  STRING_KEYS,
  ZERO,
  ONE,
  TAIL_CUT,
  exact,
  dieMean,
  times,
  plus,
  minus,
  power,
  isZero,
  atLeast,
  toFloat,
  dieFaces,
  highestOf,
  lowestOf,
  memberJson,
  shownName,
  oddsLines,
};
