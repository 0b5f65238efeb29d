// Parse every inline roll of Roll20 chat macros with a Roll20-syntax dice parser (dice-roller-parser).
//   node parse_macros.mjs MACRO.txt [MACRO.txt ...]
// Attribute references become numbers and each roll query takes its default, or a number when it has
// none (a nested query, whose entities decode once its option is chosen, then takes its own); what is
// left must parse as pure dice arithmetic: a parse error or any text the parser keeps as a label fails.
// One JSON line per inline roll. eval_macros.mjs imports the helpers, and checkMacros returns the lines' records.
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import parser from "dice-roller-parser";

const { DiceRoller } = parser;
const roller = new DiceRoller();
export const NESTED = { "&#124;": "|", "&#125;": "}", "&#44;": "," };
const NO_DEFAULT = "10";

/** Decode the entities of a nested query once its option is chosen (docs/dev/roll20.md §6). */
export function decoded(value) {
  let text = value;
  for (const [entity, ch] of Object.entries(NESTED)) text = text.replaceAll(entity, ch);
  return text;
}

/** Find the inline rolls [[...]] of a macro, outermost only. */
export function inlineRolls(text) {
  const rolls = [];
  for (let start = text.indexOf("[["); start >= 0; start = text.indexOf("[[", start + 2)) {
    let depth = 0;
    for (let i = start; i < text.length - 1; i += 1) {
      if (text.startsWith("[[", i)) { depth += 1; i += 1; continue; }
      if (text.startsWith("]]", i)) {
        depth -= 1;
        if (depth === 0) { rolls.push(text.slice(start + 2, i)); start = i; break; }
        i += 1;
      }
    }
  }
  return rolls;
}

/** Replace the first roll query with the value of its default option. */
function answerFirstQuery(text) {
  const start = text.indexOf("?{");
  if (start < 0) return null;
  // A query ends at the first plain "}": a nested query's own braces are entities until it is chosen.
  const end = text.indexOf("}", start);
  if (end < 0) throw new Error(`unclosed query in ${text}`);
  const [, ...options] = text.slice(start + 2, end).split("|");
  const first = options[0] ?? NO_DEFAULT;
  const comma = first.indexOf(",");
  const value = options.length > 1 && comma >= 0 ? first.slice(comma + 1) : first;
  return text.slice(0, start) + decoded(value) + text.slice(end + 1);
}

/** Substitute attribute references and answer every query, nested ones included. */
function substituted(expression) {
  let text = expression.replace(/@\{[^}]*\}/g, "10");
  for (let next = answerFirstQuery(text); next !== null; next = answerFirstQuery(text)) text = next.replace(/@\{[^}]*\}/g, "10");
  return text;
}

/** Collect every non-empty label in a parsed roll. */
export function labels(node, found = []) {
  if (Array.isArray(node)) node.forEach((child) => labels(child, found));
  else if (node && typeof node === "object") {
    if (typeof node.label === "string" && node.label.trim()) found.push(node.label);
    Object.values(node).forEach((child) => labels(child, found));
  }
  return found;
}

/** Check every inline roll of each macro file; return one record per roll. */
export async function checkMacros(files) {
  const records = [];
  for (const file of files) {
    const text = (await readFile(file, "utf8")).trim();
    const rolls = inlineRolls(text);
    if (!rolls.length) records.push({ file, ok: false, error: "no inline roll" });
    for (const expression of rolls) {
      const plain = substituted(expression);
      try {
        const left = labels(roller.parse(plain));
        records.push({ file, expression, plain, ok: left.length === 0, labels: left });
      } catch (error) {
        records.push({ file, expression, plain, ok: false, error: String(error.message).slice(0, 200) });
      }
    }
  }
  return records;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const record of await checkMacros(process.argv.slice(2))) console.log(JSON.stringify(record));
}
