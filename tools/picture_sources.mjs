// The HTML behind the pictures of docs/pictures/, from the built example campaigns run in the project's emulations
// (tests/roll20/, tests/foundry/): the Roll20 script's chat cards as it sends them, and the Foundry module's dialog and
// chat cards as it renders and posts them, written as JSON to OUT (the module logs to stdout); tools/pictures.py puts
// each in a page, hashes it and renders it. Usage: node --experimental-vm-modules tools/picture_sources.mjs BUILD_DIR
// OUT (BUILD_DIR holds <id>/roll20 and <id>/foundry).
import fs from "node:fs";

import { createFoundry } from "./harness/foundry/harness.mjs";
import { createSandbox } from "./harness/roll20/harness.mjs";

const [BUILD, OUT] = process.argv.slice(2);
const GURPS = "ambush-gurps-example";
const LANGUAGES = ["en", "de", "zh-CN"];

/** A small table: two of the party against three orcs, one orc's token standing for no character (his IQ is asked) */
const PEOPLE = [
  { name: "Ava", side: "a", iq: 12 }, { name: "Bram", side: "a", iq: 10 },
  { name: "Orc 1", side: "b", iq: 9 }, { name: "Orc 2", side: "b", iq: 9 }, { name: "Orc 3", side: "b", iq: null },
];

/** The Roll20 cards of one language: the help card, the draft as the script first whispers it, and Roll's cards */
async function roll20Cards(language) {
  const [gm, player] = ["-GM0000000000000001", "-PL0000000000000001"];
  const sb = createSandbox({ players: [{ id: gm, displayname: "Gina", isGM: true }, { id: player, displayname: "Pat", isGM: false }] });
  const tokens = PEOPLE.map(({ name, side, iq }) => {
    const controlledby = side === "a" ? player : "";
    const represents = iq === null ? "" : sb.createCharacter({ name, controlledby, attributes: { intelligence: iq } }).id;
    return sb.createToken({ name, represents, controlledby });
  });
  await sb.load(`${BUILD}/${GURPS}/roll20/AmbushGurpsExample.js`);
  sb.ready();
  await sb.settle();
  sb.user.setTurnorder(tokens.map((token) => ({ id: token.id, pr: "0", custom: "", _pageid: token.get("_pageid") })));
  const say = async (line) => {
    const before = sb.chat.length;
    sb.user.chat(gm, line);
    await sb.settle();
    return sb.chat.slice(before).map((entry) => entry.content);
  };
  await say(`!surprise config --language ${language}`);
  const help = await say("!surprise help");
  const draft = await say("!surprise resolve --procedure partial");
  await say(`!surprise set --token ${tokens[4].id} --iq 8`);
  sb.scriptDice(5, 2); // the leaders' initiative dice (B393): side A wins
  const result = await say("!surprise roll");
  return { help, draft, result };
}

/** Replace the ids a page would show (random in the emulation) by stable names, in the order they appear */
function stableIds(html, ids) {
  let out = html;
  ids.forEach((id, index) => {
    out = out.split(id).join(`id${index + 1}`);
  });
  return out;
}

/** The Foundry dialog as the GM first sees it (the odds filled in) and the chat messages of its Roll */
async function foundryPictures() {
  const env = createFoundry({ systemId: "gurps", modules: [{ id: GURPS }], quiet: true });
  await env.loadModule(`${BUILD}/${GURPS}/foundry`);
  const tokens = [];
  for (const { name, side, iq } of PEOPLE) {
    const actor = await env.createActor({ name, system: { attributes: { IQ: { value: iq ?? 8 } }, ads: {}, skills: {} } });
    tokens.push(await env.createToken({ actor, name, disposition: side === "a" ? 1 : -1 }));
  }
  const combat = await env.createCombat({ combatants: tokens.map((token) => ({ token })) });
  await env.settle();
  const ids = [combat.id, ...combat.turns.map((combatant) => combatant.id), ...tokens.map((token) => token.id)];
  const api = game.modules.get(GURPS).api;
  let dialog = null;
  env.dialogAnswers.push("partial", (record) => {
    dialog = record.element.outerHTML;
    return "roll";
  });
  env.scriptDice(5, 2);
  const before = env.messages.length;
  await api.openDialog(combat);
  await env.settle();
  const speaker = (message) => message.speaker?.alias ?? "";
  const messages = env.messages.slice(before).map((message) => ({ speaker: speaker(message), gm: message.whisper.length > 0, content: message.content }));
  env.teardown();
  return { dialog: stableIds(dialog, ids), messages: messages.map((message) => ({ ...message, content: stableIds(message.content, ids) })) };
}

const out = { roll20: {}, foundry: await foundryPictures() };
for (const language of LANGUAGES) out.roll20[language] = await roll20Cards(language);
fs.writeFileSync(OUT, JSON.stringify(out));
