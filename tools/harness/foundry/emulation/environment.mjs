// FoundryEnvironment wires the parts into one emulated client: the globals, the start-up sequence, the
// users and other clients, and the records tests assert on.

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { CONST, Collection, acting, installedEnv, mergeInto, requireString, serverRoundTrip, setInstalled, utils } from "./core.mjs";
import { ChatMessage } from "./chat.mjs";
import { Combatant } from "./combat.mjs";
import { Database } from "./database.mjs";
import { DiceScript, Roll } from "./dice.mjs";
import { ActiveEffect, Item, TokenDocument, coreStatusEffects, dnd5eStatusEffects, gurpsStatusEffects } from "./documents.mjs";
import { createHooks } from "./hooks.mjs";
import { createI18n, loadTranslations, softLocalize } from "./i18n.mjs";
import { createSettings } from "./settings.mjs";
import { DialogV2, closeDialogWindow, createNotifications } from "./ui.mjs";
import { createWorld, worldHelpers } from "./world.mjs";
import { renderCombatTracker } from "./dom.mjs";
import { ModuleMap } from "./isolation.mjs";

const WORLD_COLLECTIONS = { Actor: "actors", Combat: "combats", Scene: "scenes", ChatMessage: "messages", User: "users" };
const EMBEDDED_CLASSES = { ActiveEffect, Combatant, Item, Token: TokenDocument };

/**
 * The globals a module sees; the product reads Hooks, game, CONFIG, CONST, foundry, ui, Roll and ChatMessage.
 * docs/dev/foundry.md §10: V14 removed the global aliases of foundry.utils (a ReferenceError); (harness choice) V13's
 * deprecated ones are left out too, so a bare getProperty fails on both.
 */
const GLOBAL_NAMES = ["Hooks", "game", "CONFIG", "CONST", "foundry", "ui", "Roll", "ChatMessage", "canvas"];
// docs/dev/foundry.md §1.1: the builds the emulation claims to be (14.369 is V14's stable build of October 2026)
const RELEASES = { 13: { generation: 13, build: 351 }, 14: { generation: 14, build: 369 } };

export class FoundryEnvironment {
  // Records for assertions
  errors = [];
  notifications = [];
  messages = [];
  dialogs = [];
  dialogAnswers = [];
  downloads = [];
  missingI18n = [];
  fallbackI18n = [];
  earlyI18n = [];
  i18nFormatErrors = [];
  deprecations = [];
  warnings = [];
  writes = [];
  deniedWrites = [];

  /** How far start-up has got: booted, translations loaded, Documents and Settings ready (setup) */
  phase = { booted: false, translations: false, documents: false };
  _activity = 0;
  /** game.time.worldTime: the world's clock, in seconds */
  _worldTime = 0;
  /** A game system's order of combatants (its Combat#_sortCombatants), or null for the harness's */
  _combatSort = null;
  _inflight = 0;
  #pending = new Set();
  #langFiles = {};
  /** This client's module instances (emulation/isolation.mjs) */
  #modules = new ModuleMap();

  constructor(options) {
    if (!Object.hasOwn(RELEASES, options.generation)) {
      throw new Error(`createFoundry: generation ${options.generation} is not emulated (13 or 14)`);
    }
    this.options = options;
    this._world = createWorld(options.users);
    this._localUserId = options.userId ?? this._world.users.find((u) => u.isGM)?.id ?? this._world.users.contents[0]?.id;
    if (!this._world.users.has(this._localUserId)) throw new Error(`userId "${this._localUserId}" is not one of the users`);
    this._world.users.get(this._localUserId)._setActive(true);
    this.db = new Database(this);
    this.dice = new DiceScript();
    this.Hooks = createHooks(this);
    this.CONFIG = {
      statusEffects: coreStatusEffects(options.generation),
      // API v13/v14 variables/CONFIG.time.html: "the number of seconds which automatically elapse at the end of a
      // Combat round" and turn. (harness choice) The pages give no defaults: 6 and 0 here; game systems set their own.
      time: { roundTime: 6, turnTime: 0 },
      // docs/dev/foundry.md §8: V14's world-wide expiryAction, "update" by default
      ActiveEffect: options.generation >= 14 ? { expiryAction: "update" } : {},
    };
    this.foundry = { utils, applications: { api: { DialogV2 } } };
    this.ui = {};
    // The canvas's token layer and the tokens the user controls (selects), placeables whose `document` is the
    // TokenDocument (API v13/v14 classes/foundry.canvas.layers.TokenLayer.html, `controlled`; Token#document)
    this.canvas = { tokens: { controlled: [] } };
    this.game = this.#makeGame();
    if (options.systemId === "gurps") {
      // The system's scripts load before any module's, so its init hook is registered first (docs/dev/foundry.md §6); it
      // assigns an array on V13 and V14 alike (crnormand/gurps ac714d4, module/effects/effects.js)
      this.Hooks.once("init", () => {
        this.CONFIG.statusEffects = gurpsStatusEffects();
      });
    }
    if (options.systemId === "dnd5e") {
      // dnd5e 5.3.3 (foundryvtt/dnd5e 965ad2d0): at init its CONFIG.DND5E, with the conditions that give Advantage or
      // Disadvantage on initiative (config.mjs 3795-3796, from 5.1.0), and its rules setting, "modern" by default
      // (settings.mjs 70-82), under whose "legacy" value it takes surprised and incapacitated out of the first and
      // invisible out of the second (applyLegacyRules 709-713, called at init, dnd5e.mjs 126); at i18nInit its list
      // of statuses (dnd5e.mjs 500-502).
      this.Hooks.once("init", () => {
        this.CONFIG.DND5E = { conditionEffects: {
          initiativeAdvantage: new Set(["invisible"]), initiativeDisadvantage: new Set(["incapacitated", "surprised"]),
        } };
        this.game.settings.register("dnd5e", "rulesVersion", { scope: "world", config: true, type: String, default: "modern" });
        if (this.game.settings.get("dnd5e", "rulesVersion") === "legacy") {
          this.CONFIG.DND5E.conditionEffects.initiativeDisadvantage.delete("surprised");
          this.CONFIG.DND5E.conditionEffects.initiativeDisadvantage.delete("incapacitated");
          this.CONFIG.DND5E.conditionEffects.initiativeAdvantage.delete("invisible");
        }
      });
      this.Hooks.once("i18nInit", () => {
        this.CONFIG.statusEffects = dnd5eStatusEffects();
      });
    }
  }

  get localUserId() {
    return this._localUserId;
  }

  get booted() {
    return this.phase.booted;
  }

  /** Faces scripted with scriptDice that no Die has drawn yet */
  get pendingDice() {
    return this.dice.pending;
  }

  /** Control (select) these tokens on the canvas, as a click and shift-clicks do, releasing the others */
  controlTokens(tokens) {
    this.canvas.tokens.controlled = tokens.map((document) => ({ id: document.id, document }));
  }

  /** Queue the faces the next Die terms draw, in order */
  scriptDice(...faces) {
    this.dice.push(faces);
  }

  // -- globals -------------------------------------------------------------------------------

  _install() {
    const values = {
      Hooks: this.Hooks, game: this.game, CONFIG: this.CONFIG, CONST, foundry: this.foundry, ui: this.ui, Roll, ChatMessage,
      canvas: this.canvas,
    };
    for (const name of GLOBAL_NAMES) {
      Object.defineProperty(globalThis, name, { value: values[name], configurable: true, writable: true });
    }
    setInstalled(this);
  }

  /** Remove the globals and close the dialog window */
  teardown() {
    if (installedEnv() === this) {
      for (const name of GLOBAL_NAMES) delete globalThis[name];
      setInstalled(null);
    }
    closeDialogWindow(this);
  }

  // -- hook bookkeeping ----------------------------------------------------------------------

  _recordHookError(hook, fn, error, async = false) {
    this.errors.push({ hook, error, async });
    if (!this.options.quiet) {
      const what = async ? "Unhandled rejection from hooked function" : "Error thrown in hooked function";
      console.error(`${what} '${fn?.name ?? ""}' for hook '${hook}'`, error);
    }
  }

  /** Follow a handler's promise so settle() waits for it and a rejection is recorded */
  _track(promise, hook, fn) {
    const tracked = Promise.resolve(promise).then(
      () => undefined,
      (error) => this._recordHookError(hook, fn, error, true),
    );
    this.#pending.add(tracked);
    tracked.finally(() => this.#pending.delete(tracked));
  }

  /** docs/dev/foundry.md §7: hooks that only the initiating client fires are skipped for remote requests */
  _initiatingHook(hook, ...args) {
    if (this._isRemote()) return true;
    return this.Hooks.callAll(hook, ...args);
  }

  /**
   * The world time a Combat update passes, applied by the server before the update's hooks run (foundryvtt#11619: the
   * time of a turn or round change is processed and emitted before the Combat update) and told to every client by
   * updateWorldTime(worldTime, dt, options, userId) (API v14 functions/hookEvents.updateWorldTime.html). The update's
   * options carry it as `advanceTime` (API v13 hookEvents.combatRound/combatTurn) or `worldTime: {delta}` (API v14 and
   * foundryvtt#10924); which of them each generation still reads is not documented: (harness choice) both, on both,
   * worldTime.delta first, so that a module that rewrites only one of them is caught.
   */
  _passCombatTime(options, userId) {
    const delta = [options?.worldTime?.delta, options?.advanceTime].find((value) => Number.isFinite(value));
    if (!delta) return;
    this._worldTime += delta;
    this.Hooks.callAll("updateWorldTime", this._worldTime, delta, {}, userId);
  }

  /** Wait until no hook promise, database request or follow-up activity is pending */
  async settle({ maxTicks = 1000 } = {}) {
    let quiet = 0;
    for (let i = 0; i < maxTicks; i++) {
      if (this.#pending.size) await Promise.allSettled([...this.#pending]);
      const before = this._activity;
      await serverRoundTrip();
      if (!this.#pending.size && this._inflight === 0 && before === this._activity) {
        if (++quiet >= 2) return;
      } else quiet = 0;
    }
    throw new Error(`env.settle(): still busy after ${maxTicks} ticks (a hook loop?)`);
  }

  // -- users and clients ---------------------------------------------------------------------

  _actingUserId() {
    return acting.getStore()?.userId ?? this._localUserId;
  }

  _isRemote() {
    return this._actingUserId() !== this._localUserId;
  }

  /** Make this process the client of another user (switch before loadModule to boot as them) */
  switchUser(userId) {
    const user = this._world.users.get(userId);
    if (!user) throw new Error(`switchUser: no user "${userId}"`);
    this._localUserId = userId;
    user._setActive(true);
    return user;
  }

  /**
   * Emulate another client's request: document changes made inside fn are attributed to userId,
   * are permission-checked as that user, and only the hooks that fire on every client run here.
   */
  async remote(userId, fn) {
    const user = this._world.users.get(userId);
    if (!user) throw new Error(`remote: no user "${userId}"`);
    if (!user.active) throw new Error(`remote: user "${user.name}" is not connected`);
    if (userId === this._localUserId) throw new Error("remote: that is the local user; call fn directly");
    return acting.run({ userId }, fn);
  }

  // -- boot ----------------------------------------------------------------------------------

  /**
   * Import the esmodules of a module folder, in the order its module.json lists them, as this load's own module
   * instances (emulation/isolation.mjs), so state never leaks between environments, then boot.
   */
  async loadModule(folder) {
    const root = path.resolve(folder);
    const manifest = JSON.parse(fs.readFileSync(path.join(root, "module.json"), "utf8"));
    this.#registerManifest(manifest, root);
    const exports = [];
    for (const entry of manifest.esmodules ?? []) {
      exports.push(await this.#modules.import(pathToFileURL(path.join(root, entry)).href));
    }
    await this.boot();
    return { manifest, exports };
  }

  /** docs/dev/foundry.md §1: the module must be active and made for the world's system; its lang files load */
  #registerManifest(manifest, root) {
    const id = requireString("module.json", "id", manifest.id);
    const existing = this.game.modules.get(id);
    if (existing && !existing.active) throw new Error(`module "${id}" is installed but not active in this world`);
    if (!existing) this.game.modules.set(id, { id, active: true, api: undefined });
    const systems = (manifest.relationships?.systems ?? []).map((s) => s.id);
    if (systems.length && !systems.includes(this.options.systemId)) {
      throw new Error(`module "${id}" supports systems ${systems.join(", ")}, not "${this.options.systemId}" (docs/dev/foundry.md §1)`);
    }
    for (const language of manifest.languages ?? []) {
      if (language.lang !== this.options.language && language.lang !== "en") continue;
      const data = JSON.parse(fs.readFileSync(path.resolve(root, language.path), "utf8"));
      this.#langFiles[language.lang] = mergeInto(this.#langFiles[language.lang] ?? {}, data);
    }
    if (this.phase.translations) loadTranslations(this, this.#langFiles);
  }

  /**
   * The documented start-up sequence: init, i18nInit, setup, ready, with translations loaded before
   * i18nInit, Documents and Settings before setup and the UI before ready
   * (https://foundryvtt.com/api/modules/hookEvents.html, hookEvents.setup, hookEvents.i18nInit).
   */
  async boot() {
    if (this.phase.booted) throw new Error("boot() runs once");
    this.phase.booted = true;
    this.Hooks.callAll("init");
    loadTranslations(this, this.#langFiles);
    this.Hooks.callAll("i18nInit");
    this.phase.documents = true;
    this.Hooks.callAll("setup");
    this.ui.notifications = createNotifications(this);
    this.Hooks.callAll("ready");
    await this.settle();
  }

  // -- game ----------------------------------------------------------------------------------

  #makeGame() {
    const environment = this;
    const docs = (name) => (environment.phase.documents ? environment._world[name] : undefined);
    const modules = new Collection(this.options.modules.map(({ id, active = true }) => [id, { id, active, api: undefined }]));
    return {
      release: Object.freeze({ ...RELEASES[this.options.generation], version: `${this.options.generation}.${RELEASES[this.options.generation].build}` }),
      // Game#system: the world's game system's package data, read by its id (API v13/v14 foundry.Game.html#system)
      // and its version (API v13/v14 foundry.packages.System.html, BasePackage#version); (harness choice) none unless given
      system: Object.freeze({ id: this.options.systemId, version: this.options.systemVersion ?? undefined }),
      modules,
      // foundry.helpers.GameTime (API v13/v14): the world's clock; only what the emulation reads is emulated
      time: Object.freeze({ get worldTime() { return environment._worldTime; } }),
      settings: createSettings(this),
      i18n: createI18n(this),
      get user() {
        return environment.phase.documents ? environment._world.users.get(environment._localUserId) : null;
      },
      get users() {
        return docs("users");
      },
      get actors() {
        return docs("actors");
      },
      get combats() {
        return docs("combats");
      },
      get scenes() {
        return docs("scenes");
      },
      get combat() {
        return environment.phase.documents ? environment._world.combats.active : undefined;
      },
    };
  }

  _worldCollection(documentName) {
    const name = WORLD_COLLECTIONS[documentName];
    if (!name) throw new Error(`${documentName} documents must be created with a parent`);
    return this._world[name];
  }

  _documentClass(embeddedName) {
    return EMBEDDED_CLASSES[embeddedName];
  }

  _isEmbeddedName(documentName) {
    return Object.hasOwn(EMBEDDED_CLASSES, documentName);
  }

  /** docs/dev/foundry.md §5: flags are namespaced by an active package id; other scopes throw */
  _assertFlagScope(scope) {
    const valid = ["core", "world", this.options.systemId].includes(scope) || this.game.modules.get(scope)?.active;
    if (!valid) throw new Error(`Flag scope "${scope}" is not valid or not currently active`);
  }

  _deprecate(documentName, message) {
    this.deprecations.push({ documentName, message });
  }

  _softLocalize(text) {
    return softLocalize(this, text);
  }

  /**
   * Render the Combat Tracker: renderCombatTracker(app, html) with its header DOM (docs/dev/foundry.md §10, §11), the
   * game system's own tracker or the one named (emulation/dom.mjs TRACKERS, or markup). With popout the tracker sits in
   * a window of its own, its nodes made by that window's document; jquery passes html as a jQuery object. Returns the
   * tracker's root.
   */
  renderCombatTracker({ popout = false, tracker, jquery = false } = {}) {
    return renderCombatTracker(this, { popout, tracker, jquery });
  }

  /** Localize every config:true setting's name, hint and choices as the settings UI would */
  checkSettingsI18n() {
    const before = this.missingI18n.length;
    for (const config of this.game.settings.settings.values()) {
      if (!config.config) continue;
      for (const text of [config.name, config.hint, ...Object.values(config.choices ?? {})]) {
        if (text) this.game.i18n.localize(text);
      }
    }
    return this.missingI18n.slice(before);
  }
}
Object.assign(FoundryEnvironment.prototype, worldHelpers);
