// Read texts with the web page's TOML reader held to the limits of an opened file, for tests/test_limits.py:
//   node tests/js/toml_limits.mjs CASES.json  ->  one line of JSON: per case {read: true} or {line, what}
// CASES.json: {limits, texts: [text, ...]}; a text given as {bytes: n} is that many bytes of spaces, decoded first.
import { readFileSync } from "node:fs";

const { TomlError, decodeUtf8, parseToml } = await import(new URL("../../templates/web/toml.js", import.meta.url).href);
const { limits, texts } = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const results = texts.map((text) => {
  try {
    const source = typeof text === "string" ? text : decodeUtf8(new Uint8Array(text.bytes).fill(32), limits);
    parseToml(source, limits);
    return { read: true };
  } catch (error) {
    if (!(error instanceof TomlError)) return { crash: `${error.name}: ${error.message}` };
    return { line: error.line, what: error.what };
  }
});
console.log(JSON.stringify(results));
