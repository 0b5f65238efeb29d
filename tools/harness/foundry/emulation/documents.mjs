// Documents: the base class (flags, ownership, update/delete through the database) and the User, Actor,
// ActiveEffect, Scene and Token documents. Sources: docs/dev/foundry.md §3-§6, https://foundryvtt.com/api/.

import {
  CONST, DocumentCollection, checkId, deepClone, deepFreeze, defineFields, env, getProperty, isPlainObject,
  optionalNumber, pickKnown, randomID, requireString, validationError,
} from "./core.mjs";

/** The error core reports when the server refuses a write */
export function permissionError(user, action, documentName, id) {
  return new Error(`User ${user?.name ?? "unknown"} lacks permission to ${action} ${documentName} [${id}]`);
}

export class Document {
  static documentName = "Document";
  static embedded = {};

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

  get name() {
    return this.#source.name;
  }

  get flags() {
    return this.#source.flags;
  }

  get documentName() {
    return this.constructor.documentName;
  }

  /** The collection this document lives in */
  get collection() {
    if (this.parent) return this.parent.getEmbeddedCollection(this.documentName);
    return env()._worldCollection(this.documentName);
  }

  testUserPermission(user, permission) {
    if (!user) return false;
    return user.isGM || this._ownershipLevel(user) >= CONST.DOCUMENT_OWNERSHIP_LEVELS[permission];
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

  /** docs/dev/foundry.md §5: flags are namespaced by an active package id; other scopes throw */
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
    const [updated] = await env().db.update([{ doc: this, changes: data }], operation);
    return updated;
  }

  async delete(operation = {}) {
    const [deleted] = await env().db.delete([this], operation);
    return deleted;
  }

  static async create(data, operation = {}) {
    const created = await env().db.create(this, [data], operation);
    return created[0];
  }

  getEmbeddedCollection(embeddedName) {
    const field = this.constructor.embedded[embeddedName];
    if (!field) throw new Error(`${embeddedName} is not an embedded Document type within ${this.documentName}`);
    return this[field];
  }

  async createEmbeddedDocuments(embeddedName, data = [], operation = {}) {
    this.getEmbeddedCollection(embeddedName);
    return env().db.create(env()._documentClass(embeddedName), data, { ...operation, parent: this });
  }

  async updateEmbeddedDocuments(embeddedName, updates = [], operation = {}) {
    const collection = this.getEmbeddedCollection(embeddedName);
    const entries = updates.map(({ _id, ...changes }) => {
      const doc = collection.get(_id);
      if (!doc) throw new Error(`${embeddedName} [${_id}] does not exist in the ${this.documentName} [${this.id}]`);
      return { doc, changes };
    });
    return env().db.update(entries, operation);
  }

  async deleteEmbeddedDocuments(embeddedName, ids = [], operation = {}) {
    const collection = this.getEmbeddedCollection(embeddedName);
    const docs = ids.map((id) => {
      const doc = collection.get(id);
      if (!doc) throw new Error(`${embeddedName} [${id}] does not exist in the ${this.documentName} [${this.id}]`);
      return doc;
    });
    return env().db.delete(docs, operation);
  }

  /** Build an embedded collection from source data, as the world loads it */
  _embed(field, cls, entries) {
    Object.defineProperty(this, field, { value: new DocumentCollection(), enumerable: true });
    for (const data of entries) {
      const doc = new cls(cls._cleanData({ ...data, _id: data._id ?? randomID() }), { parent: this });
      this[field]._set(doc.id, doc);
    }
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
      active: data.active ?? false,
    };
  }

  get active() {
    return this.#active;
  }

  _setActive(active) {
    this.#active = Boolean(active);
  }

  /** Assistants count as GMs (https://foundryvtt.com/api/classes/foundry.documents.User.html#isGM) */
  get isGM() {
    return this.role >= CONST.USER_ROLES.ASSISTANT;
  }

  get isSelf() {
    return this.id === env().localUserId;
  }
}
defineFields(User, ["role"]);

const STATUS_EFFECT_FIELDS = ["id", "hud", "order"];
// docs/dev/foundry.md §5, the fields the product and core's status effects use; (harness choice) any other is dropped with
// a warning
const EFFECT_KEYS = ["_id", "name", "img", "changes", "disabled", "duration", "statuses", "flags"];
// docs/dev/foundry.md §5: the V13 duration shape; V14's {value, units, expiry, expired} is not valid there
const DURATION_KEYS = ["startTime", "seconds", "combat", "rounds", "turns", "startRound", "startTurn"];
// docs/dev/foundry.md §8: the V14 duration and, beside it, where it started (harness choice: `start` is a field of the
// effect next to `duration`; docs/dev/foundry.md §5 writes the V14 shape as "{value, units, expiry, expired} plus start")
const V14_DURATION_KEYS = ["value", "units", "expiry", "expired"];
const V14_START_KEYS = ["time", "combat", "combatant", "initiative", "round", "turn"];
const V14_UNITS = ["seconds", "minutes", "hours", "days", "weeks", "months", "years", "rounds", "turns"];
// CONST.ACTIVE_EFFECT_EXPIRY_EVENTS (docs/dev/foundry.md §8)
export const EXPIRY_EVENTS = ["combatStart", "roundStart", "turnStart", "combatEnd", "roundEnd", "turnEnd"];

/** Tell whether the emulated client is V14 */
const v14 = () => env().options.generation >= 14;

export class ActiveEffect extends Document {
  static documentName = "ActiveEffect";

  /**
   * docs/dev/foundry.md §5: legacy label/icon are migrated with a deprecation warning. docs/dev/foundry.md §8: V14
   * migrates V13 duration keys when source data is loaded (foundryvtt#14112), whether in an update is unconfirmed;
   * (harness choice) the emulation drops them with a warning in both, as the module must write the V14 shape on V14.
   */
  static _migrate(data) {
    const old = v14() && isPlainObject(data.duration) ? Object.keys(data.duration).filter((key) => DURATION_KEYS.includes(key)) : [];
    if (old.length) {
      env().warnings.push(`ActiveEffect: V13 duration keys are not written on V14: ${old.join(", ")}`);
      data.duration = Object.fromEntries(Object.entries(data.duration).filter(([key]) => !old.includes(key)));
    }
    if ("label" in data) {
      env()._deprecate("ActiveEffect", `ActiveEffect "label" is deprecated in favour of "name" (docs/dev/foundry.md §5)`);
      if (data.name === undefined) data.name = data.label;
      delete data.label;
    }
    if ("icon" in data) {
      env()._deprecate("ActiveEffect", `ActiveEffect "icon" is deprecated in favour of "img" (docs/dev/foundry.md §5)`);
      if (data.img === undefined) data.img = data.icon;
      delete data.icon;
    }
    return data;
  }

  static _cleanData(data) {
    const keys = v14() ? [...EFFECT_KEYS, "start"] : EFFECT_KEYS;
    const source = pickKnown("ActiveEffect", this._migrate({ ...data }), keys);
    return this._validate({
      _id: checkId("ActiveEffect", source._id ?? null),
      name: source.name,
      img: source.img ?? null,
      changes: source.changes ?? [],
      disabled: source.disabled ?? false,
      duration: source.duration ?? {},
      ...(v14() ? { start: source.start ?? {} } : {}),
      statuses: source.statuses ?? [],
      flags: source.flags ?? {},
    });
  }

  /** docs/dev/foundry.md §5: the field types of an ActiveEffect */
  static _validate(source) {
    const name = "ActiveEffect";
    requireString(name, "name", source.name);
    // (harness choice) changes are not emulated: ambush's statuses have none (docs/dev/foundry.md §10)
    if (!Array.isArray(source.changes) || source.changes.length) throw validationError(name, "changes", "harness: only [] is emulated");
    if (!isPlainObject(source.duration)) throw validationError(name, "duration", "must be an object");
    if (v14()) this._validateV14Duration(source);
    else this._validateV13Duration(source);
    const statuses = source.statuses instanceof Set ? [...source.statuses] : source.statuses;
    if (!Array.isArray(statuses) || statuses.some((s) => typeof s !== "string" || !s)) {
      throw validationError(name, "statuses", "must be an array of status ids");
    }
    source.statuses = [...new Set(statuses)];
    if (typeof source.disabled !== "boolean") throw validationError(name, "disabled", "must be a boolean");
    if (source.img !== null && typeof source.img !== "string") throw validationError(name, "img", "must be a string or null");
    if (!isPlainObject(source.flags)) throw validationError(name, "flags", "must be an object");
    return source;
  }

  /** docs/dev/foundry.md §5: {startTime, seconds, combat, rounds, turns, startRound, startTurn} */
  static _validateV13Duration(source) {
    const name = "ActiveEffect";
    const duration = pickKnown("ActiveEffect.duration", source.duration, DURATION_KEYS);
    const count = (key) => optionalNumber(name, `duration.${key}`, duration[key], { integer: true, min: 0 });
    source.duration = {
      startTime: optionalNumber(name, "duration.startTime", duration.startTime),
      seconds: count("seconds"),
      combat: duration.combat ?? null,
      rounds: count("rounds"),
      turns: count("turns"),
      startRound: count("startRound"),
      startTurn: count("startTurn"),
    };
    if (source.duration.combat !== null && typeof source.duration.combat !== "string") {
      throw validationError(name, "duration.combat", "must be a Combat id or null");
    }
  }

  /** docs/dev/foundry.md §8: duration {value, units, expiry, expired}, start {time, combat, combatant, initiative, round, turn} */
  static _validateV14Duration(source) {
    const name = "ActiveEffect";
    const duration = pickKnown("ActiveEffect.duration", source.duration, V14_DURATION_KEYS);
    const units = duration.units ?? null;
    if (units !== null && !V14_UNITS.includes(units)) throw validationError(name, "duration.units", `"${units}" is not a unit`);
    const expiry = duration.expiry ?? null;
    // (harness choice) no package registers expiry events of its own in CONFIG.ActiveEffect.expiryEvents
    if (expiry !== null && !EXPIRY_EVENTS.includes(expiry)) throw validationError(name, "duration.expiry", `"${expiry}" is not an expiry event`);
    source.duration = {
      value: optionalNumber(name, "duration.value", duration.value, { min: 0 }),
      units,
      expiry,
      expired: Boolean(duration.expired),
    };
    if (!isPlainObject(source.start)) throw validationError(name, "start", "must be an object");
    const start = pickKnown("ActiveEffect.start", source.start, V14_START_KEYS);
    source.start = {
      time: optionalNumber(name, "start.time", start.time),
      combat: start.combat ?? null,
      combatant: start.combatant ?? null,
      initiative: optionalNumber(name, "start.initiative", start.initiative),
      round: optionalNumber(name, "start.round", start.round, { integer: true, min: 0 }),
      turn: optionalNumber(name, "start.turn", start.turn, { integer: true, min: 0 }),
    };
    for (const key of ["combat", "combatant"]) {
      if (source.start[key] !== null && typeof source.start[key] !== "string") {
        throw validationError(name, `start.${key}`, "must be a document id or null");
      }
    }
  }

  static _cleanSource(source) {
    return this._cleanData(source);
  }

  /**
   * Build an unsaved effect from a CONFIG.statusEffects entry (docs/dev/foundry.md §6). An entry that lists
   * extra statuses must carry a static _id.
   */
  static async fromStatusEffect(statusId, options = {}) {
    const status = findStatusEffect(statusId);
    if (!status) throw new Error(`Invalid status ID "${statusId}" provided to ActiveEffect#fromStatusEffect`);
    const data = deepClone(status);
    for (const key of STATUS_EFFECT_FIELDS) delete data[key];
    this._migrate(data);
    const statuses = new Set([statusId, ...(data.statuses ?? [])]);
    if (statuses.size > 1 && !data._id) {
      throw new Error(`Status effect "${statusId}" lists additional statuses but has no static _id (docs/dev/foundry.md §6)`);
    }
    data.statuses = [...statuses];
    data.name = env()._softLocalize(data.name);
    return new this(this._cleanData(data), options);
  }

  get statuses() {
    return new Set(this._source.statuses);
  }

  get active() {
    return !this.disabled;
  }

  /** This client's in-memory expiry of the effect (foundryvtt#13743; emulation/expiry.mjs, option expiryInMemory) */
  #expiredInMemory = false;

  /**
   * The stored duration, read-only; V13 core never expires it, V14 core sets `expired` (docs/dev/foundry.md §8,
   * emulation/expiry.mjs), or only in this client's memory (foundryvtt#13743)
   */
  get duration() {
    const duration = { ...this._source.duration };
    if (this.#expiredInMemory) duration.expired = true;
    return Object.freeze(duration);
  }

  /** Mark the effect expired in this client's memory only, its stored data untouched (foundryvtt#13743) */
  _expireInMemory() {
    this.#expiredInMemory = true;
  }

  /**
   * docs/dev/foundry.md §8: V14 fills `start` when the effect is made, its combatant whoever's turn it is: what core
   * expiry anchors to, and its time the world's clock. (harness choice) V13's fill of the display-only startTime,
   * startRound and startTurn is left out: the product writes its V13 durations whole.
   */
  _preCreate() {
    if (!(this.parent instanceof Actor) || !v14()) return;
    const start = { ...this._source.start };
    start.time ??= env()._worldTime;
    const combat = env()._world.combats.active;
    if (combat) {
      start.combat ??= combat.id;
      start.combatant ??= combat.combatant?.id ?? null;
      start.initiative ??= combat.combatant?.initiative ?? null;
      start.round ??= combat.round;
      start.turn ??= combat.turn ?? 0;
    }
    this._replaceSource({ ...this._source, start });
  }

  _canCreate(user) {
    return this.testUserPermission(user, "OWNER");
  }
}
defineFields(ActiveEffect, ["img", "changes", "disabled"]);

/**
 * An Item owned by an actor (API v13/v14 classes/foundry.documents.Item.html: _id, name, type, system, sort, flags; the
 * other fields are not emulated). Its `system` is the stored data unless a game system prepares it
 * (emulation/game-systems.mjs, GURPS Game Aid 1.0's traits and skills).
 */
export class Item extends Document {
  static documentName = "Item";

  static _cleanData(data) {
    const source = pickKnown("Item", data, ["_id", "name", "type", "system", "sort", "flags"]);
    return {
      _id: checkId("Item", source._id ?? null),
      name: requireString("Item", "name", source.name),
      type: requireString("Item", "type", source.type),
      system: source.system ?? {},
      sort: optionalNumber("Item", "sort", source.sort ?? 0, { integer: true }),
      flags: source.flags ?? {},
    };
  }

  get actor() {
    return this.parent instanceof Actor ? this.parent : null;
  }
}
defineFields(Item, ["type", "system", "sort"]);

export class Actor extends Document {
  static documentName = "Actor";
  static embedded = { ActiveEffect: "effects", Item: "items" };

  constructor(source, options) {
    const { effects = [], items = [], ...rest } = source;
    super(rest, options);
    this._embed("effects", ActiveEffect, effects);
    this._embed("items", Item, items);
  }

  static _cleanData(data) {
    const source = pickKnown("Actor", data, ["_id", "name", "type", "system", "flags", "ownership", "effects", "items"]);
    return {
      _id: checkId("Actor", source._id ?? null),
      name: requireString("Actor", "name", source.name),
      type: requireString("Actor", "type", source.type),
      system: source.system ?? {},
      flags: source.flags ?? {},
      ownership: source.ownership ?? { default: CONST.DOCUMENT_OWNERSHIP_LEVELS.NONE },
      effects: source.effects ?? [],
      items: source.items ?? [],
    };
  }

  /** Status ids of the actor's enabled effects; on V14 not those core has expired (docs/dev/foundry.md §8) */
  get statuses() {
    const statuses = new Set();
    for (const effect of this.effects) {
      if (!effect.active || (v14() && effect.duration.expired)) continue;
      for (const id of effect.statuses) statuses.add(id);
    }
    return statuses;
  }

  toObject() {
    return { ...super.toObject(), effects: this.effects.map((effect) => effect.toObject()), items: this.items.map((item) => item.toObject()) };
  }

  /**
   * docs/dev/foundry.md §6: returns the created ActiveEffect, true (present and active requested), false
   * (removed) or undefined (nothing changed); an unknown id throws. The overlay option is not emulated. On V14 an
   * expired leftover counts as present (§8, §10).
   */
  async toggleStatusEffect(statusId, { active, overlay = false } = {}) {
    if (overlay) throw new Error("harness: toggleStatusEffect({overlay: true}) is not emulated");
    const status = findStatusEffect(statusId);
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
    return ActiveEffect.create(effect, { parent: this, keepId: true });
  }
}
defineFields(Actor, ["type", "system"]);

export class Scene extends Document {
  static documentName = "Scene";
  static embedded = { Token: "tokens" };

  constructor(source, options) {
    const { tokens = [], ...rest } = source;
    super(rest, options);
    this._embed("tokens", TokenDocument, tokens);
  }

  static _cleanData(data) {
    return { _id: checkId("Scene", data._id ?? null), name: requireString("Scene", "name", data.name), active: data.active ?? false };
  }
}
defineFields(Scene, ["active"]);

export class TokenDocument extends Document {
  static documentName = "Token";

  static _cleanData(data) {
    const source = pickKnown("Token", data, ["_id", "name", "actorId", "actorLink", "disposition", "flags"]);
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
      flags: source.flags ?? {},
    };
  }

  /** A linked token's actor is the world actor; null once that actor is deleted */
  get actor() {
    return env()._world.actors.get(this.actorId) ?? null;
  }
}
defineFields(TokenDocument, ["actorId", "actorLink", "disposition"]);

// ---------------------------------------------------------------------------------------------
// CONFIG.statusEffects (docs/dev/foundry.md §6)

/** The V13 core list: id, the EFFECT.Status* name key, the icons/svg file */
const CORE_STATUS_EFFECTS = `dead Dead skull, unconscious Unconscious unconscious, sleep Asleep sleep, stun Stunned daze,
  prone Prone falling, restrain Restrained net, paralysis Paralysis paralysis, fly Flying wing, blind Blind blind,
  deaf Deaf deaf, silence Silenced silenced, fear Fear terror, burning Burning fire, frozen Frozen frozen,
  shock Shocked lightning, corrode Corrode acid, bleeding Bleeding blood, disease Disease biohazard,
  poison Poison poison, curse Cursed sun, regen Regen regen, degen Degen degen, hover Hover wingfoot,
  burrow Burrow mole, upgrade Upgrade upgrade, downgrade Downgrade downgrade, invisible Invisible invisible,
  target Target target, eye Marked eye, bless Blessed angel, fireShield FireShield fire-shield,
  coldShield IceShield ice-shield, magicShield MagicShield mage-shield, holyShield HolyShield holy-shield`
  .split(",").map((entry) => entry.trim().split(" "));

/** The English names of the core statuses, which the emulated core localizes */
export const CORE_STATUS_NAMES = {
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

/**
 * A fresh copy of the core status list: an array on V13, a plain object keyed by id on V14 (docs/dev/foundry.md §6; harness
 * choice: none of V14's promised array compatibility, so `.some`, `.find` and `.push` throw as in healthEstimate
 * PR #337)
 */
export function coreStatusEffects(generation = 13) {
  const entries = CORE_STATUS_EFFECTS.map(([id, key, icon]) => ({ id, name: `EFFECT.Status${key}`, img: `icons/svg/${icon}.svg` }));
  return generation >= 14 ? Object.fromEntries(entries.map((entry) => [entry.id, entry])) : entries;
}

/** Return the CONFIG.statusEffects entry of a status id, the list an array or an object keyed by id */
export function findStatusEffect(statusId) {
  const list = env().CONFIG.statusEffects;
  return (Array.isArray(list) ? list : Object.values(list ?? {})).find((entry) => entry.id === statusId);
}

/**
 * A GURPS-Game-Aid-like list; GGA replaces CONFIG.statusEffects at init (docs/dev/foundry.md §6) with an array on V13 and
 * V14 alike (crnormand/gurps ac714d4, module/effects/effects.js: `CONFIG.statusEffects = Object.values(...)`)
 */
export function gurpsStatusEffects() {
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

/**
 * dnd5e's list: it replaces CONFIG.statusEffects at i18nInit with an array made from its conditions and statuses, each
 * with a static _id of "dnd5e" + its id padded with 0 to 16 characters (foundryvtt/dnd5e release-5.3.3 at 965ad2d0:
 * dnd5e.mjs _configureStatusEffects 421-441 and 500-502, utils.mjs staticID 455-458, config.mjs conditionTypes and
 * statusEffects); `surprised` is a pseudo condition there (config.mjs 3756). A part of the list, the ids as dnd5e has
 * them, their names the English of lang/en.json.
 */
export function dnd5eStatusEffects() {
  const ids = ["bleeding", "blinded", "charmed", "dead", "deafened", "exhaustion", "frightened", "grappled", "incapacitated",
    "invisible", "paralyzed", "petrified", "poisoned", "prone", "restrained", "stunned", "surprised", "unconscious"];
  return ids.map((id) => ({
    id,
    _id: `dnd5e${id}`.padEnd(16, "0").slice(0, 16),
    name: `${id[0].toUpperCase()}${id.slice(1)}`, // dnd5e localizes its conditions before (config.mjs preLocalize)
    img: `systems/dnd5e/icons/svg/statuses/${id}.svg`,
  }));
}

