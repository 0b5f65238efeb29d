// Combat and Combatant: turn order, the turn and round methods and their hooks (docs/dev/foundry.md §7,
// https://foundryvtt.com/api/classes/foundry.documents.Combat.html).

import { CONST, checkId, defineFields, env, optionalNumber, pickKnown } from "./core.mjs";
import { Document } from "./documents.mjs";
import { runExpiry, turnEvents } from "./expiry.mjs";

/** Compare two combatants by initiative, the higher first and none last; 0 for a tie */
export function byInitiative(a, b) {
  const value = (c) => (Number.isFinite(c.initiative) ? c.initiative : -Infinity);
  return value(a) === value(b) ? 0 : value(b) - value(a);
}

export class Combatant extends Document {
  static documentName = "Combatant";

  static _cleanData(data) {
    const source = pickKnown("Combatant", data, ["_id", "actorId", "tokenId", "sceneId", "name", "initiative", "defeated",
      "flags"]);
    const scene = env()._world.scenes.active;
    const token = source.tokenId ? scene?.tokens.get(source.tokenId) : null;
    return {
      _id: checkId("Combatant", source._id ?? null),
      actorId: source.actorId ?? token?.actorId ?? null,
      tokenId: source.tokenId ?? null,
      sceneId: source.sceneId ?? (token ? scene.id : null),
      name: source.name ?? null,
      initiative: optionalNumber("Combatant", "initiative", source.initiative),
      defeated: Boolean(source.defeated),
      flags: source.flags ?? {},
    };
  }

  static _cleanSource(source) {
    return { ...source, initiative: optionalNumber("Combatant", "initiative", source.initiative) };
  }

  get combat() {
    return this.parent;
  }

  /**
   * Whether the combatant is defeated: CombatantData's `defeated` ("Has this Combatant been defeated?", API v14
   * interfaces/foundry.documents.types.CombatantData.html), the tracker's skull. (harness choice) Core counts an
   * actor with the defeated status too (CONFIG.specialStatusEffects); only the flag is modelled.
   */
  get isDefeated() {
    return this.defeated;
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

  _ownershipLevel(user) {
    return this.actor?._ownershipLevel(user) ?? CONST.DOCUMENT_OWNERSHIP_LEVELS.NONE;
  }

  _canCreate(user) {
    return user.isGM || this.testUserPermission(user, "OWNER");
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
defineFields(Combatant, ["actorId", "tokenId", "sceneId", "initiative", "defeated"]);

export class Combat extends Document {
  static documentName = "Combat";
  static embedded = { Combatant: "combatants" };
  #turns = Object.freeze([]);

  constructor(source, options) {
    const { combatants = [], ...rest } = source;
    super(rest, options);
    this._embed("combatants", Combatant, combatants);
    this.setupTurns();
    /** docs/dev/foundry.md §7: CombatHistoryData {round, turn, combatantId, tokenId} */
    this.current = this._getCurrentState();
  }

  static _cleanData(data) {
    const source = pickKnown("Combat", data, ["_id", "active", "round", "turn", "combatants", "flags"]);
    return {
      _id: checkId("Combat", source._id ?? null),
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

  get turns() {
    return this.#turns;
  }

  get combatant() {
    return this.turn === null ? undefined : this.#turns[this.turn];
  }

  /** docs/dev/foundry.md §7: round is 0 before the start */
  get started() {
    return this.#turns.length > 0 && this.round > 0;
  }

  toObject() {
    return { ...super.toObject(), combatants: this.combatants.map((c) => c.toObject()) };
  }

  /**
   * Order combatants: without initiative values the given order is kept; with them, descending
   * initiative with nulls last, ties keeping the given order (harness choice). A game system's own order
   * (its Combat class's _sortCombatants, installed in env._combatSort: emulation/game-systems.mjs) replaces it.
   */
  setupTurns() {
    const combatants = this.combatants.contents;
    const systemSort = env()._combatSort;
    if (systemSort) combatants.sort(systemSort);
    else if (combatants.some((c) => Number.isFinite(c.initiative))) combatants.sort(byInitiative);
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

  /** docs/dev/foundry.md §7: the plural form (the singular getCombatantByToken is deprecated and not emulated) */
  getCombatantsByToken(tokenOrId) {
    const id = typeof tokenOrId === "string" ? tokenOrId : tokenOrId?.id;
    return this.combatants.filter((c) => c.tokenId === id);
  }

  /**
   * The seconds between two places of the turn order: a round's time for each round begun, a turn's for each turn
   * passed besides (foundryvtt#12018: world time "advanced for each combatant that is skipped by Previous/Next
   * Round/Turn", Combat#getTimeDelta(fromRound, fromTurn, toRound, toTurn), listed on API v14
   * classes/foundry.documents.Combat.html); none out of round 0 (foundryvtt#12015: "the world time should not be
   * advanced from round 0 to round 1"). (harness choice) The pages give no formula: a round change counts as the end
   * of the round, not of a turn too; Skip Defeated is off; negative going back.
   */
  _timeDelta(fromRound, fromTurn, toRound, toTurn) {
    if (fromRound === 0 || toRound === 0) return 0;
    const count = this.#turns.length;
    const steps = (toRound - fromRound) * count + ((toTurn ?? 0) - (fromTurn ?? 0));
    const rounds = toRound - fromRound;
    const { roundTime, turnTime } = env().CONFIG.time;
    return rounds * roundTime + (steps - rounds) * turnTime;
  }

  /** docs/dev/foundry.md §7, §10: the update's time, V13's `advanceTime` or V14's `worldTime: {delta}` (hookEvents.combatRound) */
  #timeOptions(toRound, toTurn) {
    const delta = this._timeDelta(this.round, this.turn, toRound, toTurn);
    return env().options.generation >= 14 ? { worldTime: { delta } } : { advanceTime: delta };
  }

  #assertStarted(method) {
    if (!this.started) throw new Error(`harness: Combat#${method} before startCombat() is not emulated`);
  }

  /** docs/dev/foundry.md §7: combatStart(combat, updateData) fires on the initiating client before the update */
  async startCombat() {
    const updateData = { round: 1, turn: 0 };
    env()._initiatingHook("combatStart", this, updateData);
    return this.update(updateData);
  }

  /**
   * docs/dev/foundry.md §7: combatTurn(combat, updateData, updateOptions) before the update, the options {direction: 1}
   * passed on to the update (preUpdateCombat's and updateCombat's `options`). (harness choice) The Skip Defeated
   * setting is not emulated: it is off, and no turn is passed over.
   */
  async nextTurn() {
    this.#assertStarted("nextTurn");
    const next = (this.turn ?? -1) + 1;
    if (next >= this.#turns.length) return this.nextRound();
    const updateData = { round: this.round, turn: next };
    const updateOptions = { direction: 1, ...this.#timeOptions(this.round, next) };
    env()._initiatingHook("combatTurn", this, updateData, updateOptions);
    return this.update(updateData, updateOptions);
  }

  /** docs/dev/foundry.md §7: combatRound(combat, updateData, updateOptions {direction: 1}) before the update */
  async nextRound() {
    this.#assertStarted("nextRound");
    const updateData = { round: this.round + 1, turn: 0 };
    const updateOptions = { direction: 1, ...this.#timeOptions(this.round + 1, 0) };
    env()._initiatingHook("combatRound", this, updateData, updateOptions);
    return this.update(updateData, updateOptions);
  }

  /**
   * docs/dev/foundry.md §7.1: rewind one turn, combatTurn(combat, {round, turn - 1}, {direction: -1}) before the
   * update; at the round's first turn previousRound does the rewind instead (combatRound, not combatTurn). (harness
   * choice) Before the start (round 0) it throws, as nextTurn does.
   */
  async previousTurn() {
    this.#assertStarted("previousTurn");
    if ((this.turn ?? 0) <= 0) return this.previousRound();
    const updateData = { round: this.round, turn: this.turn - 1 };
    const updateOptions = { direction: -1, ...this.#timeOptions(this.round, this.turn - 1) };
    env()._initiatingHook("combatTurn", this, updateData, updateOptions);
    return this.update(updateData, updateOptions);
  }

  /**
   * docs/dev/foundry.md §7.1: rewind one round, to its last turn (inference), combatRound(combat, updateData,
   * {direction: -1}) before the update; from round 1 the combat goes back to round 0, turn null: not started.
   */
  async previousRound() {
    this.#assertStarted("previousRound");
    const round = this.round - 1;
    const updateData = { round, turn: round === 0 ? null : this.#turns.length - 1 };
    const updateOptions = { direction: -1, ...this.#timeOptions(round, updateData.turn) };
    env()._initiatingHook("combatRound", this, updateData, updateOptions);
    return this.update(updateData, updateOptions);
  }

  _canUpdate(user, diff) {
    if (user.isGM) return true;
    // Players may advance the turn when they own the current combatant (harness choice)
    const keys = Object.keys(diff).filter((key) => key !== "_id");
    const turnOnly = keys.every((key) => key === "round" || key === "turn");
    return turnOnly && Boolean(this.combatant?.testUserPermission(user, "OWNER"));
  }

  /**
   * docs/dev/foundry.md §7: combatTurnChange(combat, prior, current) on all clients after the update. The docs do not
   * order it against updateCombat: (harness choice) it follows updateCombat, or precedes it with turnChangeFirst.
   */
  _onUpdate(changed, options = {}, userId = null) {
    env()._passCombatTime(options, userId);
    const prior = this.current;
    this.current = this._getCurrentState();
    const stateChanged = ["round", "turn", "combatantId"].some((key) => prior[key] !== this.current[key]);
    const current = this.current;
    const turnChange = () => env().Hooks.callAll("combatTurnChange", this, prior, current);
    // docs/dev/foundry.md §8: V14 core expires effects at the events of the change (emulation/expiry.mjs); a rewind
    // fires no turn events (docs/dev/foundry.md §7.1), so (inference) it expires nothing. (harness choice) A rewind is
    // told by the update's direction, as previousTurn and previousRound pass it.
    const rewind = options.direction < 0;
    const expire = () => {
      if (env().options.generation >= 14 && !rewind) env()._track(runExpiry(env(), this, turnEvents(prior, current)), "expiry", runExpiry);
    };
    if (stateChanged && env().options.turnChangeFirst) turnChange();
    return () => {
      if (stateChanged) expire();
      if (stateChanged && !env().options.turnChangeFirst) turnChange();
    };
  }

  /** docs/dev/foundry.md §8: on V14 the end of a combat is the combatEnd expiry event */
  _onDelete() {
    if (env().options.generation >= 14) env()._track(runExpiry(env(), this, [["combatEnd", null]]), "expiry", runExpiry);
  }
}
defineFields(Combat, ["active", "round", "turn"]);
