// Reading a scenario file: the part of TOML (https://toml.io/en/v1.0.0) that scenario files use, read exactly, and
// anything else refused with the line it is on: tables and arrays of tables, dotted and quoted keys, strings, whole
// numbers, booleans, arrays and inline tables. Floats, dates and multi-line strings are no values of a scenario file.
// Tables are made without a prototype, so no key ("__proto__", "constructor") reaches Object.prototype.

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [];

/** A problem reading the file: its line, and what is wrong there in a few English words */
class TomlError extends Error {
  constructor(line, what) {
    super(`line ${line}: ${what}`);
    this.line = line;
    this.what = what;
  }
}

const BARE = /[A-Za-z0-9_-]/;
const ESCAPES = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", '"': '"', "\\": "\\" };
const table = () => Object.create(null);
const isTable = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** Parse the text of a TOML document into plain data (tables without prototypes); throws a TomlError */
function parseToml(text) {
  const source = String(text).replace(/^\uFEFF/, "");
  let at = 0;
  const root = table();
  let current = root;
  const defined = new Set(); // tables opened by a [header] or by a dotted key, by their path
  const inline = new WeakSet(); // inline tables and arrays given as values are closed
  const lineAt = () => source.slice(0, at).split("\n").length;
  const fail = (what) => { throw new TomlError(lineAt(), what); };
  const peek = () => source[at];
  const blank = () => { while (peek() === " " || peek() === "\t") at += 1; };
  const comment = () => {
    if (peek() !== "#") return;
    while (at < source.length && peek() !== "\n") {
      if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(peek())) fail("a control character in a comment");
      at += 1;
    }
  };
  const lineEnd = () => {
    blank();
    comment();
    if (peek() === "\r" && source[at + 1] === "\n") at += 1;
    if (at < source.length && peek() !== "\n") fail(`unexpected ${JSON.stringify(peek())}`);
    at += 1;
  };
  // Whitespace, newlines and comments inside an array
  const space = () => {
    for (;;) {
      blank();
      comment();
      if (peek() === "\n" || (peek() === "\r" && source[at + 1] === "\n")) at += peek() === "\r" ? 2 : 1;
      else return;
    }
  };

  function basicString() {
    at += 1;
    if (source.startsWith('""', at)) fail("multi-line strings are not read in a scenario file");
    let out = "";
    for (;;) {
      const ch = source[at];
      if (ch === undefined || ch === "\n") fail("a string is not closed");
      at += 1;
      if (ch === '"') return out;
      if (ch === "\\") {
        const code = source[at];
        at += 1;
        if (ESCAPES[code] !== undefined) out += ESCAPES[code];
        else if (code === "u" || code === "U") {
          const size = code === "u" ? 4 : 8;
          const hex = source.slice(at, at + size);
          const value = /^[0-9A-Fa-f]+$/.test(hex) && hex.length === size ? parseInt(hex, 16) : NaN;
          if (!(value <= 0x10ffff) || (value >= 0xd800 && value <= 0xdfff)) fail("a bad \\u escape");
          out += String.fromCodePoint(value);
          at += size;
        } else fail("a bad escape in a string");
      } else if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(ch)) fail("a control character in a string");
      else out += ch;
    }
  }

  function literalString() {
    at += 1;
    if (source.startsWith("''", at)) fail("multi-line strings are not read in a scenario file");
    const end = source.indexOf("'", at);
    const newline = source.indexOf("\n", at);
    if (end < 0 || (newline >= 0 && newline < end)) fail("a string is not closed");
    const out = source.slice(at, end);
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(out)) fail("a control character in a string");
    at = end + 1;
    return out;
  }

  function key() {
    const parts = [];
    for (;;) {
      blank();
      if (peek() === '"') parts.push(basicString());
      else if (peek() === "'") parts.push(literalString());
      else {
        const start = at;
        while (at < source.length && BARE.test(peek())) at += 1;
        if (start === at) fail("a key is missing");
        parts.push(source.slice(start, at));
      }
      blank();
      if (peek() !== ".") return parts;
      at += 1;
    }
  }

  function value() {
    const ch = peek();
    if (ch === '"') return basicString();
    if (ch === "'") return literalString();
    if (ch === "[") return array();
    if (ch === "{") return inlineTable();
    const match = /^[^\s,\]}#]+/.exec(source.slice(at));
    if (!match) fail("a value is missing");
    const word = match[0];
    at += word.length;
    if (word === "true") return true;
    if (word === "false") return false;
    if (/^[+-]?(?:0|[1-9](?:_?[0-9])*)$/.test(word)) {
      const number = Number(word.replace(/_/g, ""));
      if (!Number.isSafeInteger(number)) fail(`${word} is too large`);
      return number;
    }
    return fail(`${JSON.stringify(word)} is no value a scenario file holds (a string, a whole number, true or false)`);
  }

  function array() {
    at += 1;
    const items = [];
    for (;;) {
      space();
      if (peek() === "]") break;
      items.push(value());
      space();
      if (peek() === ",") at += 1;
      else if (peek() !== "]") fail("an array is not closed");
    }
    at += 1;
    inline.add(items);
    return items;
  }

  function inlineTable() {
    at += 1;
    const out = table();
    blank();
    if (peek() === "}") {
      at += 1;
      inline.add(out);
      return out;
    }
    for (;;) {
      keyValue(out, null);
      blank();
      if (peek() === "}") break;
      if (peek() !== ",") fail("an inline table is not closed");
      at += 1;
    }
    at += 1;
    inline.add(out);
    return out;
  }

  /** Read `key = value` into a table */
  function keyValue(into, prefix) {
    const path = key();
    if (peek() !== "=") fail("= is missing after a key");
    at += 1;
    blank();
    assign(into, path, value(), prefix);
  }

  /** Set a dotted key in a table, opening the tables on its way; a key given twice is refused */
  function assign(into, path, item, prefix) {
    let holder = into;
    path.slice(0, -1).forEach((part, index) => {
      if (!Object.prototype.hasOwnProperty.call(holder, part)) holder[part] = table();
      else if (!isTable(holder[part]) || inline.has(holder[part])) fail(`${path.slice(0, index + 1).join(".")} is given twice`);
      holder = holder[part];
      if (prefix) defined.add(JSON.stringify([...prefix, ...path.slice(0, index + 1)]));
    });
    const last = path.at(-1);
    if (Object.prototype.hasOwnProperty.call(holder, last)) fail(`${path.join(".")} is given twice`);
    holder[last] = item;
  }

  /** Open the table a [header] or [[header]] names */
  function header() {
    const double = source.startsWith("[[", at);
    at += double ? 2 : 1;
    const path = key();
    if (!source.startsWith(double ? "]]" : "]", at)) fail("a table header is not closed");
    at += double ? 2 : 1;
    let holder = root;
    for (const [index, part] of path.entries()) {
      const lastPart = index === path.length - 1;
      const exists = Object.prototype.hasOwnProperty.call(holder, part);
      if (lastPart && double) {
        if (!exists) holder[part] = [];
        if (!Array.isArray(holder[part]) || inline.has(holder[part])) fail(`${path.join(".")} is given twice`);
        const entry = table();
        holder[part].push(entry);
        return entry;
      }
      if (!exists) holder[part] = table();
      let next = holder[part];
      if (Array.isArray(next) && !inline.has(next)) next = next.at(-1);
      if (!isTable(next) || inline.has(next)) fail(`${path.slice(0, index + 1).join(".")} is given twice`);
      if (lastPart) {
        const name = JSON.stringify(path);
        if (defined.has(name)) fail(`[${path.join(".")}] is given twice`);
        defined.add(name);
      }
      holder = next;
    }
    return holder;
  }

  let prefix = [];
  while (at < source.length) {
    blank();
    if (peek() === "[") {
      const start = at;
      current = header();
      prefix = [source.slice(start, at)];
      lineEnd();
    } else if (peek() === "#" || peek() === "\n" || peek() === "\r" || at >= source.length) {
      lineEnd();
    } else {
      keyValue(current, prefix);
      lineEnd();
    }
  }
  return root;
}

export { STRING_KEYS, TomlError, parseToml };
