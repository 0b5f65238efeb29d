// Helpers shared by the conformance runners: compare JSON outcomes, rename ids back to member names.
// Member names are data, so they may be "constructor" or "__proto__": maps are Maps, and a key is only
// ever read from an object as an own property.
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";

import { own } from "./own.js";

export { own };

/** Find the first difference between two JSON values, as a path and both sides. */
export function firstDiff(actual, expected, path = "$") {
  if (isDeepStrictEqual(actual, expected)) return null;
  if (actual && expected && typeof actual === "object" && typeof expected === "object"
      && Array.isArray(actual) === Array.isArray(expected)) {
    for (const key of new Set([...Object.keys(actual), ...Object.keys(expected)])) {
      const found = firstDiff(own(actual, key), own(expected, key), `${path}.${key}`);
      if (found) return found;
    }
  }
  return { path, actual: actual === undefined ? "<missing>" : actual, expected: expected === undefined ? "<missing>" : expected };
}

/** Rename ids (combatant or token ids, a Map of id to name) to member names inside any JSON value, keys included. */
export function renamed(value, nameOf) {
  if (Array.isArray(value)) return value.map((item) => renamed(item, nameOf));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [nameOf.get(k) ?? k, renamed(v, nameOf)]));
  }
  return typeof value === "string" && nameOf.has(value) ? nameOf.get(value) : value;
}

/**
 * Run every vector file through play(vector) and print one JSON line each: {...extra, vector, ok, diff?, error?,
 * ...shown()}; shown() adds what the run showed (the cards of a language run), played or not.
 */
export async function runVectors(files, play, extra = {}, shown = () => ({})) {
  for (const file of files) {
    // Read at once: a runner reads hundreds, and each promised read costs more than the read itself
    const vector = JSON.parse(readFileSync(file, "utf8"));
    try {
      const diff = firstDiff(await play(vector), vector.expected);
      console.log(JSON.stringify({ ...extra, vector: vector.name, ok: !diff, ...(diff ? { diff } : {}), ...shown() }));
    } catch (error) {
      console.log(JSON.stringify({ ...extra, vector: vector.name, ok: false, error: String(error?.stack ?? error), ...shown() }));
    }
  }
}
