// Print the chat HTML that a hostile campaign's runtimes post, for the Python checks:
//   node hostile_cards.mjs FOUNDRY_MODULE_DIR ROLL20_SCRIPT  ->  {"foundry": html, "roll20": html}
import { createFoundry } from "../../tools/harness/foundry/harness.mjs";
import { createSandbox } from "../../tools/harness/roll20/harness.mjs";

const [moduleDir, script] = process.argv.slice(2);

const env = createFoundry({ systemId: "gurps", modules: [{ id: "hostile" }], quiet: true });
await env.loadModule(moduleDir);
const tokens = [];
for (const [name, disposition] of [["A", 1], ["B", -1]]) {
  const actor = await env.createActor({ name, system: { attributes: { IQ: { value: 10 } }, ads: {}, skills: {} } });
  tokens.push(await env.createToken({ actor, name, disposition }));
}
const combat = await env.createCombat({ combatants: tokens.map((token) => ({ token })) });
await env.settle();
const api = game.modules.get("hostile").api;
env.scriptDice(3, 3); // a tie: nobody is surprised, so the card shows Chat.NobodySurprised
const before = env.messages.length;
await api.resolve(api.draft(combat, "partial"), combat);
await env.settle();
// The outcome card for everyone and the GM's card with the rolls behind it.
const foundry = env.messages.slice(before).map((message) => message.content).join("");
env.teardown();

const sb = createSandbox({ players: [{ id: "-GM", displayname: "GM", isGM: true }] });
await sb.load(script);
sb.ready();
await sb.settle();
sb.user.chat("-GM", "!surprise help");
await sb.settle();
const roll20 = sb.chat.filter((message) => message.content.includes("!surprise roll")).at(-1).content.replace(/^\/w gm /, "");
console.log(JSON.stringify({ foundry, roll20 }));
