// Compute the odds of scenarios with a system's rules module (common/rules/<system>.js of a build).
// Usage: node tests/js/run_odds.mjs RULES_MODULE.js CASES.json   (CASES: [{"name", "scenario"}, ...])
// Prints one JSON line per case: {"name", "odds", "shown"} or {"name", "error"}, then {"ms"}: the time spent in odds().
// "shown" lists the member names of oddsLines' lines, in the order the GM reads them.
import { readFileSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { pathToFileURL } from "node:url";

const [modulePath, casesPath] = process.argv.slice(2);
const moduleUrl = pathToFileURL(resolvePath(modulePath)).href;
const { odds } = await import(moduleUrl);
const { oddsLines } = await import(new URL("../odds.js", moduleUrl).href);
const cases = JSON.parse(readFileSync(casesPath, "utf-8"));
let spent = 0;
for (const { name, scenario } of cases) {
  try {
    const start = performance.now();
    const result = odds(scenario);
    spent += performance.now() - start;
    const shown = oddsLines(result, (key, data) => data.name ?? null, scenario).slice(1);
    process.stdout.write(`${JSON.stringify({ name, odds: result, shown })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ name, error: String(error?.stack ?? error) })}\n`);
  }
}
process.stdout.write(`${JSON.stringify({ ms: spent })}\n`);
