// The GM's surprise dialog of each example module, rendered into a real DOM by the emulation (emulation/ui.mjs): the
// odds box as the dialog opens and after each edit, the one-line problem of a bad value, the exported scenario file,
// hostile names kept as text, and every field the dialog reads back (run by tests/test_foundry_dialog.py).
// MODULES_DIR holds <id>/foundry of the example campaigns; AMBUSH_PYTHON runs the CLI, AMBUSH_ODDS_CACHE (a folder,
// optional) keeps its answers. The expected odds are the Python CLI's (`ambush odds --json`) for scenario files
// written here by hand, or worked out by hand.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";

import { draftFields, oddsBox } from "./dialog-fields.mjs";
import { createFoundry, runGeneration } from "../../tools/harness/foundry/harness.mjs";

const MODULES = process.env.MODULES_DIR;
const PYTHON = process.env.AMBUSH_PYTHON ?? "python3";
const ODDS_CACHE = process.env.AMBUSH_ODDS_CACHE;
const GENERATION = runGeneration();
const GURPS = { id: "ambush-gurps-example", systemId: "gurps" };
const ADND = { id: "ambush-adnd-example", systemId: "ars" };
const FALLOUT = { id: "ambush-fallout-example", systemId: "fallout-homebrew" };
const { FRIENDLY, NEUTRAL, HOSTILE } = { FRIENDLY: 1, NEUTRAL: 0, HOSTILE: -1 };

/** Boot an example module in a fresh client. */
async function boot({ id, systemId }) {
  const env = createFoundry({ generation: GENERATION, systemId, modules: [{ id }], quiet: true });
  await env.loadModule(`${MODULES}/${id}/foundry`);
  return env;
}

/** Create a combat of [name, disposition, actor system data] and return it with its combatant ids by name. */
async function combatOf(env, people) {
  const tokens = [];
  for (const [name, disposition, system = {}] of people) {
    const actor = await env.createActor({ name, system });
    tokens.push(await env.createToken({ actor, name, disposition }));
  }
  const combat = await env.createCombat({ combatants: tokens.map((token) => ({ token })) });
  await env.settle();
  return { combat, ids: Object.fromEntries(combat.turns.map((combatant) => [combatant.name, combatant.id])) };
}

/**
 * Open the module's dialog on a procedure and let `use(record)` work the rendered dialog; it returns the GM's
 * answer (the Cancel button when it returns nothing). Returns the dialog's record.
 */
async function openDialog(env, combat, procedure, use) {
  const api = game.modules.get(env.options.modules[0].id).api;
  if (api.procedures.length > 1) env.dialogAnswers.push(procedure);
  env.dialogAnswers.push((record) => use(record) ?? "cancel");
  await api.openDialog(combat);
  assert.deepEqual(env.dialogAnswers, [], "every scripted answer was used");
  return env.dialogs.at(-1);
}

/**
 * Run `ambush odds --json` on a scenario file's text. The answers are kept in ODDS_CACHE, when given, by the text's
 * hash: the same CLI gives the same answer to the same file, and both generations' runs ask the same questions.
 */
function pythonOdds(toml) {
  const kept = ODDS_CACHE && path.join(ODDS_CACHE, `${createHash("sha256").update(toml).digest("hex")}.json`);
  if (kept && fs.existsSync(kept)) return JSON.parse(fs.readFileSync(kept, "utf8"));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dialog-odds-"));
  try {
    const file = path.join(dir, "scenario.toml");
    fs.writeFileSync(file, toml);
    const printed = execFileSync(PYTHON, ["-m", "exporter", "odds", "--json", file], { encoding: "utf8" });
    const odds = JSON.parse(printed);
    if (kept) {
      fs.writeFileSync(`${kept}.${process.pid}`, printed);
      fs.renameSync(`${kept}.${process.pid}`, kept); // whole or absent for another run that reads it
    }
    return odds;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const percent = (p) => `${(100 * p).toFixed(1)}%`;

/** The lines the GM reads for odds as the CLI prints them (the English of the module's Odds strings). */
function linesOf(odds) {
  const { a, b, none } = odds.surprise;
  return [`Who gets the jump: side A ${percent(a)}, side B ${percent(b)}, nobody ${percent(none)}`,
    ...Object.entries(odds.members).map(([name, member]) => (member.expected_lost === null
      ? `${name}: never recovers with a chance of ${percent(member.never)}`
      : `${name}: ${member.expected_lost.toFixed(2)} ${member.unit}s lost on average`))];
}

/** Write a scenario file: the head (system, procedure, scenario values, options), then each side's members. */
function scenarioToml(head, sides) {
  const parts = [head.trim()];
  for (const [key, { values = "", members }] of Object.entries(sides)) {
    parts.push(`[sides.${key}]\n${values}`.trim());
    for (const member of members) parts.push(`[[sides.${key}.members]]\n${member.trim()}`);
  }
  return `${parts.join("\n\n")}\n`;
}

/** Click the export button; return the one file it saved and check the GM was told. */
function exported(env, record, file) {
  const before = env.downloads.length;
  record.click(".ambush-export");
  assert.equal(env.downloads.length, before + 1, "one file saved");
  const saved = env.downloads.at(-1);
  assert.equal(saved.filename, file);
  assert.equal(saved.type, "application/toml");
  assert.equal(env.notifications.at(-1).message, `Saved the scenario file ${file}.`);
  return saved.data;
}

// The example campaigns' [options] (fixtures/campaigns/*.toml), as a scenario file states them.
const GURPS_OPTIONS = '[options]\nstun_roll_timing = "start"\nfreeze_roll_scope = "side"';
const ADND_OPTIONS = "[options]\ndex_unsurprised_may_act = true";
const FALLOUT_OPTIONS = '[options]\nopening_attack_is_free = false\ncautious_sleeper_wakes = "sr_turn_start"';

/** Make an edit in the dialog and check the odds box moves from what it showed to the expected lines. */
function edited(dialog, values, expected, message) {
  assert.notDeepEqual(oddsBox(dialog), expected, `${message}: the box shows something else before the edit`);
  dialog.fill(values);
  assert.deepEqual(oddsBox(dialog), expected, message);
}

test("GURPS: the odds box shows the CLI's odds as the dialog opens and follows each edit; a bad IQ shows its problem",
  async () => {
    const env = await boot(GURPS);
    try {
      const iq = (value) => ({ attributes: { IQ: { value }, PER: { value: 10 } }, ads: {}, skills: {} });
      const people = [["Ava", FRIENDLY, iq(12)], ["Orc", HOSTILE, iq(10)], ["Gob", HOSTILE, iq(9)]];
      const { combat, ids } = await combatOf(env, people);
      const toml = ({ surprising = "a", ava = 12, orc = 10, gob = true } = {}) => scenarioToml(
        `system = "gurps4e"\nprocedure = "total"\nsurprising = "${surprising}"\n\n${GURPS_OPTIONS}`, {
          a: { members: [`name = "Ava"\niq = ${ava}`] },
          b: { members: [`name = "Orc"\niq = ${orc}`, ...(gob ? ['name = "Gob"\niq = 9'] : [])] },
        });
      const odds = (values) => linesOf(pythonOdds(toml(values)));
      let file;
      const record = await openDialog(env, combat, "total", (dialog) => {
        assert.deepEqual(oddsBox(dialog), odds(), "as the dialog opens");
        edited(dialog, { [`members.${ids.Orc}.iq`]: 14 }, odds({ orc: 14 }), "the orc's IQ");
        edited(dialog, { [`place.${ids.Gob}`]: "out" }, odds({ orc: 14, gob: false }), "the goblin out of the fight");
        edited(dialog, { surprising: "b" }, odds({ surprising: "b", orc: 14, gob: false }), "side B surprises");
        edited(dialog, { [`members.${ids.Ava}.iq`]: "" }, ["Ava: IQ is missing."], "no IQ");
        edited(dialog, { [`members.${ids.Ava}.iq`]: 41 }, ["Ava: IQ 41 is outside 1 to 40."], "an IQ out of range");
        edited(dialog, { [`members.${ids.Ava}.iq`]: 13 }, odds({ surprising: "b", ava: 13, orc: 14, gob: false }), "mended");
        file = exported(env, dialog, "surprise-total.toml");
        return "cancel";
      });
      assert.deepEqual(pythonOdds(file), pythonOdds(toml({ surprising: "b", ava: 13, orc: 14, gob: false })),
        "the file holds the edited encounter");
      assert.deepEqual(record.absentFields, []);
      assert.equal(record.result, "cancel");
      assert.deepEqual(env.messages, [], "cancelled: nothing rolled");
      assert.deepEqual(env.errors, []);
      assert.deepEqual(env.warnings, []);
    } finally {
      env.teardown();
    }
  });

test("AD&D: the odds box shows the odds worked out by hand, then the CLI's after each edit; a problem replaces them",
  async () => {
    const env = await boot(ADND);
    try {
      const { combat, ids } = await combatOf(env, [["Ann", FRIENDLY], ["Gob", HOSTILE]]);
      const toml = ({ aOn = 2, bOn = 2, dex = null } = {}) => scenarioToml(
        `system = "adnd1e"\nprocedure = "roll"\n\n${ADND_OPTIONS}`, {
          a: { values: `surprised_on = ${aOn}`, members: [`name = "Ann"${dex === null ? "" : `\ndex = ${dex}`}`] },
          b: { values: `surprised_on = ${bOn}`, members: ['name = "Gob"'] },
        });
      let file;
      const record = await openDialog(env, combat, "roll", (dialog) => {
        // Each side is surprised on 1-2 of its d6 for as many segments as it shows; equal segments cancel
        // (docs/rules/adnd1e.md#two-sides): side A gets the jump on 8/36 (B surprised, A not) + 1/36 (A 1, B 2) =
        // 25%, and each member is frozen for his side's 1 or 2: (1 + 2) / 6 = 0.50 segments on average.
        const byHand = ["Who gets the jump: side A 25.0%, side B 25.0%, nobody 50.0%",
          "Ann: 0.50 segments lost on average", "Gob: 0.50 segments lost on average"];
        assert.deepEqual(oddsBox(dialog), byHand, "as the dialog opens");
        assert.deepEqual(byHand, linesOf(pythonOdds(toml())), "the CLI agrees");
        // Side B is never surprised: it gets the jump whenever side A is (2/6); Ann is frozen as before, Gob never
        edited(dialog, { "sides.b.surprised_on": 0 }, ["Who gets the jump: side A 0.0%, side B 33.3%, nobody 66.7%",
          "Ann: 0.50 segments lost on average", "Gob: 0.00 segments lost on average"], "side B cannot be surprised");
        edited(dialog, { "sides.a.surprised_on": 3, [`members.${ids.Ann}.dex`]: 17 },
          linesOf(pythonOdds(toml({ aOn: 3, bOn: 0, dex: 17 }))), "Ann's Dexterity");
        edited(dialog, { [`members.${ids.Ann}.surprise_adjustment`]: 1 },
          ["Ann: give Surprise adjustment or Dexterity, not both."], "both Dexterity and an adjustment");
        dialog.fill({ [`members.${ids.Ann}.surprise_adjustment`]: "" });
        edited(dialog, { [`place.${ids.Gob}`]: "a" }, ["Side B (the others) has no combatants."], "Gob joins side A");
        dialog.fill({ [`place.${ids.Gob}`]: "b" });
        file = exported(env, dialog, "surprise-roll.toml");
        return "cancel";
      });
      assert.deepEqual(pythonOdds(file), pythonOdds(toml({ aOn: 3, bOn: 0, dex: 17 })), "the file holds the edited encounter");
      assert.deepEqual(record.absentFields, []);
      assert.deepEqual(env.errors, []);
      assert.deepEqual(env.warnings, []);
    } finally {
      env.teardown();
    }
  });

test("Fallout: a missing DC shows the problem until the GM gives it; the odds then follow the CLI's, openers too",
  async () => {
    const env = await boot(FALLOUT);
    try {
      const { combat, ids } = await combatOf(env, [["Vic", FRIENDLY], ["Raider", HOSTILE], ["Dog", NEUTRAL]]);
      const member = (name, per, survival, more = "") => `name = "${name}"\nper = ${per}\nsurvival = ${survival}${more}`;
      const toml = ({ hunting = false, cautious = false, dog = false } = {}) => scenarioToml(
        `system = "fallout-ttrpg"\nprocedure = "world-map"\ndc = 15\nhunting = ${hunting}\n\n${FALLOUT_OPTIONS}`, {
          a: { members: [member("Vic", 6, 2, cautious ? "\ncautious_nature = true" : ""), ...(dog ? [member("Dog", 7, 3)] : [])] },
          b: { members: ['name = "Raider"'] },
        });
      const odds = (values) => linesOf(pythonOdds(toml(values)));
      let file;
      const record = await openDialog(env, combat, "world-map", (dialog) => {
        assert.deepEqual(oddsBox(dialog), ["Encounter: DC is missing."], "no sheet gives the DC");
        edited(dialog, { dc: 15, [`members.${ids.Vic}.per`]: 6 }, ["Vic: Survival is missing."], "each value in turn");
        edited(dialog, { [`members.${ids.Vic}.survival`]: 2 }, odds(), "all given: the enemies' PER is not asked");
        edited(dialog, { hunting: true }, odds({ hunting: true }), "hunted");
        edited(dialog, { [`members.${ids.Vic}.cautious_nature`]: true }, odds({ hunting: true, cautious: true }), "cautious");
        edited(dialog, { [`place.${ids.Dog}`]: "a" }, ["Dog: Per is missing."], "the dog joins the party without his values");
        edited(dialog, { [`members.${ids.Dog}.per`]: 7, [`members.${ids.Dog}.survival`]: 3 },
          odds({ hunting: true, cautious: true, dog: true }), "the dog's values");
        file = exported(env, dialog, "surprise-world-map.toml");
        return "cancel";
      });
      assert.deepEqual(pythonOdds(file), pythonOdds(toml({ hunting: true, cautious: true, dog: true })));
      assert.deepEqual(record.absentFields, []);
      const opener = ([name, bonus, target]) => `[[openers]]\nname = "${name}"\nattack_bonus = ${bonus}\ntarget_number = ${target}`;
      const sneak = (...rows) => linesOf(pythonOdds(scenarioToml(
        `system = "fallout-ttrpg"\nprocedure = "sneak-attack"\n\n${rows.map(opener).join("\n\n")}\n\n${FALLOUT_OPTIONS}`,
        { a: { members: ['name = "Vic"'] }, b: { members: ['name = "Raider"'] } })));
      const opened = await openDialog(env, combat, "sneak-attack", (dialog) => {
        assert.deepEqual(oddsBox(dialog), ["Vic: Attack bonus is missing."], "the first opener row starts with side A's first");
        edited(dialog, { "openers.0.attack_bonus": 4, "openers.0.target_number": 14 }, sneak(["Vic", 4, 14]), "one opener");
        edited(dialog, { "openers.1.name": "Raider", "openers.1.attack_bonus": 2, "openers.1.target_number": 11 },
          sneak(["Vic", 4, 14], ["Raider", 2, 11]), "a mutual ambush: an opener on each side");
        return "cancel";
      });
      assert.deepEqual(opened.absentFields, []);
      assert.deepEqual(env.errors, []);
      assert.deepEqual(env.warnings, []);
    } finally {
      env.teardown();
    }
  });

const HOSTILE_NAMES = ["<img src=x onerror=alert(1)>", `Tom "the" O'Neil`, "</p><p>x", "</strong></div><b>bold</b>",
  "a & b &amp; <!-- c"];
const SHEETS = { gurps: { attributes: { IQ: { value: 11 }, PER: { value: 12 } }, ads: {}, skills: {} }, ars: { abilities: { dex: { value: 15 } } } };

test("hostile names stay text: in the form's labels and choices and in the odds box, never elements", async () => {
  for (const [example, procedure] of [[GURPS, "partial"], [ADND, "roll"], [FALLOUT, "sneak-attack"]]) {
    const env = await boot(example);
    try {
      const people = HOSTILE_NAMES.map((name, index) => [name, index % 2 ? HOSTILE : FRIENDLY, SHEETS[example.systemId]]);
      const { combat } = await combatOf(env, people);
      const drafted = game.modules.get(example.id).api.draft(combat, procedure);
      const [a, b] = [drafted.sides.a.members.map((m) => m.name), drafted.sides.b.members.map((m) => m.name)];
      const record = await openDialog(env, combat, procedure, (dialog) => {
        if (example === FALLOUT) dialog.fill({ "openers.0.attack_bonus": 1, "openers.0.target_number": 10 });
        const lines = oddsBox(dialog);
        assert.match(lines[0], /^Who gets the jump: /, `${example.id}: odds shown`);
        assert.deepEqual(lines.slice(1).map((line) => [...a, ...b].find((name) => line.startsWith(`${name}: `))), [...a, ...b],
          `${example.id}: each member's line starts with his name as given`);
        // A name chosen in a select comes back as the same member: the leaders, an opener on the other side
        if (example === GURPS) dialog.fill({ "sides.a.leader": a[0], "sides.b.leader": b[1] });
        if (example === FALLOUT) dialog.fill({ "openers.1.name": b[0], "openers.1.attack_bonus": 0, "openers.1.target_number": 9 });
        assert.match(oddsBox(dialog)[0], /^Who gets the jump: /, `${example.id}: the chosen names are members`);
      });
      const { element } = record;
      assert.equal(element.querySelectorAll("img, b, script, p p").length, 0, `${example.id}: no element made from a name`);
      assert.deepEqual([...element.querySelectorAll(".dialog-content strong")].map((strong) => strong.textContent), [...a, ...b],
        `${example.id}: each combatant's row is headed by his name`);
      const options = [...element.querySelectorAll("select option")].filter((option) => HOSTILE_NAMES.includes(option.value));
      for (const option of options) assert.equal(option.textContent, option.value, "a choice shows the name it sends");
      const offered = new Set(options.map((option) => option.value));
      if (example !== ADND) assert.equal(offered.size, HOSTILE_NAMES.length, `${example.id}: every name offered`);
      assert.deepEqual(env.errors, []);
      assert.deepEqual(env.warnings, []);
    } finally {
      env.teardown();
    }
  }
});

/** A draft as the rules read it: a missing value (null or undefined) left out, opening attack rows without a name dropped. */
function normal(draft) {
  const openers = draft.openers ? { openers: draft.openers.filter((row) => row.name) } : {};
  return JSON.parse(JSON.stringify({ ...draft, ...openers }, (key, value) => (value === null ? undefined : value)));
}

const PROCEDURES = [[GURPS, ["partial", "total", "quick-contest"]], [ADND, ["roll"]], [FALLOUT, ["world-map", "sneak-attack"]]];

test("the form parses without loss: every field of the draft is in it once, and the Roll button reads the draft back",
  async () => {
    for (const [example, procedures] of PROCEDURES) {
      const env = await boot(example);
      try {
        const sheet = SHEETS[example.systemId];
        const { combat } = await combatOf(env, [["Ava", FRIENDLY, sheet], ["Orc", HOSTILE, sheet], ["Cat", NEUTRAL, sheet]]);
        const api = game.modules.get(example.id).api;
        for (const procedure of procedures) {
          const draft = api.draft(combat, procedure);
          let read;
          const record = await openDialog(env, combat, procedure, (dialog) => {
            const rendered = [...dialog.form.elements].map((field) => field.name).filter(Boolean);
            assert.deepEqual(rendered.sort(), Object.keys(draftFields(draft)).sort(), `${example.id} ${procedure}: the fields`);
            const roll = dialog.form.querySelector('footer button[data-action="roll"]');
            read = dialog.config.buttons.find((button) => button.action === "roll").callback(new Event("click"), roll, dialog.dialog);
          });
          assert.deepEqual(normal(read), normal(draft), `${example.id} ${procedure}: read back as drafted`);
          assert.deepEqual(record.absentFields, [], `${example.id} ${procedure}: no field read that the form lacks`);
        }
        assert.deepEqual(env.errors, []);
      } finally {
        env.teardown();
      }
    }
  });
