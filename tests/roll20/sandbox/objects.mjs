// The Roll20 object model the script touches: types and defaults (Mod:Objects; index.d.ts property lists),
// the object wrapper scripts hold, and the status marker string (docs/dev/roll20.md §5).

/** createObj can create these types only (docs/dev/roll20.md §1; index.d.ts createObj remarks) */
export const CREATABLE_TYPES = Object.freeze([
  "graphic", "text", "path", "character", "ability", "attribute", "handout", "rollabletable", "tableitem", "macro",
]);

/** Every object type the event names may use (index.d.ts Roll20ObjectType) */
export const OBJECT_TYPES = Object.freeze([
  ...CREATABLE_TYPES, "campaign", "player", "page", "card", "hand", "deck", "jukeboxtrack", "custfx", "door", "window",
]);

/** The seven colour dots; with `dead` the only built-in markers of a current game (docs/dev/roll20.md §5) */
export const COLOUR_MARKERS = Object.freeze(["red", "blue", "green", "brown", "purple", "pink", "yellow"]);

export const LAYERS = ["gmlayer", "objects", "map", "walls", "foreground"];

/** Default property values of the emulated types (Mod:Objects tables; property names from index.d.ts) */
export const DEFAULTS = {
  campaign: {
    turnorder: "", initiativepage: false, playerpageid: false, playerspecificpages: false,
    _journalfolder: "", _jukeboxfolder: "", _token_markers: "[]",
  },
  player: {
    _d20userid: "", _displayname: "", _online: true, _lastpage: "", _macrobar: "", speakingas: "",
    color: "#13B9F0", showmacrobar: false,
  },
  page: { _zorder: "", name: "", width: 25, height: 25, archived: false, showgrid: true, scale_number: 5, scale_units: "ft" },
  graphic: {
    _subtype: "token", _cardid: "", _pageid: "", imgsrc: "", represents: "", left: 0, top: 0, width: 70, height: 70,
    rotation: 0, layer: "", isdrawing: false, flipv: false, fliph: false, name: "", gmnotes: "", tooltip: "",
    show_tooltip: false, controlledby: "", bar1_link: "", bar2_link: "", bar3_link: "", bar1_value: "",
    bar2_value: "", bar3_value: "", bar1_max: "", bar2_max: "", bar3_max: "", aura1_radius: "", aura2_radius: "",
    tint_color: "transparent", statusmarkers: "", showname: false, showplayers_name: false, lastmove: "",
    sides: "", currentSide: 0, lockMovement: false,
  },
  character: {
    avatar: "", name: "", bio: "", gmnotes: "", archived: false, inplayerjournals: "", controlledby: "",
    _defaulttoken: "",
  },
  attribute: { _characterid: "", name: "Untitled", current: "", max: "" },
  ability: { _characterid: "", name: "Untitled_Ability", description: "", action: "", istokenaction: false },
  macro: { _playerid: "", name: "", action: "", visibleto: "", istokenaction: false },
};

/** Properties read only through the asynchronous get(prop, callback) (Mod:Function/Roll20_object "get [Asynchronous]") */
export const ASYNC_PROPS = { character: ["bio", "gmnotes"] };

/** A property that must name its parent when created (docs/dev/roll20.md §6: `_characterid` is mandatory) (harness choice for graphic) */
export const REQUIRED_ON_CREATE = { attribute: ["_characterid"], ability: ["_characterid"], graphic: ["_pageid"] };
export const PARENT_TYPE = { _characterid: "character", _pageid: "page" };

// ---------------------------------------------------------------------------------------------
// Small helpers

/** Tell whether a value is a plain object of any realm */
export function isPlainObject(value) {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** Freeze deeply: messages and prev objects are read-only for scripts (harness choice) */
export function deepFreeze(value) {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Copy JSON data */
export function jsonClone(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** Describe a value for a message */
export function describe(value) {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "function") return `function ${value.name || "(anonymous)"}`;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** Decode the HTML entities a browser would decode in an href or a chosen query option */
export function decodeEntities(text) {
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
// Status markers (docs/dev/roll20.md §5)

/** Parse a statusmarkers string: comma list of `tag` or `tag@N`; order kept, a tag may repeat */
export function parseStatusMarkers(value) {
  if (value === undefined || value === null || value === "") return [];
  return String(value).split(",").filter((entry) => entry !== "").map((entry) => {
    const at = entry.lastIndexOf("@");
    if (at < 0) return { tag: entry, badge: null };
    return { tag: entry.slice(0, at), badge: entry.slice(at + 1) };
  });
}

/** Write parsed entries back as a statusmarkers string */
export function formatStatusMarkers(entries) {
  return entries.map(({ tag, badge }) => (badge === null || badge === undefined ? tag : `${tag}@${badge}`)).join(",");
}

/** get("status_<tag>"): false, true or the badge string (docs/dev/roll20.md §5) */
export function statusGet(markers, tag) {
  const entry = parseStatusMarkers(markers).find((e) => e.tag === tag);
  if (!entry) return false;
  return entry.badge === null ? true : entry.badge;
}

/** Apply set("status_<tag>", value) to a statusmarkers string (docs/dev/roll20.md §5); `known` are the valid tags */
export function statusApply(markers, tag, value, known, warn) {
  const entries = parseStatusMarkers(markers);
  const index = entries.findIndex((e) => e.tag === tag);
  if (value === false || value === null || value === undefined || value === "" || value === "false") {
    return formatStatusMarkers(entries.filter((e) => e.tag !== tag));
  }
  let badge = null;
  const numeric = typeof value === "number" ? value : typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : null;
  if (numeric !== null && tag !== "dead") {
    // N is 0-9 (docs/dev/roll20.md §5); out-of-range and 0 are [U] on Roll20's side: clamp and warn (harness choice)
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
  if (!known.has(tag)) {
    warn(`status_${tag}: "${tag}" is not a colour, dead, or a tag of Campaign token_markers (custom markers are referenced as Name::id)`);
  }
  // [U] how Roll20 updates a repeated tag; the first occurrence is updated in place, badge replaced (harness choice)
  if (index >= 0) entries[index] = { tag, badge };
  else entries.push({ tag, badge });
  return formatStatusMarkers(entries);
}

/** Check a whole statusmarkers string: known tags, no badge on dead, badges 0-9 */
export function checkMarkersString(value, known, warn) {
  if (typeof value !== "string") {
    warn(`statusmarkers must be a comma-separated string, got ${describe(value)}`);
    return;
  }
  for (const { tag, badge } of parseStatusMarkers(value)) {
    if (!known.has(tag)) warn(`statusmarkers: "${tag}" is not a colour, dead, or a tag of Campaign token_markers`);
    if (badge !== null && tag === "dead") warn(`statusmarkers: "dead" never has a number (got dead@${badge})`);
    if (badge !== null && !/^\d$/.test(badge)) warn(`statusmarkers: badge of ${tag} must be 0-9, got ${JSON.stringify(badge)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The object scripts hold

export class Roll20Object {
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
   * Graphic `status_<tag>` returns false, true or the badge string (docs/dev/roll20.md §5).
   */
  get(prop, callback) {
    return this.#sandbox._objGet(this.#record, prop, callback);
  }

  /** set(prop, value) or set({prop: value, …}); script changes fire no events (docs/dev/roll20.md §2) */
  set(propOrAttrs, value) {
    const changes = typeof propOrAttrs === "string" ? { [propOrAttrs]: value } : propOrAttrs;
    this.#sandbox._scriptSet(this.#record, changes);
    return this;
  }

  /** Remove the object; a script removal fires no destroy event (docs/dev/roll20.md §2) */
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
