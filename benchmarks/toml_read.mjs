// Time the web page's TOML reader (templates/web/toml.js) on a large scenario file, as a GM opens it:
//   node toml_read.mjs [MODULE] [MEMBERS] [RUNS]  ->  one line of JSON: {members, bytes, first, firstCpu, median} in ms
// MODULE defaults to the reader of this checkout, MEMBERS to 1000 (split between the sides), RUNS to 21.
import { pathToFileURL } from "node:url";

const [module = new URL("../templates/web/toml.js", import.meta.url).pathname, members = "1000", runs = "21"] =
  process.argv.slice(2);
const { parseToml } = await import(pathToFileURL(module).href);

/** A GURPS scenario file of `count` members, commented and laid out as a GM writes one */
function scenarioText(count) {
  const lines = ["# A large fight: every member written out", 'system = "gurps4e"', 'procedure = "partial"', ""];
  for (const side of ["a", "b"]) {
    lines.push(`[sides.${side}]`, `name = "Side ${side}"`, `leader = "${side}0"`, "");
    for (let index = side === "a" ? 0 : 1; index < count; index += 2) {
      lines.push(`[[sides.${side}.members]]`, `name = "${side}${index >> 1} \\"the ${index}th\\""`,
        `iq = ${8 + (index % 7)}`, `combat_reflexes = ${index % 5 === 0}`, `tactics = ${index % 3}   # skill level`, "");
    }
  }
  return lines.join("\n");
}

const text = scenarioText(Number(members));
const times = [];
let firstCpu = 0;
for (let run = 0; run < Number(runs); run += 1) {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  parseToml(text);
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
  const used = process.cpuUsage(cpu);
  if (run === 0) firstCpu = (used.user + used.system) / 1000; // the CPU time of the first: less of a busy machine's noise
}
const first = times[0];
times.sort((a, b) => a - b);
console.log(JSON.stringify({ members: Number(members), bytes: Buffer.byteLength(text), first, firstCpu,
  median: times[Math.floor(times.length / 2)] }));
