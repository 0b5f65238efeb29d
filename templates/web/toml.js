// Reading a scenario file: TOML 1.0 (https://toml.io/en/v1.0.0) read as Python's tomllib reads it for `ambush odds`,
// checked against the toml-test suite (tests/test_web_toml.py). Three kinds of valid values no scenario file holds
// are refused, with the line they are on, rather than read: floats (12.5, 1e3, inf, nan), dates and times, and whole
// numbers beyond 2^53 - 1, which a JavaScript number cannot hold exactly. A file is UTF-8 with LF or CRLF line ends;
// one leading byte-order mark, as Notepad writes it, is allowed. Given the limits of an opened file (config.js's
// FILE_LIMITS, exporter/limits.py), a file beyond one is refused as `ambush odds` refuses it: its size, tables and
// arrays nested too deep (a dotted key or header opens a table per part), a key too long.
// Tables are made without a prototype, so no key ("__proto__", "constructor") reaches Object.prototype. Their keys
// keep the file's order, except that a JavaScript object lists keys that are array indices ("1", "2") first.

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [];

/**
 * A problem reading the file: its line, what is wrong there in a few English words, and, for a valid value the page
 * leaves out, which kind it is ("float", "datetime" or "large"; undefined when the file is no TOML)
 */
class TomlError extends Error {
  constructor(line, what, refused) {
    super(`line ${line}: ${what}`);
    this.line = line;
    this.what = what;
    this.refused = refused;
  }
}

const ESCAPES = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", '"': '"', "\\": "\\" };
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/; // control characters other than tab: in no string or comment
// Sticky patterns (each matches at `at`): the longest runs the reader takes in one step
const BLANK = /[ \t]*/y;
const COMMENT = /#[^\u0000-\u0008\u000a-\u001f\u007f]*/y;
const BARE_KEY = /[A-Za-z0-9_-]+/y;
const PLAIN = /[^"\\\u0000-\u0008\u000a-\u001f\u007f]*/y; // a basic string's characters up to a quote or escape
const PLAIN_LINES = /[^"\\\u0000-\u0008\u000b-\u001f\u007f]*/y; // the same in a multi-line string
const WORD = /[0-9A-Za-z_+.:-]+/y; // a number, a date or time, true or false, up to what follows the value
const LINE_END_ESCAPE = /\\[ \t]*\n[ \t\n]*/y;
// The forms of a whole number, and those of the values refused by design
const WHOLE = /^(?:[+-]?(?:0|[1-9](?:_?\d)*)|0x[\dA-Fa-f](?:_?[\dA-Fa-f])*|0o[0-7](?:_?[0-7])*|0b[01](?:_?[01])*)$/;
const FLOAT = /^[+-]?(?:(?:0|[1-9](?:_?\d)*)(?:\.\d(?:_?\d)*)?(?:[eE][+-]?\d(?:_?\d)*)?|inf|nan)$/;
const DATE_OR_TIME = /^(?:\d{4}-\d{2}-\d{2}|\d{2}:\d{2})/;

/** Tell whether an object has a key of its own: keys from a file never reach Object.prototype */
const hasOwnKey = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
/** Tell whether a parsed value is a TOML table: an object, not an array */
const isTable = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Decode a file's bytes as UTF-8, refusing any byte that is no UTF-8 with its line (a browser's file.text() would
 * put U+FFFD in its place without a word); a byte-order mark is kept for parseToml to allow
 */
function decodeUtf8(bytes, limits = null) {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  if (limits && view.length > limits.bytes) throw new TomlError(1, tooLarge(limits));
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  try {
    return decoder.decode(view);
  } catch {
    // A newline byte is never part of a UTF-8 sequence: the bad byte is on the first line that does not decode.
    let line = 1;
    for (let start = 0; start < view.length; line += 1) {
      const end = view.indexOf(10, start) < 0 ? view.length : view.indexOf(10, start);
      try {
        decoder.decode(view.subarray(start, end));
      } catch {
        break;
      }
      start = end + 1;
    }
    throw new TomlError(line, "not UTF-8 text; save the file as UTF-8");
  }
}

/** Say that a file is larger than the limit */
const tooLarge = (limits) => `larger than ${limits.bytes / 1024 / 1024} MiB, the largest file this page reads`;

/**
 * Parse the text of a TOML document into plain data (tables without prototypes); throws a TomlError. `limits`
 * ({bytes, nesting, keyCharacters}) bounds an opened or pasted file; without them any TOML is read.
 */
function parseToml(text, limits = null) {
  if (limits && String(text).length > limits.bytes / 3 && new TextEncoder().encode(String(text)).length > limits.bytes) {
    throw new TomlError(1, tooLarge(limits));
  }
  // tomllib reads CRLF as LF everywhere, in multi-line strings too; a lone CR stays, and is refused.
  const source = String(text).replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  let at = 0;
  // How a table came to be, where not by a [header] or [[header]]: "implied" on a header's way, "dotted", "value"
  const made = new Map();
  const tableArrays = new WeakSet(); // the arrays [[header]]s make; every other array is a value, closed
  const fail = (what, refused) => {
    throw new TomlError(source.slice(0, at).split("\n").length, what, refused);
  };
  const newTable = (how) => {
    const created = Object.create(null);
    if (how !== "header") made.set(created, how);
    return created;
  };
  const howMade = (table) => made.get(table) ?? "header";
  // A table or array at this level (the file's top level 0) is refused beyond the limit, as ambush refuses it
  const beyond = (level) => {
    if (limits && level > limits.nesting) fail(`tables and arrays nested more than ${limits.nesting} deep, the most this page reads`);
  };
  const peek = () => source[at];
  // Whether a sticky pattern matches at `at`; take() passes what it matches and returns it
  const matches = (pattern) => {
    pattern.lastIndex = at;
    return pattern.test(source);
  };
  const take = (pattern) => {
    const start = at;
    if (matches(pattern)) at = pattern.lastIndex;
    return source.slice(start, at);
  };
  const lineEnd = () => {
    take(BLANK);
    take(COMMENT);
    if (at >= source.length) return;
    if (peek() !== "\n") fail(CONTROL.test(peek()) ? "a control character" : `unexpected ${JSON.stringify(peek())}`);
    at += 1;
  };
  // Blanks, newlines and comments between the values of an array
  const space = () => {
    for (;;) {
      take(BLANK);
      take(COMMENT);
      if (peek() !== "\n") return;
      at += 1;
    }
  };
  const lone = /[\uD800-\uDFFF]/u.exec(source);
  if (lone) {
    at = lone.index;
    fail("a character that is no Unicode text");
  }

  function escape(multiLine) {
    if (multiLine && matches(LINE_END_ESCAPE)) {
      take(LINE_END_ESCAPE);
      return "";
    }
    const code = source[at + 1];
    at += 2;
    if (ESCAPES[code] !== undefined) return ESCAPES[code];
    if (code !== "u" && code !== "U") fail("a bad escape in a string");
    const size = code === "u" ? 4 : 8;
    const hex = source.slice(at, at + size);
    const value = /^[0-9A-Fa-f]+$/.test(hex) && hex.length === size ? parseInt(hex, 16) : NaN;
    if (!(value <= 0x10ffff) || (value >= 0xd800 && value <= 0xdfff)) fail("a bad \\u escape");
    at += size;
    return String.fromCodePoint(value);
  }

  /** A "basic" string, on one line or, between """, on several */
  function basicString() {
    const multiLine = source.startsWith('"""', at);
    at += multiLine ? 3 : 1;
    if (multiLine && peek() === "\n") at += 1;
    let out = "";
    for (;;) {
      out += take(multiLine ? PLAIN_LINES : PLAIN);
      const ch = peek();
      if (ch === "\\") out += escape(multiLine);
      else if (ch === '"' && !multiLine) {
        at += 1;
        return out;
      } else if (ch === '"') {
        if (source.startsWith('"""', at)) return out + closing('"');
        out += ch;
        at += 1;
      } else if (ch === undefined || ch === "\n") fail("a string is not closed");
      else fail("a control character in a string");
    }
  }

  /** A 'literal' string, on one line or, between ''', on several */
  function literalString() {
    const multiLine = source.startsWith("'''", at);
    at += multiLine ? 3 : 1;
    if (multiLine && peek() === "\n") at += 1;
    const end = source.indexOf(multiLine ? "'''" : "'", at);
    const newline = multiLine ? -1 : source.indexOf("\n", at);
    if (end < 0 || (newline >= 0 && newline < end)) fail("a string is not closed");
    const out = source.slice(at, end);
    const control = CONTROL.exec(multiLine ? out.replace(/\n/g, " ") : out);
    if (control) {
      at += control.index;
      fail("a control character in a string");
    }
    at = end;
    if (multiLine) return out + closing("'");
    at += 1;
    return out;
  }

  /** Pass the """ or ''' that closes a multi-line string: up to two more quotes before it are the string's */
  function closing(quote) {
    at += 3;
    let extra = "";
    while (extra.length < 2 && peek() === quote) {
      extra += quote;
      at += 1;
    }
    return extra;
  }

  /** A key, dotted or not: its parts */
  function key() {
    const parts = [];
    for (;;) {
      take(BLANK);
      if (source.startsWith('"""', at) || source.startsWith("'''", at)) fail("a key cannot be a multi-line string");
      if (peek() === '"') parts.push(basicString());
      else if (peek() === "'") parts.push(literalString());
      else if (matches(BARE_KEY)) parts.push(take(BARE_KEY));
      else fail("a key is missing");
      if (limits && parts.at(-1).length > limits.keyCharacters) {
        fail(`a key of ${parts.at(-1).length} characters; at most ${limits.keyCharacters}`);
      }
      beyond(parts.length - 1);
      take(BLANK);
      if (peek() !== ".") return parts;
      at += 1;
    }
  }

  /** A value at a level: an array or inline table there, what it holds one level deeper */
  function value(level) {
    const ch = peek();
    if (ch === '"') return basicString();
    if (ch === "'") return literalString();
    if (ch === "[" || ch === "{") beyond(level);
    if (ch === "[") return array(level);
    if (ch === "{") return inlineTable(level);
    const word = take(WORD);
    if (word === "true") return true;
    if (word === "false") return false;
    if (WHOLE.test(word)) {
      // Number() reads 0x, 0o and 0b too; beyond 2^53 - 1 it rounds, and the result is no safe integer.
      const whole = Number(word.replace(/_/g, ""));
      if (!Number.isSafeInteger(whole)) fail(`${word} is beyond ±${Number.MAX_SAFE_INTEGER}, this page's largest`, "large");
      return whole === 0 ? 0 : whole; // -0 is 0
    }
    if (FLOAT.test(word)) fail(`${word}: only whole numbers are read in a scenario file`, "float");
    if (DATE_OR_TIME.test(word)) fail(`${word}: dates and times are not read in a scenario file`, "datetime");
    return fail(word ? `${JSON.stringify(word)} is no value` : "a value is missing");
  }

  function array(level) {
    at += 1;
    const items = [];
    for (;;) {
      space();
      if (peek() === "]") break;
      items.push(value(level + 1));
      space();
      if (peek() === ",") at += 1;
      else if (peek() !== "]") fail("an array is not closed");
    }
    at += 1;
    return items;
  }

  function inlineTable(level) {
    at += 1;
    const out = newTable("value");
    take(BLANK);
    if (peek() !== "}") {
      for (;;) {
        keyValue(out, level);
        take(BLANK);
        if (peek() === "}") break;
        if (peek() !== ",") fail("an inline table is not closed");
        at += 1;
      }
    }
    at += 1;
    return out;
  }

  /** Read `key = value` into a table at a level: a dotted key opens tables on its way, never one defined elsewhere */
  function keyValue(into, level) {
    const path = key();
    beyond(level + path.length - 1);
    if (peek() !== "=") fail("= is missing after a key");
    at += 1;
    take(BLANK);
    let holder = into;
    path.slice(0, -1).forEach((part, index) => {
      if (!hasOwnKey(holder, part)) holder[part] = newTable("dotted");
      const how = isTable(holder[part]) ? howMade(holder[part]) : "value";
      const named = path.slice(0, index + 1).join(".");
      if (how === "implied") made.set(holder[part], "dotted");
      else if (how === "value") fail(`${named} is a value; nothing can be added to it`);
      else if (how !== "dotted") fail(`${named} is a table of its own [header]; a dotted key cannot add to it`);
      holder = holder[part];
    });
    const last = path.at(-1);
    if (hasOwnKey(holder, last)) fail(`${path.join(".")} is given twice`);
    holder[last] = value(level + path.length);
  }

  /** Open the table a [header] names, or a new table at the end of the array a [[header]] names */
  function header() {
    const many = source.startsWith("[[", at);
    at += many ? 2 : 1;
    const path = key();
    if (!source.startsWith(many ? "]]" : "]", at)) fail("a table header is not closed");
    at += many ? 2 : 1;
    const named = `[${many ? "[" : ""}${path.join(".")}${many ? "]" : ""}]`;
    let holder = root;
    currentLevel = path.length + (many ? 1 : 0);
    for (const part of path.slice(0, -1)) {
      if (!hasOwnKey(holder, part)) holder[part] = newTable("implied");
      holder = holder[part];
      if (tableArrays.has(holder)) {
        holder = holder.at(-1);
        currentLevel += 1; // an entry of an array of tables sits one level deeper
      }
      if (!isTable(holder) || howMade(holder) === "value") fail(`${named}: ${part} is a value, not a table`);
    }
    const last = path.at(-1);
    if (many) {
      if (!hasOwnKey(holder, last)) {
        holder[last] = [];
        tableArrays.add(holder[last]);
      }
      if (!tableArrays.has(holder[last])) fail(`${named}: ${path.join(".")} is defined elsewhere`);
      const entry = newTable("header");
      holder[last].push(entry);
      return entry;
    }
    if (!hasOwnKey(holder, last)) holder[last] = newTable("implied");
    if (!isTable(holder[last]) || howMade(holder[last]) !== "implied") fail(`${named} is defined twice`);
    made.delete(holder[last]); // defined now, by this header
    return holder[last];
  }

  const root = newTable("header");
  let current = root;
  let currentLevel = 0; // the level of the table the last header opened
  while (at < source.length) {
    take(BLANK);
    if (peek() === "[") {
      current = header();
      beyond(currentLevel);
    } else if (peek() !== "#" && peek() !== "\n" && at < source.length) keyValue(current, currentLevel);
    lineEnd();
  }
  return root;
}

export { STRING_KEYS, TomlError, decodeUtf8, hasOwnKey, isTable, parseToml };
