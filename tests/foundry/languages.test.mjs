// The Foundry module in the client's language: the dialog's odds and problems, with numbers and percentages as the
// language writes them; a client in a language the module does not ship reads English throughout (run by
// tests/test_languages.py). MODULES_DIR holds <id>/foundry of the example campaigns. Every expected text is written by
// hand.
import assert from "node:assert/strict";
import { test } from "node:test";

import { oddsBox } from "./dialog-fields.mjs";
import { createFoundry, runGeneration } from "../../tools/harness/foundry/harness.mjs";

const MODULES = process.env.MODULES_DIR;
const ADND = { id: "ambush-adnd-example", systemId: "ars" };
const NBSP = "\u00a0";

/** Boot the AD&D example in a client of a language, with Ann (friendly) and Gob (hostile) in a combat */
async function boot(language) {
  const env = createFoundry({ generation: runGeneration(), systemId: ADND.systemId, modules: [{ id: ADND.id }], language, quiet: true });
  await env.loadModule(`${MODULES}/${ADND.id}/foundry`);
  const tokens = [];
  for (const [name, disposition] of [["Ann", 1], ["Gob", -1]]) {
    tokens.push(await env.createToken({ actor: await env.createActor({ name, system: {} }), name, disposition }));
  }
  const combat = await env.createCombat({ combatants: tokens.map((token) => ({ token })) });
  await env.settle();
  return { env, combat, ids: Object.fromEntries(combat.turns.map((combatant) => [combatant.name, combatant.id])) };
}

/** Open the dialog on the d6 roll, let `use(record)` work it, and cancel */
async function openDialog(env, combat, use) {
  env.dialogAnswers.push((record) => {
    use(record);
    return "cancel";
  });
  await game.modules.get(ADND.id).api.openDialog(combat);
  assert.deepEqual(env.dialogAnswers, [], "every scripted answer was used");
}

// docs/rules/adnd1e.md#two-sides: each side surprised on 1-2 of its d6; side A gets the jump on 8/36 + 1/36 = 25%, side
// B as often, nobody on 50%; each member frozen for his side's 1 or 2 segments: (1 + 2) / 6 = 0.50 on average.
const LINES = {
  de: [`Wer zuerst handelt: Seite A 25,0${NBSP}%, Seite B 25,0${NBSP}%, niemand 50,0${NBSP}%`,
    "Ann: im Mittel 0,50 Segmente verloren", "Gob: im Mittel 0,50 Segmente verloren"],
  "zh-CN": ["谁抢得先机：A方25.0%，B方25.0%，无人50.0%", "Ann：平均损失0.50段", "Gob：平均损失0.50段"],
  en: ["Who gets the jump: side A 25.0%, side B 25.0%, nobody 50.0%", "Ann: 0.50 segments lost on average",
    "Gob: 0.50 segments lost on average"],
};

for (const [language, shown] of [["de", "de"], ["zh-CN", "zh-CN"], ["fr", "en"]]) {
  test(`a ${language} client: the odds box writes its percentages and decimals as ${shown} does`, async () => {
    const { env, combat } = await boot(language);
    try {
      await openDialog(env, combat, (dialog) => assert.deepEqual(oddsBox(dialog), LINES[shown]));
      assert.deepEqual(env.errors, []);
    } finally {
      env.teardown();
    }
  });
}

test("a de client: a number the GM types is written back in German in the problem it makes", async () => {
  const { env, combat, ids } = await boot("de");
  try {
    await openDialog(env, combat, (dialog) => {
      dialog.fill({ [`members.${ids.Ann}.dex`]: 1234 });
      assert.deepEqual(oddsBox(dialog), ["Ann: Geschicklichkeit 1.234 liegt außerhalb von 3 bis 18; stattdessen "
        + "Überraschungsbonus angeben."]);
    });
  } finally {
    env.teardown();
  }
});
