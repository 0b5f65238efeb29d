// Node emulation of the Roll20 Mod (API) sandbox, for testing the script ambush generates.
//
// Sources (no Roll20 server code exists publicly; none was read):
//   - /work/shared/ROLL20.md (the project's platform facts; cited as "ROLL20.md §n");
//   - Roll20/roll20-api-scripts `.types/index.d.ts` (official type definitions; cited as "index.d.ts");
//   - https://wiki.roll20.net/Mod:Objects, Mod:Events, Mod:Chat, Mod:Function/Roll20_object and
//     https://help.roll20.net/hc/en-us/articles/360037256754-API-Chat (cited as "Mod:Objects" etc.).
// Where the documentation is silent the emulation picks the STRICTER reading, so that wrong script
// code fails, and says so in a comment marked "(harness choice)". Marks [I] and [U] are ROLL20.md's:
// inferred from scripts' behaviour, and unverified.
//
// Usage (see harness.test.mjs for every behaviour):
//   const sb = createSandbox({ players: [{ id: "-GM", displayname: "Gina", isGM: true }] });
//   sb.createToken({ name: "Orc" });
//   sb.load("dist/x/roll20/Surprise.js");
//   sb.ready();
//   sb.user.chat("-GM", "!surprise --help");
//   await sb.settle();           // sendChat callbacks, API-sent commands and timers run here
//   sb.assertClean();            // no crash, no warning, no unused scripted dice

import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";

// ---------------------------------------------------------------------------------------------
// Object model (Mod:Objects; index.d.ts property lists)

/** createObj can create these types only (ROLL20.md §1; index.d.ts createObj remarks) */
export const CREATABLE_TYPES = Object.freeze([
  "graphic", "text", "path", "character", "ability", "attribute", "handout", "rollabletable", "tableitem", "macro",
]);

/** Every object type the event names may use (index.d.ts Roll20ObjectType) */
export const OBJECT_TYPES = Object.freeze([
  ...CREATABLE_TYPES, "campaign", "player", "page", "card", "hand", "deck", "jukeboxtrack", "custfx", "door", "window",
]);

/** The seven colour dots; with `dead` the only built-in markers of a current game (ROLL20.md §5) */
export const COLOUR_MARKERS = Object.freeze(["red", "blue", "green", "brown", "purple", "pink", "yellow"]);

const LAYERS = ["gmlayer", "objects", "map", "walls", "foreground"];

/** Default property values per type (Mod:Objects tables; property names from index.d.ts) */
const DEFAULTS = {
  campaign: {
    turnorder: "", initiativepage: false, playerpageid: false, playerspecificpages: false,
    _journalfolder: "", _jukeboxfolder: "", _token_markers: "[]",
  },
  player: {
    _d20userid: "", _displayname: "", _online: true, _lastpage: "", _macrobar: "", speakingas: "",
    color: "#13B9F0", showmacrobar: false,
  },
  page: {
    _zorder: "", name: "", width: 25, height: 25, background_color: "#ffffff", archived: false, jukeboxtrigger: "",
    showdarkness: false, fog_opacity: 0.35, showgrid: true, grid_opacity: 0.5, gridcolor: "#C0C0C0",
    grid_type: "square", gridlabels: false, snapping_increment: 1, scale_number: 5, scale_units: "ft",
    diagonaltype: "foure", dynamic_lighting_enabled: false, daylight_mode_enabled: false, daylightModeOpacity: 1,
    explorer_mode: "off", force_lighting_refresh: false, lightupdatedrop: false, showlighting: false,
    lightenforcelos: false, lightrestrictmove: false, lightglobalillum: false,
  },
  graphic: {
    _subtype: "token", _cardid: "", _pageid: "", imgsrc: "", represents: "", left: 0, top: 0, width: 70, height: 70,
    rotation: 0, layer: "", isdrawing: false, flipv: false, fliph: false, name: "", gmnotes: "", tooltip: "",
    show_tooltip: false, controlledby: "", bar1_link: "", bar2_link: "", bar3_link: "", bar1_value: "",
    bar2_value: "", bar3_value: "", bar1_max: "", bar2_max: "", bar3_max: "", bar_location: "overlap_top",
    compact_bar: "", aura1_radius: "", aura2_radius: "", aura1_color: "#FFFF99", aura2_color: "#59E594",
    aura1_square: false, aura2_square: false, tint_color: "transparent", statusmarkers: "", showname: false,
    showplayers_name: false, showplayers_bar1: false, showplayers_bar2: false, showplayers_bar3: false,
    showplayers_aura1: false, showplayers_aura2: false, playersedit_name: true, playersedit_bar1: true,
    playersedit_bar2: true, playersedit_bar3: true, playersedit_aura1: true, playersedit_aura2: true,
    lastmove: "", sides: "", currentSide: 0, lockMovement: false,
  },
  text: {
    _pageid: "", top: 0, left: 0, width: 0, height: 0, text: "", font_size: 16, rotation: 0, color: "rgb(0, 0, 0)",
    font_family: "Arial", layer: "", controlledby: "",
  },
  path: {
    _pageid: "", _path: "", fill: "transparent", stroke: "#000000", rotation: 0, layer: "", stroke_width: 5,
    width: 0, height: 0, top: 0, left: 0, scaleX: 1, scaleY: 1, barrierType: "wall", oneWayReversed: false,
    controlledby: "",
  },
  character: {
    avatar: "", name: "", bio: "", gmnotes: "", archived: false, inplayerjournals: "", controlledby: "",
    _defaulttoken: "",
  },
  attribute: { _characterid: "", name: "Untitled", current: "", max: "" },
  ability: { _characterid: "", name: "Untitled_Ability", description: "", action: "", istokenaction: false },
  handout: {
    avatar: "", name: "Mysterious Note", notes: "", gmnotes: "", inplayerjournals: "", archived: false,
    controlledby: "",
  },
  macro: { _playerid: "", name: "", action: "", visibleto: "", istokenaction: false },
  rollabletable: { name: "new-table", showplayers: true },
  tableitem: { _rollabletableid: "", avatar: "", name: "", weight: 1 },
};

/** Properties read only through the asynchronous get(prop, callback) (Mod:Function/Roll20_object "get [Asynchronous]") */
const ASYNC_PROPS = { character: ["bio", "gmnotes"], handout: ["notes", "gmnotes"] };

/** A property that must name its parent when created (ROLL20.md §6: `_characterid` is mandatory) (harness choice for the rest) */
const REQUIRED_ON_CREATE = {
  attribute: ["_characterid"], ability: ["_characterid"], tableitem: ["_rollabletableid"],
  graphic: ["_pageid"], text: ["_pageid"], path: ["_pageid"],
};
const PARENT_TYPE = { _characterid: "character", _rollabletableid: "rollabletable", _pageid: "page" };

// ---------------------------------------------------------------------------------------------
// Small helpers

function isPlainObject(value) {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null; // plain object of any realm
}

function deepFreeze(value) {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function jsonClone(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function describe(value) {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "function") return `function ${value.name || "(anonymous)"}`;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** Decode the HTML entities a browser would decode in an href or a chosen query option */
function decodeEntities(text) {
  return text
    .replace(/&#(\d+);/g, (_m, code) => String.fromCharCode(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, code) => String.fromCharCode(parseInt(code, 16)))
    .replace(/&quot;/g, "\"").replace(/&apos;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** Errors the harness raises for test misuse or unsupported input, distinct from script errors */
export class HarnessError extends Error {
  constructor(message) {
    super(`roll20 harness: ${message}`);
    this.name = "HarnessError";
  }
}

// ---------------------------------------------------------------------------------------------
// Status markers (ROLL20.md §5)

/** Parse a statusmarkers string: comma list of `tag` or `tag@N`; order kept, a tag may repeat */
export function parseStatusMarkers(value) {
  if (value === undefined || value === null || value === "") return [];
  return String(value).split(",").filter((entry) => entry !== "").map((entry) => {
    const at = entry.lastIndexOf("@");
    if (at < 0) return { tag: entry, badge: null };
    return { tag: entry.slice(0, at), badge: entry.slice(at + 1) };
  });
}

export function formatStatusMarkers(entries) {
  return entries.map(({ tag, badge }) => (badge === null || badge === undefined ? tag : `${tag}@${badge}`)).join(",");
}

// ---------------------------------------------------------------------------------------------
// Dice: a small evaluator of Roll20 roll expressions, producing the documented result shape
// (ROLL20.md §1 inline roll shape; index.d.ts StandardRoll/ModifierRoll/GroupRoll/Results)

const ROLL_FUNCTIONS = { floor: Math.floor, ceil: Math.ceil, round: Math.round, abs: Math.abs };

class RollParser {
  constructor(source, rollDie) {
    this.s = source;
    this.i = 0;
    this.rollDie = rollDie;
    this.rolls = [];
    this.text = "";
  }

  fail(message) {
    throw new HarnessError(`cannot evaluate roll ${JSON.stringify(this.s)}: ${message} at position ${this.i}`);
  }

  ws() {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }

  peek() {
    this.ws();
    return this.s[this.i];
  }

  emitText(t) {
    this.text += t;
  }

  flushText() {
    if (this.text.trim() !== "") this.rolls.push({ type: "M", expr: this.text.replace(/\s+/g, "") });
    this.text = "";
  }

  emitRoll(roll) {
    this.flushText();
    this.rolls.push(roll);
  }

  /** Parse the whole source; trailing text is returned (a /roll comment) or rejected */
  parse({ allowComment }) {
    const total = this.expr();
    this.labels();
    this.ws();
    let comment = "";
    if (this.i < this.s.length) {
      if (!allowComment) this.fail(`unexpected ${JSON.stringify(this.s.slice(this.i))}`);
      comment = this.s.slice(this.i);
    }
    this.flushText();
    if (comment) this.rolls.push({ type: "C", text: comment });
    return { total, rolls: this.rolls, comment };
  }

  expr() {
    let value = this.term();
    for (;;) {
      const c = this.peek();
      if (c !== "+" && c !== "-") return value;
      this.i++;
      this.emitText(c);
      const right = this.term();
      value = c === "+" ? value + right : value - right;
    }
  }

  term() {
    let value = this.factor();
    for (;;) {
      const c = this.peek();
      if (c !== "*" && c !== "/" && c !== "%") return value;
      this.i++;
      this.emitText(c);
      const right = this.factor();
      value = c === "*" ? value * right : c === "/" ? value / right : value % right;
    }
  }

  factor() {
    const c = this.peek();
    if (c === "-" || c === "+") {
      this.i++;
      this.emitText(c);
      const v = this.factor();
      return c === "-" ? -v : v;
    }
    const value = this.primary();
    this.labels();
    return value;
  }

  labels() {
    while (this.peek() === "[") {
      const end = this.s.indexOf("]", this.i);
      if (end < 0) this.fail("unclosed label");
      if (this.s[this.i + 1] === "[") this.fail("nested inline rolls are not emulated");
      this.emitRoll({ type: "L", text: this.s.slice(this.i + 1, end) });
      this.i = end + 1;
    }
  }

  number() {
    this.ws();
    const m = /^\d+(\.\d+)?/.exec(this.s.slice(this.i));
    if (!m) return null;
    this.i += m[0].length;
    return Number(m[0]);
  }

  primary() {
    const c = this.peek();
    if (c === undefined) this.fail("expression ends early");
    if (c === "(") {
      this.i++;
      this.emitText("(");
      const v = this.expr();
      if (this.peek() !== ")") this.fail("missing )");
      this.i++;
      this.emitText(")");
      return v;
    }
    if (c === "{") return this.group();
    const fn = /^(floor|ceil|round|abs)\s*\(/i.exec(this.s.slice(this.i));
    if (fn) {
      this.i += fn[0].length;
      this.emitText(`${fn[1]}(`);
      const v = this.expr();
      if (this.peek() !== ")") this.fail("missing )");
      this.i++;
      this.emitText(")");
      return ROLL_FUNCTIONS[fn[1].toLowerCase()](v);
    }
    if (c === "?" || c === "@" || c === "%" || c === "&") this.fail(`unresolved ${c}{…} (a query or reference the sender did not resolve)`);
    const start = this.i;
    let count = this.number();
    if (this.s[this.i] === "d" || this.s[this.i] === "D") {
      if (count === null) count = 1;
      return this.dice(count);
    }
    if (count === null) this.fail(`unexpected ${JSON.stringify(this.s.slice(this.i, this.i + 10))}`);
    this.emitText(this.s.slice(start, this.i).trim());
    return count;
  }

  dice(count) {
    this.i++; // the "d"
    let sides;
    if (this.s[this.i] === "%") {
      this.i++;
      sides = 100;
    } else if (this.s[this.i] === "F" || this.s[this.i] === "f") {
      this.fail("fate dice are not emulated");
    } else {
      const m = /^\d+/.exec(this.s.slice(this.i));
      if (!m) this.fail("missing number of sides");
      this.i += m[0].length;
      sides = Number(m[0]);
    }
    if (!Number.isInteger(count) || count < 0 || count > 1000) this.fail(`bad dice count ${count}`);
    if (sides < 1) this.fail("a die needs at least one side");
    const results = [];
    for (let n = 0; n < count; n++) results.push({ v: this.rollDie(sides) });
    const mods = this.diceMods();
    const roll = { type: "R", dice: count, sides, results };
    if (mods.keep || mods.drop || mods.customCrit || mods.customFumble) roll.mods = {};
    if (mods.customCrit) roll.mods.customCrit = mods.customCrit;
    if (mods.customFumble) roll.mods.customFumble = mods.customFumble;
    const selector = mods.keep ?? mods.drop;
    if (selector) {
      const kind = mods.keep ? "keep" : "drop";
      roll.mods[kind] = selector;
      markDropped(results, kind, selector);
    }
    this.emitRoll(roll);
    return results.filter((r) => !r.d).reduce((sum, r) => sum + r.v, 0);
  }

  diceMods() {
    const mods = {};
    for (;;) {
      const rest = this.s.slice(this.i);
      let m;
      if ((m = /^(kh|kl|k|dh|dl|d)(\d*)/i.exec(rest)) && !/^d\d*[d%]/i.test(rest)) {
        this.i += m[0].length;
        const op = m[1].toLowerCase();
        const count = m[2] === "" ? 1 : Number(m[2]);
        if (op.startsWith("k")) mods.keep = { count, end: op === "kl" ? "l" : "h" };
        else mods.drop = { count, end: op === "dh" ? "h" : "l" };
      } else if ((m = /^(cs|cf)([<>=]?)(\d+)/i.exec(rest))) {
        this.i += m[0].length;
        const entry = [{ comparison: m[2] || "==", point: Number(m[3]) }];
        if (m[1].toLowerCase() === "cs") mods.customCrit = entry;
        else mods.customFumble = entry;
      } else if (/^(!|r|ro|>|<|=|s|m|t)/i.test(rest) && rest !== "" && !/^\s/.test(rest)) {
        this.fail(`dice modifier ${JSON.stringify(rest.slice(0, 4))} is not emulated`);
      } else {
        return mods;
      }
    }
  }

  group() {
    this.i++; // "{"
    this.flushText();
    const outerRolls = this.rolls;
    const subRolls = [];
    const values = [];
    for (;;) {
      this.rolls = [];
      this.text = "";
      values.push(this.expr());
      this.flushText();
      subRolls.push(this.rolls);
      const c = this.peek();
      if (c === ",") {
        this.i++;
        continue;
      }
      if (c === "}") {
        this.i++;
        break;
      }
      this.fail("missing } of a group");
    }
    this.rolls = outerRolls;
    this.text = "";
    const results = values.map((v) => ({ v }));
    const rest = this.s.slice(this.i);
    const m = /^(kh|kl|k|dh|dl)(\d*)/i.exec(rest);
    const roll = { type: "G", rolls: subRolls, results, resultType: "sum" };
    if (m) {
      this.i += m[0].length;
      const op = m[1].toLowerCase();
      const count = m[2] === "" ? 1 : Number(m[2]);
      const kind = op.startsWith("k") ? "keep" : "drop";
      const selector = { count, end: op === "kl" || op === "dl" ? "l" : "h" };
      roll.mods = { [kind]: selector };
      markDropped(results, kind, selector);
    } else if (/^[<>]/.test(rest)) {
      this.fail("group success counting is not emulated");
    }
    this.emitRoll(roll);
    return results.filter((r) => !r.d).reduce((sum, r) => sum + r.v, 0);
  }
}

function markDropped(results, kind, { count, end }) {
  const order = results.map((r, index) => ({ v: r.v, index }))
    .sort((a, b) => (end === "h" ? b.v - a.v : a.v - b.v) || a.index - b.index);
  const chosen = new Set(order.slice(0, count).map((o) => o.index));
  results.forEach((r, index) => {
    const dropped = kind === "keep" ? !chosen.has(index) : chosen.has(index);
    if (dropped) r.d = true;
  });
}

/**
 * Evaluate a roll expression (no `[[ ]]`, attributes and queries already resolved).
 * Returns the documented Results object: {type:"V", resultType:"sum", rolls, total}.
 * Supported: NdX, d%, kh/kl/k/dh/dl, cs/cf (recorded, no effect on the total), + - * / %, parentheses,
 * floor/ceil/round/abs, [labels], groups {a, b}kh1. Anything else throws a HarnessError.
 */
export function evaluateRoll(expression, rollDie, { allowComment = false } = {}) {
  // Validate first with dummy dice, so a malformed roll consumes no scripted faces
  new RollParser(String(expression), () => 1).parse({ allowComment });
  const parser = new RollParser(String(expression), rollDie);
  const { total, rolls, comment } = parser.parse({ allowComment });
  const results = { type: "V", resultType: "sum", rolls, total };
  return { results, comment };
}

/** Find `[[ … ]]` inline rolls (labels `[X]` allowed inside; nested inline rolls rejected) */
function findInlineRolls(content) {
  const found = [];
  let i = 0;
  for (;;) {
    const start = content.indexOf("[[", i);
    if (start < 0) return found;
    let depth = 0;
    let j = start + 2;
    let end = -1;
    for (; j < content.length; j++) {
      const ch = content[j];
      if (ch === "[") {
        if (content[j + 1] === "[") throw new HarnessError(`nested inline rolls are not emulated: ${content}`);
        depth++;
      } else if (ch === "]") {
        if (depth > 0) depth--;
        else if (content[j + 1] === "]") {
          end = j;
          break;
        }
      }
    }
    if (end < 0) return found; // an unclosed [[ is plain text
    found.push({ start, end: end + 2, expression: content.slice(start + 2, end) });
    i = end + 2;
  }
}

// ---------------------------------------------------------------------------------------------
// A small underscore.js subset (ROLL20.md §1: `_` is underscore.js). Unknown members throw, so a
// script using something not emulated fails loudly instead of silently.

function makeUnderscore(sandboxTimers) {
  const iteratee = (f) => {
    if (typeof f === "function") return f;
    if (f === undefined || f === null) return (x) => x;
    if (typeof f === "string") return (x) => (x === null || x === undefined ? undefined : x[f]);
    if (typeof f === "object") return (x) => x !== null && x !== undefined && Object.keys(f).every((k) => x[k] === f[k]);
    return (x) => x;
  };
  const entries = (list) => (Array.isArray(list) || typeof list === "string"
    ? Array.from(list).map((v, i) => [v, i]) : Object.keys(list ?? {}).map((k) => [list[k], k]));
  const isEqual = (a, b) => {
    if (a === b) return true;
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && isEqual(a[k], b[k]));
  };
  const flatten = (list, shallow) => list.reduce((out, v) => out.concat(Array.isArray(v) && !shallow ? flatten(v) : v), []);
  const u = {
    each: (list, f, ctx) => {
      for (const [v, k] of entries(list)) f.call(ctx, v, k, list);
      return list;
    },
    map: (list, f, ctx) => entries(list).map(([v, k]) => iteratee(f).call(ctx, v, k, list)),
    filter: (list, f, ctx) => entries(list).filter(([v, k]) => iteratee(f).call(ctx, v, k, list)).map(([v]) => v),
    reject: (list, f, ctx) => entries(list).filter(([v, k]) => !iteratee(f).call(ctx, v, k, list)).map(([v]) => v),
    find: (list, f, ctx) => entries(list).find(([v, k]) => iteratee(f).call(ctx, v, k, list))?.[0],
    findWhere: (list, attrs) => u.find(list, attrs),
    where: (list, attrs) => u.filter(list, attrs),
    pluck: (list, key) => u.map(list, key),
    reduce: (list, f, ...rest) => {
      const [memo, ctx] = rest;
      const items = entries(list);
      let acc = memo;
      let start = 0;
      if (rest.length === 0) {
        acc = items[0]?.[0];
        start = 1;
      }
      for (let n = start; n < items.length; n++) acc = f.call(ctx, acc, items[n][0], items[n][1], list);
      return acc;
    },
    some: (list, f) => entries(list).some(([v, k]) => iteratee(f)(v, k, list)),
    every: (list, f) => entries(list).every(([v, k]) => iteratee(f)(v, k, list)),
    contains: (list, value) => entries(list).some(([v]) => v === value),
    max: (list, f) => {
      const it = iteratee(f);
      let best = -Infinity;
      let bestValue = -Infinity;
      for (const [v, k] of entries(list)) {
        const c = it(v, k, list);
        if (c > bestValue) [best, bestValue] = [v, c];
      }
      return best;
    },
    min: (list, f) => {
      const it = iteratee(f);
      let best = Infinity;
      let bestValue = Infinity;
      for (const [v, k] of entries(list)) {
        const c = it(v, k, list);
        if (c < bestValue) [best, bestValue] = [v, c];
      }
      return best;
    },
    sortBy: (list, f) => entries(list).map(([v, k], index) => ({ v, index, c: iteratee(f)(v, k, list) }))
      .sort((a, b) => (a.c < b.c ? -1 : a.c > b.c ? 1 : a.index - b.index)).map((o) => o.v),
    groupBy: (list, f) => entries(list).reduce((out, [v, k]) => {
      const key = iteratee(f)(v, k, list);
      (out[key] ??= []).push(v);
      return out;
    }, {}),
    indexBy: (list, f) => entries(list).reduce((out, [v, k]) => ({ ...out, [iteratee(f)(v, k, list)]: v }), {}),
    countBy: (list, f) => entries(list).reduce((out, [v, k]) => {
      const key = iteratee(f)(v, k, list);
      out[key] = (out[key] ?? 0) + 1;
      return out;
    }, {}),
    partition: (list, f) => [u.filter(list, f), u.reject(list, f)],
    size: (list) => entries(list).length,
    toArray: (list) => entries(list).map(([v]) => v),
    first: (list, n) => (n === undefined ? list?.[0] : Array.from(list).slice(0, n)),
    last: (list, n) => (n === undefined ? list?.[list.length - 1] : Array.from(list).slice(Math.max(0, list.length - n))),
    rest: (list, n = 1) => Array.from(list).slice(n),
    initial: (list, n = 1) => Array.from(list).slice(0, Math.max(0, list.length - n)),
    compact: (list) => Array.from(list).filter(Boolean),
    flatten: (list, shallow) => flatten(Array.from(list), shallow),
    without: (list, ...values) => Array.from(list).filter((v) => !values.includes(v)),
    union: (...lists) => [...new Set(lists.flat())],
    intersection: (first, ...rest) => [...new Set(first)].filter((v) => rest.every((l) => l.includes(v))),
    difference: (list, ...others) => Array.from(list).filter((v) => !others.flat().includes(v)),
    uniq: (list, _sorted, f) => {
      const it = iteratee(typeof _sorted === "function" ? _sorted : f);
      const seen = new Set();
      return Array.from(list).filter((v, i) => {
        const key = it(v, i, list);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    },
    zip: (...lists) => Array.from({ length: Math.max(0, ...lists.map((l) => l.length)) }, (_v, i) => lists.map((l) => l[i])),
    object: (list, values) => Object.fromEntries(values ? list.map((k, i) => [k, values[i]]) : list),
    range: (start, stop, step = 1) => {
      if (stop === undefined) [start, stop] = [0, start];
      const out = [];
      for (let v = start; step > 0 ? v < stop : v > stop; v += step) out.push(v);
      return out;
    },
    indexOf: (list, value) => Array.from(list).indexOf(value),
    findIndex: (list, f) => Array.from(list).findIndex((v, i) => iteratee(f)(v, i, list)),
    findKey: (obj, f) => Object.keys(obj).find((k) => iteratee(f)(obj[k], k, obj)),
    keys: (obj) => (obj && typeof obj === "object" ? Object.keys(obj) : []),
    allKeys: (obj) => (obj && typeof obj === "object" ? Object.keys(obj) : []),
    values: (obj) => Object.values(obj ?? {}),
    pairs: (obj) => Object.entries(obj ?? {}),
    invert: (obj) => Object.fromEntries(Object.entries(obj).map(([k, v]) => [v, k])),
    mapObject: (obj, f) => Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, iteratee(f)(v, k, obj)])),
    extend: (target, ...sources) => Object.assign(target, ...sources),
    defaults: (target, ...sources) => {
      for (const s of sources) for (const k of Object.keys(s ?? {})) if (target[k] === undefined) target[k] = s[k];
      return target;
    },
    pick: (obj, ...keys) => Object.fromEntries(flatten(keys).filter((k) => obj && k in obj).map((k) => [k, obj[k]])),
    omit: (obj, ...keys) => {
      const drop = new Set(flatten(keys));
      return Object.fromEntries(Object.entries(obj ?? {}).filter(([k]) => !drop.has(k)));
    },
    clone: (obj) => (Array.isArray(obj) ? obj.slice() : obj && typeof obj === "object" ? { ...obj } : obj),
    has: (obj, key) => obj !== null && obj !== undefined && Object.hasOwn(obj, key),
    isEqual,
    isEmpty: (obj) => (obj === null || obj === undefined ? true
      : Array.isArray(obj) || typeof obj === "string" ? obj.length === 0 : Object.keys(obj).length === 0),
    isArray: Array.isArray,
    isObject: (v) => typeof v === "function" || (typeof v === "object" && v !== null),
    isFunction: (v) => typeof v === "function",
    isString: (v) => typeof v === "string",
    isNumber: (v) => typeof v === "number",
    isFinite: (v) => typeof v === "number" && Number.isFinite(v),
    isBoolean: (v) => v === true || v === false,
    isNaN: (v) => typeof v === "number" && Number.isNaN(v),
    isNull: (v) => v === null,
    isUndefined: (v) => v === undefined,
    identity: (v) => v,
    constant: (v) => () => v,
    noop: () => undefined,
    times: (n, f, ctx) => Array.from({ length: n }, (_v, i) => f.call(ctx, i)),
    escape: (s) => String(s ?? "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#x27;").replace(/`/g, "&#x60;"),
    unescape: (s) => decodeEntities(String(s ?? "")),
    result: (obj, key) => (typeof obj?.[key] === "function" ? obj[key]() : obj?.[key]),
    once: (f) => {
      let done = false;
      let value;
      return (...args) => {
        if (!done) [done, value] = [true, f(...args)];
        return value;
      };
    },
    bind: (f, ctx, ...args) => f.bind(ctx, ...args),
    partial: (f, ...bound) => (...args) => f(...bound, ...args),
    delay: (f, wait, ...args) => sandboxTimers.setTimeout(f, wait, ...args),
    defer: (f, ...args) => sandboxTimers.setTimeout(f, 0, ...args),
    debounce: (f, wait) => {
      let timer = null;
      return (...args) => {
        if (timer !== null) sandboxTimers.clearTimeout(timer);
        timer = sandboxTimers.setTimeout(() => {
          timer = null;
          f(...args);
        }, wait);
      };
    },
    uniqueId: (() => {
      let n = 0;
      return (prefix = "") => `${prefix}${++n}`;
    })(),
  };
  Object.assign(u, {
    forEach: u.each, collect: u.map, select: u.filter, detect: u.find, inject: u.reduce, foldl: u.reduce,
    any: u.some, all: u.every, include: u.contains, includes: u.contains, head: u.first, take: u.first,
    tail: u.rest, drop: u.rest, unique: u.uniq, extendOwn: u.extend, assign: u.extend,
  });

  const wrap = (value, chained) => {
    const wrapper = { value: () => value, chain: () => wrap(value, true) };
    for (const name of Object.keys(u)) {
      wrapper[name] = (...args) => {
        const result = u[name](value, ...args);
        return chained ? wrap(result, true) : result;
      };
    }
    return new Proxy(wrapper, {
      get(target, key) {
        if (typeof key !== "string" || key in target) return target[key];
        throw new HarnessError(`_(…).${key} is not emulated by the harness's underscore subset`);
      },
    });
  };
  u.chain = (value) => wrap(value, true);
  const underscore = (value) => wrap(value, false);
  Object.assign(underscore, u);
  return new Proxy(underscore, {
    get(target, key) {
      if (typeof key !== "string" || key in target) return target[key];
      throw new HarnessError(`_.${key} is not emulated by the harness's underscore subset`);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Roll20 objects

class Roll20Object {
  #sandbox;
  #record;

  constructor(sandbox, record) {
    this.#sandbox = sandbox;
    this.#record = record;
  }

  /** obj.id is a shortcut for obj.get("_id") (Mod:Objects) */
  get id() {
    return this.#record.attrs._id;
  }

  /**
   * get(prop): the leading underscore of a read-only property is optional (Mod:Function/Roll20_object).
   * Graphic `status_<tag>` returns false, true or the badge string (ROLL20.md §5).
   * Character bio/gmnotes and handout notes/gmnotes need a callback (Mod:Function/Roll20_object "get [Asynchronous]").
   */
  get(prop, callback) {
    return this.#sandbox._objGet(this.#record, prop, callback);
  }

  /** set(prop, value) or set({prop: value, …}); script changes fire no events (ROLL20.md §2) */
  set(propOrAttrs, value) {
    const changes = typeof propOrAttrs === "string" ? { [propOrAttrs]: value } : propOrAttrs;
    this.#sandbox._scriptSet(this.#record, changes);
    return this;
  }

  /** Attributes only: the same as set, and runs sheet workers (there are none here) (Mod:Function/Roll20_object) */
  setWithWorker(propOrAttrs, value) {
    if (this.#record.type !== "attribute") {
      this.#sandbox._warn("misuse", `setWithWorker() called on a ${this.#record.type}; it exists on attributes only`);
    }
    return this.set(propOrAttrs, value);
  }

  /** Remove the object; a script removal fires no destroy event (ROLL20.md §2) */
  remove() {
    this.#sandbox._scriptRemove(this.#record);
  }

  /** JSON.stringify / log(obj) print the properties (harness choice [I]: Roll20 objects serialise to their attributes) */
  toJSON() {
    return jsonClone(this.#record.attrs);
  }

  get [Symbol.toStringTag]() {
    return `Roll20 ${this.#record.type} ${this.#record.attrs._id}`;
  }
}

// ---------------------------------------------------------------------------------------------
// The sandbox

const DEFAULT_GM = { id: "-Mh0000000000000GM01", displayname: "GM", isGM: true };

/**
 * Create an emulated Roll20 Mod sandbox with its game (campaign, players, one page).
 *
 * Options:
 *   players        [{id, displayname, isGM}] (default: one GM, id "-Mh0000000000000GM01", named "GM")
 *   campaign       {turnorder: "" | array, initiativepage: false | pageid, token_markers: JSON string | array,
 *                   playerpageid}
 *   randomInteger  undefined (default: dice come only from sandbox.scriptDice, running out is an error),
 *                  a function (max) => 1..max used when no scripted face is queued, or a number seed for a
 *                  deterministic built-in generator
 *   sheetDefaults  {attrName: value | {current, max}}: what getAttrByName and @{…} return for attributes never
 *                  created (ROLL20.md §1)
 *   attrNamesCaseInsensitive  false (default, harness choice): getAttrByName and @{…} match attribute names exactly
 *   gmWhoSuffix    true (default): a GM's chat messages have who "Name (GM)" [I: scripts strip / \(GM\)$/]
 *   echo           false: also print log() output and errors to the console
 */
export function createSandbox(options = {}) {
  return new Sandbox(options);
}

class Sandbox {
  constructor({
    players = [DEFAULT_GM],
    campaign = {},
    randomInteger,
    sheetDefaults = {},
    attrNamesCaseInsensitive = false,
    gmWhoSuffix = true,
    echo = false,
  } = {}) {
    this.options = { attrNamesCaseInsensitive, gmWhoSuffix, echo };
    this.sheetDefaults = { ...sheetDefaults };
    /** Every message posted by sendChat without a callback: {who, speakingAs, type, content, text, raw, whisperTo, target, options, inlinerolls, …} */
    this.chat = [];
    /** Messages a sendChat callback received instead of posting (same shape) */
    this.callbackChat = [];
    /** Every chat:message delivered to the scripts, user and API alike (the frozen message objects, in order) */
    this.chatLog = [];
    /** log() output, one string per call */
    this.logs = [];
    /** Crashes and other faults that make a test fail: {kind, message, event?, where?, error?} */
    this.errors = [];
    /** Dubious but non-fatal behaviour (assertClean fails on these too unless allowed): {kind, message} */
    this.warnings = [];
    /** Every event dispatched: {event, objectId?, handlers} */
    this.events = [];
    this.scripts = [];

    this._records = new Map(); // id -> record {type, attrs, removed, wrapper}
    this._idCounter = 0;
    this._handlers = [];
    this._isReady = false;
    this.crashed = false;
    this._dice = [];
    this._tasks = [];
    this._taskSeq = 0;
    this.now = 0;
    this._lineOffset = 0;
    this._players = new Map();
    this._randomSource = this._makeRandomSource(randomInteger);

    // The game
    this._campaign = this._addRecord("campaign", { ...DEFAULTS.campaign }, "root");
    this.page = this._addRecord("page", { ...DEFAULTS.page, name: "Page 1" }).wrapper;
    const campaignAttrs = this._campaign.attrs;
    campaignAttrs.playerpageid = campaign.playerpageid ?? this.page.id;
    if (campaign.turnorder !== undefined) {
      campaignAttrs.turnorder = typeof campaign.turnorder === "string" ? campaign.turnorder : JSON.stringify(campaign.turnorder);
    }
    if (campaign.initiativepage !== undefined) campaignAttrs.initiativepage = campaign.initiativepage;
    const markers = campaign.token_markers ?? campaign._token_markers;
    if (markers !== undefined) campaignAttrs._token_markers = typeof markers === "string" ? markers : JSON.stringify(markers);
    for (const p of players) this.addPlayer(p);

    this._newContext({});
    this.user = this._makeUser();
  }

  // -------------------------------------------------------------------------------------------
  // Recording

  _error(kind, message, extra = {}) {
    const entry = { kind, message, ...extra };
    this.errors.push(entry);
    if (this.options.echo) console.error(`[roll20 ${kind}] ${message}`);
    return entry;
  }

  _warn(kind, message) {
    this.warnings.push({ kind, message });
    if (this.options.echo) console.warn(`[roll20 warning ${kind}] ${message}`);
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

  /** Map a line of the concatenated script bundle back to its file (Roll20 runs all scripts as one file) */
  _where(error) {
    const m = /apiscript\.js:(\d+)(?::(\d+))?/.exec(String(error?.stack ?? ""));
    if (!m) return undefined;
    const line = Number(m[1]);
    const script = this.scripts.find((s) => line > s.offset && line <= s.offset + s.lines);
    return script ? `${script.name}:${line - script.offset}${m[2] ? `:${m[2]}` : ""}` : `apiscript.js:${line}`;
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

  /** Run script code; any exception (or rejected promise) crashes the sandbox */
  _runScript(context, fn) {
    if (this.crashed) {
      this.events.push({ event: context, dropped: "sandbox crashed" });
      return undefined;
    }
    try {
      const result = fn();
      if (result && typeof result.then === "function") {
        result.then(undefined, (error) => this._crash(error, `${context} (async)`));
      }
      return result;
    } catch (error) {
      this._crash(error, context);
      return undefined;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Dice

  _makeRandomSource(option) {
    if (typeof option === "function") return option;
    if (typeof option === "number") {
      let a = option >>> 0; // mulberry32
      return (max) => {
        a = (a + 0x6D2B79F5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
        return 1 + Math.floor(r * max);
      };
    }
    return null;
  }

  /** Queue die faces; randomInteger and every die of every roll take them in order */
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

  /** One die of `max` sides from the scripted queue (or the configured generator) */
  _roll(max, what) {
    if (!Number.isInteger(max) || max < 1) {
      const message = `${what}: max must be a positive integer, got ${describe(max)}`;
      this._error("misuse", message);
      throw new HarnessError(message);
    }
    if (this._dice.length > 0) {
      const face = this._dice.shift();
      if (face > max) {
        const message = `${what}: the next scripted face ${face} is larger than ${max}`;
        this._error("dice", message);
        throw new HarnessError(message);
      }
      return face;
    }
    if (this._randomSource) return this._randomSource(max);
    const message = `${what}: no scripted dice left (queue faces with sandbox.scriptDice(...))`;
    this._error("dice", message);
    throw new HarnessError(message);
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

  _knownTags() {
    const tags = new Set([...COLOUR_MARKERS, "dead"]);
    for (const marker of this._tokenMarkers()) if (marker && typeof marker.tag === "string") tags.add(marker.tag);
    return tags;
  }

  _tokenMarkers() {
    try {
      const parsed = JSON.parse(this._campaign.attrs._token_markers || "[]");
      return Array.isArray(parsed) ? parsed : [];
    } catch {
      return [];
    }
  }

  /** Values crossing into script code are made in the script realm (so `instanceof Array` etc. hold) */
  _toScript(value) {
    if (value === null || typeof value !== "object") return value;
    return this._realm.JSON.parse(JSON.stringify(value));
  }

  _snapshot(record) {
    return deepFreeze(this._toScript(record.attrs));
  }

  _objGet(record, prop, callback) {
    if (typeof prop !== "string") return undefined;
    if (record.type === "graphic" && prop.startsWith("status_")) return this._statusGet(record, prop.slice(7));
    const key = this._key(record, prop);
    if ((ASYNC_PROPS[record.type] ?? []).includes(prop.replace(/^_/, ""))) {
      if (typeof callback !== "function") {
        this._warn("misuse", `${record.type}.get(${JSON.stringify(prop)}) needs a callback: that property is read asynchronously`);
        return undefined;
      }
      const value = record.attrs[key];
      this._queue(`${record.type}.get(${JSON.stringify(prop)}) callback`, () => callback(value));
      return undefined;
    }
    return key === undefined ? undefined : this._toScript(record.attrs[key]);
  }

  _statusGet(record, tag) {
    const entry = parseStatusMarkers(record.attrs.statusmarkers).find((e) => e.tag === tag);
    if (!entry) return false;
    return entry.badge === null ? true : entry.badge;
  }

  /** Apply status_<tag> = value to a statusmarkers string (ROLL20.md §5) */
  _statusApply(markers, tag, value, warn) {
    const entries = parseStatusMarkers(markers);
    const index = entries.findIndex((e) => e.tag === tag);
    if (value === false || value === null || value === undefined || value === "" || value === "false") {
      return formatStatusMarkers(entries.filter((e) => e.tag !== tag));
    }
    let badge = null;
    const numeric = typeof value === "number" ? value : typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : null;
    if (numeric !== null && tag !== "dead") {
      // N is 0-9 (ROLL20.md §5); out-of-range and 0 are [U] on Roll20's side: clamp and warn (harness choice)
      let n = Math.trunc(numeric);
      if (n !== numeric) warn(`status_${tag} = ${value}: badges are whole numbers; truncated to ${n}`);
      if (n > 9 || n < 0) {
        const clamped = Math.min(9, Math.max(0, n));
        warn(`status_${tag} = ${value}: badges are 0-9; clamped to ${clamped}`);
        n = clamped;
      } else if (n === 0) {
        warn(`status_${tag} = 0: a 0 badge is unverified on Roll20 (shown or removed?); use false to remove or true for no badge`);
      }
      badge = String(n);
    } else if (value !== true && value !== "true" && numeric === null) {
      warn(`status_${tag} = ${describe(value)}: expected a number, true or false; treated as true`);
    }
    if (!this._knownTags().has(tag)) {
      warn(`status_${tag}: "${tag}" is not a colour, dead, or a tag of Campaign token_markers (custom markers are referenced as Name::id)`);
    }
    // [U] how Roll20 updates a repeated tag; the first occurrence is updated in place, badge replaced (harness choice)
    if (index >= 0) entries[index] = { tag, badge };
    else entries.push({ tag, badge });
    return formatStatusMarkers(entries);
  }

  _checkMarkersString(value, warn) {
    if (typeof value !== "string") {
      warn(`statusmarkers must be a comma-separated string, got ${describe(value)}`);
      return;
    }
    const known = this._knownTags();
    for (const { tag, badge } of parseStatusMarkers(value)) {
      if (!known.has(tag)) warn(`statusmarkers: "${tag}" is not a colour, dead, or a tag of Campaign token_markers`);
      if (badge !== null && tag === "dead") warn(`statusmarkers: "dead" never has a number (got dead@${badge})`);
      if (badge !== null && !/^\d$/.test(badge)) warn(`statusmarkers: badge of ${tag} must be 0-9, got ${JSON.stringify(badge)}`);
    }
  }

  _checkTurnorder(value, warn) {
    if (typeof value !== "string") {
      this._error("misuse", `Campaign turnorder must be a JSON string (ROLL20.md §4), got ${describe(value)}`);
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
        if (typeof row._pageid !== "string" || row._pageid === "") warn(`turnorder row ${i}: token rows must carry _pageid (ROLL20.md §4)`);
        if (row.custom === undefined) warn(`turnorder row ${i}: token rows carry custom: "" (ROLL20.md §4)`);
      }
    });
  }

  /**
   * Compute the attributes after `changes`, reporting problems through `report` (warn for scripts;
   * throw for test code driving user actions). Returns the list of changed keys.
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
        next.statusmarkers = this._statusApply(next.statusmarkers, prop.slice(7), value, report);
        continue;
      }
      if (this._isReadOnly(record, prop)) {
        // "properties that begin with an underscore (_) are read-only and cannot be changed" (Mod:Objects):
        // the value is kept; the attempt is reported (harness choice: ignore + warn)
        report(`${record.type}.set(${JSON.stringify(prop)}): read-only property, not changed`);
        continue;
      }
      if (known && !Object.hasOwn(known, prop) && !Object.hasOwn(record.attrs, prop)) {
        report(`${record.type}.set(${JSON.stringify(prop)}): not a property of ${record.type} objects (Mod:Objects)`);
      }
      if (byScript && record.type === "campaign" && prop === "turnorder") this._checkTurnorder(value, report);
      if (record.type === "graphic" && prop === "statusmarkers") this._checkMarkersString(value, report);
      if (prop === "layer" && value !== "" && !LAYERS.includes(value)) report(`layer must be one of ${LAYERS.join(", ")}, got ${describe(value)}`);
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
    if (!result.next) return;
    record.attrs = result.next;
    // No event: "Changes made by scripts fire no events" (ROLL20.md §2)
  }

  _scriptRemove(record) {
    if (record.removed) return;
    if (["campaign", "player", "page"].includes(record.type)) {
      this._warn("misuse", `${record.type}.remove(): scripts cannot remove a ${record.type}`);
      return;
    }
    this._removeRecord(record);
  }

  _removeRecord(record) {
    record.removed = true;
    // Removing a character takes its attributes and abilities with it (harness choice [I])
    if (record.type === "character") {
      for (const r of this._live()) if ((r.type === "attribute" || r.type === "ability") && r.attrs._characterid === record.attrs._id) r.removed = true;
    }
    if (record.type === "rollabletable") {
      for (const r of this._live()) if (r.type === "tableitem" && r.attrs._rollabletableid === record.attrs._id) r.removed = true;
    }
  }

  /** Create an object (shared by the script's createObj, the test helpers and user actions) */
  _create(type, attrs, report) {
    if (!CREATABLE_TYPES.includes(type)) {
      throw new HarnessError(`createObj(${JSON.stringify(type)}): only ${CREATABLE_TYPES.join(", ")} can be created (ROLL20.md §1)`);
    }
    if (attrs !== undefined && !isPlainObject(attrs)) throw new HarnessError(`createObj(${type}) takes an object of properties`);
    const values = { ...DEFAULTS[type] };
    for (const [prop, value] of Object.entries(attrs ?? {})) {
      if (["_id", "id", "_type", "type"].includes(prop)) continue;
      // Read-only properties may be given at creation, with or without the underscore (ROLL20.md §6: playerid or _playerid)
      const key = Object.hasOwn(values, prop) ? prop : Object.hasOwn(values, `_${prop}`) ? `_${prop}` : prop;
      if (!Object.hasOwn(DEFAULTS[type], key) && !(type === "graphic" && key.startsWith("status_"))) {
        report(`createObj(${type}): ${JSON.stringify(prop)} is not a property of ${type} objects (Mod:Objects)`);
      }
      if (type === "graphic" && key.startsWith("status_")) continue;
      values[key] = value !== null && typeof value === "object" ? jsonClone(value) : value;
    }
    for (const required of REQUIRED_ON_CREATE[type] ?? []) {
      const parent = this._records.get(values[required]);
      if (!values[required] || !parent || parent.removed || parent.type !== PARENT_TYPE[required]) {
        throw new HarnessError(`createObj(${type}): ${required} must be the id of an existing ${PARENT_TYPE[required]}, got ${describe(values[required])}`);
      }
    }
    if (type === "graphic" && values.statusmarkers) this._checkMarkersString(values.statusmarkers, report);
    const record = this._addRecord(type, values);
    if (type === "graphic") {
      for (const [prop, value] of Object.entries(attrs ?? {})) {
        if (prop.startsWith("status_")) record.attrs.statusmarkers = this._statusApply(record.attrs.statusmarkers, prop.slice(7), value, report);
      }
    }
    return record;
  }

  // -------------------------------------------------------------------------------------------
  // Scripts and the context

  _newContext(stateValue) {
    const sb = this;
    const timers = {
      setTimeout: (fn, ms = 0, ...args) => sb._setTimer(fn, ms, args, false),
      clearTimeout: (id) => sb._clearTimer(id),
      setInterval: (fn, ms = 0, ...args) => sb._setTimer(fn, ms, args, true),
      clearInterval: (id) => sb._clearTimer(id),
    };
    const globals = {
      on: (event, handler) => sb._on(event, handler),
      sendChat: (speakingAs, input, callback, opts) => sb._sendChat(speakingAs, input, callback, opts),
      findObjs: (attrs, opts) => sb._findObjs(attrs, opts),
      getObj: (type, id) => sb._getObj(type, id),
      filterObjs: (fn) => sb._realm.Array.from(sb._live().map((r) => r.wrapper).filter((o) => fn(o))),
      getAllObjs: () => sb._realm.Array.from(sb._live().map((r) => r.wrapper)),
      createObj: (type, attrs) => sb._create(type, attrs, (m) => sb._warn("script", m)).wrapper,
      Campaign: () => sb._campaign.wrapper,
      log: (...args) => sb._log(args),
      randomInteger: (max) => sb._roll(max, `randomInteger(${describe(max)})`),
      playerIsGM: (playerid) => sb._players.get(playerid)?.isGM === true,
      getAttrByName: (characterId, name, valueType) => sb._getAttrByName(characterId, name, valueType),
      toFront: (obj) => sb._recordOf(obj) && undefined,
      toBack: (obj) => sb._recordOf(obj) && undefined,
      ...timers,
      state: undefined,
      _: makeUnderscore(timers),
    };
    this._context = vm.createContext(globals, { name: "roll20-mod-sandbox" });
    this._realm = vm.runInContext("({ Array, Object, JSON })", this._context);
    // Math.random works but is not how Roll20 scripts roll dice (index.d.ts randomInteger: "the same
    // functionality that Roll20 uses to power its dice rolls"); flagged so tests stay deterministic (harness choice)
    const warnRandom = () => sb._warn("script", "Math.random() used: roll with randomInteger() (scriptable, no modulo bias)");
    vm.runInContext("(warn) => { const r = Math.random; Math.random = function random() { warn(); return r(); }; }", this._context)(warnRandom);
    this._context.state = this._toScript(stateValue);
  }

  /** The `state` object scripts see; assign a plain object to seed it (e.g. an old schema) */
  get state() {
    return this._context.state;
  }

  set state(value) {
    this._context.state = this._toScript(jsonClone(value ?? {}));
  }

  /**
   * Load a plain (non-module) script file. Roll20 concatenates every script into one file
   * (hence the API_Meta line-offset idiom, ROLL20.md §3): line numbers continue across scripts and
   * top-level const/let names are shared.
   */
  load(scriptPath) {
    const source = fs.readFileSync(scriptPath, "utf8");
    return this.loadSource(source, path.basename(scriptPath));
  }

  loadSource(source, name = `script${this.scripts.length + 1}.js`) {
    if (this._isReady) throw new HarnessError(`load ${name} before ready(): Roll20 loads every script, then fires ready (use restart() to reload)`);
    const lines = source.split("\n").length;
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

  /** Evaluate an expression in the sandbox (e.g. "Surprise.version"); errors throw to the test */
  evaluate(code) {
    return vm.runInContext(code, this._context);
  }

  /**
   * Evaluate and copy the value into the caller's realm (structuredClone), so node:assert's deepStrictEqual
   * compares it with ordinary literals; functions cannot be copied
   */
  read(code) {
    return structuredClone(this.evaluate(code));
  }

  /** A copy of `state` in the caller's realm */
  stateSnapshot() {
    return structuredClone(this._context.state);
  }

  _log(args) {
    const text = args.map((a) => (typeof a === "string" ? a : describe(a))).join(" ");
    this.logs.push(text);
    if (this.options.echo) console.log(`[roll20 log] ${text}`);
  }

  // -------------------------------------------------------------------------------------------
  // Events (Mod:Events; ROLL20.md §2)

  _on(event, handler) {
    if (typeof event !== "string" || typeof handler !== "function") {
      throw new TypeError(`on(event, handler) needs an event name and a function, got ${describe(event)}, ${describe(handler)}`);
    }
    this._checkEventName(event);
    this._handlers.push({ event, handler });
  }

  _checkEventName(event) {
    if (event === "ready" || event === "chat:message") return;
    const m = /^(change|add|destroy):([a-z]+)(?::(.+))?$/.exec(event);
    if (!m || !OBJECT_TYPES.includes(m[2])) {
      this._warn("event", `on(${JSON.stringify(event)}): not a Roll20 event name; it never fires`);
      return;
    }
    const [, kind, type, prop] = m;
    if (prop !== undefined && kind !== "change") {
      this._warn("event", `on(${JSON.stringify(event)}): only change events have a property part; it never fires`);
    } else if (prop !== undefined && type === "graphic" && prop.startsWith("status_")) {
      this._warn("event", `on(${JSON.stringify(event)}): there are no per-marker events; listen to change:graphic:statusmarkers (ROLL20.md §2)`);
    } else if (prop !== undefined && DEFAULTS[type] && !Object.hasOwn(DEFAULTS[type], prop)) {
      this._warn("event", `on(${JSON.stringify(event)}): ${type} has no property ${JSON.stringify(prop)}; it never fires`);
    } else if ((kind === "add" || kind === "destroy") && type === "campaign") {
      this._warn("event", `on(${JSON.stringify(event)}): the campaign is never added or destroyed`);
    }
  }

  /** Run the handlers of one event in binding order (Mod:Events "Event Ordering") */
  _dispatch(event, args, { objectId } = {}) {
    const handlers = this._handlers.filter((h) => h.event === event);
    this.events.push({ event, objectId, handlers: handlers.length });
    for (const { handler } of handlers) {
      if (this.crashed) break;
      this._runScript(event, () => handler(...args));
    }
  }

  /** Fire the events of a user change: each changed property's event, then one general event */
  _fireChange(record, changed, prev) {
    for (const key of changed) this._dispatch(`change:${record.type}:${key}`, [record.wrapper, prev], { objectId: record.attrs._id });
    this._dispatch(`change:${record.type}`, [record.wrapper, prev], { objectId: record.attrs._id });
  }

  /**
   * Fire `ready`. First every add:<type> handler bound so far gets an event for each existing object
   * ("if you bind to add events before the ready event fires, you will receive add events for any
   * objects that were already present", Mod:Events), then the ready handlers run.
   */
  ready() {
    if (this._isReady) throw new HarnessError("ready() was already fired; use restart() to reload the scripts");
    for (const record of this._live()) {
      if (record.type === "campaign") continue;
      this._dispatch(`add:${record.type}`, [record.wrapper], { objectId: record.attrs._id });
    }
    this._isReady = true;
    this._dispatch("ready", []);
    return this;
  }

  get isReady() {
    return this._isReady;
  }

  /**
   * Restart the sandbox as Roll20 does after a script change or a crash: state is saved as JSON
   * (ROLL20.md §1: keep it JSON-serialisable) and reloaded, the game objects stay, every script runs
   * again and ready fires again. Pending timers and callbacks are dropped.
   */
  restart() {
    const problems = this.checkState();
    for (const problem of problems) this._error("state", problem);
    let saved;
    try {
      saved = JSON.parse(JSON.stringify(this._context.state ?? {}));
    } catch (error) {
      this._error("state", `state could not be saved as JSON: ${error.message}; it is lost`);
      saved = {};
    }
    this._handlers = [];
    this._tasks = [];
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
  // Timers and asynchronous work (sendChat callbacks and API-sent messages arrive asynchronously)

  _queue(what, fn, delay = 0) {
    const task = { id: ++this._taskSeq, due: this.now + Math.max(0, Number(delay) || 0), what, fn, interval: null };
    this._tasks.push(task);
    return task;
  }

  _setTimer(fn, ms, args, repeat) {
    if (typeof fn !== "function") throw new TypeError("setTimeout/setInterval need a function");
    const task = this._queue(repeat ? "setInterval" : "setTimeout", () => fn(...args), ms);
    if (repeat) task.interval = Math.max(1, Number(ms) || 0);
    return task.id;
  }

  _clearTimer(id) {
    this._tasks = this._tasks.filter((t) => t.id !== (typeof id === "object" && id !== null ? id.id : id));
  }

  _nextTask(until) {
    let best = null;
    for (const t of this._tasks) if (t.due <= until && (!best || t.due < best.due || (t.due === best.due && t.id < best.id))) best = t;
    return best;
  }

  _runTask(task) {
    this._tasks = this._tasks.filter((t) => t !== task);
    if (task.interval !== null) this._tasks.push({ ...task, id: ++this._taskSeq, due: task.due + task.interval });
    this._runScript(task.what, task.fn);
  }

  /**
   * Run everything due now: sendChat callbacks, chat:message events of API-sent messages, zero-delay
   * timers and the promises they resolve. Virtual time does not move.
   */
  async settle() {
    for (let n = 0; ; n++) {
      await new Promise((resolve) => setImmediate(resolve));
      const task = this._nextTask(this.now);
      if (!task) return this;
      if (n > 10000) throw new HarnessError(`settle(): more than 10000 tasks; a script is looping (last: ${task.what})`);
      this._runTask(task);
    }
  }

  /** Move virtual time forward by ms, running timers as they fall due */
  async advanceTime(ms) {
    const target = this.now + ms;
    await this.settle();
    for (;;) {
      const task = this._nextTask(target);
      if (!task) break;
      this.now = Math.max(this.now, task.due);
      this._runTask(task);
      await this.settle();
    }
    this.now = target;
    return this.settle();
  }

  /** Tasks not run yet: [{what, due}] */
  pending() {
    return this._tasks.map(({ what, due }) => ({ what, due }));
  }

  // -------------------------------------------------------------------------------------------
  // Finding objects

  _findObjs(attrs, opts = {}) {
    if (!isPlainObject(attrs)) throw new TypeError(`findObjs(attrs) needs an object, got ${describe(attrs)}`);
    const caseInsensitive = opts?.caseInsensitive === true;
    const startsWith = opts?.startsWith === true;
    const norm = (v) => (caseInsensitive && typeof v === "string" ? v.toLowerCase() : v);
    const entries = Object.entries(attrs);
    const found = this._live().filter((record) => entries.every(([prop, wanted]) => {
      const key = this._key(record, prop);
      if (key === undefined) return false;
      const have = record.attrs[key];
      // Values compare strictly ("5" does not match 5); caseInsensitive lowers strings only (harness choice)
      if (startsWith && typeof have === "string" && typeof wanted === "string") return norm(have).startsWith(norm(wanted));
      return norm(have) === norm(wanted);
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
  // Attributes (ROLL20.md §1 getAttrByName; §7)

  _nameMatches(a, b) {
    return this.options.attrNamesCaseInsensitive ? String(a).toLowerCase() === String(b).toLowerCase() : a === b;
  }

  _sheetDefault(name, valueType) {
    const key = Object.keys(this.sheetDefaults).find((k) => this._nameMatches(k, name));
    if (key === undefined) return undefined;
    const value = this.sheetDefaults[key];
    if (isPlainObject(value)) return value[valueType];
    return valueType === "current" ? value : undefined;
  }

  /** The attribute object of a character by name, resolving repeating_<sec>_$<n>_<attr> */
  _findAttribute(characterId, name) {
    const attributes = this._live().filter((r) => r.type === "attribute" && r.attrs._characterid === characterId);
    const repeating = /^repeating_([^_]+)_\$(\d+)_(.+)$/.exec(name);
    if (repeating) {
      const [, section, index, field] = repeating;
      const prefix = `repeating_${section}_`;
      const rows = [];
      for (const r of attributes) {
        if (!r.attrs.name.startsWith(prefix)) continue;
        const rowId = r.attrs.name.slice(prefix.length).split("_")[0];
        if (!rows.includes(rowId)) rows.push(rowId);
      }
      const rowId = rows[Number(index)];
      if (rowId === undefined) return { record: undefined, fieldName: field };
      return { record: attributes.find((r) => this._nameMatches(r.attrs.name, `${prefix}${rowId}_${field}`)), fieldName: field };
    }
    return { record: attributes.find((r) => this._nameMatches(r.attrs.name, name)), fieldName: name };
  }

  _getAttrByName(characterId, name, valueType = "current") {
    if (valueType !== "current" && valueType !== "max") {
      this._warn("script", `getAttrByName(…, ${describe(name)}, ${describe(valueType)}): value_type is "current" or "max"`);
      valueType = "current";
    }
    const character = this._records.get(characterId);
    if (!character || character.removed || character.type !== "character") {
      this._warn("script", `getAttrByName(${describe(characterId)}, ${describe(name)}): no such character`);
      return undefined;
    }
    const { record, fieldName } = this._findAttribute(characterId, String(name));
    if (record) return this._toScript(record.attrs[valueType]);
    return this._sheetDefault(fieldName, valueType);
  }

  // -------------------------------------------------------------------------------------------
  // Chat (Mod:Chat; API-Chat; ROLL20.md §1, §3, §6)

  /** Resolve @{…} references; `selected` are graphic records (user chat) */
  _resolveAttributes(text, { selected = [], origin }) {
    let out = text;
    for (let depth = 0; depth < 20; depth++) {
      const before = out;
      out = out.replace(/@\{([^{}]*)\}/g, (whole, inner) => {
        const parts = inner.split("|");
        if (parts.length === 1) throw new HarnessError(`${origin}: ${whole} without a character works only inside abilities and sheet rolls`);
        const [who, attr, which] = parts;
        let character;
        if (who === "selected") {
          const token = selected[0];
          if (!token) throw new HarnessError(`${origin}: ${whole} needs a selected token`);
          const tokenProps = {
            token_id: token.attrs._id, token_name: token.attrs.name, character_id: token.attrs.represents,
            bar1: token.attrs.bar1_value, bar2: token.attrs.bar2_value, bar3: token.attrs.bar3_value,
            bar1_max: token.attrs.bar1_max, bar2_max: token.attrs.bar2_max, bar3_max: token.attrs.bar3_max,
          };
          if (Object.hasOwn(tokenProps, attr)) return String(tokenProps[attr]);
          character = this._records.get(token.attrs.represents);
          if (!character || character.removed) throw new HarnessError(`${origin}: ${whole}: the selected token represents no character`);
        } else if (who === "target") {
          throw new HarnessError(`${origin}: ${whole}: @{target|…} is not emulated`);
        } else {
          character = this._live().find((r) => r.type === "character" && r.attrs.name === who);
          if (!character) throw new HarnessError(`${origin}: ${whole}: no character named ${JSON.stringify(who)}`);
        }
        if (attr === "character_name") return String(character.attrs.name);
        if (attr === "character_id") return String(character.attrs._id);
        const valueType = which === "max" ? "max" : "current";
        const { record, fieldName } = this._findAttribute(character.attrs._id, attr);
        const value = record ? record.attrs[valueType] : this._sheetDefault(fieldName, valueType);
        if (value === undefined) throw new HarnessError(`${origin}: No attribute was found for ${whole}`);
        return String(value);
      });
      if (out === before) return out;
    }
    throw new HarnessError(`${origin}: attribute references nest too deeply: ${text}`);
  }

  /** %{Name|Ability} / %{selected|Ability} and #macro (user chat only; the API "cannot use macros", Mod:Chat) */
  _resolveAbilitiesAndMacros(text, { selected, origin }) {
    let out = text;
    for (let depth = 0; depth < 20; depth++) {
      const before = out;
      out = out.replace(/%\{([^{}|]*)\|([^{}]*)\}/g, (whole, who, name) => {
        let character;
        if (who === "selected") character = this._records.get(selected[0]?.attrs.represents);
        else character = this._live().find((r) => r.type === "character" && r.attrs.name === who);
        if (!character) throw new HarnessError(`${origin}: ${whole}: no such character`);
        const ability = this._live().find((r) => r.type === "ability" && r.attrs._characterid === character.attrs._id && r.attrs.name === name);
        if (!ability) throw new HarnessError(`${origin}: ${whole}: no such ability`);
        return this._resolveAttributes(String(ability.attrs.action).replace(/@\{(?![^{}]*\|)([^{}]*)\}/g, `@{${character.attrs.name}|$1}`), { selected, origin });
      });
      out = out.replace(/(^|[^&\w])#([A-Za-z0-9_-]+)/g, (whole, lead, name) => {
        const macro = this._live().find((r) => r.type === "macro" && r.attrs.name === name);
        return macro ? `${lead}${macro.attrs.action}` : whole;
      });
      if (out === before) return out;
    }
    throw new HarnessError(`${origin}: macros nest too deeply: ${text}`);
  }

  /** ?{Prompt|default} / ?{Prompt|A|B} / ?{Prompt|Label, value|…}; identical prompts asked once (ROLL20.md §6) */
  _resolveQueries(text, answers, origin) {
    const asked = new Map();
    let out = text;
    for (let depth = 0; depth < 10; depth++) {
      const before = out;
      out = out.replace(/\?\{([^{}]*)\}/g, (whole, inner) => {
        const [prompt, ...options] = inner.split("|");
        if (asked.has(prompt)) return asked.get(prompt);
        let value;
        if (answers && Object.hasOwn(answers, prompt)) {
          value = String(answers[prompt]);
        } else if (options.length === 0) {
          throw new HarnessError(`${origin}: query ${whole} has no default; pass {queries: {${JSON.stringify(prompt)}: …}}`);
        } else {
          const first = options[0];
          const comma = first.indexOf(",");
          value = options.length > 1 && comma >= 0 ? first.slice(comma + 1) : first;
        }
        value = decodeEntities(value);
        asked.set(prompt, value);
        return value;
      });
      if (out === before) return out;
    }
    return out;
  }

  /** Replace [[…]] by $[[n]] and evaluate each (ROLL20.md §3 inline rolls) */
  _inlineRolls(content, origin) {
    const found = findInlineRolls(content);
    if (found.length === 0) return { content, inlinerolls: undefined, trackers: [] };
    const inlinerolls = [];
    const trackers = [];
    let out = "";
    let last = 0;
    for (const [n, { start, end, expression }] of found.entries()) {
      let expr = expression;
      const tracker = /&\{tracker(?::([+-]))?\}/.exec(expr);
      if (tracker) {
        expr = expr.replace(tracker[0], "");
      }
      const { results } = evaluateRoll(expr, (sides) => this._roll(sides, `${origin} [[${expression}]]`));
      if (tracker) trackers.push({ total: results.total, mode: tracker[1] ?? "" });
      this._rollCounter = (this._rollCounter ?? 0) + 1;
      inlinerolls.push({ expression: expr.trim(), results, rollid: `-Roll${String(this._rollCounter).padStart(15, "0")}`, signature: "harness" });
      out += `${content.slice(last, start)}$[[${n}]]`;
      last = end;
    }
    out += content.slice(last);
    return { content: out, inlinerolls, trackers };
  }

  /** Parse a chat line into message fields: type, body, whisper target, roll (ROLL20.md §6 commands) */
  _classify(text) {
    const m = /^\/(w|whisper|em|me|desc|r|roll|gr|gmroll|direct|ooc|talktomyself)\s+([\s\S]*)$/i.exec(text);
    if (text.startsWith("!")) return { type: "api", body: text };
    if (!m) return { type: "general", body: text };
    const command = m[1].toLowerCase();
    const rest = m[2];
    if (command === "w" || command === "whisper") {
      const quoted = /^"([^"]*)"\s?([\s\S]*)$/.exec(rest);
      const [name, body] = quoted ? [quoted[1], quoted[2]] : [/^\S*/.exec(rest)[0], rest.replace(/^\S*\s?/, "")];
      return { type: "whisper", whisperTo: name, body };
    }
    if (command === "em" || command === "me") return { type: "emote", body: rest };
    if (command === "desc") return { type: "desc", body: rest };
    if (command === "r" || command === "roll") return { type: "rollresult", body: rest, roll: true };
    if (command === "gr" || command === "gmroll") return { type: "gmrollresult", body: rest, roll: true };
    if (command === "direct") return { type: "general", body: rest, direct: true };
    return { type: "general", body: rest };
  }

  /** Resolve a whisper name to the target field: a player id, or "gm" (Mod:Chat target) */
  _whisperTarget(name) {
    if (name.toLowerCase() === "gm") return { target: "gm", target_name: "gm" };
    for (const p of this._players.values()) if (p.displayname === name) return { target: p.id, target_name: name };
    const character = this._live().find((r) => r.type === "character" && r.attrs.name === name);
    if (character) {
      const controllers = String(character.attrs.controlledby).split(",").filter((id) => id && id !== "all");
      return { target: controllers.length ? controllers.join(",") : "gm", target_name: name };
    }
    return null;
  }

  _speaker(speakingAs) {
    const s = String(speakingAs ?? "");
    const m = /^(player|character)\|(.+)$/.exec(s);
    if (!m) return s;
    const record = this._records.get(m[2]);
    if (!record || record.removed || record.type !== m[1]) {
      this._warn("script", `sendChat(${JSON.stringify(s)}): no ${m[1]} with that id`);
      return s;
    }
    return m[1] === "player" ? record.attrs._displayname : record.attrs.name;
  }

  /** Build a message object from a processed line; throws HarnessError on unsupported or unresolvable input */
  _buildMessage({ who, playerid, text, origin, selected = [], answers, forcedInlinerolls, allowUserSyntax }) {
    let line = String(text);
    if (allowUserSyntax) line = this._resolveAbilitiesAndMacros(line, { selected, origin });
    else if (/%\{[^{}]*\}/.test(line)) throw new HarnessError(`${origin}: %{…} ability calls are not emulated in sendChat`);
    line = this._resolveAttributes(line, { selected, origin });
    // Queries in API messages stay as text (ROLL20.md §3: buttons sent by scripts may hold ?{…}, asked on click);
    // inside an inline roll they make the roll fail
    if (allowUserSyntax) line = this._resolveQueries(line, answers, origin);
    const kind = this._classify(line);
    const msg = { who, playerid, type: kind.type, content: kind.body };
    let trackers = [];
    if (kind.roll) {
      let expr = kind.body;
      const tracker = /&\{tracker(?::([+-]))?\}/.exec(expr);
      if (tracker) expr = expr.replace(tracker[0], "");
      const { results } = evaluateRoll(expr, (sides) => this._roll(sides, `${origin} /roll ${kind.body}`), { allowComment: true });
      if (tracker) trackers.push({ total: results.total, mode: tracker[1] ?? "" });
      msg.content = JSON.stringify(results);
      msg.origRoll = kind.body;
    } else {
      const rolled = this._inlineRolls(kind.body, origin);
      msg.content = rolled.content;
      trackers = rolled.trackers;
      if (forcedInlinerolls) {
        if (!rolled.inlinerolls || forcedInlinerolls.length !== rolled.inlinerolls.length) {
          throw new HarnessError(`${origin}: {inlinerolls} has ${forcedInlinerolls.length} entries but the content has ${rolled.inlinerolls?.length ?? 0} inline rolls`);
        }
        msg.inlinerolls = jsonClone(forcedInlinerolls);
      } else if (rolled.inlinerolls) {
        msg.inlinerolls = rolled.inlinerolls;
      }
      const template = /&\{template:([^}]*)\}/.exec(msg.content);
      if (template) {
        msg.rolltemplate = template[1];
        msg.content = msg.content.replace(template[0], "").trim(); // [U] whether Roll20 keeps the marker in content
      }
    }
    if (kind.type === "whisper") {
      const resolved = this._whisperTarget(kind.whisperTo);
      if (resolved) Object.assign(msg, resolved);
    }
    return { msg, kind, trackers };
  }

  /** Human-readable text of a message: inline roll totals in place of $[[n]] */
  static renderText(msg) {
    if (msg.type === "rollresult" || msg.type === "gmrollresult") return String(JSON.parse(msg.content).total);
    return String(msg.content).replace(/\$\[\[(\d+)\]\]/g, (whole, n) => {
      const roll = msg.inlinerolls?.[Number(n)];
      return roll ? String(roll.results.total) : whole;
    });
  }

  /**
   * sendChat(speakingAs, input, callback, options) (Mod:Chat; index.d.ts):
   * - with a callback nothing is posted; the callback receives [message] asynchronously, rolls evaluated;
   * - without, the message is posted (recorded in sandbox.chat) and reaches every chat:message handler
   *   asynchronously with playerid "API"; commands ("!…") arrive as type "api" with no selection.
   */
  _sendChat(speakingAs, input, callback, opts) {
    if (typeof input !== "string") {
      this._warn("script", `sendChat(…, ${describe(input)}): the message must be a string`);
    }
    const who = this._speaker(speakingAs);
    const origin = `sendChat(${JSON.stringify(String(speakingAs))})`;
    let built;
    try {
      built = this._buildMessage({ who, playerid: "API", text: String(input ?? ""), origin, allowUserSyntax: false });
    } catch (error) {
      if (!(error instanceof HarnessError)) throw error;
      // Roll20 answers an unusable message with an error instead of delivering it; the test must fail (harness choice)
      this._error("chat", `${error.message} (message: ${JSON.stringify(String(input))})`);
      return;
    }
    const { msg, kind } = built;
    const record = {
      seq: this.chat.length + this.callbackChat.length + 1,
      who,
      speakingAs: String(speakingAs ?? ""),
      playerid: "API",
      type: msg.type,
      raw: String(input ?? ""),
      content: msg.content,
      text: Sandbox.renderText(msg),
      whisperTo: kind.type === "whisper" ? kind.whisperTo : null,
      target: msg.target ?? null,
      options: opts === undefined ? undefined : jsonClone(opts),
      inlinerolls: msg.inlinerolls,
      rolltemplate: msg.rolltemplate,
      origRoll: msg.origRoll,
      direct: kind.direct === true,
    };
    if (typeof callback === "function") {
      this.callbackChat.push(record);
      const ops = deepFreeze(this._toScript([msg]));
      this._queue(`${origin} callback`, () => callback(ops));
      return;
    }
    if (callback !== undefined && callback !== null) this._warn("script", `${origin}: the third argument must be a function or null`);
    if (kind.type === "whisper" && !msg.target) {
      this._error("chat", `${origin}: whisper to ${JSON.stringify(kind.whisperTo)} matches no player or character; nobody receives it (quote names with spaces: /w "Name")`);
    }
    this.chat.push(record);
    const delivered = deepFreeze(this._toScript(msg));
    this._queue(`chat:message from ${origin}`, () => this._deliverChat(delivered));
  }

  _deliverChat(msg) {
    this.chatLog.push(msg);
    this._dispatch("chat:message", [msg]);
  }

  lastChat() {
    return this.chat[this.chat.length - 1];
  }

  /** Posted messages whispered to `name` ("gm" matches /w gm in any case) */
  whispersTo(name) {
    return this.chat.filter((m) => m.whisperTo !== null
      && (name.toLowerCase() === "gm" ? m.whisperTo.toLowerCase() === "gm" : m.whisperTo === name));
  }

  // -------------------------------------------------------------------------------------------
  // Players

  /** Add a player object ({id, displayname, isGM}) */
  addPlayer({ id, displayname = "Player", isGM = false } = {}) {
    const record = this._addRecord("player", { ...DEFAULTS.player, _displayname: displayname }, id ?? this._newId());
    this._players.set(record.attrs._id, { id: record.attrs._id, displayname, isGM });
    return record.wrapper;
  }

  /** Promote or demote a player; playerIsGM reflects it at once (index.d.ts playerIsGM remarks) */
  setGM(playerId, isGM) {
    const p = this._players.get(playerId);
    if (!p) throw new HarnessError(`no player ${playerId}`);
    p.isGM = isGM;
  }

  get players() {
    return [...this._players.values()].map((p) => ({ ...p }));
  }

  // -------------------------------------------------------------------------------------------
  // Test-side creation: objects that exist in the game (before ready they are "existing" objects)

  /** Create any creatable object silently (no event), as if it were already in the game */
  createObj(type, attrs) {
    return this._create(type, attrs, (m) => {
      throw new HarnessError(m);
    }).wrapper;
  }

  createPage(attrs = {}) {
    return this._addRecord("page", { ...DEFAULTS.page, ...attrs }).wrapper;
  }

  /** A token on the page (default: the sandbox's page) on the objects layer */
  createToken({ name = "", represents = "", controlledby = "", pageid, statusmarkers = "", layer = "objects", ...rest } = {}) {
    return this.createObj("graphic", {
      _subtype: "token", name, represents, controlledby, _pageid: pageid ?? this.page.id, statusmarkers, layer, ...rest,
    });
  }

  /**
   * A character with attributes: {name: value | {current, max}}. Values are stored as strings, as the
   * sheet stores what players type (harness choice [I]; index.d.ts types current/max as string).
   */
  createCharacter({ name = "", controlledby = "", attributes = {}, abilities = {}, ...rest } = {}) {
    const character = this.createObj("character", { name, controlledby, ...rest });
    for (const [attrName, value] of Object.entries(attributes)) {
      const { current = "", max = "" } = isPlainObject(value) ? value : { current: value };
      this.createObj("attribute", { _characterid: character.id, name: attrName, current: String(current), max: String(max) });
    }
    for (const [abilityName, action] of Object.entries(abilities)) {
      this.createObj("ability", { _characterid: character.id, name: abilityName, action });
    }
    return character;
  }

  /** The turn order as an array ("" is [], ROLL20.md §4) */
  turnorder() {
    const raw = this._campaign.attrs.turnorder;
    if (raw === "" || raw === undefined || raw === null) return [];
    if (typeof raw !== "string") throw new HarnessError(`Campaign turnorder is not a string: ${describe(raw)}`);
    return JSON.parse(raw);
  }

  // -------------------------------------------------------------------------------------------
  // User actions: the only source of events besides ready and chat

  _makeUser() {
    const sb = this;
    const requireReady = (what) => {
      if (!sb._isReady) throw new HarnessError(`user.${what}() before ready(): the game is still loading`);
    };
    const userChange = (obj, changes, what) => {
      requireReady(what);
      const record = sb._recordOf(obj);
      if (record.removed) throw new HarnessError(`user.${what}(): the object was removed`);
      const prev = sb._snapshot(record);
      const { next, changed } = sb._applyChanges(record, changes, (m) => {
        throw new HarnessError(`user.${what}(): ${m}`);
      });
      if (changed.length === 0) return [];
      record.attrs = next;
      sb._fireChange(record, changed, prev);
      return changed;
    };
    const setCampaign = (changes, what) => userChange(sb._campaign.wrapper, changes, what);

    return {
      /**
       * A player types `content` in chat. Abilities (%{…}), macros (#name), attributes (@{…}), queries
       * (?{…}, answered from options.queries or their default) and inline rolls ([[…]], dice from the
       * scripted queue) are processed as Roll20 does before scripts see the message.
       * options: {selected: [tokens], queries: {prompt: answer}, inlinerolls: [rollData] (replaces the rolled ones)}
       * Returns the delivered message.
       */
      chat(playerId, content, { selected = [], queries, inlinerolls } = {}) {
        requireReady("chat");
        const player = sb._players.get(playerId);
        if (!player) throw new HarnessError(`user.chat(): no player ${describe(playerId)}`);
        const selectedRecords = selected.map((t) => {
          const r = sb._recordOf(t);
          if (r.removed) throw new HarnessError("user.chat(): a selected object was removed");
          return r;
        });
        const who = player.isGM && sb.options.gmWhoSuffix ? `${player.displayname} (GM)` : player.displayname;
        const { msg, kind, trackers } = sb._buildMessage({
          who, playerid: playerId, text: content, origin: `user.chat(${player.displayname})`, selected: selectedRecords,
          answers: queries, forcedInlinerolls: inlinerolls, allowUserSyntax: true,
        });
        if (kind.type === "whisper" && !msg.target) throw new HarnessError(`user.chat(): no player or character named ${kind.whisperTo}`);
        // selected: {_id, _type} stubs, on API commands (ROLL20.md §3; index.d.ts "for api type")
        if (kind.type === "api" && selectedRecords.length > 0) {
          msg.selected = selectedRecords.map((r) => ({ _id: r.attrs._id, _type: r.type }));
        }
        const delivered = deepFreeze(sb._toScript(msg));
        sb._deliverChat(delivered);
        // &{tracker} adds the first selected token to the turn order (ROLL20.md §4; event order after the message [U])
        for (const { total, mode } of trackers) {
          const token = selectedRecords[0];
          if (!token) throw new HarnessError("user.chat(): &{tracker} needs a selected token");
          const rows = sb.turnorder();
          const row = rows.find((r) => r.id === token.attrs._id);
          // pr as a string, like ROLL20.md §4's example row ("pr":"17") [I]: scripts must convert it
          const pr = String(mode === "+" ? Number(row?.pr) + total : mode === "-" ? Number(row?.pr) - total : total);
          if (row) row.pr = pr;
          else rows.push({ id: token.attrs._id, pr, custom: "", _pageid: token.attrs._pageid });
          setCampaign({ turnorder: JSON.stringify(rows) }, "chat");
        }
        return JSON.parse(JSON.stringify(delivered));
      },

      /**
       * A player clicks an API button of a posted message: `<a href="!cmd">label</a>` or `[label](!cmd)`.
       * `label` is the link text or an index; the href's HTML entities are decoded as a browser does.
       */
      clickButton(playerId, message, label, options = {}) {
        const text = typeof message === "string" ? message : message.content;
        const buttons = [];
        for (const m of text.matchAll(/<a\b[^>]*\bhref\s*=\s*(["'])(.*?)\1[^>]*>([\s\S]*?)<\/a>/gi)) {
          buttons.push({ href: decodeEntities(m[2]), label: m[3].replace(/<[^>]*>/g, "").trim() });
        }
        for (const m of text.matchAll(/\[([^\]]*)\]\(([^)]*)\)/g)) buttons.push({ href: m[2], label: m[1].trim() });
        const button = typeof label === "number" ? buttons[label] : buttons.find((b) => b.label === label);
        if (!button) throw new HarnessError(`user.clickButton(): no button ${describe(label)} among ${describe(buttons.map((b) => b.label))}`);
        return this.chat(playerId, button.href, options);
      },

      /** The GM edits the turn order (array or string); fires change:campaign:turnorder then change:campaign */
      setTurnorder(value) {
        return setCampaign({ turnorder: typeof value === "string" ? value : JSON.stringify(value) }, "setTurnorder");
      },

      /**
       * The tracker's Next button: the first row moves to the end. A row reaching the top with a
       * `formula` ("+1"/"-1") has it applied to its pr (ROLL20.md §4 [U]: help text seen only on a mirror).
       */
      advanceTurn() {
        const rows = sb.turnorder();
        if (rows.length === 0) return [];
        rows.push(rows.shift());
        const top = rows[0];
        if (typeof top.formula === "string" && top.formula.trim() !== "") {
          const f = top.formula.trim();
          if (!/^[+-]?\d+(\.\d+)?$/.test(f)) throw new HarnessError(`advanceTurn(): formula ${JSON.stringify(f)} is not emulated`);
          const value = Number(top.pr) + Number(f);
          top.pr = typeof top.pr === "string" ? String(value) : value;
        }
        return setCampaign({ turnorder: JSON.stringify(rows) }, "advanceTurn");
      },

      /** Open the tracker on a page (or close it with false); fires change:campaign:initiativepage */
      setInitiativePage(pageIdOrFalse) {
        return setCampaign({ initiativepage: pageIdOrFalse }, "setInitiativePage");
      },

      /** The GM edits the custom marker set: fires change:campaign:_token_markers (ROLL20.md §5) */
      setTokenMarkers(markers) {
        requireReady("setTokenMarkers");
        const record = sb._campaign;
        const prev = sb._snapshot(record);
        const value = typeof markers === "string" ? markers : JSON.stringify(markers);
        if (value === record.attrs._token_markers) return [];
        record.attrs = { ...record.attrs, _token_markers: value };
        sb._fireChange(record, ["_token_markers"], prev);
        return ["_token_markers"];
      },

      /** A user edits any object (a token, a sheet attribute…); `status_<tag>` keys change statusmarkers */
      change(obj, changes) {
        return userChange(obj, changes, "change");
      },

      changeGraphic(token, changes) {
        if (sb._recordOf(token).type !== "graphic") throw new HarnessError("user.changeGraphic() needs a graphic");
        return userChange(token, changes, "changeGraphic");
      },

      /** A user adds an object (drops a token, creates a character…); fires add:<type> */
      create(type, attrs) {
        requireReady("create");
        const record = sb._create(type, type === "graphic" ? { _pageid: sb.page.id, layer: "objects", ...attrs } : attrs, (m) => {
          throw new HarnessError(`user.create(): ${m}`);
        });
        sb._dispatch(`add:${type}`, [record.wrapper], { objectId: record.attrs._id });
        return record.wrapper;
      },

      /** A user deletes an object; fires destroy:<type> with the removed object (its get() still works) */
      remove(obj) {
        requireReady("remove");
        const record = sb._recordOf(obj);
        if (record.removed) throw new HarnessError("user.remove(): already removed");
        sb._removeRecord(record);
        sb._dispatch(`destroy:${record.type}`, [record.wrapper], { objectId: record.attrs._id });
      },

      deleteGraphic(token) {
        if (sb._recordOf(token).type !== "graphic") throw new HarnessError("user.deleteGraphic() needs a graphic");
        return this.remove(token);
      },
    };
  }

  // -------------------------------------------------------------------------------------------
  // Assertions

  /**
   * Throw unless the run was clean: no errors (crashes, undeliverable chat, state problems, dice
   * mistakes), no warnings, no unused scripted dice and nothing left to run.
   * options: {allowWarnings, allowUnusedDice, allowPending}
   */
  assertClean({ allowWarnings = false, allowUnusedDice = false, allowPending = false } = {}) {
    const problems = [];
    for (const e of this.errors) problems.push(`error [${e.kind}] ${e.message}${e.where ? ` at ${e.where}` : ""}${e.stack ? `\n${e.stack}` : ""}`);
    if (!allowWarnings) for (const w of this.warnings) problems.push(`warning [${w.kind}] ${w.message}`);
    if (!allowUnusedDice && this._dice.length > 0) problems.push(`unused scripted dice: ${this._dice.join(", ")}`);
    if (!allowPending) {
      const due = this._tasks.filter((t) => t.due <= this.now && t.interval === null);
      if (due.length > 0) problems.push(`tasks not run yet (await sandbox.settle()): ${due.map((t) => t.what).join("; ")}`);
    }
    if (problems.length > 0) {
      const error = new Error(`Roll20 sandbox not clean:\n  ${problems.join("\n  ")}`);
      error.name = "AssertionError";
      throw error;
    }
    return this;
  }
}

export { Roll20Object, Sandbox };
