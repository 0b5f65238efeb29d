// From the table to the command line: an encounter as a scenario file (TOML) that `ambush odds` and `ambush simulate`
// read unchanged. The rules scenario names members by their combatant or token ids; the file names them as drafted.
import { SIDE_KEYS } from "./config.js";
import { inputsAt } from "./draft.js";

const HEADER = "# A surprise scenario exported from the table by ambush: run `ambush odds FILE` or `ambush simulate FILE`.";

const BARE_KEY = /^[A-Za-z0-9_-]+$/;
const ESCAPES = { "\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r" };
// UTF-8 cannot carry half a surrogate pair, and TOML's \u escapes name Unicode scalar values only.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Write a TOML basic string: quotes, backslashes and control characters escaped, any other text as it is */
function tomlString(text) {
  const escaped = String(text).replace(LONE_SURROGATE, "\uFFFD").replace(/[\\"\u0000-\u001f\u007f]/g,
    (ch) => ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `"${escaped}"`;
}

/** Write a key: bare when TOML allows it, else quoted */
const tomlKey = (key) => (BARE_KEY.test(key) ? key : tomlString(key));

/** Write a TOML value: a string, a boolean, an integer or an array of them */
function tomlValue(value) {
  if (typeof value === "string") return tomlString(value);
  if (typeof value === "boolean" || Number.isInteger(value)) return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(", ")}]`;
  throw new TypeError(`a scenario file holds no ${typeof value} value`);
}

const isTable = (value) => Boolean(value) && typeof value === "object" && !Array.isArray(value);
const isTableArray = (value) => Array.isArray(value) && value.length > 0 && value.every(isTable);

/** Append a table's lines: its plain values, then its tables and arrays of tables; null values are left out */
function tomlTable(table, path, lines) {
  const entries = Object.entries(table).filter(([, value]) => value !== null && value !== undefined);
  for (const [key, value] of entries) if (!isTable(value) && !isTableArray(value)) lines.push(`${tomlKey(key)} = ${tomlValue(value)}`);
  for (const [key, value] of entries) {
    const inner = [...path, tomlKey(key)];
    if (isTable(value)) {
      // A table of tables only needs no header of its own: [sides.a] implies [sides].
      if (Object.values(value).some((item) => !isTable(item) && !isTableArray(item))) lines.push("", `[${inner.join(".")}]`);
      tomlTable(value, inner, lines);
    } else if (isTableArray(value)) {
      for (const item of value) {
        lines.push("", `[[${inner.join(".")}]]`);
        tomlTable(item, inner, lines);
      }
    }
  }
  return lines;
}

/** Write plain data (strings, booleans, integers, arrays, tables) as a TOML document */
const tomlDocument = (data) => `${tomlTable(data, [], []).join("\n").replace(/^\n+/, "")}\n`;

/** Return the scenario file's data of a rules scenario: members by their names again, without labels */
function scenarioData(scenario) {
  const names = new Map(SIDE_KEYS.flatMap((key) => scenario.sides[key].members.map((member) => [member.name, member.label ?? member.name])));
  const named = (id) => names.get(id) ?? id;
  const referencing = (level) => inputsAt(scenario.procedure, level).filter((field) => field.type === "member").map((field) => field.key);
  const { sides, ...data } = JSON.parse(JSON.stringify(scenario));
  for (const key of referencing("scenario")) if (typeof data[key] === "string") data[key] = named(data[key]);
  if (Array.isArray(data.openers)) data.openers = data.openers.map((opener) => ({ ...opener, name: named(opener.name) }));
  data.sides = {};
  for (const key of SIDE_KEYS) {
    const { members, ...side } = sides[key];
    for (const field of referencing("side")) if (typeof side[field] === "string") side[field] = named(side[field]);
    side.members = members.map(({ name, label, ...values }) => ({ name: label ?? name, ...values }));
    data.sides[key] = side;
  }
  return data;
}

/** Return a rules scenario (as scenarioFromDraft of draft.js makes it) as the text of a scenario file */
const scenarioToml = (scenario) => `${HEADER}\n${tomlDocument(scenarioData(scenario))}`;

export { scenarioData, scenarioToml, tomlDocument, tomlString };
