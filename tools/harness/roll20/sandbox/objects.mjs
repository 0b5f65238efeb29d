// The Roll20 object model the script touches: types and defaults (Mod:Objects; index.d.ts property lists),
// the object wrapper scripts hold, and the status marker string (docs/dev/roll20.md §5).

/** createObj can create these types only (docs/dev/roll20.md §1; index.d.ts createObj remarks) */
export const CREATABLE_TYPES = Object.freeze([
  "graphic", "text", "path", "character", "ability", "attribute", "handout", "rollabletable", "tableitem", "macro",
]);

/** The seven colour dots; with `dead` the only built-in markers of a current game (docs/dev/roll20.md §5) */
export const COLOUR_MARKERS = Object.freeze(["red", "blue", "green", "brown", "purple", "pink", "yellow"]);

/**
 * The properties of the emulated types, with their defaults (Mod:Objects tables; names from index.d.ts): those the
 * script and the tests read or write. Reading or writing any other is flagged: it is a typo, or not emulated.
 */
export const DEFAULTS = {
  // initiativepage: the tracker's page, or false when it is closed; playerpageid: the players' page (the sandbox sets it
  // to its one page [I]: every game has a player page)
  campaign: { turnorder: "", initiativepage: false, playerpageid: false, _token_markers: "[]" },
  player: { _displayname: "" },
  page: { name: "" },
  // layer is one of gmlayer, objects, map, walls (index.d.ts); "" until set (Mod:Objects default [U]). The placement,
  // bar and showplayers properties are those the community script models (tools/harness/roll20/community/) read and write.
  graphic: {
    _subtype: "token", _pageid: "", imgsrc: "", name: "", represents: "", controlledby: "", statusmarkers: "", layer: "",
    left: 0, top: 0, width: 0, height: 0, lastmove: "", bar1_value: "", bar1_max: "", bar2_value: "", bar2_max: "",
    bar3_value: "", bar3_max: "", showplayers_name: false, showplayers_aura1: false, showplayers_aura2: false,
  },
  character: { name: "", controlledby: "" },
  attribute: { _characterid: "", name: "Untitled", current: "" },
  macro: { _playerid: "", name: "", action: "", visibleto: "", istokenaction: false },
};

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
function formatStatusMarkers(entries) {
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
  if (value === false) return formatStatusMarkers(entries.filter((e) => e.tag !== tag));
  let badge = null;
  if (Number.isInteger(value) && tag !== "dead") {
    // N is 0-9 (docs/dev/roll20.md §5); out-of-range and 0 are [U] on Roll20's side: clamp and warn (harness choice)
    const n = Math.min(9, Math.max(0, value));
    if (n !== value) warn(`status_${tag} = ${value}: badges are 0-9; clamped to ${n}`);
    else if (n === 0) warn(`status_${tag} = 0: a 0 badge is unverified on Roll20 (shown or removed?); use false to remove or true for no badge`);
    badge = String(n);
  } else if (value !== true && !Number.isInteger(value)) {
    // The script sends a count, true or false; anything else (NaN, "3", null) is a mistake (harness choice)
    warn(`status_${tag} = ${typeof value === "number" ? value : describe(value)}: expected a whole number, true or false; treated as true`);
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
   * get(prop): the leading underscore of a read-only property is optional (Mod:Function/Roll20_object); the
   * asynchronous get(prop, callback) of a character's bio and notes is not emulated.
   * Graphic `status_<tag>` returns false, true or the badge string (docs/dev/roll20.md §5).
   */
  get(prop) {
    return this.#sandbox._objGet(this.#record, prop);
  }

  /** set(prop, value) or set({prop: value, …}); script changes fire no events (docs/dev/roll20.md §2) */
  set(propOrAttrs, value) {
    const changes = typeof propOrAttrs === "string" ? { [propOrAttrs]: value } : propOrAttrs;
    this.#sandbox._scriptSet(this.#record, changes);
    return this;
  }

  /** remove(): delete the object from the game (index.d.ts Roll20Object.remove); a script's removal fires no event */
  remove() {
    this.#sandbox._scriptRemove(this.#record);
  }
}
