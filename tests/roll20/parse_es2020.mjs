// Parse files at the Roll20 sandbox's language level (docs/dev/roll20.md §8: ES2020; a syntax error stops every Mod
// script of the game): scripts, or with --module the ES modules the script is bundled from. Prints one JSON line per
// file: {file, ok, error?}.
import { readFile } from "node:fs/promises";
import { parse } from "acorn";

const args = process.argv.slice(2);
const sourceType = args[0] === "--module" ? (args.shift(), "module") : "script";
for (const file of args) {
  try {
    parse(await readFile(file, "utf8"), { ecmaVersion: 2020, sourceType });
    console.log(JSON.stringify({ file, ok: true }));
  } catch (error) {
    console.log(JSON.stringify({ file, ok: false, error: `${error.message}` }));
  }
}
