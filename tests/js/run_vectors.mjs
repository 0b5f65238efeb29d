// Run conformance vectors against a rendered rules module, with the dice scripted.
// Usage: node tests/js/run_vectors.mjs RULES_MODULE.mjs VECTOR.json [VECTOR.json ...]
// Prints one JSON line per vector: {"vector", "ok", "diff"?, "error"?}. Exits 0 once it ran, failures included.
import { readFileSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { pathToFileURL } from "node:url";

const ROLL_KINDS = new Set(["initiative", "contest", "freeze", "recovery", "spot", "sneak-attack", "surprise"]);

/** Return a roller that hands out the scripted faces in order, checking every request against the script */
function scriptedRoller(faces) {
  const state = { used: 0 };
  const roller = async (count, sides, purpose) => {
    if (!Number.isInteger(count) || count < 1 || !Number.isInteger(sides) || sides < 1) {
      throw new Error(`bad roll request: ${count}d${sides}`);
    }
    if (purpose === null || typeof purpose !== "object" || !ROLL_KINDS.has(purpose.kind) || typeof purpose.who !== "string") {
      throw new Error(`bad roll purpose for ${count}d${sides}: ${JSON.stringify(purpose)}`);
    }
    const rolled = [];
    for (let i = 0; i < count; i += 1) {
      if (state.used >= faces.length) {
        throw new Error(`the dice script ran out after ${state.used} faces (${count}d${sides} for ${purpose.kind} ${purpose.who})`);
      }
      const face = faces[state.used];
      if (!Number.isInteger(face) || face < 1 || face > sides) {
        throw new Error(`scripted face #${state.used + 1} is ${face}, which a d${sides} cannot show`);
      }
      rolled.push(face);
      state.used += 1;
    }
    return rolled;
  };
  return { roller, remaining: () => faces.length - state.used };
}

/** Describe a value's JSON type: null, array, object, string, number, boolean, or anything else JSON cannot hold */
function jsonType(value) {
  if (value === null) {
    return "null";
  }
  if (Array.isArray(value)) {
    return "array";
  }
  return typeof value;
}

/** Return the first difference between expected and actual JSON values as {path, expected, actual}, or null */
function firstDifference(expected, actual, path = "$") {
  const [expectedType, actualType] = [jsonType(expected), jsonType(actual)];
  if (expectedType !== actualType) {
    return { path, expected, actual: actual === undefined ? "<undefined>" : actual };
  }
  if (expectedType === "null") {
    return null;
  }
  if (expectedType === "array") {
    for (let i = 0; i < Math.max(expected.length, actual.length); i += 1) {
      if (i >= expected.length) {
        return { path: `${path}[${i}]`, expected: "<missing>", actual: actual[i] };
      }
      if (i >= actual.length) {
        return { path: `${path}[${i}]`, expected: expected[i], actual: "<missing>" };
      }
      const diff = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (diff !== null) {
        return diff;
      }
    }
    return null;
  }
  if (expectedType === "object") {
    for (const key of Object.keys(expected)) {
      if (!Object.hasOwn(actual, key)) {
        return { path: `${path}.${key}`, expected: expected[key], actual: "<missing>" };
      }
      const diff = firstDifference(expected[key], actual[key], `${path}.${key}`);
      if (diff !== null) {
        return diff;
      }
    }
    for (const key of Object.keys(actual)) {
      if (!Object.hasOwn(expected, key)) {
        return { path: `${path}.${key}`, expected: "<missing>", actual: actual[key] === undefined ? "<undefined>" : actual[key] };
      }
    }
    return null;
  }
  if (expectedType === "number" || expectedType === "string" || expectedType === "boolean") {
    return Object.is(expected, actual) ? null : { path, expected, actual };
  }
  return { path, expected, actual: String(actual) };
}

/** Play one vector and return its report line */
async function runVector(rules, file) {
  const vector = JSON.parse(readFileSync(file, "utf8"));
  const report = { vector: vector.name ?? file, ok: false };
  try {
    const dice = scriptedRoller(vector.dice);
    const outcome = await rules.resolve(vector.scenario, dice.roller);
    const diff = firstDifference(vector.expected, outcome);
    if (diff !== null) {
      report.diff = diff;
    } else if (dice.remaining() > 0) {
      report.error = `${dice.remaining()} scripted faces were never rolled`;
    } else {
      report.ok = true;
    }
  } catch (error) {
    report.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  return report;
}

const [modulePath, ...vectorFiles] = process.argv.slice(2);
if (modulePath === undefined || vectorFiles.length === 0) {
  console.error("usage: node run_vectors.mjs RULES_MODULE.mjs VECTOR.json [VECTOR.json ...]");
  process.exit(2);
}
const rules = await import(pathToFileURL(resolvePath(modulePath)).href);
if (typeof rules.resolve !== "function") {
  console.error(`${modulePath} exports no resolve function`);
  process.exit(2);
}
for (const file of vectorFiles) {
  console.log(JSON.stringify(await runVector(rules, file)));
}
