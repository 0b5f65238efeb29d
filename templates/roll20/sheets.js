// Tokens and character sheets: a token's name, the values its character's sheet holds, and which side it takes.
import { ATTRIBUTES, SIDE_RULE } from "../common/config.js";

/** Return a token's label for chat */
export const tokenName = (token) => token.get("name") || getObj("character", token.get("represents"))?.get("name") || "?";

/** The text of a name to match: trimmed, lower case */
const folded = (text) => String(text ?? "").trim().toLowerCase();

/** The current value of a character's attribute object, or undefined where none exists or it is empty */
function setValue(characterId, name) {
  const found = findObjs({ _type: "attribute", _characterid: characterId, name }, { caseInsensitive: true });
  const value = found.map((attribute) => attribute.get("current")).find((current) => current !== undefined && current !== null && String(current).trim() !== "");
  return value === undefined ? undefined : String(value).trim();
}

/**
 * A repeating section's named row: true when present (no value field), else the best value of the rows whose
 * name starts with it. Rows are attribute objects repeating_<section>_<rowid>_<field> (docs/dev/roll20.md §7).
 */
function sectionValue(characterId, reader) {
  const prefix = `${reader.section}_`.toLowerCase();
  const rows = new Map();
  for (const attribute of findObjs({ _type: "attribute", _characterid: characterId })) {
    const name = String(attribute.get("name")).toLowerCase();
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const cut = rest.indexOf("_");
    if (cut < 1) continue;
    const row = rows.get(rest.slice(0, cut)) ?? {};
    row[rest.slice(cut + 1)] = attribute.get("current");
    rows.set(rest.slice(0, cut), row);
  }
  const wanted = folded(reader.name);
  const matching = [...rows.values()].filter((row) => folded(row[folded(reader.name_field)]).startsWith(wanted));
  if (!reader.value) return matching.length > 0;
  const levels = matching.map((row) => Number(row[folded(reader.value)])).filter(Number.isFinite);
  return levels.length ? String(Math.max(...levels)) : undefined;
}

/** The raw sheet value a reader names: an attribute (the sheet's default counts), a set value, a section row */
function readRaw(characterId, reader) {
  if (reader.set) return reader.set.map((name) => setValue(characterId, name)).find((value) => value !== undefined);
  if (reader.section) return sectionValue(characterId, reader);
  return getAttrByName(characterId, reader.attribute);
}

/** Read an input from the sheet of the character a token represents; undefined when it cannot */
export function readAttribute(token, key, type) {
  const reader = ATTRIBUTES[key];
  const characterId = token.get("represents");
  if (!reader || !characterId || !getObj("character", characterId)) return undefined;
  const raw = readRaw(characterId, reader);
  if (typeof raw === "boolean") return type === "boolean" ? raw : undefined;
  if (raw === undefined || raw === null || raw === "") return undefined;
  if (type === "boolean") return ["1", "true", "on", "yes"].includes(String(raw).toLowerCase());
  const number = Number(raw);
  return Number.isFinite(number) ? Math.trunc(number) : undefined;
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
