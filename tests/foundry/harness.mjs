// Node emulation of the Foundry VTT V12/V13 client API used by ambush's generated modules.
//
// Sources: /work/shared/FOUNDRY.md and the public API docs (https://foundryvtt.com/api/,
// https://foundryvtt.com/api/v12/). No Foundry source code was read. Where the docs are silent the
// emulation picks the stricter reading and says so in a comment marked "(harness choice)".

import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ID_PATTERN = /^[a-zA-Z0-9]{16}$/;
const ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const I18N_KEY_PATTERN = /^[\w-]+(\.[\w-]+)+$/;

/** The environment whose globals are installed; one at a time, like one browser tab */
let ENV = null;
/** Set while emulating a request made by another client (see FoundryEnvironment#remote) */
const acting = new AsyncLocalStorage();
/** Faces of the Die currently drawing from CONFIG.Dice.randomUniform */
let rollingFaces = null;

const serverRoundTrip = () => new Promise((resolve) => setImmediate(resolve));

function env() {
  if (!ENV) throw new Error("No Foundry environment is installed; call createFoundry() first");
  return ENV;
}

// ---------------------------------------------------------------------------------------------
// CONST (https://foundryvtt.com/api/modules/CONST.html)

export const CONST = deepFreeze({
  USER_ROLES: { NONE: 0, PLAYER: 1, TRUSTED: 2, ASSISTANT: 3, GAMEMASTER: 4 },
  DOCUMENT_OWNERSHIP_LEVELS: { INHERIT: -1, NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 },
  // FOUNDRY.md §5
  ACTIVE_EFFECT_MODES: { CUSTOM: 0, MULTIPLY: 1, ADD: 2, DOWNGRADE: 3, UPGRADE: 4, OVERRIDE: 5 },
  TOKEN_DISPOSITIONS: { SECRET: -2, HOSTILE: -1, NEUTRAL: 0, FRIENDLY: 1 },
  CHAT_MESSAGE_STYLES: { OTHER: 0, OOC: 1, IC: 2, EMOTE: 3 },
  DICE_ROLL_MODES: { PUBLIC: "publicroll", PRIVATE: "gmroll", BLIND: "blindroll", SELF: "selfroll" },
});

// ---------------------------------------------------------------------------------------------
// foundry.utils

function isPlainObject(value) {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function deepFreeze(value) {
  if (Array.isArray(value) || isPlainObject(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function deepEqual(a, b) {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

function randomID(length = 16) {
  let id = "";
  for (let i = 0; i < length; i++) id += ID_CHARS[Math.floor(Math.random() * ID_CHARS.length)];
  return id;
}

function getProperty(object, key) {
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

function setProperty(object, key, value) {
  const parts = key.split(".");
  const last = parts.pop();
  let target = object;
  for (const part of parts) {
    if (target[part] === null || typeof target[part] !== "object") target[part] = {};
    target = target[part];
  }
  const changed = !deepEqual(target[last], value);
  target[last] = value;
  return changed;
}

function deepClone(original, { strict = false } = {}) {
  if (original === null || typeof original !== "object") return original;
  if (Array.isArray(original)) return original.map((v) => deepClone(v, { strict }));
  if (original instanceof Date) return new Date(original);
  if (!isPlainObject(original)) {
    if (strict) throw new Error("deepClone cannot clone a non-plain object");
    return original;
  }
  const clone = {};
  for (const [key, value] of Object.entries(original)) clone[key] = deepClone(value, { strict });
  return clone;
}

function duplicate(original) {
  return JSON.parse(JSON.stringify(original));
}

function mergeInto(target, source) {
  for (const [key, value] of Object.entries(source)) {
    if (isPlainObject(target[key]) && isPlainObject(value)) mergeInto(target[key], value);
    else target[key] = value;
  }
  return target;
}

function expandObject(object) {
  const expanded = {};
  for (const [key, raw] of Object.entries(object ?? {})) {
    const value = isPlainObject(raw) ? expandObject(raw) : raw;
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

function flattenObject(object, prefix = "") {
  const flat = {};
  for (const [key, value] of Object.entries(object ?? {})) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && Object.keys(value).length) Object.assign(flat, flattenObject(value, name));
    else flat[name] = value;
  }
  return flat;
}

function isEmpty(value) {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value) || typeof value === "string") return value.length === 0;
  if (value instanceof Map || value instanceof Set) return value.size === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

function mergeObject(original, other = {}, options = {}, depth = 0) {
  const {
    insertKeys = true,
    insertValues = true,
    overwrite = true,
    recursive = true,
    inplace = true,
    enforceTypes = false,
    performDeletions = false,
  } = options;
  other ??= {};
  if (!original || typeof original !== "object" || typeof other !== "object") {
    throw new Error("One of original or other are not Objects!");
  }
  if (depth === 0) {
    if (Object.keys(other).some((k) => k.includes("."))) other = expandObject(other);
    if (Object.keys(original).some((k) => k.includes("."))) {
      const expanded = expandObject(original);
      if (inplace) {
        for (const key of Object.keys(original)) delete original[key];
        Object.assign(original, expanded);
      } else original = expanded;
    } else if (!inplace) original = deepClone(original);
  }
  for (const [key, value] of Object.entries(other)) {
    if (performDeletions && key.startsWith("-=")) {
      delete original[key.slice(2)];
      continue;
    }
    const exists = Object.hasOwn(original, key);
    const current = original[key];
    if (exists && recursive && isPlainObject(current) && isPlainObject(value)) {
      mergeObject(current, value, { ...options, inplace: true }, depth + 1);
    } else if (exists) {
      if (!overwrite) continue;
      if (enforceTypes && current !== undefined && value !== undefined && typeof current !== typeof value) {
        throw new Error("Mismatched data types encountered during object merge.");
      }
      original[key] = deepClone(value);
    } else if (depth === 0 ? insertKeys : insertValues) {
      original[key] = isPlainObject(value) && performDeletions ? withoutDeletionKeys(value) : deepClone(value);
    }
  }
  return original;
}

function withoutDeletionKeys(object) {
  const clean = {};
  for (const [key, value] of Object.entries(object)) {
    if (key.startsWith("-=")) continue;
    clean[key] = isPlainObject(value) ? withoutDeletionKeys(value) : deepClone(value);
  }
  return clean;
}

/** The part of an update that differs from the stored source, as Document#update sends it */
function diffChanges(source, changes) {
  const diff = {};
  for (const [key, value] of Object.entries(changes)) {
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

function applyChanges(source, changes) {
  const { _id, ...rest } = changes;
  return mergeObject(deepClone(source), rest, { performDeletions: true });
}

export const utils = Object.freeze({
  randomID,
  getProperty,
  setProperty,
  mergeObject,
  deepClone,
  duplicate,
  expandObject,
  flattenObject,
  isEmpty,
});

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

  get(key, { strict = false } = {}) {
    const value = super.get(key);
    if (strict && value === undefined) {
      throw new Error(`The key ${key} does not exist in the ${this.constructor.name} Collection`);
    }
    return value;
  }

  getName(name, { strict = false } = {}) {
    const value = this.find((entry) => entry.name === name);
    if (strict && value === undefined) throw new Error(`An entry with name ${name} does not exist in the collection`);
    return value;
  }

  find(condition) {
    let i = 0;
    for (const value of this.values()) if (condition(value, i++, this)) return value;
    return undefined;
  }

  filter(condition) {
    const out = [];
    let i = 0;
    for (const value of this.values()) if (condition(value, i++, this)) out.push(value);
    return out;
  }

  map(transformer) {
    const out = [];
    let i = 0;
    for (const value of this.values()) out.push(transformer(value, i++, this));
    return out;
  }

  some(condition) {
    let i = 0;
    for (const value of this.values()) if (condition(value, i++, this)) return true;
    return false;
  }

  every(condition) {
    let i = 0;
    for (const value of this.values()) if (!condition(value, i++, this)) return false;
    return true;
  }

  reduce(reducer, initial) {
    let accumulator = initial;
    let i = 0;
    for (const value of this.values()) accumulator = reducer(accumulator, value, i++);
    return accumulator;
  }

  toJSON() {
    return this.map((entry) => (typeof entry?.toJSON === "function" ? entry.toJSON() : entry));
  }
}

/** A collection of documents; only the database emulation may add or remove entries */
class DocumentCollection extends Collection {
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

class Actors extends DocumentCollection {}

class Combats extends DocumentCollection {
  /** The combat that is active in the viewed scene */
  get active() {
    return this.find((combat) => combat.active);
  }
}

class Scenes extends DocumentCollection {
  get active() {
    return this.find((scene) => scene.active);
  }

  get viewed() {
    return this.active;
  }

  get current() {
    return this.active;
  }
}

class Users extends DocumentCollection {
  get current() {
    return this.get(env().localUserId) ?? null;
  }

  get players() {
    return this.filter((user) => !user.isGM);
  }

  /**
   * "Get one User who is an active Gamemaster (non-assistant if possible), or null if no active GM
   * is available." (https://foundryvtt.com/api/classes/foundry.documents.collections.Users.html)
   * Among equals the lowest id wins (harness choice; FOUNDRY.md §7 gates on activeGM?.isSelf).
   */
  get activeGM() {
    const gms = this.filter((user) => user.active && user.isGM);
    gms.sort((a, b) => b.role - a.role || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return gms[0] ?? null;
  }
}

class Messages extends DocumentCollection {}

// ---------------------------------------------------------------------------------------------
// Documents

function validationError(documentName, field, message) {
  return new Error(`${documentName} validation errors:\n  ${field}: ${message}`);
}

function requireString(documentName, field, value) {
  if (typeof value !== "string" || !value.trim()) {
    throw validationError(documentName, field, value === undefined ? "may not be undefined" : "may not be a blank string");
  }
  return value;
}

function optionalNumber(documentName, field, value, { integer = false, min = -Infinity } = {}) {
  if (value === undefined || value === null) return null;
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof number !== "number" || !Number.isFinite(number)) {
    throw validationError(documentName, field, `${JSON.stringify(value)} is not a number`);
  }
  if (integer && !Number.isInteger(number)) throw validationError(documentName, field, "must be an integer");
  if (number < min) throw validationError(documentName, field, `must be at least ${min}`);
  return number;
}

/** Keep schema keys; unknown keys are dropped the way a SchemaField cleans them */
function pickKnown(documentName, data, keys) {
  const picked = {};
  const dropped = [];
  for (const [key, value] of Object.entries(data)) {
    if (keys.includes(key)) picked[key] = value;
    else dropped.push(key);
  }
  if (dropped.length && ENV) ENV.warnings.push(`${documentName}: unknown fields dropped: ${dropped.join(", ")}`);
  return picked;
}

function checkId(documentName, id) {
  if (id === null || id === undefined) return null;
  if (typeof id !== "string" || !ID_PATTERN.test(id)) {
    throw validationError(documentName, "_id", `"${id}" is not a valid id (16 alphanumerics, FOUNDRY.md §4)`);
  }
  return id;
}

function defineFields(cls, keys) {
  for (const key of keys) {
    Object.defineProperty(cls.prototype, key, {
      get() {
        return this._source[key];
      },
      configurable: true,
    });
  }
}

function permissionError(user, action, documentName, id) {
  return new Error(`User ${user?.name ?? "unknown"} lacks permission to ${action} ${documentName} [${id}]`);
}

export class Document {
  static documentName = "Document";
  static embedded = {};

  static get implementation() {
    return this;
  }

  #source;

  constructor(source = {}, { parent = null } = {}) {
    this.#source = deepFreeze(source);
    Object.defineProperty(this, "parent", { value: parent, enumerable: false });
  }

  /** Clean and validate creation data; subclasses define their schema */
  static _cleanData(data) {
    return data;
  }

  /** Clean and validate a whole source after an update is merged into it */
  static _cleanSource(source) {
    return source;
  }

  get _source() {
    return this.#source;
  }

  _replaceSource(next) {
    this.#source = deepFreeze(next);
  }

  get id() {
    return this.#source._id ?? null;
  }

  get _id() {
    return this.#source._id ?? null;
  }

  get name() {
    return this.#source.name;
  }

  get flags() {
    return this.#source.flags;
  }

  get documentName() {
    return this.constructor.documentName;
  }

  get uuid() {
    const own = `${this.documentName}.${this.id}`;
    return this.parent ? `${this.parent.uuid}.${own}` : own;
  }

  /** The collection this document lives in */
  get collection() {
    if (this.parent) return this.parent.getEmbeddedCollection(this.documentName);
    return env()._worldCollection(this.documentName);
  }

  get isOwner() {
    return this.testUserPermission(env().game.user, "OWNER");
  }

  testUserPermission(user, permission, { exact = false } = {}) {
    if (!user) return false;
    const level = typeof permission === "string" ? CONST.DOCUMENT_OWNERSHIP_LEVELS[permission] : permission;
    if (user.isGM) return true;
    const actual = this._ownershipLevel(user);
    return exact ? actual === level : actual >= level;
  }

  _ownershipLevel(user) {
    if (this.parent) return this.parent._ownershipLevel(user);
    const ownership = this.#source.ownership ?? {};
    const explicit = ownership[user.id];
    const inherit = explicit === undefined || explicit === CONST.DOCUMENT_OWNERSHIP_LEVELS.INHERIT;
    return inherit ? ownership.default ?? CONST.DOCUMENT_OWNERSHIP_LEVELS.NONE : explicit;
  }

  toObject() {
    return deepClone(this.#source);
  }

  toJSON() {
    return this.toObject();
  }

  /** Change the local source only; nothing is saved (used on unsaved documents) */
  updateSource(changes = {}) {
    const diff = diffChanges(this.#source, expandObject(changes));
    this._replaceSource(applyChanges(this.#source, diff));
    return diff;
  }

  getFlag(scope, key) {
    env()._assertFlagScope(scope);
    return getProperty(this.#source.flags?.[scope], key);
  }

  async setFlag(scope, key, value) {
    env()._assertFlagScope(scope);
    return this.update({ [`flags.${scope}.${key}`]: value });
  }

  async unsetFlag(scope, key) {
    env()._assertFlagScope(scope);
    const parts = key.split(".");
    const last = parts.pop();
    return this.update({ [["flags", scope, ...parts, `-=${last}`].join(".")]: null });
  }

  async update(data = {}, operation = {}) {
    const [updated] = await env()._updateDocuments([{ doc: this, changes: data }], operation);
    return updated;
  }

  async delete(operation = {}) {
    const [deleted] = await env()._deleteDocuments([this], operation);
    return deleted;
  }

  static async create(data, operation = {}) {
    const created = await env()._createDocuments(this, [data], operation);
    return created[0];
  }

  static async createDocuments(data = [], operation = {}) {
    return env()._createDocuments(this, data, operation);
  }

  getEmbeddedCollection(embeddedName) {
    const field = this.constructor.embedded[embeddedName];
    if (!field) throw new Error(`${embeddedName} is not an embedded Document type within ${this.documentName}`);
    return this[field];
  }

  async createEmbeddedDocuments(embeddedName, data = [], operation = {}) {
    this.getEmbeddedCollection(embeddedName);
    const cls = EMBEDDED_CLASSES[embeddedName];
    return env()._createDocuments(cls, data, { ...operation, parent: this });
  }

  async updateEmbeddedDocuments(embeddedName, updates = [], operation = {}) {
    const collection = this.getEmbeddedCollection(embeddedName);
    const entries = updates.map(({ _id, ...changes }) => {
      const doc = collection.get(_id);
      if (!doc) throw new Error(`${embeddedName} [${_id}] does not exist in the ${this.documentName} [${this.id}]`);
      return { doc, changes };
    });
    return env()._updateDocuments(entries, operation);
  }

  async deleteEmbeddedDocuments(embeddedName, ids = [], operation = {}) {
    const collection = this.getEmbeddedCollection(embeddedName);
    const docs = ids.map((id) => {
      const doc = collection.get(id);
      if (!doc) throw new Error(`${embeddedName} [${id}] does not exist in the ${this.documentName} [${this.id}]`);
      return doc;
    });
    return env()._deleteDocuments(docs, operation);
  }

  // Lifecycle callbacks; permission checks run "on the server" with the requesting user
  _preCreate() {}
  _onCreate() {}
  _onUpdate() {}
  _onDelete() {}

  _canCreate(user) {
    return user.isGM;
  }

  _canUpdate(user) {
    return this.testUserPermission(user, "OWNER");
  }

  _canDelete(user) {
    return this.testUserPermission(user, "OWNER");
  }
}
defineFields(Document, ["ownership"]);

export class User extends Document {
  static documentName = "User";
  #active;

  constructor(source, options) {
    const { active = false, ...rest } = source;
    super(rest, options);
    this.#active = Boolean(active);
  }

  static _cleanData(data) {
    const role = data.role ?? (data.isGM ? CONST.USER_ROLES.GAMEMASTER : CONST.USER_ROLES.PLAYER);
    if (data.isGM !== undefined && Boolean(data.isGM) !== role >= CONST.USER_ROLES.ASSISTANT) {
      throw validationError("User", "role", `role ${role} contradicts isGM ${data.isGM}`);
    }
    return {
      _id: requireString("User", "_id", data.id ?? data._id),
      name: requireString("User", "name", data.name),
      role,
      character: data.character ?? null,
      flags: data.flags ?? {},
      active: data.active ?? false,
    };
  }

  get active() {
    return this.#active;
  }

  _setActive(active) {
    this.#active = Boolean(active);
  }

  get isGM() {
    return this.role >= CONST.USER_ROLES.ASSISTANT;
  }

  get isSelf() {
    return this.id === env().localUserId;
  }

  get character() {
    const id = this._source.character;
    return id ? env()._world.actors.get(id) ?? null : null;
  }

  hasRole(role, { exact = false } = {}) {
    const level = typeof role === "string" ? CONST.USER_ROLES[role] : role;
    return exact ? this.role === level : this.role >= level;
  }

  _canUpdate(user) {
    return user.isGM || user.id === this.id;
  }
}
defineFields(User, ["role"]);

const STATUS_EFFECT_FIELDS = ["id", "hud", "order"];
const EFFECT_KEYS = [
  "_id", "name", "img", "type", "system", "changes", "disabled", "duration", "description", "origin",
  "tint", "transfer", "statuses", "sort", "flags", "_stats",
];
// FOUNDRY.md §5: the V12/V13 duration shape; V14's {value, units, expiry, expired} is not valid here
const DURATION_KEYS = ["startTime", "seconds", "combat", "rounds", "turns", "startRound", "startTurn"];

export class ActiveEffect extends Document {
  static documentName = "ActiveEffect";

  /** FOUNDRY.md §5: legacy label/icon are migrated with a deprecation warning */
  static _migrate(data) {
    if ("label" in data) {
      env()._deprecate("ActiveEffect", `ActiveEffect "label" is deprecated in favour of "name" (FOUNDRY.md §5)`);
      if (data.name === undefined) data.name = data.label;
      delete data.label;
    }
    if ("icon" in data) {
      env()._deprecate("ActiveEffect", `ActiveEffect "icon" is deprecated in favour of "img" (FOUNDRY.md §5)`);
      if (data.img === undefined) data.img = data.icon;
      delete data.icon;
    }
    return data;
  }

  static _cleanData(data) {
    const source = pickKnown("ActiveEffect", this._migrate({ ...data }), EFFECT_KEYS);
    return this._validate({
      _id: checkId("ActiveEffect", source._id ?? null),
      name: source.name,
      img: source.img ?? null,
      type: source.type ?? "base",
      system: source.system ?? {},
      changes: source.changes ?? [],
      disabled: source.disabled ?? false,
      duration: source.duration ?? {},
      description: source.description ?? "",
      origin: source.origin ?? null,
      tint: source.tint ?? "#ffffff",
      transfer: source.transfer ?? true, // FOUNDRY.md §5: schema default true
      statuses: source.statuses ?? [],
      sort: source.sort ?? 0,
      flags: source.flags ?? {},
    });
  }

  static _validate(source) {
    const name = "ActiveEffect";
    requireString(name, "name", source.name);
    if (!Array.isArray(source.changes)) throw validationError(name, "changes", "must be an array");
    const modes = Object.values(CONST.ACTIVE_EFFECT_MODES);
    source.changes = source.changes.map((change, i) => {
      if (!isPlainObject(change)) throw validationError(name, `changes.${i}`, "must be an object");
      const mode = change.mode ?? CONST.ACTIVE_EFFECT_MODES.ADD;
      if (!modes.includes(mode)) {
        throw validationError(name, `changes.${i}.mode`, `${mode} is not a valid ACTIVE_EFFECT_MODES value`);
      }
      return {
        key: requireString(name, `changes.${i}.key`, change.key),
        value: String(change.value ?? ""),
        mode,
        priority: optionalNumber(name, `changes.${i}.priority`, change.priority),
      };
    });
    if (!isPlainObject(source.duration)) throw validationError(name, "duration", "must be an object");
    const duration = pickKnown("ActiveEffect.duration", source.duration, DURATION_KEYS);
    source.duration = {
      startTime: optionalNumber(name, "duration.startTime", duration.startTime),
      seconds: optionalNumber(name, "duration.seconds", duration.seconds, { integer: true, min: 0 }),
      combat: duration.combat ?? null,
      rounds: optionalNumber(name, "duration.rounds", duration.rounds, { integer: true, min: 0 }),
      turns: optionalNumber(name, "duration.turns", duration.turns, { integer: true, min: 0 }),
      startRound: optionalNumber(name, "duration.startRound", duration.startRound, { integer: true, min: 0 }),
      startTurn: optionalNumber(name, "duration.startTurn", duration.startTurn, { integer: true, min: 0 }),
    };
    const statuses = source.statuses instanceof Set ? [...source.statuses] : source.statuses;
    if (!Array.isArray(statuses) || statuses.some((s) => typeof s !== "string" || !s)) {
      throw validationError(name, "statuses", "must be an array of status ids");
    }
    source.statuses = [...new Set(statuses)];
    for (const key of ["disabled", "transfer"]) {
      if (typeof source[key] !== "boolean") throw validationError(name, key, "must be a boolean");
    }
    for (const key of ["img", "origin", "tint"]) {
      if (source[key] !== null && typeof source[key] !== "string") {
        throw validationError(name, key, "must be a string or null");
      }
    }
    if (source.duration.combat !== null && typeof source.duration.combat !== "string") {
      throw validationError(name, "duration.combat", "must be a Combat id or null");
    }
    if (typeof source.description !== "string") throw validationError(name, "description", "must be a string");
    for (const key of ["flags", "system"]) {
      if (!isPlainObject(source[key])) throw validationError(name, key, "must be an object");
    }
    return source;
  }

  static _cleanSource(source) {
    return this._cleanData(source);
  }

  /**
   * Build an unsaved effect from a CONFIG.statusEffects entry (FOUNDRY.md §6). An entry that lists
   * extra statuses must carry a static _id.
   */
  static async fromStatusEffect(statusId, options = {}) {
    const status = env().CONFIG.statusEffects.find((entry) => entry.id === statusId);
    if (!status) throw new Error(`Invalid status ID "${statusId}" provided to ActiveEffect#fromStatusEffect`);
    const data = deepClone(status);
    for (const key of STATUS_EFFECT_FIELDS) delete data[key];
    this._migrate(data);
    const statuses = new Set([statusId, ...(data.statuses ?? [])]);
    if (statuses.size > 1 && !data._id) {
      throw new Error(`Status effect "${statusId}" lists additional statuses but has no static _id (FOUNDRY.md §6)`);
    }
    data.statuses = [...statuses];
    data.name = env()._softLocalize(data.name);
    return new this(this._cleanData(data), options);
  }

  get statuses() {
    return new Set(this._source.statuses);
  }

  get label() {
    env()._deprecate("ActiveEffect", "ActiveEffect#label is deprecated in favour of ActiveEffect#name (FOUNDRY.md §5)");
    return this.name;
  }

  get icon() {
    env()._deprecate("ActiveEffect", "ActiveEffect#icon is deprecated in favour of ActiveEffect#img (FOUNDRY.md §5)");
    return this.img;
  }

  get active() {
    return !this.disabled && !this.isSuppressed;
  }

  get isSuppressed() {
    return false;
  }

  get target() {
    return this.parent;
  }

  /** FOUNDRY.md §5: temporary means a rounds, turns or seconds duration */
  get isTemporary() {
    const { seconds, rounds, turns } = this._source.duration;
    return Boolean(seconds || rounds || turns);
  }

  /** Stored duration plus the display-only type and remaining (FOUNDRY.md §5) */
  get duration() {
    const stored = this._source.duration;
    const derived = { ...stored, type: "none", remaining: null };
    if (stored.seconds) {
      derived.type = "seconds";
      derived.remaining = (stored.startTime ?? 0) + stored.seconds - env().worldTime;
    } else if (stored.rounds || stored.turns) {
      derived.type = "turns";
      const combat = env()._world.combats.get(stored.combat) ?? env()._world.combats.active;
      const count = Math.max(combat?.turns.length ?? 1, 1);
      const end = (stored.startRound ?? 0) + (stored.rounds ?? 0) + ((stored.startTurn ?? 0) + (stored.turns ?? 0)) / count;
      const now = combat ? combat.round + (combat.turn ?? 0) / count : end;
      derived.remaining = end - now;
    }
    return Object.freeze(derived);
  }

  /** FOUNDRY.md §5: core fills startTime, plus combat/startRound/startTurn when a combat exists */
  _preCreate() {
    if (!(this.parent instanceof Actor)) return;
    const duration = { ...this._source.duration };
    duration.startTime ??= env().worldTime;
    const combat = env()._world.combats.active;
    if (combat) {
      duration.combat ??= combat.id;
      duration.startRound ??= combat.round;
      duration.startTurn ??= combat.turn ?? 0;
    }
    this._replaceSource({ ...this._source, duration });
  }

  _canCreate(user) {
    return this.testUserPermission(user, "OWNER");
  }
}
defineFields(ActiveEffect, [
  "img", "type", "system", "changes", "disabled", "description", "origin", "tint", "transfer", "sort",
]);

export class Actor extends Document {
  static documentName = "Actor";
  static embedded = { ActiveEffect: "effects" };
  #items = new DocumentCollection();

  constructor(source, options) {
    const { effects = [], ...rest } = source;
    super(rest, options);
    Object.defineProperty(this, "effects", { value: new DocumentCollection(), enumerable: true });
    for (const data of effects) {
      const effect = new ActiveEffect(ActiveEffect._cleanData({ ...data, _id: data._id ?? randomID() }), { parent: this });
      this.effects._set(effect.id, effect);
    }
  }

  static _cleanData(data) {
    const source = pickKnown("Actor", data, [
      "_id", "name", "type", "img", "system", "flags", "ownership", "effects", "items", "folder", "sort",
      "prototypeToken", "_stats",
    ]);
    return {
      _id: checkId("Actor", source._id ?? null),
      name: requireString("Actor", "name", source.name),
      type: requireString("Actor", "type", source.type),
      img: source.img ?? "icons/svg/mystery-man.svg",
      system: source.system ?? {},
      flags: source.flags ?? {},
      ownership: source.ownership ?? { default: CONST.DOCUMENT_OWNERSHIP_LEVELS.NONE },
      effects: source.effects ?? [],
    };
  }

  get items() {
    return this.#items;
  }

  /** Status ids of the actor's enabled effects */
  get statuses() {
    const statuses = new Set();
    for (const effect of this.effects) if (effect.active) for (const id of effect.statuses) statuses.add(id);
    return statuses;
  }

  get appliedEffects() {
    return this.effects.filter((effect) => effect.active);
  }

  get temporaryEffects() {
    return this.effects.filter((effect) => effect.active && effect.isTemporary);
  }

  *allApplicableEffects() {
    yield* this.effects;
  }

  /** Core's default roll data is the actor's system data */
  getRollData() {
    return this.system;
  }

  toObject() {
    return { ...super.toObject(), effects: this.effects.map((effect) => effect.toObject()) };
  }

  /**
   * FOUNDRY.md §6: returns the created ActiveEffect, true (present and active requested), false
   * (removed) or undefined (nothing changed); an unknown id throws.
   */
  async toggleStatusEffect(statusId, { active, overlay = false } = {}) {
    const status = env().CONFIG.statusEffects.find((entry) => entry.id === statusId);
    if (!status) throw new Error(`Invalid status ID "${statusId}" provided to Actor#toggleStatusEffect`);
    const existing = [];
    if (status._id) {
      if (this.effects.has(status._id)) existing.push(status._id);
    } else {
      for (const effect of this.effects) {
        const statuses = effect.statuses;
        if (statuses.size === 1 && statuses.has(statusId)) existing.push(effect.id);
      }
    }
    if (existing.length) {
      if (active) return true;
      await this.deleteEmbeddedDocuments("ActiveEffect", existing);
      return false;
    }
    if (active === false) return undefined;
    const effect = await ActiveEffect.fromStatusEffect(statusId);
    if (overlay) effect.updateSource({ "flags.core.overlay": true });
    return ActiveEffect.create(effect, { parent: this, keepId: true });
  }
}
defineFields(Actor, ["type", "img", "system"]);

export class Scene extends Document {
  static documentName = "Scene";
  static embedded = { Token: "tokens" };

  constructor(source, options) {
    const { tokens = [], ...rest } = source;
    super(rest, options);
    Object.defineProperty(this, "tokens", { value: new DocumentCollection(), enumerable: true });
    for (const data of tokens) {
      const token = new TokenDocument(TokenDocument._cleanData(data), { parent: this });
      this.tokens._set(token.id, token);
    }
  }

  static _cleanData(data) {
    return {
      _id: checkId("Scene", data._id ?? null),
      name: requireString("Scene", "name", data.name),
      active: data.active ?? false,
      flags: data.flags ?? {},
    };
  }

  toObject() {
    return { ...super.toObject(), tokens: this.tokens.map((token) => token.toObject()) };
  }
}
defineFields(Scene, ["active"]);

export class TokenDocument extends Document {
  static documentName = "Token";

  static _cleanData(data) {
    const source = pickKnown("Token", data, [
      "_id", "name", "actorId", "actorLink", "disposition", "hidden", "x", "y", "elevation", "texture", "flags", "_stats",
    ]);
    if (source.actorLink === false) throw new Error("harness: unlinked (synthetic-actor) tokens are not emulated");
    // (harness choice) new tokens default to HOSTILE when no disposition is given
    const disposition = source.disposition ?? CONST.TOKEN_DISPOSITIONS.HOSTILE;
    if (!Object.values(CONST.TOKEN_DISPOSITIONS).includes(disposition)) {
      throw validationError("Token", "disposition", `${disposition} is not a valid TOKEN_DISPOSITIONS value`);
    }
    return {
      _id: checkId("Token", source._id ?? null),
      name: requireString("Token", "name", source.name),
      actorId: source.actorId ?? null,
      actorLink: true,
      disposition,
      hidden: source.hidden ?? false,
      x: source.x ?? 0,
      y: source.y ?? 0,
      elevation: source.elevation ?? 0,
      flags: source.flags ?? {},
    };
  }

  /** A linked token's actor is the world actor; null once that actor is deleted */
  get actor() {
    return env()._world.actors.get(this.actorId) ?? null;
  }

  get combatant() {
    return env()._world.combats.active?.combatants.find((c) => c.tokenId === this.id) ?? null;
  }

  get inCombat() {
    return Boolean(this.combatant);
  }

  get object() {
    return null;
  }

  _ownershipLevel(user) {
    return this.actor?._ownershipLevel(user) ?? CONST.DOCUMENT_OWNERSHIP_LEVELS.NONE;
  }

  _canDelete(user) {
    return user.isGM;
  }
}
defineFields(TokenDocument, ["actorId", "actorLink", "disposition", "hidden", "x", "y", "elevation"]);

export class Combatant extends Document {
  static documentName = "Combatant";

  static _cleanData(data) {
    const source = pickKnown("Combatant", data, [
      "_id", "type", "actorId", "tokenId", "sceneId", "name", "img", "initiative", "hidden", "defeated", "group",
      "system", "flags", "_stats",
    ]);
    const scene = env()._world.scenes.active;
    const token = source.tokenId ? scene?.tokens.get(source.tokenId) : null;
    return {
      _id: checkId("Combatant", source._id ?? null),
      type: source.type ?? "base",
      actorId: source.actorId ?? token?.actorId ?? null,
      tokenId: source.tokenId ?? null,
      sceneId: source.sceneId ?? (token ? scene.id : null),
      name: source.name ?? null,
      img: source.img ?? null,
      initiative: optionalNumber("Combatant", "initiative", source.initiative),
      hidden: source.hidden ?? false,
      defeated: source.defeated ?? false,
      group: source.group ?? null,
      system: source.system ?? {},
      flags: source.flags ?? {},
    };
  }

  static _cleanSource(source) {
    return { ...source, initiative: optionalNumber("Combatant", "initiative", source.initiative) };
  }

  get combat() {
    return this.parent;
  }

  get name() {
    return this._source.name || this.token?.name || this.actor?.name || env()._softLocalize("COMBAT.UnknownCombatant");
  }

  get token() {
    const scene = env()._world.scenes.get(this.sceneId);
    return scene?.tokens.get(this.tokenId) ?? null;
  }

  /** The token's actor, or the world actor by id; null once deleted */
  get actor() {
    const token = this.token;
    if (token) return token.actor;
    return env()._world.actors.get(this.actorId) ?? null;
  }

  get isDefeated() {
    return this.defeated || Boolean(this.actor?.statuses.has(env().CONFIG.specialStatusEffects.DEFEATED));
  }

  get players() {
    return env()._world.users.filter((user) => !user.isGM && this.actor?.testUserPermission(user, "OWNER"));
  }

  _ownershipLevel(user) {
    return this.actor?._ownershipLevel(user) ?? CONST.DOCUMENT_OWNERSHIP_LEVELS.NONE;
  }

  _canCreate(user) {
    return user.isGM || this.testUserPermission(user, "OWNER");
  }

  _getInitiativeFormula() {
    return String(env().CONFIG.Combat.initiative.formula || env().game.system.initiative);
  }

  getInitiativeRoll(formula) {
    return new Roll(formula ?? this._getInitiativeFormula(), this.actor?.getRollData() ?? {});
  }

  async rollInitiative(formula) {
    return this.combat.rollInitiative([this.id], { formula });
  }

  _onCreate() {
    this.combat._refreshTurns();
  }

  _onUpdate(changed) {
    if ("initiative" in changed) this.combat._refreshTurns();
  }

  _onDelete() {
    this.combat._refreshTurns();
  }
}
defineFields(Combatant, [
  "type", "actorId", "tokenId", "sceneId", "img", "initiative", "hidden", "defeated", "group", "system",
]);

export class Combat extends Document {
  static documentName = "Combat";
  static embedded = { Combatant: "combatants" };
  static CONFIG_SETTING = "combatTrackerConfig";
  #turns = Object.freeze([]);

  constructor(source, options) {
    const { combatants = [], ...rest } = source;
    super(rest, options);
    Object.defineProperty(this, "combatants", { value: new DocumentCollection(), enumerable: true });
    for (const data of combatants) {
      const combatant = new Combatant(Combatant._cleanData({ ...data, _id: data._id ?? randomID() }), { parent: this });
      this.combatants._set(combatant.id, combatant);
    }
    this.setupTurns();
    /** FOUNDRY.md §7: CombatHistoryData {round, turn, combatantId, tokenId} */
    this.current = this._getCurrentState();
    this.previous = undefined;
  }

  static _cleanData(data) {
    const source = pickKnown("Combat", data, [
      "_id", "type", "scene", "active", "round", "turn", "combatants", "flags", "sort", "system", "_stats",
    ]);
    return {
      _id: checkId("Combat", source._id ?? null),
      type: source.type ?? "base",
      scene: source.scene ?? env()._world.scenes.active?.id ?? null,
      active: source.active ?? false,
      round: optionalNumber("Combat", "round", source.round ?? 0, { integer: true, min: 0 }),
      turn: optionalNumber("Combat", "turn", source.turn ?? null, { integer: true, min: 0 }),
      combatants: source.combatants ?? [],
      flags: source.flags ?? {},
    };
  }

  static _cleanSource(source) {
    return {
      ...source,
      round: optionalNumber("Combat", "round", source.round, { integer: true, min: 0 }) ?? 0,
      turn: optionalNumber("Combat", "turn", source.turn, { integer: true, min: 0 }),
    };
  }

  get name() {
    return undefined;
  }

  get turns() {
    return this.#turns;
  }

  get combatant() {
    return this.turn === null ? undefined : this.#turns[this.turn];
  }

  get nextCombatant() {
    if (this.turn === null) return undefined;
    return this.#turns[this.turn + 1] ?? this.#turns[0];
  }

  get started() {
    return this.#turns.length > 0 && this.round > 0;
  }

  get settings() {
    return env().game.settings.get("core", Combat.CONFIG_SETTING);
  }

  toObject() {
    return { ...super.toObject(), combatants: this.combatants.map((c) => c.toObject()) };
  }

  /**
   * Order combatants: without initiative values the given order is kept; with them, descending
   * initiative with nulls last, ties keeping the given order (harness choice; see the report).
   */
  setupTurns() {
    const combatants = this.combatants.contents;
    const value = (c) => (Number.isFinite(c.initiative) ? c.initiative : -Infinity);
    if (combatants.some((c) => Number.isFinite(c.initiative))) combatants.sort((a, b) => value(b) - value(a));
    this.#turns = Object.freeze(combatants);
    return this.#turns;
  }

  /** Re-sort after combatant changes, keeping the current combatant's turn locally */
  _refreshTurns() {
    const currentId = this.current?.combatantId;
    this.setupTurns();
    if (this.turn !== null) {
      const index = this.#turns.findIndex((c) => c.id === currentId);
      const turn = index >= 0 ? index : Math.max(Math.min(this.turn, this.#turns.length - 1), 0);
      if (turn !== this.turn) this._replaceSource({ ...this._source, turn });
    }
    this.current = this._getCurrentState();
  }

  _getCurrentState() {
    const combatant = this.combatant;
    return { round: this.round, turn: this.turn, combatantId: combatant?.id ?? null, tokenId: combatant?.tokenId ?? null };
  }

  getCombatantsByToken(tokenOrId) {
    const id = typeof tokenOrId === "string" ? tokenOrId : tokenOrId?.id;
    return this.combatants.filter((c) => c.tokenId === id);
  }

  getCombatantsByActor(actorOrId) {
    const id = typeof actorOrId === "string" ? actorOrId : actorOrId?.id;
    return this.combatants.filter((c) => c.actorId === id);
  }

  /** FOUNDRY.md §7: the singular forms are deprecated */
  getCombatantByToken(tokenOrId) {
    env()._deprecate("Combat", "Combat#getCombatantByToken is deprecated; use getCombatantsByToken (FOUNDRY.md §7)");
    return this.getCombatantsByToken(tokenOrId)[0];
  }

  getCombatantByActor(actorOrId) {
    env()._deprecate("Combat", "Combat#getCombatantByActor is deprecated; use getCombatantsByActor (FOUNDRY.md §7)");
    return this.getCombatantsByActor(actorOrId)[0];
  }

  #assertStarted(method) {
    if (!this.started) throw new Error(`harness: Combat#${method} before startCombat() is not emulated`);
  }

  /** FOUNDRY.md §7: combatStart(combat, updateData) fires on the initiating client before the update */
  async startCombat() {
    const updateData = { round: 1, turn: 0 };
    env()._initiatingHook("combatStart", this, updateData);
    return this.update(updateData);
  }

  async nextTurn() {
    this.#assertStarted("nextTurn");
    const skip = this.settings.skipDefeated;
    let next = null;
    for (let i = (this.turn ?? -1) + 1; i < this.#turns.length; i++) {
      if (skip && this.#turns[i].isDefeated) continue;
      next = i;
      break;
    }
    if (next === null) return this.nextRound();
    const updateData = { round: this.round, turn: next };
    const updateOptions = { direction: 1, advanceTime: env().CONFIG.time.turnTime };
    env()._initiatingHook("combatTurn", this, updateData, updateOptions);
    return this.update(updateData, updateOptions);
  }

  async previousTurn() {
    this.#assertStarted("previousTurn");
    if ((this.turn ?? 0) <= 0) return this.previousRound();
    const updateData = { round: this.round, turn: this.turn - 1 };
    const updateOptions = { direction: -1, advanceTime: -env().CONFIG.time.turnTime };
    env()._initiatingHook("combatTurn", this, updateData, updateOptions);
    return this.update(updateData, updateOptions);
  }

  async nextRound() {
    this.#assertStarted("nextRound");
    let turn = 0;
    if (this.settings.skipDefeated) turn = Math.max(this.#turns.findIndex((c) => !c.isDefeated), 0);
    const { turnTime, roundTime } = env().CONFIG.time;
    const advanceTime = Math.max(this.#turns.length - (this.turn ?? 0), 0) * turnTime + roundTime;
    const updateData = { round: this.round + 1, turn };
    const updateOptions = { direction: 1, advanceTime };
    env()._initiatingHook("combatRound", this, updateData, updateOptions);
    return this.update(updateData, updateOptions);
  }

  async previousRound() {
    this.#assertStarted("previousRound");
    const round = Math.max(this.round - 1, 0);
    const updateData = { round, turn: round === 0 ? null : Math.max(this.#turns.length - 1, 0) };
    const updateOptions = { direction: -1, advanceTime: -env().CONFIG.time.roundTime };
    env()._initiatingHook("combatRound", this, updateData, updateOptions);
    return this.update(updateData, updateOptions);
  }

  /** Core asks the initiating user to confirm before deleting the encounter */
  async endCombat() {
    const confirmed = env()._isRemote()
      ? true
      : await foundryNamespace.applications.api.DialogV2.confirm({
          window: { title: "COMBAT.EndTitle" },
          content: `<p>${env()._softLocalize("COMBAT.EndConfirmation")}</p>`,
          rejectClose: false,
          modal: true,
        });
    if (confirmed) return this.delete();
    return undefined;
  }

  async rollInitiative(ids, { formula = null, updateTurn = true, messageOptions = {} } = {}) {
    const combatantIds = typeof ids === "string" ? [ids] : ids;
    const currentId = this.combatant?.id;
    const updates = [];
    const messages = [];
    for (const id of combatantIds) {
      const combatant = this.combatants.get(id, { strict: true });
      const roll = combatant.getInitiativeRoll(formula);
      await roll.evaluate();
      updates.push({ _id: id, initiative: roll.total });
      const messageData = mergeObject(
        {
          speaker: ChatMessage.getSpeaker({ actor: combatant.actor, token: combatant.token, alias: combatant.name }),
          flavor: env().game.i18n.format("COMBAT.RollsInitiative", { name: combatant.name }),
          flags: { "core.initiativeRoll": true },
        },
        messageOptions,
        { inplace: false },
      );
      messages.push(await roll.toMessage(messageData, { create: false }));
    }
    if (!updates.length) return this;
    await this.updateEmbeddedDocuments("Combatant", updates);
    if (updateTurn && currentId) {
      const turn = this.#turns.findIndex((c) => c.id === currentId);
      if (turn >= 0 && turn !== this.turn) await this.update({ turn });
    }
    await ChatMessage.createDocuments(messages);
    return this;
  }

  _canUpdate(user, diff) {
    if (user.isGM) return true;
    // Players may advance the turn when they own the current combatant (harness choice)
    const keys = Object.keys(diff).filter((key) => key !== "_id");
    const turnOnly = keys.every((key) => key === "round" || key === "turn");
    return turnOnly && Boolean(this.combatant?.testUserPermission(user, "OWNER"));
  }

  _onUpdate(changed, options, userId) {
    const prior = this.current;
    this.current = this._getCurrentState();
    const stateChanged = ["round", "turn", "combatantId"].some((key) => prior[key] !== this.current[key]);
    if (stateChanged) this.previous = prior;
    // FOUNDRY.md §7: combatTurnChange(combat, prior, current) on all clients after the update
    const turnChange = () => env().Hooks.callAll("combatTurnChange", this, prior, this.current);
    if (stateChanged && env().options.turnChangeFirst) turnChange();
    return () => {
      if (stateChanged && !env().options.turnChangeFirst) turnChange();
      if (options.advanceTime) env()._advanceWorldTime(options.advanceTime, options, userId);
    };
  }
}
defineFields(Combat, ["type", "scene", "active", "round", "turn"]);

export class ChatMessage extends Document {
  static documentName = "ChatMessage";

  static _cleanData(data) {
    const name = "ChatMessage";
    const source = pickKnown(name, { ...data }, [
      "_id", "type", "style", "author", "user", "content", "flavor", "speaker", "whisper", "blind", "rolls", "sound",
      "emote", "flags", "timestamp", "system", "_stats",
    ]);
    if ("user" in source) {
      env()._deprecate(name, 'ChatMessage "user" is deprecated in favour of "author" (V12)');
      source.author ??= source.user;
    }
    if (typeof source.type === "number") {
      env()._deprecate(name, "numeric ChatMessage type is deprecated; use style (CONST.CHAT_MESSAGE_STYLES, V12)");
      delete source.type;
    }
    const users = env()._world.users;
    const author = source.author?.id ?? source.author ?? env()._actingUserId();
    if (!users.has(author)) throw validationError(name, "author", `"${author}" is not a User id`);
    const whisper = (source.whisper ?? []).map((entry) => entry?.id ?? entry);
    for (const id of whisper) if (!users.has(id)) throw validationError(name, "whisper", `"${id}" is not a User id`);
    const rolls = (source.rolls ?? []).map((roll, i) => {
      if (roll instanceof Roll) {
        if (!roll._evaluated) throw validationError(name, `rolls.${i}`, "the Roll must be evaluated before it is posted");
        return JSON.stringify(roll.toJSON());
      }
      const parsed = typeof roll === "string" ? JSON.parse(roll) : roll;
      if (!isPlainObject(parsed) || !Array.isArray(parsed.terms)) {
        throw validationError(name, `rolls.${i}`, "is not Roll data");
      }
      return JSON.stringify(parsed);
    });
    const speaker = source.speaker ?? {};
    for (const key of ["scene", "actor", "token", "alias"]) {
      const value = speaker[key];
      if (value !== undefined && value !== null && typeof value !== "string") {
        throw validationError(name, `speaker.${key}`, "must be a string id (use ChatMessage.getSpeaker)");
      }
    }
    return {
      _id: checkId(name, source._id ?? null),
      type: source.type ?? "base",
      style: source.style ?? CONST.CHAT_MESSAGE_STYLES.OTHER,
      author,
      content: String(source.content ?? ""),
      flavor: String(source.flavor ?? ""),
      speaker: {
        scene: speaker.scene ?? null,
        actor: speaker.actor ?? null,
        token: speaker.token ?? null,
        alias: speaker.alias ?? null,
      },
      whisper,
      blind: source.blind ?? false,
      rolls,
      sound: source.sound ?? null,
      flags: source.flags ?? {},
      timestamp: source.timestamp ?? Date.now(),
    };
  }

  get author() {
    return env()._world.users.get(this._source.author) ?? null;
  }

  get user() {
    env()._deprecate("ChatMessage", "ChatMessage#user is deprecated in favour of ChatMessage#author (V12)");
    return this.author;
  }

  get rolls() {
    return this._source.rolls.map((json) => Roll.fromJSON(json));
  }

  get isRoll() {
    return this._source.rolls.length > 0;
  }

  get speakerActor() {
    return ChatMessage.getSpeakerActor(this.speaker);
  }

  _canCreate(user) {
    return user.isGM || this._source.author === user.id;
  }

  _canUpdate(user) {
    return user.isGM || this._source.author === user.id;
  }

  _canDelete(user) {
    return this._canUpdate(user);
  }

  static getSpeaker({ scene, actor, token, alias } = {}) {
    const sceneId = (scene ?? env()._world.scenes.viewed)?.id ?? null;
    if (token) {
      const actorId = token.actor?.id ?? null;
      return { scene: token.parent?.id ?? sceneId, actor: actorId, token: token.id, alias: alias ?? token.name };
    }
    actor ??= env().game.user?.character ?? null;
    if (actor) return { scene: sceneId, actor: actor.id, token: null, alias: alias ?? actor.name };
    return { scene: sceneId, actor: null, token: null, alias: alias ?? env().game.user?.name ?? null };
  }

  static getSpeakerActor(speaker) {
    if (!speaker) return null;
    if (speaker.token) {
      const token = env()._world.scenes.get(speaker.scene)?.tokens.get(speaker.token);
      if (token?.actor) return token.actor;
    }
    return env()._world.actors.get(speaker.actor) ?? null;
  }

  /** Users matching "gm", "players" or a user name; returns User documents */
  static getWhisperRecipients(name) {
    const users = env()._world.users;
    const lowered = String(name).toLowerCase();
    if (lowered === "gm") return users.filter((user) => user.isGM);
    if (lowered === "players") return users.filter((user) => !user.isGM);
    return users.filter((user) => user.name.toLowerCase() === lowered);
  }
}
defineFields(ChatMessage, ["type", "style", "content", "flavor", "speaker", "whisper", "blind", "sound", "timestamp"]);

const EMBEDDED_CLASSES = { ActiveEffect, Combatant, Token: TokenDocument };

// ---------------------------------------------------------------------------------------------
// Dice (https://foundryvtt.com/api/classes/foundry.dice.Roll.html)

class RollTerm {
  options = {};
  _evaluated = false;

  get isDeterministic() {
    return true;
  }

  static fromData(data) {
    const cls = { Die, NumericTerm, OperatorTerm, StringTerm }[data.class];
    if (!cls) throw new Error(`harness Roll: unknown term class "${data.class}"`);
    return cls.fromData(data);
  }
}

export class Die extends RollTerm {
  constructor({ number = 1, faces = 6, modifiers = [], results = [], options = {} } = {}) {
    super();
    this.number = number;
    this.faces = faces;
    this.modifiers = [...modifiers];
    this.results = results.map((r) => ({ ...r }));
    this.options = options;
  }

  get isDeterministic() {
    return false;
  }

  get denomination() {
    return `d${this.faces}`;
  }

  get expression() {
    return `${this.number}d${this.faces}${this.modifiers.join("")}`;
  }

  get formula() {
    return this.expression;
  }

  get total() {
    if (!this._evaluated) return undefined;
    return this.results.reduce((sum, r) => (r.active ? sum + r.result : sum), 0);
  }

  get values() {
    return this.results.filter((r) => r.active).map((r) => r.result);
  }

  /** Draw one face: Math.ceil(CONFIG.Dice.randomUniform() * faces) with the uniform in (0, 1] */
  roll({ minimize = false, maximize = false } = {}) {
    let result;
    if (minimize) result = 1;
    else if (maximize) result = this.faces;
    else {
      rollingFaces = this.faces;
      let uniform;
      try {
        uniform = env().CONFIG.Dice.randomUniform();
      } finally {
        rollingFaces = null;
      }
      if (typeof uniform !== "number" || !(uniform > 0 && uniform <= 1)) {
        throw new Error(`CONFIG.Dice.randomUniform returned ${uniform}; expected a number in (0, 1]`);
      }
      result = Math.ceil(uniform * this.faces);
    }
    const entry = { result, active: true };
    this.results.push(entry);
    return entry;
  }

  _evaluate(options) {
    for (let i = 0; i < this.number; i++) this.roll(options);
    for (const modifier of this.modifiers) this.#keep(modifier);
    this._evaluated = true;
    return this;
  }

  #keep(modifier) {
    const match = /^(kh|kl|k)(\d*)$/.exec(modifier);
    const count = match[2] ? Number(match[2]) : 1;
    const highest = match[1] !== "kl";
    const order = this.results
      .map((r, i) => ({ r, i }))
      .filter(({ r }) => r.active)
      .sort((a, b) => (highest ? b.r.result - a.r.result : a.r.result - b.r.result));
    for (const { r } of order.slice(count)) {
      r.active = false;
      r.discarded = true;
    }
  }

  toJSON() {
    return {
      class: "Die",
      options: deepClone(this.options),
      evaluated: this._evaluated,
      number: this.number,
      faces: this.faces,
      modifiers: [...this.modifiers],
      results: this.results.map((r) => ({ ...r })),
    };
  }

  static fromData(data) {
    const term = new this(data);
    term._evaluated = Boolean(data.evaluated);
    return term;
  }
}

export class NumericTerm extends RollTerm {
  constructor({ number, options = {} } = {}) {
    super();
    this.number = number;
    this.options = options;
  }

  get expression() {
    return String(this.number);
  }

  get formula() {
    return this.expression;
  }

  get total() {
    return this.number;
  }

  _evaluate() {
    this._evaluated = true;
    return this;
  }

  toJSON() {
    return { class: "NumericTerm", options: deepClone(this.options), evaluated: this._evaluated, number: this.number };
  }

  static fromData(data) {
    const term = new this(data);
    term._evaluated = Boolean(data.evaluated);
    return term;
  }
}

export class OperatorTerm extends RollTerm {
  constructor({ operator, options = {} } = {}) {
    super();
    this.operator = operator;
    this.options = options;
  }

  get expression() {
    return this.operator;
  }

  get formula() {
    return this.operator;
  }

  get total() {
    return undefined;
  }

  _evaluate() {
    this._evaluated = true;
    return this;
  }

  toJSON() {
    return { class: "OperatorTerm", options: deepClone(this.options), evaluated: this._evaluated, operator: this.operator };
  }

  static fromData(data) {
    const term = new this(data);
    term._evaluated = Boolean(data.evaluated);
    return term;
  }
}

/** An unresolved @reference; evaluating it throws, as an unresolved StringTerm does in core */
export class StringTerm extends RollTerm {
  constructor({ term, options = {} } = {}) {
    super();
    this.term = term;
    this.options = options;
  }

  get expression() {
    return this.term;
  }

  get formula() {
    return this.term;
  }

  _evaluate() {
    throw new Error(`Unresolved StringTerm ${this.term} requested for evaluation`);
  }

  toJSON() {
    return { class: "StringTerm", options: deepClone(this.options), evaluated: this._evaluated, term: this.term };
  }

  static fromData(data) {
    return new this(data);
  }
}

const DIE_PATTERN = /^(\d*)d(\d+)((?:kh|kl|k)\d*)?$/i;
const NUMBER_PATTERN = /^\d+(\.\d+)?$/;

export class Roll {
  static CHAT_TEMPLATE = "templates/dice/roll.html";

  constructor(formula, data = {}, options = {}) {
    this.data = data;
    this.options = options;
    this._formula = Roll.replaceFormulaData(String(formula), data);
    this.terms = Roll.parse(this._formula);
    this._evaluated = false;
    this._total = undefined;
  }

  static create(formula, data, options) {
    return new this(formula, data, options);
  }

  /** Replace @path references with values from the roll data; unresolved ones stay as written */
  static replaceFormulaData(formula, data, { missing } = {}) {
    return formula.replace(/@([\w.-]+)/g, (match, key) => {
      const value = getProperty(data, key);
      if (value === undefined || value === null || typeof value === "object") return missing ?? match;
      return String(value).trim();
    });
  }

  /** The emulation supports NdX, NdXkh/khN/kl/klN, constants, + and - (FOUNDRY.md brief) */
  static parse(formula) {
    const compact = formula.replace(/\s+/g, "");
    if (!compact) throw new Error("harness Roll: empty formula");
    const tokens = compact.match(/[+-]+|[^+-]+/g);
    const terms = [];
    let sign = null;
    for (const token of tokens) {
      if (/^[+-]+$/.test(token)) {
        const negative = [...token].filter((c) => c === "-").length % 2 === 1;
        sign = negative ? "-" : "+";
        continue;
      }
      const term = Roll.#parseTerm(token, formula);
      if (terms.length === 0) {
        if (sign === "-") {
          if (!(term instanceof NumericTerm)) {
            throw new Error(`harness Roll: a leading "-" before "${token}" is not supported in "${formula}"`);
          }
          term.number = -term.number;
        }
      } else {
        if (sign === null) throw new Error(`harness Roll: missing operator before "${token}" in "${formula}"`);
        terms.push(new OperatorTerm({ operator: sign }));
      }
      terms.push(term);
      sign = null;
    }
    if (sign !== null) throw new Error(`harness Roll: trailing operator in "${formula}"`);
    return terms;
  }

  static #parseTerm(token, formula) {
    const die = DIE_PATTERN.exec(token);
    if (die) {
      const faces = Number(die[2]);
      if (faces < 1) throw new Error(`harness Roll: a die needs at least one face in "${formula}"`);
      return new Die({ number: die[1] ? Number(die[1]) : 1, faces, modifiers: die[3] ? [die[3].toLowerCase()] : [] });
    }
    if (NUMBER_PATTERN.test(token)) return new NumericTerm({ number: Number(token) });
    if (/^@[\w.-]+$/.test(token)) return new StringTerm({ term: token });
    throw new Error(
      `harness Roll: unsupported term "${token}" in "${formula}" (supported: NdX, NdXkh[N], NdXkl[N], numbers, + and -)`,
    );
  }

  static validate(formula) {
    try {
      Roll.parse(Roll.replaceFormulaData(formula, {}));
      return true;
    } catch {
      return false;
    }
  }

  get formula() {
    return this.terms.map((term) => term.formula).join(" ");
  }

  get total() {
    return this._evaluated ? this._total : undefined;
  }

  get result() {
    return this.terms.map((term) => (term instanceof OperatorTerm ? term.operator : String(term.total))).join(" ");
  }

  get dice() {
    return this.terms.filter((term) => term instanceof Die);
  }

  get isDeterministic() {
    return this.terms.every((term) => term.isDeterministic);
  }

  /** V12+: evaluate is async only (https://foundryvtt.com/api/classes/foundry.dice.Roll.html) */
  async evaluate(options = {}) {
    return this.#evaluate(options);
  }

  evaluateSync(options = {}) {
    return this.#evaluate(options);
  }

  #evaluate({ minimize = false, maximize = false, ...rest } = {}) {
    if ("async" in rest) {
      env()._deprecate("Roll", 'The "async" option of Roll#evaluate is deprecated (V12: evaluate is always async)');
    }
    if (this._evaluated) throw new Error(`The ${this.constructor.name} has already been evaluated and is now immutable`);
    for (const term of this.terms) term._evaluate({ minimize, maximize });
    let total = 0;
    let operator = "+";
    for (const term of this.terms) {
      if (term instanceof OperatorTerm) operator = term.operator;
      else total = operator === "-" ? total - term.total : total + term.total;
    }
    this._total = total;
    this._evaluated = true;
    return this;
  }

  toJSON() {
    return {
      class: this.constructor.name,
      options: deepClone(this.options),
      dice: [],
      formula: this._formula,
      terms: this.terms.map((term) => term.toJSON()),
      total: this._total,
      evaluated: this._evaluated,
    };
  }

  static fromData(data) {
    const roll = new this(data.formula, {}, data.options ?? {});
    roll.terms = data.terms.map((term) => RollTerm.fromData(term));
    roll._total = data.total;
    roll._evaluated = Boolean(data.evaluated);
    return roll;
  }

  static fromJSON(json) {
    return this.fromData(JSON.parse(json));
  }

  async render({ flavor } = {}) {
    if (!this._evaluated) await this.evaluate();
    const dice = this.dice
      .map((die) => `<li class="roll die ${die.denomination}">${die.results.map((r) => r.result).join(", ")}</li>`)
      .join("");
    const flavorHtml = flavor ? `<div class="dice-flavor">${flavor}</div>` : "";
    return `<div class="dice-roll">${flavorHtml}<div class="dice-result">`
      + `<div class="dice-formula">${this.formula}</div>`
      + `<div class="dice-tooltip"><ol class="dice-rolls">${dice}</ol></div>`
      + `<h4 class="dice-total">${this.total}</h4></div></div>`;
  }

  async toMessage(messageData = {}, { create = true } = {}) {
    if (!this._evaluated) await this.evaluate();
    const data = { content: String(this.total), speaker: ChatMessage.getSpeaker(), ...messageData, rolls: [this] };
    return create ? ChatMessage.create(data) : data;
  }
}

// ---------------------------------------------------------------------------------------------
// Applications

/** A stand-in for the HTML form of a dialog, built from the scripted answer's form values */
function fakeForm(values = {}) {
  const elements = {};
  for (const [name, value] of Object.entries(values)) {
    elements[name] = {
      name,
      value: value === null || value === undefined ? "" : String(value),
      valueAsNumber: Number(value),
      checked: value === true,
      type: typeof value === "boolean" ? "checkbox" : typeof value === "number" ? "number" : "text",
    };
  }
  return {
    elements,
    _values: deepClone(values),
    querySelector(selector) {
      const match = /\[name=["']?([^"'\]]+)["']?\]/.exec(selector);
      return match ? elements[match[1]] ?? null : null;
    },
  };
}

export class FormDataExtended {
  constructor(form) {
    this.form = form;
    this.object = deepClone(form?._values ?? {});
  }
}

class DialogV2 {
  static async wait(config = {}) {
    return env()._openDialog("wait", config);
  }

  static async prompt(config = {}) {
    return env()._openDialog("prompt", config);
  }

  static async confirm(config = {}) {
    return env()._openDialog("confirm", config);
  }
}

const foundryNamespace = {
  utils,
  applications: { api: { DialogV2 }, ux: { FormDataExtended } },
  documents: { Actor, ActiveEffect, ChatMessage, Combat, Combatant, Scene, TokenDocument, User },
  dice: { Roll, terms: { Die, NumericTerm, OperatorTerm, StringTerm } },
};

// ---------------------------------------------------------------------------------------------
// Status effects (FOUNDRY.md §6)

const CORE_STATUS_EFFECTS = [
  ["dead", "StatusDead", "skull"],
  ["unconscious", "StatusUnconscious", "unconscious"],
  ["sleep", "StatusAsleep", "sleep"],
  ["stun", "StatusStunned", "daze"],
  ["prone", "StatusProne", "falling"],
  ["restrain", "StatusRestrained", "net"],
  ["paralysis", "StatusParalysis", "paralysis"],
  ["fly", "StatusFlying", "wing"],
  ["blind", "StatusBlind", "blind"],
  ["deaf", "StatusDeaf", "deaf"],
  ["silence", "StatusSilenced", "silenced"],
  ["fear", "StatusFear", "terror"],
  ["burning", "StatusBurning", "fire"],
  ["frozen", "StatusFrozen", "frozen"],
  ["shock", "StatusShocked", "lightning"],
  ["corrode", "StatusCorrode", "acid"],
  ["bleeding", "StatusBleeding", "blood"],
  ["disease", "StatusDisease", "biohazard"],
  ["poison", "StatusPoison", "poison"],
  ["curse", "StatusCursed", "sun"],
  ["regen", "StatusRegen", "regen"],
  ["degen", "StatusDegen", "degen"],
  ["hover", "StatusHover", "wingfoot"],
  ["burrow", "StatusBurrow", "mole"],
  ["upgrade", "StatusUpgrade", "upgrade"],
  ["downgrade", "StatusDowngrade", "downgrade"],
  ["invisible", "StatusInvisible", "invisible"],
  ["target", "StatusTarget", "target"],
  ["eye", "StatusMarked", "eye"],
  ["bless", "StatusBlessed", "angel"],
  ["fireShield", "StatusFireShield", "fire-shield"],
  ["coldShield", "StatusIceShield", "ice-shield"],
  ["magicShield", "StatusMagicShield", "mage-shield"],
  ["holyShield", "StatusHolyShield", "holy-shield"],
];

const CORE_STATUS_NAMES = {
  StatusDead: "Dead", StatusUnconscious: "Unconscious", StatusAsleep: "Asleep", StatusStunned: "Stunned",
  StatusProne: "Prone", StatusRestrained: "Restrained", StatusParalysis: "Paralysis", StatusFlying: "Flying",
  StatusBlind: "Blind", StatusDeaf: "Deaf", StatusSilenced: "Silenced", StatusFear: "Fear",
  StatusBurning: "Burning", StatusFrozen: "Frozen", StatusShocked: "Shocked", StatusCorrode: "Corrode",
  StatusBleeding: "Bleeding", StatusDisease: "Disease", StatusPoison: "Poison", StatusCursed: "Cursed",
  StatusRegen: "Regeneration", StatusDegen: "Degeneration", StatusHover: "Hover", StatusBurrow: "Burrow",
  StatusUpgrade: "Upgrade", StatusDowngrade: "Downgrade", StatusInvisible: "Invisible", StatusTarget: "Target",
  StatusMarked: "Marked", StatusBlessed: "Blessed", StatusFireShield: "Fire Shield", StatusIceShield: "Ice Shield",
  StatusMagicShield: "Magic Shield", StatusHolyShield: "Holy Shield",
};

/** Core strings the emulated core itself localizes */
const CORE_TRANSLATIONS = {
  EFFECT: CORE_STATUS_NAMES,
  COMBAT: {
    RollsInitiative: "{name} rolls for Initiative!",
    EndTitle: "End Combat Encounter",
    EndConfirmation: "End this combat encounter and empty the turn order?",
    UnknownCombatant: "Unknown Combatant",
  },
};

function coreStatusEffects() {
  return CORE_STATUS_EFFECTS.map(([id, key, icon]) => ({ id, name: `EFFECT.${key}`, img: `icons/svg/${icon}.svg` }));
}

/** A GURPS-Game-Aid-like list; GGA replaces CONFIG.statusEffects at init (FOUNDRY.md §6) */
function gurpsStatusEffects() {
  const entries = [
    ["shock1", "Shock 1"], ["shock2", "Shock 2"], ["shock3", "Shock 3"], ["shock4", "Shock 4"],
    ["stun", "Stunned"], ["mentalstun", "Mental Stun"], ["reeling", "Reeling"], ["tired", "Tired"],
    ["collapse", "Collapse"], ["unconscious", "Unconscious"], ["dead", "Dead"], ["prone", "Prone"],
    ["kneel", "Kneeling"], ["crouch", "Crouching"], ["sit", "Sitting"], ["crawl", "Crawling"],
  ];
  return entries.map(([id, name]) => ({
    id,
    name,
    img: `systems/gurps/icons/statuses/${id}.webp`,
    flags: { gurps: { effect: { type: "status" } } },
  }));
}

// ---------------------------------------------------------------------------------------------
// The environment

const DEFAULT_USERS = [
  { id: "gamemaster000001", name: "Gamemaster", isGM: true, active: true },
  { id: "player0000000001", name: "Player", isGM: false, active: true },
];

const GLOBAL_NAMES = [
  "Hooks", "game", "CONFIG", "CONST", "foundry", "ui", "Roll", "ChatMessage", "Actor", "ActiveEffect", "Combat",
  "Combatant", "TokenDocument", "User", "Scene", "FormDataExtended", "fromUuid", "fromUuidSync",
];

const SETTING_SCOPES = ["world", "client"];
const WORLD_COLLECTIONS = { Actor: "actors", Combat: "combats", Scene: "scenes", ChatMessage: "messages", User: "users" };

export class FoundryEnvironment {
  // Records for assertions
  errors = [];
  notifications = [];
  messages = [];
  dialogs = [];
  dialogAnswers = [];
  missingI18n = [];
  fallbackI18n = [];
  earlyI18n = [];
  i18nFormatErrors = [];
  deprecations = [];
  warnings = [];
  writes = [];
  deniedWrites = [];
  hookCalls = [];

  _world;
  #localUserId;
  #booted = false;
  #ready = false;
  #documentsReady = false;
  #translationsReady = false;
  #worldTime;
  #diceScript = [];
  #diceScripted = false;
  #pending = new Set();
  #inflight = 0;
  #activity = 0;
  #tmpDirs = [];
  #langFiles = {};
  #settingsConfig = new Map();
  #settingsValues = new Map();

  constructor(options) {
    this.options = options;
    this.#worldTime = options.worldTime;
    const users = new Users();
    for (const data of options.users) users._set(data.id, new User(User._cleanData(data)));
    const scenes = new Scenes();
    const scene = new Scene(Scene._cleanData({ _id: "harnessScene0001", name: "Harness Scene", active: true }));
    scenes._set(scene.id, scene);
    this._world = { users, actors: new Actors(), combats: new Combats(), scenes, messages: new Messages() };
    this.#localUserId = options.userId ?? users.find((u) => u.isGM)?.id ?? users.contents[0]?.id;
    if (!users.has(this.#localUserId)) throw new Error(`userId "${this.#localUserId}" is not one of the users`);
    users.get(this.#localUserId)._setActive(true);
    for (const [id, value] of Object.entries(options.settings)) this.#settingsValues.set(id, deepClone(value));

    this.Hooks = this.#makeHooks();
    this.CONFIG = {
      statusEffects: coreStatusEffects(),
      // FOUNDRY.md §6
      specialStatusEffects: {
        DEFEATED: "dead", INVISIBLE: "invisible", BLIND: "blind", BURROW: "burrow", HOVER: "hover", FLY: "fly",
      },
      Dice: { randomUniform: () => this.#uniform(), rolls: [Roll], terms: { d: Die } },
      Combat: { documentClass: Combat, initiative: { formula: null, decimals: 2 } },
      ActiveEffect: { documentClass: ActiveEffect },
      Actor: { documentClass: Actor },
      ChatMessage: { documentClass: ChatMessage },
      Token: { documentClass: TokenDocument },
      time: { turnTime: 0, roundTime: 6 },
      debug: { hooks: false },
    };
    this.foundry = foundryNamespace;
    this.ui = {};
    this.game = this.#makeGame();
    this.#registerCoreSettings();
    if (options.systemId === "gurps") {
      // The system's scripts load before any module's, so its init hook is registered first
      this.Hooks.once("init", () => {
        this.CONFIG.statusEffects = gurpsStatusEffects();
      });
    }
  }

  get localUserId() {
    return this.#localUserId;
  }

  get worldTime() {
    return this.#worldTime;
  }

  get booted() {
    return this.#booted;
  }

  /**
   * Throw if anything was recorded that correct module code never causes: hook errors, missing or
   * early translations, deprecations, dropped fields, denied writes, unused dialog answers or dice.
   */
  assertClean() {
    const problems = {
      errors: this.errors.map((e) => `${e.hook}: ${e.error?.message ?? e.error}`),
      missingI18n: this.missingI18n,
      earlyI18n: this.earlyI18n,
      i18nFormatErrors: this.i18nFormatErrors,
      deprecations: this.deprecations.map((d) => d.message),
      warnings: this.warnings,
      deniedWrites: this.deniedWrites,
      unusedDialogAnswers: this.dialogAnswers,
      unusedDice: this.#diceScript,
    };
    const found = Object.entries(problems).filter(([, list]) => list.length);
    if (found.length) {
      const lines = found.map(([name, list]) => `  ${name}: ${JSON.stringify(list)}`);
      throw new Error(`The Foundry emulation recorded problems:\n${lines.join("\n")}`);
    }
  }

  /** Faces scripted with scriptDice that no Die has drawn yet */
  get pendingDice() {
    return [...this.#diceScript];
  }

  // -- globals -------------------------------------------------------------------------------

  _install() {
    const values = {
      Hooks: this.Hooks,
      game: this.game,
      CONFIG: this.CONFIG,
      CONST,
      foundry: this.foundry,
      ui: this.ui,
      Roll,
      ChatMessage,
      Actor,
      ActiveEffect,
      Combat,
      Combatant,
      TokenDocument,
      User,
      Scene,
      FormDataExtended,
      fromUuid: async (uuid) => this.#fromUuid(uuid),
      fromUuidSync: (uuid) => this.#fromUuid(uuid),
    };
    for (const name of GLOBAL_NAMES) {
      Object.defineProperty(globalThis, name, { value: values[name], configurable: true, writable: true });
    }
    ENV = this;
  }

  /** Remove the globals and temporary module copies */
  teardown() {
    if (ENV === this) {
      for (const name of GLOBAL_NAMES) delete globalThis[name];
      ENV = null;
    }
    for (const dir of this.#tmpDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  }

  // -- hooks ---------------------------------------------------------------------------------

  #makeHooks() {
    const environment = this;
    const events = new Map();
    let nextId = 1;

    const run = (hook, args, stoppable) => {
      environment.hookCalls.push({ hook, args });
      environment.#activity++;
      for (const entry of [...(events.get(hook) ?? [])]) {
        if (entry.once) Hooks.off(hook, entry.id);
        let result;
        try {
          // Handlers always run as the local client, even while emulating a remote request
          result = acting.exit(() => entry.fn(...args));
        } catch (error) {
          environment.#recordHookError(hook, entry.fn, error);
          continue;
        }
        if (result && typeof result.then === "function") environment.#track(result, hook, entry.fn);
        else if (stoppable && result === false) return false;
      }
      return true;
    };

    /** https://foundryvtt.com/api/classes/foundry.helpers.Hooks.html */
    class Hooks {
      static get events() {
        return Object.fromEntries([...events].map(([hook, list]) => [hook, [...list]]));
      }

      static on(hook, fn, { once = false } = {}) {
        if (typeof fn !== "function") throw new Error(`Hooks.on("${hook}") needs a function`);
        const id = nextId++;
        if (!events.has(hook)) events.set(hook, []);
        events.get(hook).push({ hook, id, fn, once });
        return id;
      }

      static once(hook, fn) {
        return Hooks.on(hook, fn, { once: true });
      }

      static off(hook, fn) {
        const list = events.get(hook);
        if (!list) return;
        const keep = list.filter((entry) => (typeof fn === "number" ? entry.id !== fn : entry.fn !== fn));
        events.set(hook, keep);
      }

      /** Stops at the first listener that returns false; hooks are never awaited */
      static call(hook, ...args) {
        return run(hook, args, true);
      }

      static callAll(hook, ...args) {
        run(hook, args, false);
        return true;
      }

      static onError(location, error, { msg = "", log = "error" } = {}) {
        environment.errors.push({ hook: location, error, message: msg });
        if (log && !environment.options.quiet) console.error(`${location}: ${msg}`, error);
      }
    }
    return Hooks;
  }

  #recordHookError(hook, fn, error, async = false) {
    this.errors.push({ hook, error, async });
    if (!this.options.quiet) {
      const what = async ? "Unhandled rejection from hooked function" : "Error thrown in hooked function";
      console.error(`${what} '${fn?.name ?? ""}' for hook '${hook}'`, error);
    }
  }

  #track(promise, hook, fn) {
    const tracked = Promise.resolve(promise).then(
      () => undefined,
      (error) => this.#recordHookError(hook, fn, error, true),
    );
    this.#pending.add(tracked);
    tracked.finally(() => this.#pending.delete(tracked));
  }

  /** Hooks that only the initiating client fires are skipped for remote requests */
  _initiatingHook(hook, ...args) {
    if (this._isRemote()) return true;
    return this.Hooks.callAll(hook, ...args);
  }

  /** Wait until no hook promise, database request or follow-up activity is pending */
  async settle({ maxTicks = 1000 } = {}) {
    let quiet = 0;
    for (let i = 0; i < maxTicks; i++) {
      if (this.#pending.size) await Promise.allSettled([...this.#pending]);
      const before = this.#activity;
      await serverRoundTrip();
      if (!this.#pending.size && this.#inflight === 0 && before === this.#activity) {
        if (++quiet >= 2) return;
      } else quiet = 0;
    }
    throw new Error(`env.settle(): still busy after ${maxTicks} ticks (a hook loop?)`);
  }

  // -- users and clients ---------------------------------------------------------------------

  _actingUserId() {
    return acting.getStore()?.userId ?? this.#localUserId;
  }

  _isRemote() {
    return this._actingUserId() !== this.#localUserId;
  }

  /** Make this process the client of another user (switch before loadModule to boot as them) */
  switchUser(userId) {
    const user = this._world.users.get(userId);
    if (!user) throw new Error(`switchUser: no user "${userId}"`);
    this.#localUserId = userId;
    user._setActive(true);
    return user;
  }

  /** Connect or disconnect a user; fires userConnected(user, connected) on this client */
  setUserActive(userId, active) {
    const user = this._world.users.get(userId);
    if (!user) throw new Error(`setUserActive: no user "${userId}"`);
    if (userId === this.#localUserId && !active) throw new Error("setUserActive: the local user stays connected");
    user._setActive(active);
    if (this.#documentsReady) this.Hooks.callAll("userConnected", user, Boolean(active));
    return user;
  }

  /**
   * Emulate another client's request: document changes made inside fn are attributed to userId,
   * are permission-checked as that user, and only the hooks that fire on every client run here.
   */
  async remote(userId, fn) {
    const user = this._world.users.get(userId);
    if (!user) throw new Error(`remote: no user "${userId}"`);
    if (!user.active) throw new Error(`remote: user "${user.name}" is not connected (setUserActive first)`);
    if (userId === this.#localUserId) throw new Error("remote: that is the local user; call fn directly");
    return acting.run({ userId }, fn);
  }

  async #asWorld(fn) {
    if (this._world.users.get(this._actingUserId())?.isGM) return fn();
    const gm = this._world.users.find((u) => u.isGM && u.active) ?? this._world.users.find((u) => u.isGM);
    if (!gm) throw new Error("env helpers need a GM user to change world documents");
    return gm.id === this.#localUserId ? fn() : acting.run({ userId: gm.id }, fn);
  }

  // -- boot ----------------------------------------------------------------------------------

  /**
   * Import a module's esmodules (a module.json, its folder, or one entry script) from a private copy
   * so state never leaks between environments, then boot unless { boot: false }.
   */
  async loadModule(target, { boot = true } = {}) {
    const resolved = path.resolve(target);
    const stat = fs.statSync(resolved);
    let manifestPath = null;
    if (stat.isDirectory()) manifestPath = path.join(resolved, "module.json");
    else if (path.basename(resolved) === "module.json") manifestPath = resolved;
    else manifestPath = findManifest(path.dirname(resolved));
    let manifest = null;
    let root;
    let entries;
    if (manifestPath && fs.existsSync(manifestPath)) {
      manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
      root = path.dirname(manifestPath);
      const listed = (manifest.esmodules ?? []).map((p) => path.resolve(root, p));
      if (stat.isFile() && resolved !== manifestPath) {
        if (!listed.includes(resolved)) throw new Error(`${resolved} is not listed in ${manifestPath} esmodules`);
        entries = [resolved];
      } else entries = listed;
      this.#registerManifest(manifest, root);
    } else {
      if (!stat.isFile()) throw new Error(`loadModule: no module.json in ${resolved}`);
      root = path.dirname(resolved);
      entries = [resolved];
    }
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "foundry-harness-"));
    this.#tmpDirs.push(copy);
    fs.cpSync(root, copy, { recursive: true });
    const namespaces = [];
    for (const entry of entries) {
      namespaces.push(await import(pathToFileURL(path.join(copy, path.relative(root, entry))).href));
    }
    if (boot) await this.boot();
    return { manifest, exports: namespaces };
  }

  #registerManifest(manifest, root) {
    const id = requireString("module.json", "id", manifest.id);
    const existing = this.game.modules.get(id);
    if (existing && !existing.active) throw new Error(`module "${id}" is installed but not active in this world`);
    if (!existing) this.game.modules._set(id, makeModule({ id, title: manifest.title, version: manifest.version }));
    const relationships = manifest.relationships ?? {};
    const systems = (relationships.systems ?? []).map((s) => s.id);
    if (systems.length && !systems.includes(this.options.systemId)) {
      const system = this.options.systemId;
      throw new Error(`module "${id}" supports systems ${systems.join(", ")}, not "${system}" (FOUNDRY.md §1)`);
    }
    for (const required of relationships.requires ?? []) {
      const ok = required.type === "system"
        ? required.id === this.options.systemId
        : this.game.modules.get(required.id)?.active;
      if (!ok) throw new Error(`module "${id}" requires "${required.id}", which is not active`);
    }
    for (const language of manifest.languages ?? []) {
      if (language.lang !== this.options.language && language.lang !== "en") continue;
      const file = path.resolve(root, language.path);
      const data = JSON.parse(fs.readFileSync(file, "utf8"));
      this.#langFiles[language.lang] = mergeInto(this.#langFiles[language.lang] ?? {}, data);
    }
    if (this.#translationsReady) this.#loadTranslations();
  }

  /**
   * The documented start-up sequence: init, i18nInit, setup, ready, with translations loaded before
   * i18nInit, Documents and Settings before setup, UI before ready, and game.ready true for ready
   * (https://foundryvtt.com/api/modules/hookEvents.html, hookEvents.setup, hookEvents.i18nInit).
   */
  async boot() {
    if (this.#booted) throw new Error("boot() runs once");
    this.#booted = true;
    this.Hooks.callAll("init");
    this.#loadTranslations();
    this.Hooks.callAll("i18nInit");
    this.#documentsReady = true;
    this.Hooks.callAll("setup");
    this.#initializeUI();
    this.#ready = true;
    this.Hooks.callAll("ready");
    await this.settle();
  }

  #initializeUI() {
    const record = (type) => (message, options = {}) => {
      let text = String(message);
      if (options.format) text = this.game.i18n.format(message, options.format);
      else if (options.localize) text = this.game.i18n.localize(message);
      const notification = { id: this.notifications.length + 1, type, message: text, options };
      this.notifications.push(notification);
      return notification;
    };
    this.ui.notifications = {
      info: record("info"),
      warn: record("warning"),
      error: record("error"),
      notify: (message, type = "info", options = {}) => record(type)(message, options),
      remove: () => undefined,
    };
    if (this.options.generation >= 13) this.ui.notifications.success = record("success");
    const environment = this;
    this.ui.combat = {
      get viewed() {
        return environment._world.combats.active ?? null;
      },
      render: () => this.ui.combat,
    };
  }

  // -- game ----------------------------------------------------------------------------------

  #makeGame() {
    const environment = this;
    const docs = (value) => (environment.#documentsReady ? value : undefined);
    const modules = new Collection();
    for (const data of this.options.modules) modules.set(data.id, makeModule(data));
    modules._set = (id, value) => Map.prototype.set.call(modules, id, value);
    return {
      get ready() {
        return environment.#ready;
      },
      paused: false,
      release: Object.freeze({ generation: this.options.generation }),
      system: Object.freeze({
        id: this.options.systemId, title: this.options.systemId, version: "0.0.0-harness", initiative: "1d20",
      }),
      world: Object.freeze({ id: "harness-world", title: "Harness World" }),
      modules,
      settings: this.#makeSettings(),
      i18n: this.#makeI18n(),
      time: this.#makeTime(),
      get userId() {
        return environment.#localUserId;
      },
      get user() {
        return environment.#documentsReady ? environment._world.users.get(environment.#localUserId) : null;
      },
      get users() {
        return docs(environment._world.users);
      },
      get actors() {
        return docs(environment._world.actors);
      },
      get combats() {
        return docs(environment._world.combats);
      },
      get scenes() {
        return docs(environment._world.scenes);
      },
      get messages() {
        return docs(environment._world.messages);
      },
      get combat() {
        return docs(environment._world.combats.active);
      },
    };
  }

  _worldCollection(documentName) {
    const name = WORLD_COLLECTIONS[documentName];
    if (!name) throw new Error(`${documentName} documents must be created with a parent`);
    return this._world[name];
  }

  #fromUuid(uuid) {
    const parts = String(uuid).split(".");
    const world = WORLD_COLLECTIONS[parts[0]];
    let doc = world ? this._world[world].get(parts[1]) ?? null : null;
    for (let i = 2; doc && i < parts.length; i += 2) {
      if (!doc.constructor.embedded[parts[i]]) return null;
      doc = doc.getEmbeddedCollection(parts[i]).get(parts[i + 1]) ?? null;
    }
    return doc;
  }

  /** FOUNDRY.md §3: flags are namespaced by an active package id; other scopes throw */
  _assertFlagScope(scope) {
    const valid = ["core", "world", this.options.systemId].includes(scope) || this.game.modules.get(scope)?.active;
    if (!valid) throw new Error(`Flag scope "${scope}" is not valid or not currently active`);
  }

  _deprecate(documentName, message) {
    this.deprecations.push({ documentName, message });
  }

  // -- time ----------------------------------------------------------------------------------

  #makeTime() {
    const environment = this;
    return {
      get worldTime() {
        return environment.#worldTime;
      },
      async advance(seconds, options = {}) {
        const user = environment._world.users.get(environment._actingUserId());
        return environment.#server(() => {
          if (!user.isGM) throw environment.#denied(user, "advance", "the world time", "worldTime");
          environment._advanceWorldTime(seconds, options, user.id);
          return environment.#worldTime;
        });
      },
    };
  }

  _advanceWorldTime(seconds, options, userId) {
    this.#worldTime += seconds;
    this.writes.push({ action: "time", documentName: "Setting", id: "core.time", userId, data: { delta: seconds } });
    this.Hooks.callAll("updateWorldTime", this.#worldTime, seconds, options, userId);
  }

  // -- settings ------------------------------------------------------------------------------

  #registerCoreSettings() {
    this.#settingsConfig.set("core.combatTrackerConfig", {
      namespace: "core", key: "combatTrackerConfig", scope: "world", config: false, type: Object,
      default: { resource: "", skipDefeated: false },
    });
    this.#settingsConfig.set("core.rollMode", {
      namespace: "core", key: "rollMode", scope: "client", config: true, type: String, default: "publicroll",
    });
  }

  #makeSettings() {
    const environment = this;
    const settings = this.#settingsConfig;
    const values = this.#settingsValues;

    const lookup = (namespace, key) => {
      const id = `${namespace}.${key}`;
      const config = settings.get(id);
      // e.g. '"pf2e-toolbelt.betterMovement.teleport" is not a registered game setting' (pf2e-toolbelt#152)
      if (!config) throw new Error(`"${id}" is not a registered game setting`);
      return [id, config];
    };
    const cast = (config, value) => {
      if (value === undefined || value === null) return value;
      if (config.type === Number) return Number(value);
      if (config.type === String) return String(value);
      if (config.type === Boolean) return Boolean(value);
      return deepClone(value);
    };

    return {
      settings,
      register(namespace, key, config = {}) {
        if (!namespace || !key) throw new Error("You must specify both namespace and key portions of the setting");
        const validNamespace = namespace === "core" || namespace === environment.options.systemId
          || namespace === environment.game.world.id || environment.game.modules.get(namespace)?.active;
        if (!validNamespace) throw new Error(`Setting namespace "${namespace}" is not an active package id`);
        const scope = config.scope ?? "client";
        const scopes = environment.options.generation >= 13 ? [...SETTING_SCOPES, "user"] : SETTING_SCOPES;
        if (!scopes.includes(scope)) throw new Error(`Invalid setting scope "${scope}" for "${namespace}.${key}"`);
        settings.set(`${namespace}.${key}`, { ...config, namespace, key, scope });
      },
      get(namespace, key) {
        const [id, config] = lookup(namespace, key);
        // hookEvents.setup (V13): Settings are initialized with Documents, before setup
        if (config.scope === "world" && !environment.#documentsReady) {
          environment.warnings.push(`world setting "${id}" read before setup; its stored value is not loaded yet`);
          return cast(config, deepClone(config.default));
        }
        return cast(config, values.has(id) ? values.get(id) : deepClone(config.default));
      },
      async set(namespace, key, value, options = {}) {
        const [id, config] = lookup(namespace, key);
        const user = environment._world.users.get(environment._actingUserId());
        if (config.scope === "world" && !environment.#ready) {
          // Quoted from the V11 error in dev7355608/vision-5e#34
          throw new Error("You may not set a World-level Setting before the Game is ready.");
        }
        const clean = cast(config, value);
        if (config.type === Number && !Number.isFinite(clean)) {
          throw new Error(`Setting "${id}" needs a number, got ${value}`);
        }
        if (config.choices && !Object.hasOwn(config.choices, clean)) {
          throw new Error(`Setting "${id}": ${clean} is not one of its choices`);
        }
        const apply = () => {
          values.set(id, deepClone(clean));
          environment.writes.push({ action: "setting", documentName: "Setting", id, userId: user.id, data: clean });
          if (config.onChange) {
            try {
              config.onChange(cast(config, clean), options, user.id);
            } catch (error) {
              environment.#recordHookError(`onChange ${id}`, config.onChange, error);
            }
          }
          return cast(config, clean);
        };
        if (config.scope !== "world") return apply();
        return environment.#server(() => {
          if (!user.isGM) throw environment.#denied(user, "update", "Setting", id);
          return apply();
        });
      },
    };
  }

  /** Localize every config:true setting's name, hint and choices as the settings UI would */
  checkSettingsI18n() {
    const before = this.missingI18n.length;
    for (const config of this.#settingsConfig.values()) {
      if (!config.config || config.namespace === "core") continue;
      for (const text of [config.name, config.hint, ...Object.values(config.choices ?? {})]) {
        if (text) this.game.i18n.localize(text);
      }
    }
    return this.missingI18n.slice(before);
  }

  // -- i18n ----------------------------------------------------------------------------------

  #makeI18n() {
    const environment = this;
    const find = (dictionary, key) => {
      const value = Object.hasOwn(dictionary, key) ? dictionary[key] : getProperty(dictionary, key);
      return typeof value === "string" ? value : undefined;
    };
    const i18n = {
      lang: this.options.language,
      translations: {},
      _fallback: {},
      has(key, fallback = true) {
        if (!environment.#translationsReady) return false;
        return find(i18n.translations, key) !== undefined || (fallback && find(i18n._fallback, key) !== undefined);
      },
      /** A missing key returns the key itself and is recorded in env.missingI18n */
      localize(key) {
        if (!environment.#translationsReady) {
          // hookEvents.i18nInit: translations are loaded after init
          environment.earlyI18n.push(key);
          return key;
        }
        const value = find(i18n.translations, key);
        if (value !== undefined) return value;
        const fallback = find(i18n._fallback, key);
        if (fallback !== undefined) {
          environment.fallbackI18n.push(key);
          return fallback;
        }
        if (!environment.missingI18n.includes(key)) environment.missingI18n.push(key);
        return key;
      },
      format(key, data = {}) {
        const template = i18n.localize(key);
        return template.replace(/{([^}]+)}/g, (match, name) => {
          if (Object.hasOwn(data, name)) return String(data[name]);
          environment.i18nFormatErrors.push({ key, placeholder: name });
          return match;
        });
      },
    };
    return i18n;
  }

  #loadTranslations() {
    const language = this.options.language;
    const i18n = this.game.i18n;
    const dictionary = (...sources) => sources.reduce((merged, source) => mergeInto(merged, deepClone(source ?? {})), {});
    i18n.translations = dictionary(CORE_TRANSLATIONS, this.#langFiles[language], this.options.lang);
    i18n._fallback = language === "en" ? {} : dictionary(CORE_TRANSLATIONS, this.#langFiles.en, this.options.fallbackLang);
    this.#translationsReady = true;
  }

  /** Core-side localization: only strings that look like keys are looked up */
  _softLocalize(text) {
    if (typeof text !== "string" || !I18N_KEY_PATTERN.test(text)) return text;
    return this.game.i18n.localize(text);
  }

  // -- dialogs -------------------------------------------------------------------------------

  async _openDialog(kind, config) {
    const buttons = dialogButtons(kind, config);
    const title = this._softLocalize(config.window?.title ?? "");
    for (const button of buttons) this._softLocalize(button.label);
    // (harness choice) rejectClose defaults to true in V12 and false in V13; see the report
    const rejectClose = config.rejectClose ?? this.options.generation < 13;
    const record = { kind, title, content: config.content ?? "", buttons: buttons.map((b) => b.action), config };
    this.dialogs.push(record);
    if (!this.dialogAnswers.length) {
      throw new Error(`DialogV2.${kind} "${title}" opened but env.dialogAnswers is empty; push the user's answer first`);
    }
    let answer = this.dialogAnswers.shift();
    if (typeof answer === "function") answer = answer(record);
    if (kind === "confirm" && typeof answer === "boolean") answer = answer ? "yes" : "no";
    record.answer = answer;
    if (answer === null || answer?.dismiss) {
      config.close?.();
      record.result = null;
      if (rejectClose) throw new Error("Dialog was dismissed without a choice being made.");
      return null;
    }
    const action = typeof answer === "string" ? answer : answer?.action;
    const button = buttons.find((b) => b.action === action);
    if (!button) {
      throw new Error(`DialogV2.${kind} "${title}": answer "${action}" is not one of ${record.buttons.join(", ")}`);
    }
    const form = fakeForm(answer?.form);
    const element = { dataset: { action }, form };
    const dialog = { element: { querySelector: form.querySelector }, form };
    const event = { type: "click", target: element, currentTarget: element };
    const result = (await button.callback?.(event, element, dialog)) ?? button.action;
    await config.submit?.(result, dialog);
    record.result = result;
    return result;
  }

  // -- dice ----------------------------------------------------------------------------------

  /** Queue the faces the next Die terms draw, in order */
  scriptDice(...faces) {
    for (const face of faces.flat()) {
      if (!Number.isInteger(face) || face < 1) throw new Error(`scriptDice: ${face} is not a die face`);
      this.#diceScript.push(face);
    }
    this.#diceScripted = true;
  }

  /** The default CONFIG.Dice.randomUniform: scripted faces become uniforms in (0, 1] */
  #uniform() {
    if (this.#diceScript.length) {
      const face = this.#diceScript[0];
      if (rollingFaces === null) throw new Error("scripted dice are drawn by Die terms only");
      if (face > rollingFaces) {
        throw new Error(`scripted die face ${face} exceeds the ${rollingFaces} faces of a d${rollingFaces}`);
      }
      this.#diceScript.shift();
      return (face - 0.5) / rollingFaces;
    }
    if (this.options.randomUniform) return this.options.randomUniform();
    throw new Error(this.#diceScripted
      ? `dice script exhausted: a d${rollingFaces} was rolled after every scripted face was used`
      : `a d${rollingFaces} was rolled but no dice are scripted; call env.scriptDice() or pass randomUniform`);
  }

  // -- database ------------------------------------------------------------------------------

  #denied(user, action, documentName, id) {
    const error = permissionError(user, action, documentName, id);
    this.deniedWrites.push({ action, documentName, id, userId: user?.id });
    return error;
  }

  /** One server round trip: other work runs before the result comes back, as over the socket */
  async #server(fn) {
    this.#inflight++;
    this.#activity++;
    try {
      await serverRoundTrip();
      return await fn();
    } catch (error) {
      this.ui.notifications?.error(error.message);
      throw error;
    } finally {
      this.#inflight--;
      this.#activity++;
    }
  }

  #recordWrite(action, doc, userId, data) {
    const parent = doc.parent?.uuid ?? null;
    this.writes.push({ action, documentName: doc.documentName, id: doc.id, parent, userId, data });
  }

  #userForRequest() {
    const user = this._world.users.get(this._actingUserId());
    return { user, userId: user.id, remote: this._isRemote() };
  }

  #exists(doc) {
    return doc.collection?.get(doc.id) === doc;
  }

  async _createDocuments(cls, dataArray, operation = {}) {
    const { parent = null, keepId = false, ...options } = operation;
    const name = cls.documentName;
    if (parent) {
      if (!parent.constructor.embedded[name]) throw new Error(`${name} cannot be embedded in ${parent.documentName}`);
      if (!this.#exists(parent)) throw new Error(`${parent.documentName} [${parent.id}] does not exist`);
    } else if (EMBEDDED_CLASSES[name]) {
      throw new Error(`${name} documents must be created with a parent`);
    }
    const { user, userId, remote } = this.#userForRequest();
    const collection = parent ? parent.getEmbeddedCollection(name) : this._worldCollection(name);
    const created = [];
    for (const raw of dataArray) {
      const data = expandObject(deepClone(raw instanceof Document ? raw.toObject() : raw ?? {}));
      // keepId retains provided ids; otherwise core generates new ones
      if (!keepId || !data._id) data._id = randomID();
      const doc = new cls(cls._cleanData(data), { parent });
      doc._preCreate(data, options, user);
      if (!remote && this.Hooks.call(`preCreate${name}`, doc, data, options, userId) === false) continue;
      created.push(doc);
    }
    if (!created.length) return [];
    return this.#server(() => {
      for (const doc of created) {
        if (!doc._canCreate(user)) throw this.#denied(user, "create", name, doc.id);
        if (collection.has(doc.id)) throw new Error(`${name} [${doc.id}] already exists`);
      }
      for (const doc of created) {
        collection._set(doc.id, doc);
        if (name === "ChatMessage") this.messages.push(doc);
        this.#recordWrite("create", doc, userId, doc.toObject());
        doc._onCreate(options, userId);
      }
      for (const doc of created) this.Hooks.callAll(`create${name}`, doc, options, userId);
      return created;
    });
  }

  async _updateDocuments(entries, options = {}) {
    const { user, userId, remote } = this.#userForRequest();
    const pending = [];
    for (const { doc, changes } of entries) {
      if (!this.#exists(doc)) throw new Error(`${doc.documentName} [${doc.id}] does not exist`);
      const data = expandObject(deepClone(changes));
      delete data._id;
      if (doc instanceof ActiveEffect) ActiveEffect._migrate(data);
      const diff = options.diff === false ? data : diffChanges(doc._source, data);
      // An update that changes nothing is not sent and fires no hooks
      if (!Object.keys(diff).length) continue;
      doc.constructor._cleanSource(applyChanges(doc._source, diff));
      diff._id = doc.id;
      if (!remote && this.Hooks.call(`preUpdate${doc.documentName}`, doc, diff, options, userId) === false) continue;
      pending.push({ doc, diff });
    }
    if (!pending.length) return [];
    return this.#server(() => {
      for (const { doc, diff } of pending) {
        if (!this.#exists(doc)) throw new Error(`${doc.documentName} [${doc.id}] does not exist`);
        if (!doc._canUpdate(user, diff)) throw this.#denied(user, "update", doc.documentName, doc.id);
      }
      const sources = pending.map(({ doc, diff }) => doc.constructor._cleanSource(applyChanges(doc._source, diff)));
      for (const [i, { doc, diff }] of pending.entries()) {
        doc._replaceSource(sources[i]);
        this.#recordWrite("update", doc, userId, deepClone(diff));
        const after = doc._onUpdate(diff, options, userId);
        this.Hooks.callAll(`update${doc.documentName}`, doc, diff, options, userId);
        after?.();
      }
      return pending.map(({ doc }) => doc);
    });
  }

  async _deleteDocuments(docs, options = {}) {
    const { user, userId, remote } = this.#userForRequest();
    const pending = [];
    for (const doc of docs) {
      if (!this.#exists(doc)) throw new Error(`${doc.documentName} [${doc.id}] does not exist`);
      if (!remote && this.Hooks.call(`preDelete${doc.documentName}`, doc, options, userId) === false) continue;
      pending.push(doc);
    }
    if (!pending.length) return [];
    return this.#server(() => {
      for (const doc of pending) {
        if (!this.#exists(doc)) throw new Error(`${doc.documentName} [${doc.id}] does not exist`);
        if (!doc._canDelete(user)) throw this.#denied(user, "delete", doc.documentName, doc.id);
      }
      for (const doc of pending) {
        doc.collection._delete(doc.id);
        this.#recordWrite("delete", doc, userId);
        doc._onDelete(options, userId);
      }
      for (const doc of pending) this.Hooks.callAll(`delete${doc.documentName}`, doc, options, userId);
      return pending;
    });
  }

  // -- world helpers for tests ---------------------------------------------------------------
  // Before boot they seed world data (no hooks, as data loaded with the world); after boot they
  // act as a GM, through the database API, firing hooks.

  async createActor(data) {
    if (!this.#booted) {
      const actor = new Actor(Actor._cleanData({ ...data, _id: data._id ?? randomID(), type: data.type ?? "character" }));
      this._world.actors._set(actor.id, actor);
      return actor;
    }
    return this.#asWorld(() => Actor.create({ type: "character", ...data }, { keepId: Boolean(data._id) }));
  }

  async createToken({ actor = null, name, disposition, hidden = false, ...rest } = {}) {
    const scene = this._world.scenes.active;
    const data = { ...rest, name: name ?? actor?.name, actorId: actor?.id ?? null, disposition, hidden };
    if (!this.#booted) {
      const token = new TokenDocument(TokenDocument._cleanData({ ...data, _id: data._id ?? randomID() }), { parent: scene });
      scene.tokens._set(token.id, token);
      return token;
    }
    const [token] = await this.#asWorld(() => scene.createEmbeddedDocuments("Token", [data], { keepId: Boolean(data._id) }));
    return token;
  }

  /** Create an active combat, then its combatants in the given order (as toggling tokens does) */
  async createCombat({ combatants = [], active = true, ...rest } = {}) {
    const toData = ({ token = null, actor = null, ...entry }) => ({
      ...entry,
      tokenId: token?.id ?? null,
      sceneId: token?.parent?.id ?? null,
      actorId: token?.actorId ?? actor?.id ?? null,
    });
    for (const other of this._world.combats) {
      if (active && other.active) other._replaceSource({ ...other._source, active: false });
    }
    if (!this.#booted) {
      const data = { ...rest, _id: rest._id ?? randomID(), active, combatants: combatants.map(toData) };
      const combat = new Combat(Combat._cleanData(data));
      this._world.combats._set(combat.id, combat);
      return combat;
    }
    return this.#asWorld(async () => {
      const combat = await Combat.create({ ...rest, active });
      if (combatants.length) await combat.createEmbeddedDocuments("Combatant", combatants.map(toData));
      return combat;
    });
  }

  async deleteActor(actorOrId) {
    const actor = typeof actorOrId === "string" ? this._world.actors.get(actorOrId) : actorOrId;
    return this.#worldDelete(actor);
  }

  async deleteToken(token) {
    return this.#worldDelete(token);
  }

  async deleteCombat(combat) {
    return this.#worldDelete(combat);
  }

  async #worldDelete(doc) {
    if (!doc) throw new Error("nothing to delete");
    if (!this.#booted) {
      doc.collection._delete(doc.id);
      return doc;
    }
    return this.#asWorld(() => doc.delete());
  }

  /** Advance the world time as a GM (fires updateWorldTime) */
  async advanceTime(seconds) {
    if (!this.#booted) {
      this.#worldTime += seconds;
      return this.#worldTime;
    }
    return this.#asWorld(() => this.game.time.advance(seconds));
  }
}

function makeModule({ id, title, version, active = true }) {
  return { id, title: title ?? id, version: version ?? "0.0.0", active: Boolean(active), api: undefined };
}

function findManifest(start) {
  let dir = start;
  for (let depth = 0; depth < 4; depth++) {
    const candidate = path.join(dir, "module.json");
    if (fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

function dialogButtons(kind, config) {
  if (kind === "prompt") return [{ action: "ok", label: "Confirm", default: true, ...config.ok }];
  if (kind === "confirm") {
    return [
      { action: "yes", label: "Yes", callback: () => true, ...config.yes },
      { action: "no", label: "No", default: true, callback: () => false, ...config.no },
    ];
  }
  const buttons = config.buttons ?? [];
  if (!buttons.length) throw new Error("DialogV2.wait needs at least one button");
  const actions = buttons.map((b) => b.action);
  if (actions.some((a) => typeof a !== "string" || !a) || new Set(actions).size !== actions.length) {
    throw new Error(`DialogV2.wait buttons need unique action ids, got ${JSON.stringify(actions)}`);
  }
  return buttons;
}

/**
 * Create an emulated Foundry client and install its globals (Hooks, game, CONFIG, CONST, foundry,
 * ui, Roll, ChatMessage, Actor, ActiveEffect, Combat, Combatant, TokenDocument, ...). A previous
 * environment is torn down first.
 */
export function createFoundry({
  systemId = "gurps",
  users = DEFAULT_USERS,
  userId,
  modules = [],
  language = "en",
  lang = {},
  fallbackLang = {},
  randomUniform,
  generation = 13,
  worldTime = 0,
  settings = {},
  quiet = false,
  turnChangeFirst = false,
} = {}) {
  ENV?.teardown();
  const environment = new FoundryEnvironment({
    systemId, users, userId, modules, language, lang, fallbackLang, randomUniform, generation, worldTime, settings, quiet,
    turnChangeFirst,
  });
  environment._install();
  return environment;
}
