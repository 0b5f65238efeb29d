// Evaluate Roll20 chat macros as a GM would run them, with fixed dice, for the arithmetic test.
//   node eval_macros.mjs < cases.json   (a JSON list of {id, text, attributes, answers, faces})
// Each @{selected|name} takes attributes[name]. Each roll query takes answers[prompt]: an option's label
// for a query with options, else the typed number; identical queries get one answer, as Roll20 asks them
// once (docs/dev/roll20.md §6), and a chosen option's nested query is decoded and answered in turn. The message is
// split into default-template fields as a plain "{{" ... "}}" reader would, and each field's inline roll
// is parsed and rolled by dice-roller-parser with the case's faces, in order. A parse error, a leftover
// label (docs/dev/roll20.md §9), an unanswered query or attribute, an unused answer or unused faces is an error.
// Prints one JSON list: {id, rows: [{label, value, sides}], error}.
import parser from "dice-roller-parser";
import { decoded, inlineRolls, labels } from "./parse_macros.mjs";

/** A dice roller that rolls the given faces in order and records the size of each die. */
class FixedDice extends parser.DiceRoller {
  constructor(faces) {
    super();
    this.faces = [...faces];
    this.sides = [];
  }

  generateDiceRoll(sides, order) {
    if (!this.faces.length) throw new Error(`the faces ran out at a d${sides}`);
    const face = this.faces.shift();
    if (!(face >= 1 && face <= sides)) throw new Error(`a d${sides} cannot show ${face}`);
    this.sides.push(sides);
    return { critical: null, die: sides, matched: false, order, roll: face, success: false, type: "roll", valid: true, value: face };
  }
}

/** Replace every attribute reference with its given value. */
function withAttributes(text, attributes) {
  return text.replace(/@\{([^}]*)\}/g, (whole, ref) => {
    const [who, name] = ref.split("|");
    if (who !== "selected" || !(name in attributes)) throw new Error(`no value for ${whole}`);
    return String(attributes[name]);
  });
}

/** Answer every roll query, the first one first, until none is left. */
function withAnswers(text, answers, used) {
  const asked = new Map();
  let out = text;
  for (let start = out.indexOf("?{"); start >= 0; start = out.indexOf("?{")) {
    // A query ends at the first plain "}": a nested query's own braces are entities until it is chosen.
    const end = out.indexOf("}", start);
    if (end < 0) throw new Error(`unclosed query in ${out}`);
    const body = out.slice(start + 2, end);
    const [prompt, ...options] = body.split("|");
    if (asked.has(prompt) && asked.get(prompt) !== body) throw new Error(`two different queries ask "${prompt}"`);
    asked.set(prompt, body);
    if (!(prompt in answers)) throw new Error(`no answer for the query "${prompt}"`);
    used.add(prompt);
    out = out.slice(0, start) + decoded(chosen(prompt, options, answers[prompt])) + out.slice(end + 1);
  }
  return out;
}

/** Return what a query gives for an answer: the chosen option's value, or the typed text. */
function chosen(prompt, options, answer) {
  if (options.length <= 1) return String(answer);
  const option = options.find((o) => o.slice(0, o.indexOf(",")) === String(answer));
  if (!option) throw new Error(`"${prompt}" has no option "${answer}"`);
  return option.slice(option.indexOf(",") + 1);
}

/** Split a default-template message into its fields, as a plain "{{" ... "}}" reader would. */
function fields(text) {
  const head = "&{template:default} ";
  if (!text.startsWith(head)) throw new Error("not a default roll template message");
  const out = [];
  let rest = text.slice(head.length);
  while (rest.trim()) {
    const open = rest.indexOf("{{");
    const close = rest.indexOf("}}", open);
    if (open < 0 || close < 0 || rest.slice(0, open).trim()) throw new Error(`stray text in the template: ${rest}`);
    const field = rest.slice(open + 2, close);
    const eq = field.indexOf("=");
    if (eq < 0) throw new Error(`a field without "=": ${field}`);
    out.push({ label: field.slice(0, eq), value: field.slice(eq + 1) });
    rest = rest.slice(close + 2);
  }
  return out;
}

/** Roll one field's inline roll, or return the field as text when it has none. */
function rollField(field, dice) {
  const rolls = inlineRolls(field.value);
  if (!rolls.length) return { label: field.label, value: null, text: field.value, sides: [] };
  if (rolls.length !== 1 || field.value !== `[[${rolls[0]}]]`) throw new Error(`"${field.label}" is not one inline roll`);
  const parsed = dice.parse(rolls[0]);
  const left = labels(parsed);
  if (left.length) throw new Error(`"${field.label}" leaves text the parser ignores: ${JSON.stringify(left)}`);
  const before = dice.sides.length;
  const value = dice.rollParsed(parsed).value;
  return { label: field.label, value, expression: rolls[0], sides: dice.sides.slice(before) };
}

/** Evaluate one case. */
function evaluate({ id, text, attributes = {}, answers = {}, faces = [] }) {
  try {
    for (const roll of inlineRolls(text)) {
      if (roll.includes("{{") || roll.includes("}}")) throw new Error(`an inline roll holds a template brace pair: ${roll}`);
    }
    const used = new Set();
    const message = withAnswers(withAttributes(text, attributes), answers, used);
    const unused = Object.keys(answers).filter((prompt) => !used.has(prompt));
    if (unused.length) throw new Error(`answers for queries the macro does not ask: ${JSON.stringify(unused)}`);
    const dice = new FixedDice(faces);
    const rows = fields(message).map((field) => rollField(field, dice));
    if (dice.faces.length) throw new Error(`${dice.faces.length} faces were not rolled`);
    return { id, rows };
  } catch (error) {
    return { id, error: String(error.message).slice(0, 500) };
  }
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
console.log(JSON.stringify(JSON.parse(Buffer.concat(chunks).toString("utf8")).map(evaluate)));
