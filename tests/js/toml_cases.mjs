// Read files with the web page's TOML reader as the page reads an opened file (templates/web/toml.js: the bytes
// decoded, then parsed), for tests/test_web_toml.py, all in one process:
//   node tests/js/toml_cases.mjs LIST.json [MODULE]  ->  one line of JSON: {results: {path: result}, prototypeClean}
// LIST.json: the paths to read. MODULE: the reader (default: this checkout's). A result is {data} in toml-test's
// tagged JSON (the keys in the reader's order), {refused: {line, what, kind}} for a TomlError, or {crash} for any
// other exception.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [listPath, module = new URL("../../templates/web/toml.js", import.meta.url).pathname] = process.argv.slice(2);
const { TomlError, decodeUtf8, parseToml } = await import(pathToFileURL(module).href);

/** toml-test's tagged JSON of a value the reader gave */
function tagged(value) {
  if (Array.isArray(value)) return value.map(tagged);
  if (typeof value === "string") return { type: "string", value };
  if (typeof value === "boolean") return { type: "bool", value: String(value) };
  if (Number.isInteger(value)) return { type: "integer", value: String(value) };
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, tagged(item)]));
  }
  throw new Error(`the reader gave ${typeof value} ${String(value)}, which is no TOML value of the page`);
}

const results = {};
for (const path of JSON.parse(readFileSync(listPath, "utf-8"))) {
  try {
    results[path] = { data: tagged(parseToml(decodeUtf8(readFileSync(path)))) };
  } catch (error) {
    results[path] = error instanceof TomlError
      ? { refused: { line: error.line, what: error.what, kind: error.refused ?? null } }
      : { crash: String(error?.stack ?? error) };
  }
}
const prototypeClean = Object.getOwnPropertyNames(Object.prototype).every((name) => name !== "polluted")
  && ({}).polluted === undefined;
console.log(JSON.stringify({ results, prototypeClean }));
