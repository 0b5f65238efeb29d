// The installed environment, CONST, the foundry.utils the product calls, data helpers and collections.
// Sources: docs/dev/foundry.md and the public API docs (https://foundryvtt.com/api/); "(harness choice)" marks a
// stricter reading where the docs are silent.

import { AsyncLocalStorage } from "node:async_hooks";

const ID_PATTERN = /^[a-zA-Z0-9]{16}$/;
const ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

let installed = null;

/** Set while emulating a request made by another client (see FoundryEnvironment#remote) */
export const acting = new AsyncLocalStorage();

/** Return the installed environment; one at a time, like one browser tab */
export function env() {
  if (!installed) throw new Error("No Foundry environment is installed; call createFoundry() first");
  return installed;
}

/** Install an environment (or null) as the current one */
export function setInstalled(environment) {
  installed = environment;
}

/** Return the installed environment or null, for code that may run without one */
export const installedEnv = () => installed;

/** Resolve on the next macrotask: the latency of one server round trip */
export const serverRoundTrip = () => new Promise((resolve) => setImmediate(resolve));

// ---------------------------------------------------------------------------------------------
// Data helpers

/** Tell whether a value is a plain object (not an array, class instance or null) */
export function isPlainObject(value) {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Freeze plain objects and arrays deeply: document data is read-only */
export function deepFreeze(value) {
  if (Array.isArray(value) || isPlainObject(value)) {
    // Keys, not entries or values: no array per visit (these helpers run on every document write)
    for (const key of Object.keys(value)) deepFreeze(value[key]);
    Object.freeze(value);
  }
  return value;
}

/** Compare plain data structurally */
function deepEqual(a, b) {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** A random 16-alphanumeric id (docs/dev/foundry.md §4) */
export function randomID(length = 16) {
  let id = "";
  for (let i = 0; i < length; i++) id += ID_CHARS[Math.floor(Math.random() * ID_CHARS.length)];
  return id;
}

/** foundry.utils.getProperty: a dotted path, or undefined where it breaks off */
export function getProperty(object, key) {
  if (!key || object === null || object === undefined) return undefined;
  if (typeof object === "object" && key in object) return object[key];
  let target = object;
  for (const part of key.split(".")) {
    if (target === null || (typeof target !== "object" && typeof target !== "function")) return undefined;
    if (!(part in target)) return undefined;
    target = target[part];
  }
  return target;
}

/** foundry.utils.deepClone: plain data is copied, other objects are kept as they are */
export function deepClone(original) {
  if (original === null || typeof original !== "object") return original;
  if (Array.isArray(original)) return original.map(cloneItem);
  if (original instanceof Date) return new Date(original);
  if (!isPlainObject(original)) return original;
  const clone = {};
  for (const key of Object.keys(original)) clone[key] = deepClone(original[key]);
  return clone;
}

const cloneItem = (value) => deepClone(value);

/** Merge source into target in place, recursing into plain objects */
export function mergeInto(target, source) {
  for (const [key, value] of Object.entries(source)) {
    if (isPlainObject(target[key]) && isPlainObject(value)) mergeInto(target[key], value);
    else target[key] = value;
  }
  return target;
}

/** Expand "a.b" keys into nested objects, as Document#update does */
export function expandObject(object) {
  return expandWith(object, (raw) => raw);
}

/** expandObject(deepClone(data)) in one pass: plain objects are copied as they expand, anything else deepCloned */
export function expandedClone(data) {
  return isPlainObject(data) ? expandWith(data, deepClone) : expandObject(deepClone(data));
}

/** Expand an object's keys, its plain objects expanded in turn and its other values passed through leaf */
function expandWith(object, leaf) {
  const expanded = {};
  if (object === null || object === undefined) return expanded;
  for (const key of Object.keys(object)) {
    const raw = object[key];
    const value = isPlainObject(raw) ? expandWith(raw, leaf) : leaf(raw);
    const parts = key.split(".");
    const last = parts.pop();
    let target = expanded;
    for (const part of parts) {
      if (!isPlainObject(target[part])) target[part] = {};
      target = target[part];
    }
    if (isPlainObject(target[last]) && isPlainObject(value)) mergeInto(target[last], value);
    else target[last] = value;
  }
  return expanded;
}

/** The part of an update that differs from the stored source, as Document#update sends it */
export function diffChanges(source, changes) {
  const diff = {};
  for (const key of Object.keys(changes)) {
    const value = changes[key];
    if (key.startsWith("-=")) {
      if (source && Object.hasOwn(source, key.slice(2))) diff[key] = null;
      continue;
    }
    const current = source?.[key];
    if (isPlainObject(value) && isPlainObject(current)) {
      const inner = diffChanges(current, value);
      if (Object.keys(inner).length) diff[key] = inner;
    } else if (!deepEqual(current, value)) diff[key] = deepClone(value);
  }
  return diff;
}

/** Merge a diff into a copy of the source: objects merge, "-=key" deletes (unsetFlag) */
export function applyChanges(source, changes) {
  const merge = (target, other) => {
    for (const key of Object.keys(other)) {
      const value = other[key];
      if (key.startsWith("-=")) delete target[key.slice(2)];
      else if (isPlainObject(target[key]) && isPlainObject(value)) merge(target[key], value);
      else target[key] = isPlainObject(value) ? merge({}, value) : deepClone(value);
    }
    return target;
  };
  const { _id, ...rest } = changes;
  return merge(deepClone(source), rest);
}

/**
 * foundry.utils.saveDataToFile(data, type, filename): "Export data content to be saved to a local file", data "Data
 * content converted to a string", filename "The filename of the resulting download" (V13 https://foundryvtt.com/api/
 * functions/foundry.utils.saveDataToFile.html, V14 the same page under /api/v14/). The download is recorded on the
 * environment; (harness choice) anything but three strings, a filename not blank, is an error.
 */
function saveDataToFile(data, type, filename) {
  if (typeof data !== "string") throw new TypeError(`saveDataToFile: data must be a string, got ${typeof data}`);
  if (typeof type !== "string" || !type) throw new TypeError("saveDataToFile: type must be a MIME type string");
  if (typeof filename !== "string" || !filename.trim()) throw new TypeError("saveDataToFile: filename must be a non-blank string");
  env().downloads.push({ data, type, filename });
}

/** The foundry.utils members the product calls */
export const utils = Object.freeze({ getProperty, deepClone, saveDataToFile });

// ---------------------------------------------------------------------------------------------
// CONST (https://foundryvtt.com/api/modules/CONST.html)

export const CONST = deepFreeze({
  USER_ROLES: { NONE: 0, PLAYER: 1, TRUSTED: 2, ASSISTANT: 3, GAMEMASTER: 4 },
  DOCUMENT_OWNERSHIP_LEVELS: { INHERIT: -1, NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 },
  TOKEN_DISPOSITIONS: { SECRET: -2, HOSTILE: -1, NEUTRAL: 0, FRIENDLY: 1 },
});

// ---------------------------------------------------------------------------------------------
// Validation, as a DataModel reports it

/** A validation error in core's wording */
export function validationError(documentName, field, message) {
  return new Error(`${documentName} validation errors:\n  ${field}: ${message}`);
}

/** Require a non-blank string */
export function requireString(documentName, field, value) {
  if (typeof value !== "string" || !value.trim()) {
    throw validationError(documentName, field, value === undefined ? "may not be undefined" : "may not be a blank string");
  }
  return value;
}

/** Accept null/undefined or a finite number (numeric strings are cast, as a NumberField does) */
export function optionalNumber(documentName, field, value, { integer = false, min = -Infinity } = {}) {
  if (value === undefined || value === null) return null;
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof number !== "number" || !Number.isFinite(number)) {
    throw validationError(documentName, field, `${JSON.stringify(value)} is not a number`);
  }
  if (integer && !Number.isInteger(number)) throw validationError(documentName, field, "must be an integer");
  if (number < min) throw validationError(documentName, field, `must be at least ${min}`);
  return number;
}

/** Keep schema keys; unknown keys are dropped the way a SchemaField cleans them, with a warning */
export function pickKnown(documentName, data, keys) {
  const picked = {};
  const dropped = [];
  for (const [key, value] of Object.entries(data)) {
    if (keys.includes(key)) picked[key] = value;
    else dropped.push(key);
  }
  if (dropped.length && installed) installed.warnings.push(`${documentName}: unknown fields dropped: ${dropped.join(", ")}`);
  return picked;
}

/** Accept null or a valid id (docs/dev/foundry.md §4) */
export function checkId(documentName, id) {
  if (id === null || id === undefined) return null;
  if (typeof id !== "string" || !ID_PATTERN.test(id)) {
    throw validationError(documentName, "_id", `"${id}" is not a valid id (16 alphanumerics, docs/dev/foundry.md §4)`);
  }
  return id;
}

/** Define read-only getters for source fields on a document class */
export function defineFields(cls, keys) {
  for (const key of keys) {
    Object.defineProperty(cls.prototype, key, {
      get() {
        return this._source[key];
      },
      configurable: true,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Collections (https://foundryvtt.com/api/classes/foundry.utils.Collection.html)

export class Collection extends Map {
  /** Iterate values, not entries, as Foundry's Collection does */
  *[Symbol.iterator]() {
    yield* this.values();
  }

  get contents() {
    return Array.from(this.values());
  }

  getName(name) {
    return this.find((entry) => entry.name === name);
  }

  find(condition) {
    return this.contents.find(condition);
  }

  filter(condition) {
    return this.contents.filter(condition);
  }

  map(transformer) {
    return this.contents.map(transformer);
  }

  some(condition) {
    return this.contents.some(condition);
  }
}

/** A collection of documents; only the database emulation may add or remove entries */
export class DocumentCollection extends Collection {
  set(key) {
    throw new Error(`Cannot set "${key}" directly: create documents through the database API`);
  }

  delete(key) {
    throw new Error(`Cannot delete "${key}" directly: delete documents through the database API`);
  }

  clear() {
    throw new Error("Cannot clear a document collection directly");
  }

  _set(key, value) {
    Map.prototype.set.call(this, key, value);
  }

  _delete(key) {
    Map.prototype.delete.call(this, key);
  }
}
