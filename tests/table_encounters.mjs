// Draft a hostile-named encounter at each emulated table and hand back what the GM gets: the odds and the scenario file.
// Usage: node tests/table_encounters.mjs   (MODULES_DIR: <id>/foundry and <id>/roll20 of the example campaigns)
// Prints, after the marker @@encounters@@, one JSON object: {"foundry": {id: {draft, odds, toml}}, "roll20": {id: {whispers}},
// "strings": {given, toml}}: hostile strings and the TOML document the common serializer writes of them.
import { pathToFileURL } from "node:url";
import { draftFields, oddsBox } from "./foundry/dialog-fields.mjs";
import { createFoundry } from "../tools/harness/foundry/harness.mjs";
import { createSandbox } from "../tools/harness/roll20/harness.mjs";

const DIR = process.env.MODULES_DIR;
const MARKER = "@@encounters@@"; // the harnesses log to stdout too
const NAMES = ['Say "hi" \\ [[1d6]]', "__proto__", "Tom & <b>Jerry</b>", "back\\slash\nnew line", "李 小龙 😲"];
const EXAMPLES = [
  { id: "ambush-gurps-example", systemId: "gurps", procedure: "quick-contest", script: "AmbushGurpsExample",
    fill: { iq: 11, per: 12, stealth: 13 }, edit: ["b", -1],
    system: { attributes: { IQ: { value: 11 }, PER: { value: 12 } }, ads: {}, skills: {} } },
  { id: "ambush-adnd-example", systemId: "ars", procedure: "roll", script: "AmbushAdndExample", system: {},
    fill: { dex: 16 }, edit: ["b", -1] },
  { id: "ambush-fallout-example", systemId: "fallout-homebrew", procedure: "world-map", script: "AmbushFalloutExample",
    system: {}, fill: { per: 6, survival: 2 }, edit: ["a", 1] },
];

/**
 * Open the dialog, type the filled draft into its real form, then change one member's first number by some and read
 * the odds box before and after.
 */
async function liveOdds(env, api, combat, draft, [side, by]) {
  const seen = {};
  env.dialogAnswers.push((record) => {
    record.fill(draftFields(draft));
    seen.before = oddsBox(record);
    const member = draft.sides[side].members[0];
    const [key] = Object.entries(member).find(([k, value]) => k !== "id" && Number.isInteger(value));
    record.fill({ [`members.${member.id}.${key}`]: member[key] + by });
    seen.after = oddsBox(record);
    return "cancel";
  });
  if (api.procedures.length > 1) env.dialogAnswers.unshift(draft.procedure);
  await api.openDialog(combat);
  return seen;
}

/** Draft the encounter in Foundry; fill what no sheet gave so that the draft is complete. */
async function foundry(example) {
  const env = createFoundry({ systemId: example.systemId, modules: [{ id: example.id }], quiet: true });
  try {
    await env.loadModule(`${DIR}/${example.id}/foundry`);
    const tokens = [];
    for (const [index, name] of NAMES.entries()) {
      const actor = await env.createActor({ name, system: example.system });
      const disposition = index % 2 ? CONST.TOKEN_DISPOSITIONS.HOSTILE : CONST.TOKEN_DISPOSITIONS.FRIENDLY;
      tokens.push(await env.createToken({ actor, name, disposition }));
    }
    const combat = await env.createCombat({ combatants: tokens.map((token) => ({ token })) });
    await env.settle();
    const api = game.modules.get(example.id).api;
    const draft = api.draft(combat, example.procedure);
    for (const member of [...draft.sides.a.members, ...draft.sides.b.members]) {
      for (const [key, value] of Object.entries(example.fill)) if (member[key] === null || member[key] === undefined) member[key] = value;
    }
    if ("dc" in draft && draft.dc === null) draft.dc = 15;
    return { draft, odds: api.odds(draft), toml: api.exportScenario(draft), dialog: await liveOdds(env, api, combat, draft, example.edit) };
  } finally {
    env.teardown();
  }
}

/** Draft the same encounter in Roll20, fill it with `!surprise set`, and ask for its odds and its scenario file. */
async function roll20(example) {
  const [gm, player] = ["-GM0000000000000001", "-PL0000000000000001"];
  const sb = createSandbox({ players: [{ id: gm, displayname: "Gina", isGM: true }, { id: player, displayname: "Pat", isGM: false }] });
  const tokens = NAMES.map((name, index) => sb.createToken({ name, controlledby: index % 2 ? "" : player }));
  await sb.load(`${DIR}/${example.id}/roll20/${example.script}.js`);
  sb.ready();
  await sb.settle();
  const say = async (command) => {
    sb.user.chat(gm, command);
    await sb.settle();
  };
  await say(`!surprise resolve --procedure ${example.procedure} --ids ${tokens.map((token) => token.id).join(",")}`);
  for (const token of tokens) for (const [key, value] of Object.entries(example.fill)) await say(`!surprise set --token ${token.id} --${key} ${value}`);
  if (example.procedure === "world-map") await say("!surprise set --scenario --dc 15");
  const before = sb.chat.length;
  await say("!surprise odds");
  await say("!surprise export");
  return { whispers: sb.chat.slice(before).map((entry) => entry.content) };
}

const { tomlDocument } = await import(pathToFileURL(`${DIR}/${EXAMPLES[0].id}/foundry/scripts/common/scenario-file.js`).href);
const control = Array.from({ length: 128 }, (unused, code) => String.fromCharCode(code)).join("");
const hostile = [control, "\uD800", "x\uDC00y", "\uDBFF\uDFFF", "😲 \u2028 \u00A0", '"""', "'''", 'a\\"b'];
const out = { foundry: {}, roll20: {}, strings: { given: hostile, toml: tomlDocument({ strings: hostile, [control]: 1 }) } };
for (const example of EXAMPLES) {
  out.foundry[example.id] = await foundry(example);
  out.roll20[example.id] = await roll20(example);
}
process.stdout.write(`\n${MARKER}${JSON.stringify(out)}\n`);
