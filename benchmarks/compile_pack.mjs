// Compile JSON pack sources with the official Foundry CLI, for the pack-writing benchmark:
//   node compile_pack.mjs SOURCES_DIR OUT_DIR RUNS  ->  one line of JSON: the wall time of each run in ms
import { rm } from "node:fs/promises";
import { compilePack } from "@foundryvtt/foundryvtt-cli";

const [sources, out, runs] = process.argv.slice(2);
const times = [];
for (let run = 0; run < Number(runs); run += 1) {
  await rm(out, { recursive: true, force: true });
  const start = process.hrtime.bigint();
  await compilePack(sources, out, { log: false });
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
}
console.log(JSON.stringify(times));
