// The Sandbox: one game (campaign, players, a page), the script context with its globals, events, the queue of
// asynchronous work, dice, state and restarts, and the records tests assert on.

import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

import { fileText } from "../../file_text.mjs";
import { chatMethods } from "./chat.mjs";
import {
  COLOUR_MARKERS, CREATABLE_TYPES, DEFAULTS, HarnessError, Roll20Object, checkMarkersString, deepFreeze,
  describe, isPlainObject, jsonClone, statusApply, statusGet,
} from "./objects.mjs";
import { makeUser } from "./user.mjs";

const DEFAULT_GM = { id: "-Mh0000000000000GM01", displayname: "GM", isGM: true };

/** The events the emulated user actions and chat fire (user.mjs); the script binds the first four */
const FIRED_EVENTS = ["ready", "chat:message", "change:campaign:turnorder", "destroy:graphic", "change:campaign",
  "change:campaign:_token_markers", "change:campaign:initiativepage"];

/** Node's longest timer delay; a delay outside 1..TIMEOUT_MAX becomes 1 ms (Node's setTimeout documentation) */
const TIMEOUT_MAX = 2 ** 31 - 1;

/**
 * The behavioural models of community Mod scripts that move the turn order (tools/harness/roll20/community/, docs/dev/roll20.md
 * §4), by name: each a classic script loaded like any other (sb.loadCommunity(name) or sb.load(path))
 */
export const COMMUNITY_SCRIPTS = Object.freeze(Object.fromEntries(["turnmarker1", "combatmaster", "groupinitiative",
  "roundmaster", "initmaster", "gaslight", "conditiontracker"]
  .map((name) => [name, fileURLToPath(new URL(`../community/${name}.js`, import.meta.url))])));

/** The number of lines in a text, as split("\n") counts them */
function lineCount(text) {
  let lines = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines += 1;
  return lines;
}

/** The object types toFront and toBack take (index.d.ts: graphic, path, text, card) */
const LAYERED_TYPES = ["graphic", "path", "text"];

export class Sandbox {
  constructor({
    players = [DEFAULT_GM],
    campaign = {},
    sheetDefaults = {},
  } = {}) {
    this.sheetDefaults = { ...sheetDefaults };
    /** Every message posted by sendChat: {who, type, content, whisperTo, target, options, direct} */
    this.chat = [];
    /** log() output, one string per call */
    this.logs = [];
    /** Crashes and other faults that make a test fail: {kind, message, event?, where?, error?} */
    this.errors = [];
    /** Dubious but non-fatal behaviour (assertClean fails on these too unless allowed): {kind, message} */
    this.warnings = [];
    this.scripts = [];

    this._records = new Map(); // id -> record {type, attrs, removed, wrapper}
    this._idCounter = 0;
    this._rollCounter = 0;
    this._handlers = [];
    this._isReady = false;
    this.crashed = false;
    this._dice = [];
    this._tasks = [];
    this._timers = [];
    this._timerSeq = 0;
    this._clock = 0;
    this._lineOffset = 0;
    this._players = new Map();

    this._campaign = this._addRecord("campaign", { ...DEFAULTS.campaign }, "root");
    this.page = this._addRecord("page", { name: "Page 1" }).wrapper;
    this._campaign.attrs.playerpageid = this.page.id;
    // initiativepage: true stands for the sandbox's page (the tracker open on it), false for a closed tracker
    if (campaign.initiativepage !== undefined) {
      this._campaign.attrs.initiativepage = campaign.initiativepage === true ? this.page.id : campaign.initiativepage;
    }
    const markers = campaign.token_markers;
    if (markers !== undefined) this._campaign.attrs._token_markers = typeof markers === "string" ? markers : JSON.stringify(markers);
    for (const { id, displayname = "Player", isGM = false } of players) {
      this._addRecord("player", { ...DEFAULTS.player, _displayname: displayname }, id);
      this._players.set(id, { id, displayname, isGM });
    }

    this._newContext({});
    this.user = makeUser(this);
  }

  // -------------------------------------------------------------------------------------------
  // Recording

  _error(kind, message, extra = {}) {
    const entry = { kind, message, ...extra };
    this.errors.push(entry);
    return entry;
  }

  _warn(kind, message) {
    this.warnings.push({ kind, message });
  }

  /** Remove and return the warnings (for tests that provoke one on purpose) */
  takeWarnings() {
    const taken = this.warnings;
    this.warnings = [];
    return taken;
  }

  /** Remove and return the errors (for tests that provoke one on purpose) */
  takeErrors() {
    const taken = this.errors;
    this.errors = [];
    this.crashed = false;
    return taken;
  }

  /**
   * The innermost frame of script code in a stack: {script, line, column}, the line mapped back from the concatenated
   * bundle to the script's file (Roll20 runs all scripts as one file, docs/dev/roll20.md §3); undefined when none
   */
  _frame(stack) {
    const m = /apiscript\.js:(\d+)(?::(\d+))?/.exec(String(stack ?? ""));
    if (!m) return undefined;
    const line = Number(m[1]);
    const script = this.scripts.find((s) => line > s.offset && line <= s.offset + s.lines);
    return script ? { script: script.name, line: line - script.offset, column: m[2] } : { script: undefined, line, column: m[2] };
  }

  /** Where an error was thrown, as "file:line[:column]" */
  _where(error) {
    const frame = this._frame(error?.stack);
    if (!frame) return undefined;
    return `${frame.script ?? "apiscript.js"}:${frame.line}${frame.column ? `:${frame.column}` : ""}`;
  }

  /** The script whose code is running now (the caller of a sandbox global), or undefined */
  _callingScript() {
    return this._frame(new Error().stack)?.script;
  }

  /** The same, told when asked: the stack is taken now and formatted (the costly part) only if it is read */
  _callingScriptLater() {
    const call = new Error();
    return () => this._frame(call.stack)?.script;
  }

  /** An uncaught error from script code: Roll20 reports "the API sandbox has crashed" and runs nothing more */
  _crash(error, context) {
    const message = error instanceof Error || (error && typeof error.message === "string")
      ? `${error.name ?? "Error"}: ${error.message}` : `uncaught ${describe(error)}`;
    this._error("crash", `the API sandbox has crashed (${context}): ${message}`, {
      event: context, where: this._where(error), error, stack: error?.stack,
    });
    this.crashed = true;
  }

  /** Run script code; any exception (or rejected promise) crashes the sandbox. context: what runs, or a function of it */
  _runScript(context, fn) {
    if (this.crashed) return undefined;
    const what = () => (typeof context === "function" ? context() : context);
    try {
      const result = fn();
      if (result && typeof result.then === "function") {
        result.then(undefined, (error) => this._crash(error, `${what()} (async)`));
      }
      return result;
    } catch (error) {
      this._crash(error, what());
      return undefined;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Dice (index.d.ts randomInteger: "the same functionality that Roll20 uses to power its dice rolls")

  /** Queue die faces; randomInteger and every die of every inline roll take them in order */
  scriptDice(...faces) {
    for (const face of faces.flat()) {
      if (!Number.isInteger(face) || face < 1) throw new HarnessError(`scripted die face must be an integer >= 1, got ${describe(face)}`);
      this._dice.push(face);
    }
    return this;
  }

  /** The scripted faces not used yet */
  diceLeft() {
    return this._dice.slice();
  }

  /** One die of `max` sides from the scripted queue: the tests' dice are the only ones */
  _roll(max, what) {
    const fail = (kind, message) => {
      this._error(kind, message);
      throw new HarnessError(message);
    };
    if (!Number.isInteger(max) || max < 1) fail("misuse", `${what}: max must be a positive integer, got ${describe(max)}`);
    if (this._dice.length > 0) {
      const face = this._dice.shift();
      if (face > max) fail("dice", `${what}: the next scripted face ${face} is larger than ${max}`);
      return face;
    }
    return fail("dice", `${what}: no scripted dice left (queue faces with sandbox.scriptDice(...))`);
  }

  // -------------------------------------------------------------------------------------------
  // Store

  _newId() {
    this._idCounter += 1;
    return `-Mh${String(this._idCounter).padStart(17, "0")}`;
  }

  _addRecord(type, attrs, id = this._newId()) {
    const record = { type, attrs: { ...attrs, _id: id, _type: type }, removed: false, wrapper: null };
    record.wrapper = new Roll20Object(this, record);
    this._records.set(id, record);
    return record;
  }

  _live() {
    return [...this._records.values()].filter((r) => !r.removed);
  }

  _recordOf(obj) {
    const id = typeof obj === "string" ? obj : obj?.id;
    const record = this._records.get(id);
    if (!record) throw new HarnessError(`no object with id ${describe(id)}`);
    return record;
  }

  /** The stored key for a property name: exact, else with the optional leading underscore */
  _key(record, prop) {
    if (Object.hasOwn(record.attrs, prop)) return prop;
    if (!prop.startsWith("_") && Object.hasOwn(record.attrs, `_${prop}`)) return `_${prop}`;
    if (prop === "id") return "_id";
    return undefined;
  }

  _isReadOnly(record, prop) {
    return prop.startsWith("_") || prop === "id" || (!Object.hasOwn(record.attrs, prop) && Object.hasOwn(record.attrs, `_${prop}`));
  }

  /** The marker tags of this game: the colours, dead and the custom set's tags (docs/dev/roll20.md §5) */
  _knownTags() {
    const tags = new Set([...COLOUR_MARKERS, "dead"]);
    let custom = [];
    try {
      custom = JSON.parse(this._campaign.attrs._token_markers || "[]");
    } catch {
      custom = [];
    }
    for (const marker of Array.isArray(custom) ? custom : []) if (typeof marker?.tag === "string") tags.add(marker.tag);
    return tags;
  }

  /** Values crossing into script code are made in the script realm (so `instanceof Array` etc. hold) */
  _toScript(value) {
    if (value === null || typeof value !== "object") return value;
    return this._realm.JSON.parse(JSON.stringify(value));
  }

  /** A frozen script-realm copy (messages and prev are read-only) */
  _frozen(value) {
    return deepFreeze(this._toScript(value));
  }

  _snapshot(record) {
    return this._frozen(record.attrs);
  }

  _objGet(record, prop) {
    if (typeof prop !== "string") return undefined;
    if (record.type === "graphic" && prop.startsWith("status_")) return statusGet(record.attrs.statusmarkers, prop.slice(7));
    const key = this._key(record, prop);
    const what = `${record.type}.get(${JSON.stringify(prop)})`;
    if (key === undefined) this._warn("script", `${what}: not a property of ${record.type} objects, or not emulated`);
    return key === undefined ? undefined : this._toScript(record.attrs[key]);
  }

  /** docs/dev/roll20.md §4: a JSON-array string; token rows carry _pageid and custom "", custom rows id "-1" */
  _checkTurnorder(value, warn) {
    if (typeof value !== "string") {
      this._error("misuse", `Campaign turnorder must be a JSON string (docs/dev/roll20.md §4), got ${describe(value)}`);
      return;
    }
    if (value === "") return;
    let rows;
    try {
      rows = JSON.parse(value);
    } catch {
      this._error("misuse", `Campaign turnorder is not valid JSON: ${value}`);
      return;
    }
    if (!Array.isArray(rows)) {
      this._error("misuse", `Campaign turnorder must be a JSON array, got ${value}`);
      return;
    }
    rows.forEach((row, i) => {
      if (!isPlainObject(row)) {
        warn(`turnorder row ${i} is not an object: ${describe(row)}`);
        return;
      }
      if (typeof row.id !== "string") warn(`turnorder row ${i}: id must be a string (custom rows use "-1"), got ${describe(row.id)}`);
      if (row.pr === undefined) warn(`turnorder row ${i}: pr is missing`);
      if (row.id === "-1") {
        if (typeof row.custom !== "string" || row.custom === "") warn(`turnorder row ${i}: a custom row ("-1") needs its label in custom`);
      } else if (typeof row.id === "string") {
        const token = this._records.get(row.id);
        if (!token || token.removed || token.type !== "graphic") warn(`turnorder row ${i}: no graphic with id ${row.id}`);
        if (typeof row._pageid !== "string" || row._pageid === "") warn(`turnorder row ${i}: token rows must carry _pageid (docs/dev/roll20.md §4)`);
        if (row.custom === undefined) warn(`turnorder row ${i}: token rows carry custom: "" (docs/dev/roll20.md §4)`);
      }
    });
  }

  /**
   * Compute the attributes after `changes`, reporting problems through `report` (warn for scripts;
   * throw for test code driving user actions). Returns the next attributes and the changed keys.
   */
  _applyChanges(record, changes, report, { byScript = false } = {}) {
    if (!isPlainObject(changes)) {
      report(`set() takes (property, value) or an object of properties, got ${describe(changes)}`);
      return { next: null, changed: [] };
    }
    const next = { ...record.attrs };
    const known = DEFAULTS[record.type];
    for (const [prop, value] of Object.entries(changes)) {
      if (record.type === "graphic" && prop.startsWith("status_")) {
        next.statusmarkers = statusApply(next.statusmarkers, prop.slice(7), value, this._knownTags(), report);
        continue;
      }
      if (this._isReadOnly(record, prop)) {
        // "properties that begin with an underscore (_) are read-only and cannot be changed" (Mod:Objects):
        // the value is kept; the attempt is reported (harness choice: ignore + warn)
        report(`${record.type}.set(${JSON.stringify(prop)}): read-only property, not changed`);
        continue;
      }
      if (known && !Object.hasOwn(known, prop) && !Object.hasOwn(record.attrs, prop)) {
        report(`${record.type}.set(${JSON.stringify(prop)}): not a property of ${record.type} objects, or not emulated`);
      }
      if (byScript && record.type === "campaign" && prop === "turnorder") this._checkTurnorder(value, report);
      if (record.type === "campaign" && prop === "initiativepage" && value !== false) {
        // "ID of the page used for the tracker when the turn order window is open. When set to false, the turn order
        // window closes" (Mod:Objects, Campaign)
        const page = typeof value === "string" ? this._records.get(value) : undefined;
        if (!page || page.removed || page.type !== "page") report(`campaign.set("initiativepage", ${describe(value)}): a page id or false`);
      }
      if (record.type === "graphic" && prop === "statusmarkers") checkMarkersString(value, this._knownTags(), report);
      next[prop] = value !== null && typeof value === "object" ? jsonClone(value) : value;
    }
    const changed = Object.keys(next).filter((k) => !Object.is(next[k], record.attrs[k])
      && JSON.stringify(next[k]) !== JSON.stringify(record.attrs[k]));
    return { next, changed };
  }

  _scriptSet(record, changes) {
    const warn = (message) => this._warn("script", message);
    if (record.removed) {
      warn(`${record.type}.set() on a removed object (${record.attrs._id})`);
      return;
    }
    const result = this._applyChanges(record, changes, warn, { byScript: true });
    // No event: "Changes made by scripts fire no events" (docs/dev/roll20.md §2)
    if (result.next) record.attrs = result.next;
  }

  /** obj.remove() by a script (index.d.ts): the object leaves the game, silently (no destroy event, docs/dev/roll20.md §2) */
  _scriptRemove(record) {
    if (record.removed) {
      this._warn("script", `${record.type}.remove(): ${record.attrs._id} was already removed`);
      return;
    }
    if (["campaign", "player", "page"].includes(record.type)) {
      this._warn("script", `${record.type}.remove(): removing a ${record.type} is not emulated`);
      return;
    }
    record.removed = true;
  }

  /**
   * toFront(obj), toBack(obj) (index.d.ts): move a graphic, path or text to the front or back of its layer. The drawing
   * order is not emulated (no page _zorder): only the argument is checked.
   */
  _layerOrder(name, obj) {
    const record = obj instanceof Roll20Object ? this._records.get(obj.id) : undefined;
    if (!record || record.removed || !LAYERED_TYPES.includes(record.type)) {
      this._warn("script", `${name}(${describe(obj)}): takes a graphic, path or text still in the game`);
    }
  }

  /** Create an object (shared by the script's createObj and the test helpers) */
  _create(type, attrs, report) {
    if (!CREATABLE_TYPES.includes(type)) {
      throw new HarnessError(`createObj(${JSON.stringify(type)}): only ${CREATABLE_TYPES.join(", ")} can be created (docs/dev/roll20.md §1)`);
    }
    if (!DEFAULTS[type]) throw new HarnessError(`createObj(${JSON.stringify(type)}): ${type} objects are not emulated`);
    if (attrs !== undefined && !isPlainObject(attrs)) throw new HarnessError(`createObj(${type}) takes an object of properties`);
    const values = { ...DEFAULTS[type] };
    for (const [prop, value] of Object.entries(attrs ?? {})) {
      if (["_id", "id", "_type", "type"].includes(prop)) continue;
      // Read-only properties may be given at creation, with or without the underscore (docs/dev/roll20.md §6: playerid or _playerid)
      const key = Object.hasOwn(values, prop) ? prop : Object.hasOwn(values, `_${prop}`) ? `_${prop}` : prop;
      if (!Object.hasOwn(DEFAULTS[type], key)) report(`createObj(${type}): ${JSON.stringify(prop)} is not a property of ${type} objects, or not emulated`);
      values[key] = value !== null && typeof value === "object" ? jsonClone(value) : value;
    }
    if (type === "graphic" && values.statusmarkers) checkMarkersString(values.statusmarkers, this._knownTags(), report);
    return this._addRecord(type, values);
  }

  // -------------------------------------------------------------------------------------------
  // Scripts and the context (docs/dev/roll20.md §1 globals)

  _newContext(stateValue) {
    const sb = this;
    const globals = {
      on: (event, handler) => sb._on(event, handler),
      sendChat: (speakingAs, input, callback, opts) => sb._sendChat(speakingAs, input, callback, opts),
      findObjs: (attrs, opts) => sb._findObjs(attrs, opts),
      getObj: (type, id) => sb._getObj(type, id),
      createObj: (type, attrs) => sb._create(type, attrs, (m) => sb._warn("script", m)).wrapper,
      Campaign: () => sb._campaign.wrapper,
      log: (...args) => sb._log(args),
      randomInteger: (max) => sb._roll(max, `randomInteger(${describe(max)})`),
      playerIsGM: (playerid) => sb._players.get(playerid)?.isGM === true,
      getAttrByName: (characterId, name, valueType) => sb._getAttrByName(characterId, name, valueType),
      toFront: (obj) => sb._layerOrder("toFront", obj),
      toBack: (obj) => sb._layerOrder("toBack", obj),
      setTimeout: (callback, delay, ...args) => sb._setTimeout(callback, delay, args),
      clearTimeout: (handle) => sb._clearTimeout(handle),
      state: undefined,
    };
    this._context = vm.createContext(globals, { name: "roll20-mod-sandbox" });
    this._realm = vm.runInContext("({ Array, Object, JSON })", this._context);
    // Math.random works but is not how Roll20 scripts roll dice (index.d.ts randomInteger); flagged so tests
    // stay deterministic (harness choice)
    const warnRandom = () => sb._warn("script", "Math.random() used: roll with randomInteger() (scriptable, no modulo bias)");
    vm.runInContext("(warn) => { const r = Math.random; Math.random = function random() { warn(); return r(); }; }", this._context)(warnRandom);
    this._context.state = this._toScript(stateValue);
  }

  /** The `state` object scripts see; set its keys to seed it (e.g. an old schema) */
  get state() {
    return this._context.state;
  }

  /**
   * Load a plain (non-module) script file. Roll20 concatenates every script into one file
   * (hence the API_Meta line-offset idiom, docs/dev/roll20.md §3): line numbers continue across scripts and
   * top-level const/let names are shared.
   */
  load(scriptPath) {
    return this.loadSource(fileText(scriptPath), path.basename(scriptPath));
  }

  /**
   * Load the model of a community script (COMMUNITY_SCRIPTS: "turnmarker1", "combatmaster", "groupinitiative",
   * "roundmaster", "initmaster", "gaslight", "conditiontracker"; "roundmaster@5.052" for a model that plays several
   * versions). Like any script, before ready(): the load order is the order their ready handlers, and so their other
   * handlers, run.
   */
  loadCommunity(name) {
    const [model, version] = String(name).split("@");
    if (!Object.hasOwn(COMMUNITY_SCRIPTS, model)) {
      throw new HarnessError(`loadCommunity(${describe(name)}): no such model; there are ${Object.keys(COMMUNITY_SCRIPTS).join(", ")}`);
    }
    if (version === undefined) return this.load(COMMUNITY_SCRIPTS[model]);
    // "name@version": a model that plays several versions reads the one asked for from CommunityModelVersion, a line put
    // in front of its file (roundmaster@5.052)
    const source = `var CommunityModelVersion = ${JSON.stringify(version)};\n${fileText(COMMUNITY_SCRIPTS[model])}`;
    return this.loadSource(source, `${model}.js`);
  }

  loadSource(source, name = `script${this.scripts.length + 1}.js`) {
    if (this._isReady) throw new HarnessError(`load ${name} before ready(): Roll20 loads every script, then fires ready (use restart() to reload)`);
    const lines = lineCount(source);
    const entry = { name, source, offset: this._lineOffset, lines };
    this.scripts.push(entry);
    this._lineOffset += lines;
    this._runSource(entry);
    return this;
  }

  _runSource(entry) {
    let script;
    try {
      script = new vm.Script(entry.source, { filename: "apiscript.js", lineOffset: entry.offset });
    } catch (error) {
      this._crash(error, `loading ${entry.name}`);
      return;
    }
    this._runScript(`loading ${entry.name}`, () => script.runInContext(this._context));
  }

  /**
   * Evaluate an expression in the sandbox (e.g. "Surprise.version"; errors throw to the test) and copy its value into
   * the caller's realm, so node:assert compares it with ordinary literals
   */
  read(code) {
    return structuredClone(vm.runInContext(code, this._context));
  }

  /** A copy of `state` in the caller's realm */
  stateSnapshot() {
    return structuredClone(this._context.state);
  }

  _log(args) {
    const text = args.map((a) => (typeof a === "string" ? a : describe(a))).join(" ");
    this.logs.push(text);
    if (process.env.SANDBOX_LOG) console.error(text);
  }

  // -------------------------------------------------------------------------------------------
  // Events (Mod:Events; docs/dev/roll20.md §2)

  _on(event, handler) {
    if (typeof event !== "string" || typeof handler !== "function") {
      throw new TypeError(`on(event, handler) needs an event name and a function, got ${describe(event)}, ${describe(handler)}`);
    }
    this._checkEventName(event);
    this._handlers.push({ event, handler, script: this._callingScript() });
  }

  /**
   * The scripts whose handlers of `event` run, in the order they run (binding order, Mod:Events): a script's name
   * once per handler it bound ("file.js" as loaded; undefined for a handler bound by no script code)
   */
  handlersOf(event) {
    return this._handlers.filter((h) => h.event === event).map((h) => h.script);
  }

  /** Warn about an event that never fires here: a name Roll20 does not have, or one no emulated action fires */
  _checkEventName(event) {
    if (FIRED_EVENTS.includes(event)) return;
    const hint = /^change:graphic:status_/.test(event)
      ? "there are no per-marker events; listen to change:graphic:statusmarkers (docs/dev/roll20.md §2)"
      : `not a Roll20 event (docs/dev/roll20.md §2), or not emulated: only ${FIRED_EVENTS.join(", ")} fire`;
    this._warn("event", `on(${JSON.stringify(event)}): it never fires; ${hint}`);
  }

  /** Run the handlers of one event in binding order (Mod:Events "Event Ordering") */
  _dispatch(event, args) {
    const handlers = this._handlers.filter((h) => h.event === event);
    for (const { handler } of handlers) {
      if (this.crashed) break;
      this._runScript(event, () => handler(...args));
    }
  }

  /** Fire the events of a user change: each changed property's event, then one general event (docs/dev/roll20.md §2) */
  _fireChange(record, changed, prev) {
    for (const key of changed) this._dispatch(`change:${record.type}:${key}`, [record.wrapper, prev]);
    this._dispatch(`change:${record.type}`, [record.wrapper, prev]);
  }

  /** Fire `ready`, once the scripts are loaded (no add:<type> events: none is emulated) */
  ready() {
    if (this._isReady) throw new HarnessError("ready() was already fired; use restart() to reload the scripts");
    this._isReady = true;
    this._dispatch("ready", []);
    return this;
  }

  /**
   * Restart the sandbox as Roll20 does after a script change or a crash: state is saved as JSON
   * (docs/dev/roll20.md §1: keep it JSON-serialisable) and reloaded, the game objects stay, every script runs
   * again and ready fires again. Pending callbacks are dropped.
   */
  restart() {
    for (const problem of this.checkState()) this._error("state", problem);
    let saved;
    try {
      saved = JSON.parse(JSON.stringify(this._context.state ?? {}));
    } catch (error) {
      this._error("state", `state could not be saved as JSON: ${error.message}; it is lost`);
      saved = {};
    }
    this._handlers = [];
    this._tasks = [];
    this._timers = [];
    this._isReady = false;
    this.crashed = false;
    this._newContext(saved);
    for (const entry of this.scripts) this._runSource(entry);
    this.ready();
    return this;
  }

  /** List what would not survive the JSON round trip of `state` (functions, NaN, Dates, cycles, objects of classes…) */
  checkState() {
    const problems = [];
    const seen = new Set();
    const visit = (value, where) => {
      if (value === null || typeof value === "string" || typeof value === "boolean" || value === undefined) return;
      if (typeof value === "number") {
        if (!Number.isFinite(value)) problems.push(`state${where} is ${value}; JSON saves it as null`);
        return;
      }
      if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") {
        problems.push(`state${where} is a ${typeof value}; it does not survive a restart (state must be JSON)`);
        return;
      }
      if (seen.has(value)) {
        problems.push(`state${where} is a circular reference; state cannot be saved as JSON`);
        return;
      }
      if (value instanceof Roll20Object) {
        problems.push(`state${where} is a Roll20 object; store its id instead`);
        return;
      }
      if (!Array.isArray(value) && !isPlainObject(value)) {
        problems.push(`state${where} is a ${Object.prototype.toString.call(value).slice(8, -1)}; it does not survive a restart as itself`);
        return;
      }
      seen.add(value);
      for (const [k, v] of Object.entries(value)) visit(v, Array.isArray(value) ? `${where}[${k}]` : `${where}.${k}`);
      seen.delete(value);
    };
    visit(this._context.state, "");
    return problems;
  }

  // -------------------------------------------------------------------------------------------
  // Asynchronous work: API-sent messages and sendChat callbacks arrive later, not within the call (tasks), and
  // timers fire on a virtual clock

  _queue(what, fn) {
    this._tasks.push({ what, fn });
  }

  /**
   * setTimeout(callback, delay, ...args) as Node, which runs the Mod sandbox, has it: a delay outside 1..2^31-1 ms
   * (0, negative, NaN) is 1 ms, and the callback gets the extra arguments. The clock is virtual: the timer fires in
   * settle(), never on its own. Returns a handle for clearTimeout.
   */
  _setTimeout(callback, delay, args) {
    if (typeof callback !== "function") {
      throw new TypeError(`setTimeout(callback, delay): the callback must be a function, got ${describe(callback)}`);
    }
    let ms = Number(delay);
    if (!(ms >= 1 && ms <= TIMEOUT_MAX)) ms = 1;
    this._timerSeq += 1;
    const script = this._callingScriptLater();
    let what;
    const timer = {
      id: this._timerSeq, due: this._clock + ms, fn: () => callback(...args),
      get what() {
        if (what === undefined) {
          const name = script();
          what = `setTimeout(${ms} ms)${name ? ` from ${name}` : ""}`;
        }
        return what;
      },
    };
    this._timers.push(timer);
    return this._toScript({ timer: timer.id });
  }

  /** clearTimeout(handle): the timer never fires; an unknown or spent handle (or undefined) is ignored, as in Node */
  _clearTimeout(handle) {
    const id = handle !== null && typeof handle === "object" ? handle.timer : undefined;
    this._timers = this._timers.filter((timer) => timer.id !== id);
  }

  /** The virtual time in ms: how far settle() has run the clock (it starts at 0) */
  get clock() {
    return this._clock;
  }

  /**
   * Run everything queued and every timer, and what they queue in turn, deterministically: first the tasks, in the
   * order queued; when none is left, the earliest timer (by due time, then by creation), the clock moving to its due
   * time. So every message and callback sent so far arrives before any timer fires (harness choice [U]: Roll20's delays
   * are not documented), and a timer set in a handler fires after every handler of that event has run.
   */
  async settle() {
    for (let n = 0; ; n++) {
      await new Promise((resolve) => setImmediate(resolve));
      let step = this._tasks.shift();
      if (!step) {
        const timer = this._takeNextTimer();
        if (!timer) return this;
        this._clock = timer.due;
        step = timer;
      }
      if (n > 10000) throw new HarnessError(`settle(): more than 10000 tasks and timers; a script is looping (last: ${step.what})`);
      this._runScript(() => step.what, step.fn);
    }
  }

  _takeNextTimer() {
    if (this._timers.length === 0) return undefined;
    const next = this._timers.reduce((a, b) => (b.due < a.due || (b.due === a.due && b.id < a.id) ? b : a));
    this._timers = this._timers.filter((timer) => timer !== next);
    return next;
  }

  // -------------------------------------------------------------------------------------------
  // Finding objects

  _findObjs(attrs, opts = {}) {
    if (!isPlainObject(attrs)) throw new TypeError(`findObjs(attrs) needs an object, got ${describe(attrs)}`);
    const caseInsensitive = opts?.caseInsensitive === true;
    const norm = (v) => (caseInsensitive && typeof v === "string" ? v.toLowerCase() : v);
    const entries = Object.entries(attrs);
    const found = this._live().filter((record) => entries.every(([prop, wanted]) => {
      const key = this._key(record, prop);
      // Values compare strictly ("5" does not match 5); caseInsensitive lowers strings only (harness choice)
      return key !== undefined && norm(record.attrs[key]) === norm(wanted);
    }));
    return this._realm.Array.from(found.map((r) => r.wrapper));
  }

  /** getObj returns null when there is no such object of that type (index.d.ts) */
  _getObj(type, id) {
    const record = this._records.get(id);
    if (!record || record.removed || record.type !== type) return null;
    return record.wrapper;
  }

  /** Test-side look-ups (same semantics as the script's) */
  getObj(type, id) {
    return this._getObj(type, id);
  }

  findObjs(attrs, opts) {
    return Array.from(this._findObjs(attrs, opts));
  }

  get campaign() {
    return this._campaign.wrapper;
  }

  // -------------------------------------------------------------------------------------------
  // Attributes (docs/dev/roll20.md §1 getAttrByName; §7)

  /**
   * getAttrByName(characterId, name): the attribute's current value, else what the sheet gives for an attribute never
   * created (docs/dev/roll20.md §1: sheet defaults). Names match exactly (harness choice); "max" and repeating rows,
   * which the script never asks for, are not emulated.
   */
  _getAttrByName(characterId, name, valueType) {
    if (valueType !== undefined && valueType !== "current") {
      throw new HarnessError(`getAttrByName(…, ${describe(name)}, ${describe(valueType)}): only "current" is emulated`);
    }
    const character = this._records.get(characterId);
    if (!character || character.removed || character.type !== "character") {
      this._warn("script", `getAttrByName(${describe(characterId)}, ${describe(name)}): no such character`);
      return undefined;
    }
    if (/^repeating_/.test(String(name))) throw new HarnessError(`getAttrByName(…, ${describe(name)}): repeating sections are not emulated`);
    const record = this._live().find((r) => r.type === "attribute" && r.attrs._characterid === characterId && r.attrs.name === name);
    return record ? record.attrs.current : Object.hasOwn(this.sheetDefaults, name) ? this.sheetDefaults[name] : undefined;
  }

  // -------------------------------------------------------------------------------------------
  // Test-side creation: objects already in the game, made silently (no event)

  _seed(type, attrs) {
    return this._create(type, attrs, (m) => {
      throw new HarnessError(m);
    }).wrapper;
  }

  /**
   * A token on the sandbox's page, on the token layer ("objects") unless `layer` says otherwise, one grid square
   * (70 px) large (harness choices); other graphic properties may be given (imgsrc, left, top, showplayers_name…)
   */
  createToken({ name = "", represents = "", controlledby = "", statusmarkers = "", layer = "objects", width = 70, height = 70, ...more } = {}) {
    return this._seed("graphic", {
      _subtype: "token", name, represents, controlledby, _pageid: this.page.id, statusmarkers, layer, width, height, ...more,
    });
  }

  /** Another page of the game, as the GM adds one (Gaslight keeps each player's copy of the map on a page of its own) */
  createPage(name = "") {
    return this._addRecord("page", { name }).wrapper;
  }

  /**
   * A character with attributes: {name: value}. Values are stored as strings, as the sheet stores what players
   * type (harness choice [I]; index.d.ts types current as string).
   */
  createCharacter({ name = "", controlledby = "", attributes = {} } = {}) {
    const character = this._seed("character", { name, controlledby });
    for (const [attrName, value] of Object.entries(attributes)) {
      this._seed("attribute", { _characterid: character.id, name: attrName, current: String(value) });
    }
    return character;
  }

  /** The turn order as an array ("" is [], docs/dev/roll20.md §4) */
  turnorder() {
    const raw = this._campaign.attrs.turnorder;
    if (raw === "" || raw === undefined || raw === null) return [];
    if (typeof raw !== "string") throw new HarnessError(`Campaign turnorder is not a string: ${describe(raw)}`);
    return JSON.parse(raw);
  }

  // -------------------------------------------------------------------------------------------
  // Assertions

  /**
   * Throw unless the run was clean: no errors (crashes, undeliverable chat, state problems, dice
   * mistakes), no warnings (unless allowWarnings), no unused scripted dice and nothing left to run.
   */
  assertClean({ allowWarnings = false } = {}) {
    const problems = [];
    for (const e of this.errors) problems.push(`error [${e.kind}] ${e.message}${e.where ? ` at ${e.where}` : ""}${e.stack ? `\n${e.stack}` : ""}`);
    if (!allowWarnings) for (const w of this.warnings) problems.push(`warning [${w.kind}] ${w.message}`);
    if (this._dice.length > 0) problems.push(`unused scripted dice: ${this._dice.join(", ")}`);
    if (this._tasks.length > 0) problems.push(`tasks not run yet (await sandbox.settle()): ${this._tasks.map((t) => t.what).join("; ")}`);
    if (this._timers.length > 0) problems.push(`timers not fired yet (await sandbox.settle()): ${this._timers.map((t) => t.what).join("; ")}`);
    if (problems.length > 0) {
      const error = new Error(`Roll20 sandbox not clean:\n  ${problems.join("\n  ")}`);
      error.name = "AssertionError";
      throw error;
    }
    return this;
  }
}
Object.assign(Sandbox.prototype, chatMethods);
