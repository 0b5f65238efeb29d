// Check one built campaign's JavaScript: every Foundry script compiles as an ES module, the Roll20 script
// compiles as a classic script, and the Roll20 script's data literals evaluate to what the build put in; a literal
// on several lines (STRINGS) holds one entry per line, each of which evaluates on its own.
//   node --experimental-vm-modules check_output.mjs CAMPAIGN_DIR
// Prints {problems: [...], roll20: {STRINGS, MARKERS, PROCEDURES}}.
import { readdir, readFile } from "node:fs/promises";
import vm from "node:vm";

const [dir] = process.argv.slice(2);
const problems = [];

for (const name of (await readdir(`${dir}/foundry/scripts`)).filter((n) => n.endsWith(".js"))) {
  try {
    new vm.SourceTextModule(await readFile(`${dir}/foundry/scripts/${name}`, "utf8"), { identifier: name });
  } catch (error) {
    problems.push(`foundry/scripts/${name}: ${error.message}`);
  }
}

const roll20 = {};
const script = (await readdir(`${dir}/roll20`)).find((n) => n.endsWith(".js"));
const source = await readFile(`${dir}/roll20/${script}`, "utf8");
try {
  new vm.Script(source, { filename: script });
} catch (error) {
  problems.push(`roll20/${script}: ${error.message}`);
}
const lines = source.split("\n");
for (const constant of ["STRINGS", "MARKERS", "PROCEDURES", "ATTRIBUTES"]) {
  const start = lines.findIndex((l) => l.trimStart().startsWith(`const ${constant} = `));
  if (start < 0) {
    problems.push(`roll20/${script}: no ${constant} line`);
    continue;
  }
  // The literal ends on its first line, or at the closing brace indented as its first line: nothing in it may
  // end the statement early, and it must evaluate on its own.
  const indent = lines[start].length - lines[start].trimStart().length;
  const end = lines[start].trimEnd().endsWith(";") ? start : lines.indexOf(`${" ".repeat(indent)}};`, start);
  const inner = lines.slice(start + 1, end).filter((l) => !/^\s*("[^"]+": \{|\},)$/.test(l));
  for (const entry of inner) {
    try {
      vm.runInNewContext(`({${entry}})`);
    } catch (error) {
      problems.push(`roll20/${script}: ${constant} has an entry that is not one line: ${entry.slice(0, 80)}`);
    }
  }
  const literal = lines.slice(start, end + 1).join("\n").trim().slice(`const ${constant} = `.length).replace(/;$/, "");
  try {
    roll20[constant] = vm.runInNewContext(`(${literal})`);
  } catch (error) {
    problems.push(`roll20/${script}: ${constant} does not evaluate: ${error.message}`);
  }
}
console.log(JSON.stringify({ problems, roll20 }));
