// Check built campaigns' JavaScript: every Foundry script compiles as an ES module, the Roll20 script compiles as a
// classic script, and the Roll20 script's configuration evaluates to what the build put in it; each entry of a
// constant written on several lines (STRINGS) is one line that evaluates on its own.
//   node --experimental-vm-modules check_output.mjs CAMPAIGN_DIR [CAMPAIGN_DIR ...]
// Prints one line per folder, in order: {problems: [...], roll20: {STRINGS, DEFAULT_LANGUAGE, MARKERS, PROCEDURES,
// ATTRIBUTES}}.
import { readdir, readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

/** Check one campaign folder; return its problems and the Roll20 configuration */
export async function check(dir) {
  const problems = [];
  for (const name of (await readdir(`${dir}/foundry/scripts`, { recursive: true })).filter((n) => n.endsWith(".js"))) {
    try {
      new vm.SourceTextModule(await readFile(`${dir}/foundry/scripts/${name}`, "utf8"), { identifier: name });
    } catch (error) {
      problems.push(`foundry/scripts/${name}: ${error.message}`);
    }
  }

  const script = (await readdir(`${dir}/roll20`)).find((n) => n.endsWith(".js"));
  const source = await readFile(`${dir}/roll20/${script}`, "utf8");
  try {
    new vm.Script(source, { filename: script });
  } catch (error) {
    problems.push(`roll20/${script}: ${error.message}`);
  }
  // The configuration module as the bundle holds it: from its constant to the end of its function scope.
  const lines = source.split("\n");
  const start = lines.indexOf("  const Config = (() => {");
  const end = lines.indexOf("  })();", start);
  let roll20 = {};
  if (start < 0 || end < 0) problems.push(`roll20/${script}: no Config module`);
  else {
    const body = lines.slice(start + 1, end);
    const entries = vm.createContext({}); // one realm for every line: a new one per line cost ~1 ms each
    for (const [index, line] of body.entries()) {
      // An entry of a constant written on several lines: `"key": value,` on one line of its own (not one that opens a
      // nested literal, whose own entries follow).
      if (!/^ {6,}"/.test(line) || /[[{]$/.test(line)) continue;
      try {
        vm.runInContext(`({${line}})`, entries);
      } catch (error) {
        problems.push(`roll20/${script}: line ${start + index + 2} is not one entry: ${line.slice(0, 80)}`);
      }
    }
    try {
      roll20 = vm.runInNewContext(`(() => {\n${body.join("\n")}\n})()`);
    } catch (error) {
      problems.push(`roll20/${script}: the configuration does not evaluate: ${error.message}`);
    }
  }
  const { STRINGS, DEFAULT_LANGUAGE, MARKERS, PROCEDURES, ATTRIBUTES } = roll20;
  return { problems, roll20: { STRINGS, DEFAULT_LANGUAGE, MARKERS, PROCEDURES, ATTRIBUTES } };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const dir of process.argv.slice(2)) console.log(JSON.stringify(await check(dir)));
}
