// The Roll20 script in the GM's language: numbers, percentages and yes-or-no as the language writes them in the draft,
// the odds, the problems, the dice and the config card; and the campaign's default language from the first start
// (run by tests/test_languages.py). SCRIPTS_DIR holds the example scripts; GERMAN_SCRIPT a GURPS campaign's script
// whose default_language is "de". Every expected text is written by hand.
import assert from "node:assert/strict";
import { test } from "node:test";
import { GM, GURPS, PLAYER, players } from "./examples.mjs";
import { createSandbox } from "../../tools/harness/roll20/harness.mjs";

const GERMAN = { file: process.env.GERMAN_SCRIPT, name: "GermanGurps" };
const NBSP = "\u00a0";

/** A sandbox with a script loaded and two characters in the turn order (Ava IQ 12, friendly; Orc IQ 10, hostile) */
async function ready(script) {
  const sb = createSandbox({ players });
  const ava = sb.createCharacter({ name: "Ava", controlledby: PLAYER, attributes: { intelligence: 12 } });
  const orc = sb.createCharacter({ name: "Orc", controlledby: "", attributes: { intelligence: 10 } });
  const tokens = [
    sb.createToken({ name: "Ava", represents: ava.id, controlledby: PLAYER }),
    sb.createToken({ name: "Orc", represents: orc.id, controlledby: "" }),
  ];
  await sb.load(script.file);
  sb.ready();
  await sb.settle();
  sb.user.setTurnorder(tokens.map((token) => ({ id: token.id, pr: "0", custom: "", _pageid: token.get("_pageid") })));
  return { sb, tokens };
}

/** Send a command as the GM; return what the GM was whispered after it, as text without markup */
async function ask(sb, command) {
  const before = sb.chat.length;
  sb.user.chat(GM, command);
  await sb.settle();
  return sb.chat.slice(before).filter((c) => c.whisperTo?.toLowerCase?.() === "gm")
    .map((c) => c.content.replace(/<[^>]*>/g, " ").replace(/&#(\d+);/g, (m, code) => String.fromCharCode(code)));
}

// B393, partial surprise: each leader rolls 1d6, the higher IQ +1. Side A wins when d(A) + 1 > d(B): 21 of 36; a tie
// when d(B) = d(A) + 1: 5 of 36; side B wins 10 of 36.
const JUMP = { en: "side A 58.3%, side B 27.8%, nobody 13.9%", de: `Seite A 58,3${NBSP}%, Seite B 27,8${NBSP}%, niemand 13,9${NBSP}%`,
  "zh-CN": "A方58.3%，B方27.8%，无人13.9%" };

test("the draft in German: yes and no in words, the odds with decimal commas, never true, false or 58.3%", async () => {
  const { sb } = await ready(GURPS);
  await ask(sb, "!surprise config --language de");
  const [draft] = await ask(sb, "!surprise resolve --procedure partial");
  assert.match(draft, /Tiere oder IQ 5 oder weniger: Nein/, "a side's yes-or-no input");
  assert.ok(draft.includes(`Wer zuerst handelt: ${JUMP.de}`), draft);
  assert.doesNotMatch(draft, /\b(true|false)\b/);
  assert.doesNotMatch(draft, /\d\.\d/, "no decimal point");
});

test("the draft in Chinese: 是 and 否, the odds as Chinese writes them", async () => {
  const { sb } = await ready(GURPS);
  await ask(sb, "!surprise config --language zh-CN");
  const [draft] = await ask(sb, "!surprise resolve --procedure partial");
  assert.match(draft, /动物或IQ不超过5：否/);
  assert.ok(draft.includes(`谁抢得先机：${JUMP["zh-CN"]}`), draft);
  assert.doesNotMatch(draft, /\b(true|false)\b/);
});

test("a number a GM gives is shown, and refused, as the language writes it", async () => {
  const { sb, tokens } = await ready(GURPS);
  await ask(sb, "!surprise config --language de");
  await ask(sb, "!surprise resolve --procedure partial");
  const [draft] = await ask(sb, `!surprise set --token ${tokens[1].id} --iq 1234`);
  assert.match(draft, /Orc: IQ 1\.234/, "the value in the draft");
  const [odds] = await ask(sb, "!surprise odds");
  assert.match(odds, /Orc: IQ 1\.234 liegt außerhalb von 1 bis 40\./, "the problem the odds card shows");
});

test("the config card says Ja and Nein, and the dice are W6 in German", async () => {
  const { sb } = await ready(GURPS);
  const [config] = await ask(sb, "!surprise config --language de --skip false");
  assert.match(config, /Der Initiativeliste folgen: Ja/);
  assert.match(config, /Züge Überraschter überspringen: Nein/);
  await ask(sb, "!surprise resolve --procedure partial");
  sb.scriptDice(4, 2);
  const after = sb.chat.length;
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  const cards = sb.chat.slice(after).map((c) => c.content).join("\n");
  assert.match(cards, /Würfel: 1W6 \(4\); 1W6 \(2\)/, cards);
});

test("a campaign whose default_language is de speaks German from the first start, until a GM picks another", async () => {
  const { sb } = await ready(GERMAN);
  assert.equal(sb.read(`state.${GERMAN.name}.config.language`), "de");
  const [draft] = await ask(sb, "!surprise resolve --procedure partial");
  assert.ok(draft.includes(`Wer zuerst handelt: ${JUMP.de}`), draft);
  const [english] = await ask(sb, "!surprise config --language en");
  assert.match(english, /Follow the turn order: Yes/);
});

test("the English example keeps English as its default", async () => {
  const { sb } = await ready(GURPS);
  assert.equal(sb.read(`state.${GURPS.name}.config.language`), "en");
  const [draft] = await ask(sb, "!surprise resolve --procedure partial");
  assert.ok(draft.includes(`Who gets the jump: ${JUMP.en}`), draft);
  assert.match(draft, /Animals or IQ 5 or less: No/);
});

/** Send a command as the GM; return everything posted after it, as text without markup */
async function chatAfter(sb, command) {
  const before = sb.chat.length;
  sb.user.chat(GM, command);
  await sb.settle();
  return sb.chat.slice(before).map((c) => c.content.replace(/<[^>]*>/g, " ")
    .replace(/&#(\d+);/g, (m, code) => String.fromCharCode(code))).join("\n");
}

// A total surprise freezes the surprised for the d6's seconds (B393): 1 and 2, in the words each language gives them;
// the status names the stunned with the turns they were stunned so far, none yet.
const FREEZE = {
  en: ["Orc is frozen for 1 second.", "Orc is frozen for 2 seconds.", "Orc: stunned, no turn yet"],
  de: ["Orc ist für 1 Sekunde erstarrt.", "Orc ist für 2 Sekunden erstarrt.", "Orc: betäubt, noch kein Zug"],
  "zh-CN": ["Orc惊呆1秒。", "Orc惊呆2秒。", "Orc：精神震慑中（尚未到其回合）"],
};

for (const [language, [one, two, status]] of Object.entries(FREEZE)) {
  test(`a freeze of 1 and of 2 seconds in ${language}, and the status of the stunned`, async () => {
    const { sb } = await ready(GURPS);
    await ask(sb, `!surprise config --language ${language}`);
    for (const [face, text] of [[1, one], [2, two]]) {
      await ask(sb, "!surprise resolve --procedure total");
      sb.scriptDice(face);
      const cards = await chatAfter(sb, "!surprise roll");
      assert.ok(cards.includes(text), cards);
      const shown = (await ask(sb, "!surprise status")).join("\n");
      assert.ok(shown.includes(status), shown);
      await ask(sb, "!surprise clear");
    }
    assert.equal(sb.takeErrors().length, 0);
  });
}
