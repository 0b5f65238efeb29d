// Play conformance vectors through generated Foundry modules in the emulated Foundry client, every group in this process.
//   node --experimental-vm-modules conformance.mjs GROUPS.json (emulation/isolation.mjs)
// GROUPS.json: [{module, gameSystem, generation, vectors: [VECTOR.json, ...]}], a module folder and the game system and
// Foundry generation (13 or 14) its world runs.
// For each vector: actors and tokens for every member (side a friendly, side b hostile), a combat with
// them in scenario order, the GM's input from the module's own defaults plus what the dialog asks, the
// dice scripted, then the combat is played turn by turn. In an ARS world ARS re-rolls every initiative as each round
// begins, as it does at a real table (emulation/game-systems.mjs), its values keeping the scenario's order. The outcome is rebuilt from what the module did:
// its chat cards, the statuses on the actors during each turn, and which turns it let pass. Prints one
// JSON line per vector and group: {generation, vector, ok, diff?, error?}. A group with a language plays in a client of
// that language, opens the dialog first and cancels it, and its lines add the dialogs (title, form and odds), the
// chat's cards and the notifications ({cards: [html, ...]}, tests/test_cards_in_languages.py).
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { renamed, runVectors } from "../js/compare.mjs";
import { completeDraft } from "../js/drafts.mjs";
import { oddsBox } from "./dialog-fields.mjs";
import { playedOut, rebuildOutcome, resolveRecord } from "../js/outcomes.mjs";
import { installArsInitiative, installDnd5eInitiative } from "../../tools/harness/foundry/emulation/game-systems.mjs";
import { GENERATIONS, createFoundry } from "../../tools/harness/foundry/harness.mjs";

const MAX_ROUNDS = 40;
let shown = []; // the cards and notifications of the vector played last

/**
 * Return the actor data for one member where the module's readers look: a data path, or an entry of a nested
 * list as GURPS Game Aid keeps it (an advantage present when true, a skill with its level and a point).
 */
function actorSystem(member, attributes) {
  const system = {};
  const entries = { ads: [], skills: [] };
  for (const [key, reader] of Object.entries(attributes)) {
    if (member[key] === undefined) continue;
    if (reader.advantage !== undefined) {
      if (member[key]) entries.ads.push({ name: reader.advantage });
      continue;
    }
    if (reader.skill !== undefined) {
      // A skill the character has a point in (the module reads no other's level); the rules' level 0 is none at all.
      if (member[key]) entries.skills.push({ name: reader.skill, level: member[key], points: 1 });
      continue;
    }
    const parts = reader.path.replace(/^system\./, "").split(".");
    let node = system;
    parts.slice(0, -1).forEach((part) => { node = node[part] ??= {}; });
    node[parts.at(-1)] = member[key];
  }
  for (const [list, items] of Object.entries(entries)) {
    if (Object.values(attributes).some((reader) => reader[list === "ads" ? "advantage" : "skill"] !== undefined)) {
      system[list] = Object.fromEntries(items.map((item, index) => [String(index).padStart(5, "0"), { ...item, contains: {} }]));
    }
  }
  return system;
}

/** Play one vector; return the outcome rebuilt from the module's behaviour. */
async function play({ moduleDir, gameSystem, generation, moduleId, language }, vector) {
  const env = createFoundry({ generation, systemId: gameSystem, modules: [{ id: moduleId }], language, quiet: true });
  // dnd5e's own Initiative roll, which the module rolls a 2024 Initiative through (game-systems/dnd5e/adapter.js)
  const uninstall = gameSystem === "dnd5e" ? installDnd5eInitiative() : () => {};
  shown = [];
  try {
    await env.loadModule(moduleDir);
    const { ATTRIBUTES: readers } = await import(pathToFileURL(`${moduleDir}/scripts/common/config.js`).href);
    // ARS computes the Dexterity reaction from the Dexterity, and the module reads it only for Dexterity 19 to 25
    // (templates/foundry/game-systems/ars/adapter.js): a vector's adjustment is no value of a sheet there, so the GM gives it.
    const attributes = Object.fromEntries(Object.entries(readers)
      .filter(([, reader]) => gameSystem !== "ars" || reader.path !== "system.abilities.dex.reaction"));
    const scenario = vector.scenario;
    const members = ["a", "b"].flatMap((key) => scenario.sides[key].members.map((member) => ({ key, member })));
    const tokens = [];
    for (const { key, member } of members) {
      const actor = await env.createActor({ name: member.name, system: actorSystem(member, attributes) });
      const disposition = key === "a" ? CONST.TOKEN_DISPOSITIONS.FRIENDLY : CONST.TOKEN_DISPOSITIONS.HOSTILE;
      tokens.push(await env.createToken({ actor, name: member.name, disposition }));
    }
    const combat = await env.createCombat({ combatants: tokens.map((token) => ({ token })) });
    if (gameSystem === "ars") {
      // ARS's default order is ascending (docs/dev/foundry.md §11): 1, 2, ... keep the scenario's order.
      const order = combat.combatants.contents.map((combatant, index) => [combatant.id, index + 1]);
      installArsInitiative(() => Object.fromEntries(order), { ascending: true });
    }
    await env.settle();
    const nameOf = new Map(combat.turns.map((c) => [c.id, c.name]));
    const api = game.modules.get(moduleId).api;
    if (language) {
      if (api.procedures.length > 1) env.dialogAnswers.push(scenario.procedure);
      env.dialogAnswers.push((record) => {
        record.odds = oddsBox(record);
        return "cancel";
      });
      await api.openDialog(combat);
      await env.settle();
    }
    const draft = api.draft(combat, scenario.procedure);
    const problems = completeDraft(draft, scenario, Object.keys(attributes));
    if (problems.length) throw new Error(problems.join("; "));
    env.scriptDice(...vector.dice);
    const observed = observeTurns(env, combat, nameOf);
    const outcome = await api.resolve(draft, combat);
    await env.settle();
    if (outcome === null) throw new Error(`the module refused: ${env.notifications.map((n) => n.message).join("; ")}`);
    observed.afterTrigger = statusesByName(combat, nameOf);
    await combat.startCombat();
    await env.settle();
    for (let steps = 0; steps < MAX_ROUNDS * combat.turns.length && !playedOut(scenario.system, combat.getFlag(moduleId, "state"), observed.round); steps += 1) {
      await observed.next();
      await env.settle();
    }
    observed.leave();
    observed.end = statusesByName(combat, nameOf);
    if (process.env.DEBUG_TURNS) console.error(JSON.stringify(observed.turns));
    const result = rebuild(scenario, env, combat, observed, nameOf, moduleId);
    if (env.errors.length) throw new Error(`hook errors: ${env.errors.map((e) => e.error?.message ?? e.error).join("; ")}`);
    if (env.pendingDice.length) throw new Error(`scripted faces never rolled: ${env.pendingDice.join(", ")}`);
    if (env.missingI18n.length) throw new Error(`missing translations: ${[...new Set(env.missingI18n.map((m) => m.key ?? m))].join(", ")}`);
    return result;
  } finally {
    shown = [...env.dialogs.flatMap((record) => [record.title, record.content, ...(record.odds ?? [])]),
      ...env.messages.map((message) => message.content), ...env.notifications.map((notice) => notice.message)];
    env.teardown();
    uninstall();
  }
}

/** The statuses each member's actor shows now, by member name; a reused status counts as the module's own. */
function statusesByName(combat, nameOf) {
  const own = (id) => (id === "mentalstun" ? "surprised" : id);
  return Object.fromEntries(combat.turns.map((c) => [nameOf.get(c.id), [...(c.actor?.statuses ?? [])].map(own).sort()]));
}

/**
 * Record every turn start: who and in which round, and the statuses when the turn is left (after the
 * module's work). A turn the harness did not end itself was passed on by the module.
 */
function observeTurns(env, combat, nameOf) {
  // Rounds are counted as the tracker begins them (combatStart, combatRound: this client advances the combat), not
  // by their numbers: the module numbers the first normal round after AD&D segments as the segments' first round.
  const observed = { turns: [], round: 0, trackerRounds: [] };
  let open = null;
  let beginning = false;
  const begin = (changed) => { if (changed.id === combat.id) beginning = true; };
  Hooks.on("combatStart", begin);
  Hooks.on("combatRound", begin);
  Hooks.on("combatTurnChange", (changed, prior, current) => {
    if (changed.id !== combat.id) return;
    if (beginning) {
      observed.round += 1;
      observed.trackerRounds.push(current.round);
      beginning = false;
    }
    if (open && !open.statuses) open.statuses = statusesByName(combat, nameOf);
    open = { round: observed.round, name: nameOf.get(current.combatantId), passed: true, statuses: null };
    observed.turns.push(open);
  });
  observed.leave = () => {
    if (!open) return;
    open.passed = false;
    open.statuses = statusesByName(combat, nameOf);
  };
  observed.next = async () => {
    observed.leave();
    await combat.nextTurn();
  };
  return observed;
}

/** Rebuild the vector's expected shape from what the module posted and did. */
function rebuild(scenario, env, combat, observed, nameOf, moduleId) {
  const records = env.messages.flatMap((m) => m.flags?.[moduleId]?.records ?? []).map((r) => renamed(r, nameOf));
  const resolved = resolveRecord(records);
  if (scenario.system === "adnd1e") {
    // The segments are played as tracker rounds 1..n; the first normal round is the tracker's round 1 again.
    const segments = resolved.outcome.timeline.length;
    const expected = [...Array(segments).keys()].map((index) => index + 1).concat([1]);
    if (JSON.stringify(observed.trackerRounds.slice(0, segments + 1)) !== JSON.stringify(expected)) {
      throw new Error(`tracker rounds ${observed.trackerRounds.join(", ")}: the first normal round is not round 1`);
    }
  }
  return rebuildOutcome(scenario, resolved.outcome, records, observed);
}

for (const { module, gameSystem, generation, language, vectors } of JSON.parse(await readFile(process.argv[2], "utf8"))) {
  if (!GENERATIONS.includes(generation)) throw new Error(`generation ${generation}: the emulation runs ${GENERATIONS.join(" and ")}`);
  const { id } = JSON.parse(await readFile(`${module}/module.json`, "utf8"));
  const group = { moduleDir: module, gameSystem, generation, moduleId: id, language };
  await runVectors(vectors, (vector) => play(group, vector), { generation }, () => (language ? { cards: shown } : {}));
}
