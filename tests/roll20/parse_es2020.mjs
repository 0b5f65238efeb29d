// Parse scripts at the Roll20 sandbox's language level (docs/dev/roll20.md §8: ES2020; a syntax error stops every Mod script
// of the game). Prints one JSON line per file: {file, ok, error?}.
import { readFile } from "node:fs/promises";
import { parse } from "acorn";

for (const file of process.argv.slice(2)) {
  try {
    parse(await readFile(file, "utf8"), { ecmaVersion: 2020, sourceType: "script" });
    console.log(JSON.stringify({ file, ok: true }));
  } catch (error) {
    console.log(JSON.stringify({ file, ok: false, error: `${error.message}` }));
  }
}
