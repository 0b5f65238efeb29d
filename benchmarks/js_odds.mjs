// Time the JS odds (the rules modules' odds()) as a dialog calls them, for the benchmarks:
//   node js_odds.mjs CASES.json RUNS  (CASES: [{"name", "module", "scenario"}])  ->  one line of JSON: {name: {first, median}} in ms
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [casesPath, runs] = process.argv.slice(2);
const medians = {};
for (const { name, module, scenario } of JSON.parse(readFileSync(casesPath, "utf-8"))) {
  const { odds } = await import(pathToFileURL(module).href);
  const times = [];
  for (let run = 0; run < Number(runs); run += 1) {
    const copy = structuredClone(scenario); // a fresh scenario each time, as every edit in the dialog makes one
    const start = process.hrtime.bigint();
    odds(copy);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const first = times[0]; // cold: the module's caches empty, the code not yet optimised
  times.sort((a, b) => a - b);
  medians[name] = { first, median: times[Math.floor(times.length / 2)] };
}
console.log(JSON.stringify(medians));
