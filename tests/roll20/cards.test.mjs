// Cards that fit: every chat message the generated example scripts send stays within the budget of
// docs/dev/roll20.md §6.1, with 30 and 100 combatants a side and long hostile names, and the draft, shown in pages of
// combatants that each open their own card, still lets the GM change every value through its buttons. Run by
// tests/test_roll20_cards.py; SCRIPTS_DIR holds <id>/roll20/<Name>.js for the three example campaigns.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ADND, FALLOUT, GM, GURPS, PLAYER, players } from "./examples.mjs";
import { CHAT_LIMIT, createSandbox } from "../../tools/harness/roll20/harness.mjs";

/** The procedures of each example system */
const PROCEDURES = new Map([[GURPS, ["partial", "total", "quick-contest"]], [ADND, ["roll"]], [FALLOUT, ["world-map", "sneak-attack"]]]);

/** A name built to be long and hostile: markup, a roll, a query, an attribute call, CJK and an emoji, then a number */
const hostileName = (index) => `<img src=x onerror=alert(1)>|@{x}[[1d6]]?{q}{{t}}%{a}#m*${"界".repeat(120)}😲 ${index}`;

/** Decode the entities a card's HTML holds, as a browser does before a click sends a button's command */
const decoded = (html) => html.replace(/&#(\d+);/g, (m, code) => String.fromCodePoint(Number(code)))
  .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");

/** The buttons of a message: {href, label}, both decoded */
const buttonsOf = (message) => [...message.content.matchAll(/<a\b[^>]*\bhref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)]
  .map((m) => ({ href: decoded(m[1]), label: decoded(m[2].replace(/<[^>]*>/g, "")) }));

/** The bytes a message took in sendChat: the command in front of its content and the content */
const bytesOf = (entry) => Buffer.byteLength(
  `${entry.direct ? "/direct " : entry.whisperTo ? (entry.whisperTo === "gm" ? "/w gm " : `/w "${entry.whisperTo}" `) : ""}${entry.content}`);

/** The queries of a command: [{prompt, options}], options as [label, value] */
const queriesOf = (href) => [...href.matchAll(/\?\{([^{}]*)\}/g)].map((m) => {
  const [prompt, ...options] = m[1].split("|");
  return { prompt, options: options.map((option) => (option.includes(",") ? [option.slice(0, option.lastIndexOf(",")), option.slice(option.lastIndexOf(",") + 1)] : [option, option])) };
});

/**
 * A table of `size` combatants a side: side a the players', side b the GM's, in the turn order; GURPS and AD&D
 * characters hold what their sheets are read for, the Fallout homebrew's have no sheet (the draft asks)
 */
async function table(script, size, name = (index, side) => `${side === "a" ? "Hero" : "Orc"} ${index}`) {
  const sb = createSandbox({ players });
  const attributes = { intelligence: 11, perception: 11, dexterity: 12 };
  const tokens = [];
  for (const side of ["a", "b"]) {
    for (let index = 0; index < size; index += 1) {
      const controlledby = side === "a" ? PLAYER : "";
      const label = name(tokens.length, side);
      const character = sb.createCharacter({ name: label, controlledby, attributes });
      tokens.push(sb.createToken({ name: label, represents: character.id, controlledby }));
    }
  }
  await sb.load(script.file);
  sb.ready();
  await sb.settle();
  sb.user.setTurnorder(tokens.map((token) => ({ id: token.id, pr: "0", custom: "", _pageid: token.get("_pageid") })));
  return { sb, tokens };
}

/** The GM's whispers since an index */
const whispers = (sb, from = 0) => sb.chat.slice(from).filter((entry) => entry.whisperTo === "gm");

/** Send a GM command and wait for its answers; returns the messages it brought */
async function say(sb, line, options = {}) {
  const before = sb.chat.length;
  sb.user.chat(GM, line, options);
  await sb.settle();
  return sb.chat.slice(before);
}

/** Click a button as the GM: its command, each query answered by `answer(query)` */
async function click(sb, button, answer = () => undefined, options = {}) {
  const queries = {};
  for (const query of queriesOf(button.href)) {
    const given = answer(query);
    if (given !== undefined) queries[query.prompt] = given;
  }
  return say(sb, button.href, { ...options, queries });
}

/** The draft as the script keeps it */
const draftOf = (sb, script) => sb.read(`state.${script.name}.draft`);

/** Every member of a draft, with his place */
const everyone = (draft) => [...["a", "b"].flatMap((key) => draft.sides[key].members), ...draft.out];

/**
 * Fill what the draft asks for (a value nobody gave; AD&D's surprise adjustment is given instead of Dexterity, which
 * the sheets hold) with `!surprise set`, as a GM would type it
 */
async function fill(sb, script) {
  const draft = draftOf(sb, script);
  for (const member of everyone(draft)) {
    const missing = Object.keys(member).filter((key) => member[key] === null && key !== "surprise_adjustment");
    if (missing.length) await say(sb, `!surprise set --token ${member.id} ${missing.map((key) => `--${key} 10`).join(" ")}`);
  }
  if (draft.dc === null) await say(sb, "!surprise set --scenario --dc 12");
  if (Array.isArray(draft.openers)) {
    await say(sb, `!surprise set --opener 0 --name ${draft.sides.a.members[0].id} --attack_bonus 1 --target_number 12`);
  }
}

/** Check that every message of the sandbox's chat fits the budget and that the harness saw nothing wrong */
function assertAllFit(sb, what) {
  for (const entry of sb.chat) {
    assert.ok(bytesOf(entry) <= CHAT_LIMIT, `${what}: a message of ${bytesOf(entry)} bytes: ${entry.content.slice(0, 200)}`);
  }
  assert.deepEqual(sb.takeErrors(), [], what);
}

for (const [script, procedures] of PROCEDURES) {
  for (const [size, names, name] of [[30, "plain names", undefined], [100, "long hostile names", hostileName]]) {
    {
      test(`${script.name}, ${size} a side, ${names}: every card of every command and turn stays within ${CHAT_LIMIT} bytes`, async () => {
        for (const procedure of procedures) {
          const { sb, tokens } = await table(script, size, name);
          await say(sb, "!surprise help");
          await say(sb, "!surprise config");
          await say(sb, `!surprise resolve --procedure ${procedure}`);
          await fill(sb, script);
          // Every page, every combatant's card, the odds and the scenario file.
          let [page] = whispers(sb).slice(-1);
          for (;;) {
            const next = buttonsOf(page).find((button) => button.label === "▸");
            if (!next) break;
            [page] = await click(sb, next);
          }
          for (const token of tokens.slice(0, 3).concat(tokens.slice(-3))) await say(sb, `!surprise draft --token ${token.id}`);
          const odds = await say(sb, "!surprise odds");
          const exported = await say(sb, "!surprise export");
          assert.match(odds[0].content, /Who gets the jump/, `${procedure}: the draft is complete`);
          // The scenario file, split over messages, is whole: each member's name in a line of its own, every member once
          const file = exported.map((entry) => decoded([...entry.content.matchAll(/<pre[^>]*>([\s\S]*?)<\/pre>/g)]
            .map((m) => m[1]).join("<br>")).replace(/<br>/g, "\n")).join("\n");
          const lines = file.split("\n");
          for (const token of tokens) assert.ok(lines.includes(`name = "${token.get("name")}"`), `${procedure}: ${token.get("name")} in the file`);
          // a name for each member, each side and each declared opener
          assert.equal(lines.filter((line) => line.startsWith("name = ")).length, 2 * size + 2 + (draftOf(sb, script).openers?.length ?? 0));
          if (name && size === 100) assert.ok(exported.length > 1 && odds.length > 1, "long cards go on over several messages");
          sb.scriptDice(...Array.from({ length: 40 * size }, (unused, index) => [6, 1, 2, 5, 3, 4][index % 6]));
          await say(sb, "!surprise roll");
          assert.ok(sb.read(`state.${script.name}.surprise`), `${procedure}: rolled`);
          await say(sb, "!surprise status");
          // Turns passed on: with skipped turns (the default), the first ones sum many turns up in one card
          for (let turn = 0; turn < 12; turn += 1) {
            sb.user.advanceTurn();
            await sb.settle();
          }
          await say(sb, "!surprise status");
          await say(sb, "!surprise clear");
          assertAllFit(sb, `${procedure}, ${size} a side, ${names}`);
        }
      });
    }
  }
}

test("the draft of 30 a side is pages of a few kB, not one card of 80 kB", async () => {
  const { sb } = await table(GURPS, 30);
  const [card, ...more] = await say(sb, "!surprise resolve --procedure partial");
  assert.equal(more.length, 0);
  assert.ok(bytesOf(card) < 10000, `${bytesOf(card)} bytes`);
  assert.match(card.content, /1\/3/, "three pages of ten a side");
  assert.equal(buttonsOf(card).filter((button) => button.href.startsWith("!surprise draft --token ")).length, 20, "the first ten of each side");
});

for (const script of [GURPS, ADND, FALLOUT]) {
  test(`${script.name}, 30 a side: every value of the draft can be changed through the buttons its cards show`, async () => {
    for (const procedure of PROCEDURES.get(script)) {
      const { sb, tokens } = await table(script, 30);
      const [first] = await say(sb, `!surprise resolve --procedure ${procedure}`);
      // The pages, from the first by its ▸ buttons
      const pages = [first];
      for (let next; (next = buttonsOf(pages.at(-1)).find((button) => button.label === "▸"));) pages.push((await click(sb, next))[0]);
      assert.equal(pages.length, 3, `${procedure}: 30 a side in pages of 10`);
      // Each combatant's name opens his card: every one of the 60 is on one page, once
      const opened = pages.flatMap((page) => buttonsOf(page).filter((button) => button.href.startsWith("!surprise draft --token ")));
      assert.deepEqual(opened.map((button) => button.href.split(" ").at(-1)).sort(), tokens.map((token) => token.id).sort());
      // On a member's card, each ✎ changes his value to what the GM answers
      let number = 3;
      for (const open of [opened[0], opened[17], opened[59]]) {
        const id = open.href.split(" ").at(-1);
        let [card] = await click(sb, open);
        const edits = buttonsOf(card).filter((button) => button.label === "✎");
        const member = () => everyone(draftOf(sb, script)).find((entry) => entry.id === id);
        assert.ok(edits.length >= 1 && edits.length === Object.keys(member()).filter((key) => !["id", "name", "unread"].includes(key)).length,
          `${procedure}: a ✎ for each of his values`);
        for (const edit of edits) {
          const key = /--(\w+) \?\{/.exec(edit.href)[1];
          number += 1;
          const wanted = typeof member()[key] === "boolean" ? !member()[key] : number;
          [card] = await click(sb, edit, () => String(wanted));
          assert.equal(member()[key], wanted, `${procedure}: ${key} of ${id} changed through its button`);
          assert.ok(card.content.includes(`>Surprise: ${member().name}</div>`), "the answer is his card again");
        }
        // His card moves him: out of the fight, then back to his side (at its end)
        const side = ["a", "b"].find((key) => draftOf(sb, script).sides[key].members.some((entry) => entry.id === id));
        const leave = buttonsOf(card).find((button) => button.href.endsWith("--join out"));
        const [afterLeaving] = await click(sb, leave);
        assert.ok(draftOf(sb, script).out.some((entry) => entry.id === id), "left out");
        const back = buttonsOf(afterLeaving).find((button) => button.href === `!surprise draft --token ${id}`);
        assert.ok(back, "the page where he now stands shows him");
        const [again] = await click(sb, back);
        await click(sb, buttonsOf(again).find((button) => button.href.endsWith(`--join ${side}`)));
        assert.ok(draftOf(sb, script).sides[side].members.some((entry) => entry.id === id), "back on his side");
      }
      // Side and encounter values: each ✎ of the first page changes its value
      const [page] = await say(sb, "!surprise draft --page 2");
      for (const edit of buttonsOf(page).filter((button) => button.label === "✎" && !button.href.includes("--opener"))) {
        const [, level, key] = /--(scenario|side [ab]) --page 2 --(\w+) \?\{/.exec(edit.href);
        const holder = () => (level === "scenario" ? draftOf(sb, script) : draftOf(sb, script).sides[level.slice(-1)]);
        let answer;
        const [after] = await click(sb, edit, (query) => {
          if (query.options.length > 1) {
            // A choice: the last one offered (a member choice offers nobody and the side's members on this page only)
            if (/^-/.test(query.options.at(-1)[1])) {
              const shown = buttonsOf(page).filter((button) => button.href.startsWith("!surprise draft --token ")).map((button) => button.href.split(" ").at(-1));
              assert.ok(query.options.slice(1).every(([, value]) => shown.includes(value)), "only members the page shows");
              assert.equal(query.options.length - 1, 10, "the side's ten on this page");
            }
            answer = query.options.at(-1)[1];
          } else {
            answer = "7";
          }
          return answer;
        });
        const value = holder()[key];
        const expected = answer === "true" ? true : answer === "false" ? false : /^-?\d+$/.test(answer) ? Number(answer)
          : everyone(draftOf(sb, script)).find((entry) => entry.id === answer)?.name ?? answer;
        assert.deepEqual(value, expected, `${procedure}: ${level} ${key}`);
        assert.match(after.content, /2\/3/, "the answer is the same page");
      }
      // The openers of a sneak attack, added from the second page: the selected token, then his numbers, on the page
      // that shows the new opener
      if (procedure === "sneak-attack") {
        const add = buttonsOf(page).find((button) => button.label === "Add an opener (the selected token)");
        const [withOpener] = await click(sb, add, undefined, { selected: [tokens[12]] });
        const openers = draftOf(sb, script).openers;
        assert.equal(openers.at(-1).name, tokens[12].get("name"));
        const edit = buttonsOf(withOpener).find((button) => button.label === "✎" && button.href.includes(`--opener ${openers.length - 1} `));
        assert.match(edit.href, /\|0\}.*\|15\}/, "a new opener's numbers offer the rules module's prefills (config.js)");
        await click(sb, edit, (query) => (/Attack/i.test(query.prompt) ? "3" : "14"));
        assert.deepEqual([draftOf(sb, script).openers.at(-1).attack_bonus, draftOf(sb, script).openers.at(-1).target_number], [3, 14]);
      }
      assertAllFit(sb, procedure);
    }
  });
}
