// Tokens and character sheets: a token's name, the values its character's sheet holds, why one it holds cannot be
// read, and which side it takes.
import { ATTRIBUTES, RULES, SIDE_RULE } from "../common/config.js";
import { list, signed } from "../common/format.js";
import { language, shortName, t } from "./text.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["Roll20.Unknown.Disagree", "Roll20.Unknown.Points", "Roll20.Unknown.Row", "Roll20.Unknown.Scale",
  "Roll20.Unknown.Text"];

/** Return a token's label for chat */
export const tokenName = (token) => token.get("name") || getObj("character", token.get("represents"))?.get("name") || "?";

/** The text of a name to match: trimmed, lower case */
const folded = (text) => String(text ?? "").trim().toLowerCase();

/** Tell whether an object has a key of its own: keys from sheets and config never reach a prototype */
const owns = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

/** A reader's one-or-more names as a list */
const listOf = (names) => (Array.isArray(names) ? names : [names]);

/** A sheet value as a whole number, or undefined: "+2" is 2, "", "@{base} + 3" and "2.5" are none */
function wholeNumber(value) {
  const text = String(value ?? "").trim();
  return /^[+-]?\d{1,6}$/.test(text) ? Number(text) : undefined;
}

/** The current value of a character's attribute object, or undefined where none exists or it is empty */
function setValue(characterId, name) {
  const found = findObjs({ _type: "attribute", _characterid: characterId, name }, { caseInsensitive: true });
  const value = found.map((attribute) => attribute.get("current")).find((current) => current !== undefined && current !== null && String(current).trim() !== "");
  return value === undefined ? undefined : String(value).trim();
}

/**
 * The whole number that follows a phrase in a text, case aside, or undefined where the text has none: an NPC's passive
 * Perception on the D&D 5E by Roll20 sheet, "darkvision 60 ft., passive Perception 13" (docs/dev/roll20.md §7)
 */
function numberAfter(text, phrase) {
  const lower = text.toLowerCase();
  const at = lower.indexOf(phrase.toLowerCase());
  if (at < 0) return undefined;
  const found = /^\s*([+-]?\d{1,6})(?!\d)/.exec(lower.slice(at + phrase.length));
  return found ? found[1] : undefined;
}

/** A set reader's value of one attribute: its text, or where the reader says `after`, the number after that phrase */
function setReading(characterId, name, reader) {
  const value = setValue(characterId, name);
  return value === undefined || !reader.after ? value : numberAfter(value, reader.after);
}

/**
 * The reader that applies to a character: a `when` reader's `then` where the attribute it names (the sheet's default
 * counting) holds 1, its `otherwise` elsewhere (D&D 5E by Roll20: `npc` is 1 on an NPC's sheet); any other as it is
 */
function readerFor(characterId, reader) {
  if (!reader?.when) return reader;
  return wholeNumber(getAttrByName(characterId, reader.when)) === 1 ? reader.then : reader.otherwise;
}

/** The rows of a repeating section, each {field: value}: attribute objects repeating_<section>_<rowid>_<field> (docs/dev/roll20.md §7) */
function sectionRows(characterId, section) {
  const prefix = `${section}_`.toLowerCase();
  const rows = new Map();
  for (const attribute of findObjs({ _type: "attribute", _characterid: characterId })) {
    const name = String(attribute.get("name")).toLowerCase();
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const cut = rest.indexOf("_");
    if (cut < 1) continue;
    const row = rows.get(rest.slice(0, cut)) ?? new Map();
    row.set(rest.slice(cut + 1), attribute.get("current"));
    rows.set(rest.slice(0, cut), row);
  }
  return [...rows.values()];
}

/**
 * A skill row's level, or null where the row cannot settle it: its first value field holding a whole number, which
 * with a points field must be at least 1, on a row with at least one point (B393: Tactics needs a point). A row with
 * 0 points, an auto-calculated level (its attribute holds the formula) or a level never computed is asked for.
 */
function rowValue(row, reader) {
  const level = listOf(reader.value).map((field) => wholeNumber(row.get(folded(field)))).find((n) => n !== undefined);
  if (!reader.points) return level ?? null;
  const points = wholeNumber(row.get(folded(reader.points)));
  return points !== undefined && points >= 1 && level !== undefined && level >= 1 ? level : null;
}

/**
 * A named row of one or more repeating sections: without a value field true when one exists (false when none does);
 * else the best value of the rows whose name starts with it, null when such rows exist but none settles one, undefined
 * when there is no such row.
 */
function sectionValue(characterId, reader) {
  const wanted = folded(reader.name);
  const rows = listOf(reader.section).flatMap((section) => sectionRows(characterId, section))
    .filter((row) => folded(row.get(folded(reader.name_field))).startsWith(wanted));
  if (!reader.value) return rows.length > 0;
  if (!rows.length) return undefined;
  const values = rows.map((row) => rowValue(row, reader)).filter((value) => value !== null);
  return values.length ? Math.max(...values) : null;
}

/** The raw sheet value a reader names: an attribute (the sheet's default counts), a set value, a section row */
function readRaw(characterId, reader) {
  if (reader.set) return reader.set.map((name) => setReading(characterId, name, reader)).find((value) => value !== undefined);
  if (reader.section) return sectionValue(characterId, reader);
  return getAttrByName(characterId, reader.attribute);
}

/**
 * Only what a character set himself: a plain attribute's object, a set reader's value (a sheet default is no value);
 * `reader` the one that applies to him (readerFor)
 */
function ownValue(characterId, reader) {
  if (reader.attribute !== undefined) return setValue(characterId, reader.attribute);
  return reader.set ? readRaw(characterId, reader) : undefined;
}

/**
 * Tell whether the sheet holds an input (`key`, read by `reader` with `agrees`) and the other input it must agree with,
 * and the rules' table says they disagree (AD&D: a Dexterity of 17 with an adjustment typed as 0). A value beyond the
 * table (Dex 19) is not checked.
 */
function disagrees(characterId, reader) {
  const input = reader.agrees.input;
  const other = owns(ATTRIBUTES, input) ? readerFor(characterId, ATTRIBUTES[input]) : undefined;
  const given = wholeNumber(readRaw(characterId, reader));
  const otherValue = other ? wholeNumber(ownValue(characterId, other)) : undefined;
  const table = owns(RULES, reader.agrees.table) ? RULES[reader.agrees.table] : undefined;
  if (given === undefined || otherValue === undefined || !table || !owns(table, String(otherValue))) return false;
  return table[String(otherValue)] !== given;
}

/** Return the reader of a disagreement an input takes part in (its own, or one that must agree with it), or null */
function disagreeing(characterId, key) {
  const reader = ATTRIBUTES[key];
  if (reader?.agrees && disagrees(characterId, reader)) return reader;
  return Object.values(ATTRIBUTES).find((other) => other?.agrees?.input === key && disagrees(characterId, other)) ?? null;
}

/** A number constant of the rules a reader names (`requires.constant`, `plus`), or undefined */
const ruleNumber = (name) => (owns(RULES, name) && typeof RULES[name] === "number" ? RULES[name] : undefined);

/**
 * Tell whether the other attribute a reader requires (its sheet default counting) holds the rules' constant: the AD&D
 * 1e Revised sheet's chance in `surprise_die`, a d6 only where that is 6
 */
function requirementMet(characterId, reader) {
  if (!reader.requires) return true;
  const wanted = ruleNumber(reader.requires.constant);
  return wanted !== undefined && wholeNumber(getAttrByName(characterId, reader.requires.attribute)) === wanted;
}

/** Tell whether an input is one side of a disagreement the sheet holds (it, or an input that must agree with it) */
const inDisagreement = (characterId, key) => disagreeing(characterId, key) !== null;

/**
 * Read an input from the sheet of the character a token represents: undefined when it holds none (the rule default
 * then), null when it holds one that cannot be settled and must be asked for
 */
export function readAttribute(token, key, type) {
  const characterId = token.get("represents");
  if (!owns(ATTRIBUTES, key) || !characterId || !getObj("character", characterId)) return undefined;
  const reader = readerFor(characterId, ATTRIBUTES[key]);
  if (inDisagreement(characterId, key)) return null;
  const raw = readRaw(characterId, reader);
  if (raw === null) return null;
  if (typeof raw === "boolean") return type === "boolean" ? raw : undefined;
  const text = String(raw ?? "").trim();
  if (text === "") return undefined;
  // A value on a scale the rules do not play (a chance of 10) is asked for, never read as another.
  if (!requirementMet(characterId, reader)) return null;
  if (type === "boolean") return ["1", "true", "on", "yes"].includes(text.toLowerCase());
  // A value the sheet holds that is no number (a formula, a typo) is asked for, never taken as none. A fraction is
  // read as the whole number below it: D&D 5E by Roll20's tiebreaker adds Dexterity / 100 to the Initiative bonus
  // (Dex 8, modifier -1: "-0.92", which is -1).
  const number = Number(text);
  const offset = reader.plus ? ruleNumber(reader.plus) : 0;
  return Number.isFinite(number) && offset !== undefined ? Math.floor(number) + offset : null;
}

/** A reader's names as the GM finds them on the sheet, one or the other */
const namesOf = (names) => list(listOf(names), language(), { type: "disjunction" });

/**
 * Say why a value a token's sheet holds could not be read (readAttribute gave null), in the script's language: the two
 * values that disagree, the row that settles nothing, or what the attribute holds instead of a number; null when the
 * sheet no longer holds one
 */
export function unreadReason(token, key) {
  const characterId = token.get("represents");
  if (!owns(ATTRIBUTES, key) || !characterId || !getObj("character", characterId)) return null;
  const reader = readerFor(characterId, ATTRIBUTES[key]);
  const disagreement = disagreeing(characterId, key);
  if (disagreement) {
    const other = readerFor(characterId, ATTRIBUTES[disagreement.agrees.input]);
    const value = wholeNumber(ownValue(characterId, other));
    const names = listOf(disagreement.set ?? disagreement.attribute);
    const attribute = names.find((name) => setValue(characterId, name) !== undefined) ?? names[0];
    return t("Roll20.Unknown.Disagree", { other: namesOf(other.attribute ?? other.set), value, attribute,
      adjustment: signed(RULES[disagreement.agrees.table][String(value)]), given: wholeNumber(readRaw(characterId, disagreement)) });
  }
  if (reader.section) {
    const rows = listOf(reader.section).flatMap((section) => sectionRows(characterId, section))
      .filter((row) => folded(row.get(folded(reader.name_field))).startsWith(folded(reader.name)));
    const pointless = reader.points && !rows.some((row) => (wholeNumber(row.get(folded(reader.points))) ?? 0) >= 1);
    return t(pointless ? "Roll20.Unknown.Points" : "Roll20.Unknown.Row",
      { row: reader.name, section: namesOf(reader.section), points: reader.points ?? "" });
  }
  const raw = readRaw(characterId, reader);
  if (raw === undefined || raw === null) return null;
  if (!requirementMet(characterId, reader)) {
    return t("Roll20.Unknown.Scale", { attribute: namesOf(reader.attribute ?? reader.set),
      other: reader.requires.attribute, die: getAttrByName(characterId, reader.requires.attribute) });
  }
  return t("Roll20.Unknown.Text", { attribute: namesOf(reader.attribute ?? reader.set), held: shortName(String(raw).trim(), 40) });
}

/** Tell whether players control a token (directly or through its character) */
function playerControlled(token) {
  const character = getObj("character", token.get("represents"));
  const owners = [token.get("controlledby"), character?.get("controlledby")].join(",").split(",");
  return owners.some((owner) => owner && owner !== "" && !playerIsGM(owner));
}

/** Split tokens into side a and side b by the configured side rule */
export function splitSides(tokens, order) {
  if (SIDE_RULE === "turn-order-split") {
    const divider = order.findIndex((row) => row.id === "-1" && /^side\s*b$/i.test(String(row.custom).trim()));
    const before = new Set(order.slice(0, divider < 0 ? order.length : divider).map((row) => row.id));
    return { a: tokens.filter((tk) => before.has(tk.id)), b: tokens.filter((tk) => !before.has(tk.id)) };
  }
  return { a: tokens.filter(playerControlled), b: tokens.filter((tk) => !playerControlled(tk)) };
}
