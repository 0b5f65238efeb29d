// Play conformance vectors through generated Roll20 Mod scripts in the emulated Mod sandbox, every group in this process.
//   node conformance.mjs GROUPS.json
// GROUPS.json: [{script, scriptName, attributes: {input: sheet reader}, constants, markers: {status: marker tag}, procedures,
// vectors: [VECTOR.json, ...]}].
// For each vector: a character and a token per member (side a controlled by a player), the turn order in
// scenario order, then the GM's chat commands as the buttons would send them (resolve, set, roll), the dice
// scripted, and the turn order advanced with the tracker's Next. The outcome is rebuilt from what the
// script did: its log in state, the markers on the tokens during each turn, and which turns it passed on.
// Prints one JSON line per vector: {vector, ok, diff?, error?}. A group with a language plays in it (the config command
// first) and asks besides for the odds, a combatant's card, the status and the help; its lines add the chat's cards
// ({cards: [html, ...]}, tests/test_cards_in_languages.py): its outcome is not compared then, the turns it passed are
// told by an English card.
import { readFile } from "node:fs/promises";
import { renamed, runVectors } from "../js/compare.mjs";
import { rebuildOutcome, resolveRecord, settled, surpriseRounds } from "../js/outcomes.mjs";
import { createSandbox } from "../../tools/harness/roll20/harness.mjs";

let config = null; // the group being played
let statusOf = null; // its statuses by marker tag
let shownChat = []; // what the chat showed in the vector played last
const GM = "-GM0000000000000001";
const PLAYER = "-PL0000000000000001";
const MAX_STEPS = 400;

/** The GM's "set" commands for the vector's values, as the draft card's buttons would send them. */
function setCommands(scenario, idOf, procedureInputs) {
  const commands = [];
  const flag = (value) => (value === true ? "true" : value === false ? "false" : String(value));
  for (const input of procedureInputs.filter((i) => i.level === "scenario")) {
    if (input.type === "openers") {
      const openers = scenario.openers ?? [{ name: scenario.attacker, attack_bonus: scenario.attack_bonus, target_number: scenario.target_number }];
      openers.forEach((opener, index) => commands.push(
        `!surprise set --opener ${index} --name ${idOf.get(opener.name)} --attack_bonus ${opener.attack_bonus} --target_number ${opener.target_number}`));
    } else if (scenario[input.key] !== undefined) {
      commands.push(`!surprise set --scenario --${input.key} ${flag(scenario[input.key])}`);
    }
  }
  for (const key of ["a", "b"]) {
    const side = scenario.sides[key];
    for (const input of procedureInputs.filter((i) => i.level === "side")) {
      if (input.key === "leader") commands.push(`!surprise set --side ${key} --leader ${side.leader ? idOf.get(side.leader) : "none"}`);
      else if (side[input.key] !== undefined) commands.push(`!surprise set --side ${key} --${input.key} ${flag(side[input.key])}`);
    }
    for (const member of side.members) {
      for (const input of procedureInputs.filter((i) => i.level === "member")) {
        if (member[input.key] !== undefined && !(input.key in config.attributes)) {
          commands.push(`!surprise set --token ${idOf.get(member.name)} --${input.key} ${flag(member[input.key])}`);
        }
      }
    }
  }
  return commands;
}

/** The first of a reader's one-or-more names */
const first = (names) => (Array.isArray(names) ? names[0] : names);

/**
 * The attribute objects of one member's character where the script's readers look: a plain or set attribute,
 * or a repeating section's row (its name field, its value field where the reader reads one, one point where it asks
 * for points: a skill the rules count, B393).
 */
function sheetAttributes(member, side) {
  const attributes = {};
  Object.entries(config.attributes).forEach(([input, given], index) => {
    const value = member[input];
    if (value === undefined) return;
    // A reader chosen by the kind of sheet (5e: `npc`): side b's characters are NPCs, side a's PCs, so both are read.
    const npc = side === "b";
    const reader = given.when ? (npc ? given.then : given.otherwise) : given;
    if (given.when) attributes[given.when] = npc ? 1 : 0;
    if (reader.after) {
      attributes[reader.set[0]] = `darkvision 60 ft., ${reader.after} ${value}`;
      return;
    }
    if (reader.section) {
      if (reader.value === undefined && !value) return;
      if (reader.points && !(value >= 1)) return; // no point in the skill: no row, so the rule default
      const row = `${first(reader.section)}_-row${String(index).padStart(4, "0")}`;
      attributes[`${row}_${reader.name_field}`] = reader.name;
      if (reader.value !== undefined) attributes[`${row}_${first(reader.value)}`] = value;
      if (reader.points) attributes[`${row}_${reader.points}`] = 1;
      return;
    }
    // A reader that requires another attribute to hold a rules' number (a d6) finds it; one that adds a rules' number
    // finds the value less it (the AD&D Revised sheet's Adj. 1 for surprises_on 3).
    if (reader.requires) attributes[reader.requires.attribute] = config.constants[reader.requires.constant];
    attributes[reader.set ? reader.set[0] : reader.attribute] = reader.plus ? value - config.constants[reader.plus] : value;
  });
  return attributes;
}

/** Play one vector; return the outcome rebuilt from the script's behaviour. */
async function play(vector) {
  const scenario = vector.scenario;
  const sb = createSandbox({ players: [{ id: GM, displayname: "GM", isGM: true }, { id: PLAYER, displayname: "Player", isGM: false }] });
  shownChat = sb.chat;
  const members = ["a", "b"].flatMap((key) => scenario.sides[key].members.map((member) => ({ key, member })));
  const tokens = [];
  for (const { key, member } of members) {
    const attributes = sheetAttributes(member, key);
    const character = sb.createCharacter({ name: member.name, controlledby: key === "a" ? PLAYER : "", attributes });
    tokens.push(sb.createToken({ name: member.name, represents: character.id, controlledby: key === "a" ? PLAYER : "" }));
  }
  await sb.load(config.script);
  sb.ready();
  await sb.settle();
  const say = async (command) => {
    sb.user.chat(GM, command);
    await sb.settle();
  };
  if (config.language) await say(`!surprise config --language ${config.language}`);
  const idOf = new Map(tokens.map((token) => [token.get("name"), token.id]));
  const nameOf = new Map(tokens.map((token) => [token.id, token.get("name")]));
  sb.user.setTurnorder(tokens.map((token) => ({ id: token.id, pr: "0", custom: "", _pageid: token.get("_pageid") })));
  await sb.settle();

  const observed = observe(sb, nameOf);
  sb.user.chat(GM, `!surprise resolve --procedure ${scenario.procedure}`);
  await sb.settle();
  const procedureInputs = config.procedures[scenario.procedure];
  for (const command of setCommands(scenario, idOf, procedureInputs)) {
    sb.user.chat(GM, command);
    await sb.settle();
  }
  if (config.language) {
    await say("!surprise odds");
    await say(`!surprise draft --token ${tokens[0].id}`);
  }
  sb.scriptDice(...vector.dice);
  observed.start();
  sb.user.chat(GM, "!surprise roll");
  await sb.settle();
  // The script plays the top row's turn inside the roll command, so what the trigger marked is what the
  // first turn started with (a Cautious Nature sleeper acting first is woken right after); without a
  // turn, it is what the roll left.
  observed.afterTrigger = observed.turns[0]?.started ?? markersByName(sb, nameOf);
  for (let step = 0; step < MAX_STEPS && !finished(sb, scenario, observed); step += 1) {
    observed.userAdvance();
    sb.user.advanceTurn();
    await sb.settle();
  }
  observed.close("user");
  observed.end = markersByName(sb, nameOf);
  if (config.language) {
    await say("!surprise status");
    await say("!surprise help");
  }
  const store = sb.stateSnapshot()[config.scriptName];
  const errors = sb.takeErrors();
  if (errors.length) throw new Error(`sandbox errors: ${errors.map((e) => e.message).join("; ")}`);
  if (sb.diceLeft().length) throw new Error(`scripted faces never rolled: ${sb.diceLeft().join(", ")}`);
  return rebuild(scenario, store, observed, nameOf, sb);
}

/** The statuses shown on each member's token now, from its markers. */
function markersByName(sb, nameOf) {
  return Object.fromEntries([...nameOf].map(([id, name]) => {
    const markers = String(sb.getObj("graphic", id)?.get("statusmarkers") ?? "").split(",").filter(Boolean);
    return [name, markers.map((marker) => statusOf.get(marker.split("@")[0])).filter(Boolean).sort()];
  }));
}

/**
 * Follow the top of the turn order through every write, the script's own and the user's Next: a turn the
 * script ended was passed on, and so was one it left on top when it said that nobody may act this round (one click
 * plays each turn once: the user's Next goes on); the round row coming to the top starts the next round. Each turn
 * keeps the statuses it started with (before the script plays it) and those it was left with.
 */
function observe(sb, nameOf) {
  const observed = { turns: [], round: 1, normal: [] };
  let open = null;
  let lastTop = null;
  let watching = false;
  const top = () => sb.turnorder()[0] ?? null;
  // Roll20.NobodyCanAct in English, the conformance campaigns' language
  const nobodyCanAct = (from) => sb.chat.slice(from).some((c) => /Nobody in the turn order may act this round/.test(c.content));
  observed.close = (cause) => {
    if (!open) return;
    open.passed = cause === "script" || nobodyCanAct(open.chatFrom);
    open.statuses = markersByName(sb, nameOf);
    open = null;
  };
  const keyOf = (row) => (row ? `${row.id}|${row.custom ?? ""}` : null);
  // The row on top as the roll began, and the markers as the trigger left them (at the script's first card after it)
  let initial;
  let afterTrigger = null;
  const changed = (row, cause) => {
    const key = keyOf(row);
    if (initial !== undefined) {
      // The script plays the top row's turn inside the roll; when it passes that turn on before writing the order
      // with him on top (a lone stunned member who recovers ends the surprise: no round row is placed), the first
      // write shows another row on top, and his turn is the one that just ended.
      const first = initial;
      initial = undefined;
      if (first && first.id !== "-1" && lastTop === null && keyOf(first) !== key) {
        observed.turns.push({ round: observed.round, name: nameOf.get(first.id), passed: cause === "script",
          started: afterTrigger ?? markersByName(sb, nameOf), statuses: markersByName(sb, nameOf), chatFrom: sb.chat.length });
      }
    }
    if (key === lastTop) return;
    lastTop = key;
    observed.close(cause);
    if (!row) return;
    if (row.id === "-1") {
      observed.round += 1;
      return;
    }
    open = {
      round: observed.round, name: nameOf.get(row.id), passed: false, started: markersByName(sb, nameOf), statuses: null,
      chatFrom: sb.chat.length,
    };
    observed.turns.push(open);
  };
  const wrapper = sb.campaign;
  const set = wrapper.set.bind(wrapper);
  wrapper.set = (...args) => {
    const result = set(...args);
    if (watching) changed(top(), "script");
    return result;
  };
  observed.start = () => {
    watching = true;
    initial = top();
    const chatFrom = sb.chat.length;
    const push = sb.chat.push.bind(sb.chat);
    sb.chat.push = (...messages) => {
      if (afterTrigger === null && sb.chat.length === chatFrom) afterTrigger = markersByName(sb, nameOf);
      return push(...messages);
    };
  };
  observed.userAdvance = () => {
    const order = sb.turnorder();
    if (order.length) changed(order[1 % order.length], "user");
  };
  return observed;
}

/** Tell whether the surprise has played out, with the first normal round seen in full. */
function finished(sb, scenario, observed) {
  // Read where it lies, not copied: this runs after every step, and the copy (stateSnapshot) is taken once at the end
  const surprise = sb.state[config.scriptName]?.surprise;
  if (!surprise) return true;
  if (scenario.system === "gurps4e") {
    const tracked = { ...surprise, tracks: surprise.tracks ?? {} };
    return surprise.done || (settled(scenario.system, tracked) && observed.round > surpriseRounds(scenario.system, tracked));
  }
  // Roll20 counts no rounds after the surprise: the first normal round is one turn for every token after it.
  const tokens = Object.keys(surprise.labels).length;
  const normalTurns = observed.turns.filter((t) => t.round > surpriseRounds(scenario.system, surprise));
  return surprise.done && normalTurns.length > tokens;
}

/** Rebuild the vector's expected shape from the script's log and what it did. */
function rebuild(scenario, store, observed, nameOf, sb) {
  const log = (store.surprise?.log ?? []).map((entry) => renamed(entry, nameOf));
  const missing = `no surprise was resolved: ${sb.chat.map((c) => c.content).slice(-3).join(" / ")}`;
  return rebuildOutcome(scenario, resolveRecord(log, missing).outcome, log, observed);
}

for (const group of JSON.parse(await readFile(process.argv[2], "utf8"))) {
  config = group;
  statusOf = new Map(Object.entries(config.markers).map(([status, tag]) => [tag, status]));
  await runVectors(group.vectors, play, {}, () => (config.language ? { cards: shownChat.map((message) => message.content) } : {}));
}
