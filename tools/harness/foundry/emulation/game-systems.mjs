// What the game systems add to the emulated Foundry client, each part shaped after the public code it follows:
// GURPS Game Aid 0.18's nested trait and skill lists, its finders and the values it derives as an actor is prepared;
// GURPS Game Aid 1.0's traits and skills as Items, its deprecated lists and its finders; ARS's Dexterity as it prepares
// an actor and its initiative re-rolled each round; dnd5e 5.3's skill and initiative totals as it prepares an actor;
// and dnd5e 6's stamping of an expiry on effects without one.
import { ActiveEffect, Actor, Item } from "./documents.mjs";
import { Combat, Combatant, byInitiative } from "./combat.mjs";
import { env } from "./core.mjs";
import { Roll, registerRollClass } from "./dice.mjs";

/**
 * Make every actor's `system` what a game system's data preparation leaves in memory: `prepare(system, actor)` edits
 * a copy of the stored system data (the actor's `_source.system` stays as stored), made again after each update, as
 * Foundry prepares a document's data after each change. Returns the function that restores the stored data.
 */
function prepareActors(prepare) {
  const stored = Object.getOwnPropertyDescriptor(Actor.prototype, "system");
  const prepared = new WeakMap();
  Object.defineProperty(Actor.prototype, "system", {
    configurable: true,
    get() {
      const source = this._source;
      if (!prepared.has(source)) {
        const system = structuredClone(source.system ?? {});
        prepare(system, this);
        prepared.set(source, system);
      }
      return prepared.get(source);
    },
  });
  return () => Object.defineProperty(Actor.prototype, "system", stored);
}

// --- GURPS Game Aid (crnormand/gurps @ac714d44d6b93fd989bdeb6870c736fb04645ec4, 0.18.22) -------------------

/**
 * A GGA list: an object keyed by zero-filled index (lib/utilities.js arrayToObject and zeroFill, width 5), each
 * entry with its own `contains` list (module/actor/actor-components.js _Base: `this.contains = {}`) and, once a GM
 * collapsed it on the sheet, a `collapsed` list holding the children instead (module/actor/actor.js toggleExpand).
 * `entries` are {name, level?, points?, contains?: [...], collapsed?: [...]}.
 */
export function ggaList(entries) {
  const list = {};
  entries.forEach((entry, index) => {
    const { contains = [], collapsed, ...rest } = entry;
    const nested = { notes: "", pageref: "", ...rest, contains: ggaList(contains) };
    if (collapsed) nested.collapsed = ggaList(collapsed);
    list[String(index).padStart(5, "0")] = nested;
  });
  return list;
}

/** lib/utilities.js recurselist (242-249): every entry, then its `contains` and `collapsed` lists */
function recurselist(list, fn) {
  if (!list) return;
  for (const value of Object.values(list)) {
    if (fn(value) !== false) {
      recurselist(value.contains, fn);
      recurselist(value.collapsed, fn);
    }
  }
}

/**
 * lib/utilities.js flattenContainedList (274-288): every entry and, where an entry has one, its `contains` list; a
 * `collapsed` list is not followed
 */
function flattenContainedList(list) {
  const result = [];
  const traverse = (items) => {
    for (const item of Object.values(items ?? {})) {
      result.push(item);
      if (item.contains) traverse(item.contains);
    }
  };
  traverse(list);
  return result;
}

/** lib/utilities.js makeRegexPatternFrom(text, end, start) (463-471): `*` is a wildcard, brackets and + are escaped */
function makeRegexPatternFrom(text, end = true, start = true) {
  let pattern = text.split("*").join(".*?").replace(/\(/g, "\\(").replace(/\)/g, "\\)");
  pattern = pattern.replace(/\[/g, "\\[").replace(/\]/g, "\\]").replace(/\+/g, "\\+").replace(/\^/g, "\\^");
  return (start ? "^" : "") + pattern.trim() + (end ? "$" : "");
}

/**
 * Install GGA's actor behaviour: its toggleStatusEffect that returns undefined, and its finders: GurpsActor#findAdvantage
 * (module/actor/actor.js 725-732: `flattenContainedList(this.system.ads)`, so entries of a collapsed container are
 * not searched, and the first whose name matches `new RegExp(advname, 'i')`: the name unescaped, anywhere in the
 * entry's name) and GURPS.findSkillSpell (module/gurps.js 1309-1331: the best level among system.skills entries,
 * `contains` and `collapsed` alike, whose name starts with the pattern; spells are searched too unless isSkillOnly,
 * which the product always passes, so that branch is left out).
 * The harness's Actor stands in for GurpsActor. Returns the function that removes them again.
 */
export function installGgaFinders() {
  Object.defineProperty(Actor.prototype, "findAdvantage", {
    configurable: true,
    value(advname) {
      return flattenContainedList(this.system.ads).find((it) => it.name.match(new RegExp(advname, "i")));
    },
  });
  globalThis.GURPS = {
    findSkillSpell(actor, sname, isSkillOnly = false) {
      if (!isSkillOnly) throw new Error("harness: GURPS.findSkillSpell without isSkillOnly is not emulated");
      if (!actor) return undefined;
      const data = actor instanceof Actor ? actor.system : actor;
      const skillRegExp = new RegExp(`^ *(\\[ ?["'])?${makeRegexPatternFrom(sname, false, false)}`, "i");
      let found;
      let best = 0;
      recurselist(data.skills, (s) => {
        if (s.name?.match(skillRegExp) && s.level > best) {
          found = s;
          best = parseInt(s.level, 10);
        }
      });
      return found;
    },
  };
  // module/actor/actor.js GurpsActor#toggleStatusEffect awaits core's and returns nothing (posture handling aside).
  const coreToggle = Actor.prototype.toggleStatusEffect;
  Object.defineProperty(Actor.prototype, "toggleStatusEffect", {
    configurable: true,
    writable: true,
    async value(statusId, options) {
      await coreToggle.call(this, statusId, options);
    },
  });
  return () => {
    delete Actor.prototype.findAdvantage;
    Object.defineProperty(Actor.prototype, "toggleStatusEffect", { configurable: true, writable: true, value: coreToggle });
    delete globalThis.GURPS;
  };
}

/**
 * Install what GGA's actor does to its data as it is prepared, and the caret of its sheet:
 *
 * - GurpsActor#prepareDerivedData (module/actor/actor.js 247-269) calls calculateDerivedValues (376-379), whose
 *   _initializeStartingValues (412-435) sets each attribute's `value` from its `import` (0 where `import` is not a
 *   number, 420-424) and each skill's and spell's `level` from its `import` where `import` is set (428-435): the
 *   importer stores the level in `import` and leaves `level` '' (module/actor/actor-importer.js importSk 1714-1716).
 *   Item bonuses (_applyItemBonuses) are not emulated: the corpus's actors have none.
 * - GurpsActor#toggleExpand(path) (actor.js 2178-2195; the sheet's caret, module/actor/actor-sheet.js 491-498): a
 *   container with children in `collapsed` gets them back in `contains`; otherwise one with children in `contains`
 *   moves them to `collapsed` and keeps an empty `contains`, in two updates, the deletion and then the values, as GGA's
 *   commitUpdate sends them on V13 (module/utilities/foundry-compat.ts 26-38, 63-71; V14's single update with
 *   `_replace` is not emulated).
 *
 * Returns the function that removes both again.
 */
export function installGgaActors() {
  const restore = prepareActors((system) => {
    for (const attribute of Object.values(system.attributes ?? {})) {
      if (typeof attribute === "object" && attribute !== null) {
        attribute.value = Number.isNaN(Number(attribute.import)) ? 0 : parseInt(attribute.import, 10);
      }
    }
    const derive = (entry) => {
      if (entry.import) entry.level = parseInt(+entry.import, 10);
    };
    recurselist(system.skills, derive);
    recurselist(system.spells, derive);
  });
  Object.defineProperty(Actor.prototype, "toggleExpand", {
    configurable: true,
    async value(path) {
      const entry = foundry.utils.getProperty(this, path);
      const filled = (list) => Boolean(list) && Object.keys(list).length > 0;
      const children = { ...entry.contains, ...entry.collapsed };
      let [emptied, filledKey] = ["contains", "collapsed"];
      if (filled(entry.collapsed)) [emptied, filledKey] = ["collapsed", "contains"];
      else if (!filled(entry.contains)) return;
      // foundry-compat.ts replaceValue and commitUpdate on V13: the deletion first, then the values
      await this.update({ [`${path}.-=${emptied}`]: null });
      await this.update({ [`${path}.${emptied}`]: {}, [`${path}.${filledKey}`]: children });
    },
  });
  return () => {
    restore();
    delete Actor.prototype.toggleExpand;
  };
}

// --- GURPS Game Aid 1.0 (crnormand/gurps @6dd54dd7ab129f24a7f858038b1aa39883997758, branch develop, 1.0.0-alpha) ---
// Paths under src/module/. V14 only (static/system.json: minimum and maximum 14). Every actor is migrated as it loads
// (actor/gurps-actor.ts migrateData, actor/migrations/v1_0_0.ts): the corpus of fixtures/sheets/gga-1.0/ holds actors
// already in the 1.0 shape, as tests/tools/gga_v1.py makes them; the migration itself is not emulated here.

/** item/data/base.ts, data/mixins/containable.ts, trait.ts and skill.ts: what the data model fills in where a field is
 * not stored (the initial values of the fields the emulation reads) */
const GGA1_INITIAL = {
  feature: { containedBy: null, open: true, disabled: false, importid: "", importFrom: "", points: 0, level: null },
  skill: { containedBy: null, open: true, disabled: false, importid: "", importFrom: "", points: 0, importedLevel: 0,
    specialization: null, techlevel: null, otf: "" },
};

/**
 * Make every Item's `system` what its data preparation leaves in memory, as prepareActors does for actors: the stored
 * fields with the schema's initial values where none is stored, then `prepare(system, item)`. Returns the restorer.
 */
function prepareItems(prepare) {
  const stored = Object.getOwnPropertyDescriptor(Item.prototype, "system");
  const prepared = new WeakMap();
  Object.defineProperty(Item.prototype, "system", {
    configurable: true,
    get() {
      const source = this._source;
      if (!prepared.has(source)) {
        const system = { ...(GGA1_INITIAL[this.type] ?? {}), ...structuredClone(source.system ?? {}) };
        prepare(system, this);
        prepared.set(source, system);
      }
      return prepared.get(source);
    },
  });
  return () => Object.defineProperty(Item.prototype, "system", stored);
}

/**
 * item/data/skill.ts #prepareLevelsFromOtf (63-106), run in prepareBaseData: with no OTF the level is the imported
 * one; an OTF of digits alone is the level. (harness choice) A formula, which GGA evaluates with its OTF parser, is not
 * emulated and throws.
 */
function skillLevel(system) {
  const otf = String(system.otf ?? "").replace(/^\s*\[(.*)\]\s*$/, "$1").trim();
  if (otf === "") return system.importedLevel;
  if (/^\d+$/.test(otf)) return parseInt(otf, 10);
  throw new Error(`harness: a GGA 1.0 skill whose OTF is a formula ("${system.otf}") is not emulated`);
}

/**
 * item/legacy/trait-adapter.ts and skill-adapter.ts, what the deprecated lists hold: an adapter per top-level Item
 * whose `contains` lists its children while the Item is open and `collapsed` while it is folded; a trait's name is
 * the Item's followed by its level (trait-adapter.ts `get name`), its `disabled` the Item's.
 */
function legacyEntry(item, items) {
  const children = Object.fromEntries(items.filter((other) => other.system.containedBy === item.id)
    .sort((a, b) => a.sort - b.sort).map((child, index) => [String(index).padStart(5, "0"), legacyEntry(child, items)]));
  const { level, points, disabled, open } = item.system;
  const name = item.type === "feature" && level ? `${item.name} ${level}` : item.name;
  return { name, points, level, disabled, import: item.system.importedLevel, contains: open ? children : {},
    collapsed: open ? {} : children };
}

/**
 * What GGA 1.0's character data model (actor/data/character.ts) offers on `actor.system`, on top of its stored data:
 *
 * - the attributes' `value` reset to `importedValue` as the actor is prepared (#resetCalculatedAttributeValues
 *   328-336; the items' bonuses, #applyBonusesToAttributes, are not emulated: the corpus's items have none);
 * - allAdsV2 and allSkillsV2 (prepareEmbeddedDocuments 353-358): every `feature` Item but the holder of the migrated
 *   reactions (`holderItemId`), every `skill` Item; adsV2 and skillsV2, the top-level ones (891-910);
 * - `ads` and `skills`, marked `@deprecated Legacy collection` (897-919): lists of adapters (legacyEntry). Each read
 *   is recorded in env.deprecations, so that a test sees a module lean on them;
 * - findTrait/findAdvantage (1208-1217): the first trait whose name contains the name asked for, case aside, no pattern
 *   (a disabled trait included); findSkill (1229-1244): the skill of the best level above 0 whose name matches the
 *   name as a pattern anywhere (buildNameRegex 1221-1226 with src/util/utilities.js makeRegexPatternFrom 502-513,
 *   the same as 0.18's; not anchored, unlike 0.18's finder); findSkillSpell (1270-1283),
 *   spells left out (the corpus has none).
 */
function characterModel(system, actor) {
  for (const attribute of Object.values(system.attributes ?? {})) {
    if (attribute && typeof attribute === "object") attribute.value = attribute.importedValue;
  }
  const items = () => [...actor.items];
  const traits = () => items().filter((item) => item.type === "feature" && item.id !== system.holderItemId);
  const skills = () => items().filter((item) => item.type === "skill");
  const topLevel = (list) => list.filter((item) => item.system.containedBy === null).sort((a, b) => a.sort - b.sort);
  const deprecated = (name, list) => () => {
    env()._deprecate("Actor", `GURPS Game Aid 1.0: actor.system.${name} is a deprecated legacy collection (actor/data/character.ts)`);
    return Object.fromEntries(topLevel(list()).map((item, index) => [String(index).padStart(5, "0"), legacyEntry(item, list())]));
  };
  const nameRegex = (name) => new RegExp(makeRegexPatternFrom(String(name).replace(/^ *(\[ ?["'])?/, ""), false, false), "i");
  const findSkill = (name) => {
    let best = null;
    for (const skill of skills()) {
      if (skill.name?.match(nameRegex(name)) && skill.system.level > (best?.system.level ?? 0)) best = skill;
    }
    return best;
  };
  const members = {
    allAdsV2: { get: traits }, allSkillsV2: { get: skills },
    adsV2: { get: () => topLevel(traits()) }, skillsV2: { get: () => topLevel(skills()) },
    ads: { get: deprecated("ads", traits) }, skills: { get: deprecated("skills", skills) },
    findTrait: { value: (name) => traits().find((trait) => trait.name.toLowerCase().includes(String(name).toLowerCase())) ?? null },
    findAdvantage: { value: (name) => members.findTrait.value(name) },
    findSkill: { value: findSkill },
    findSkillSpell: { value: (name, isSkillOnly = false) => {
      if (!isSkillOnly) throw new Error("harness: GGA 1.0 findSkillSpell without isSkillOnly is not emulated");
      return findSkill(name);
    } },
  };
  for (const key of ["ads", "skills"]) delete system[key];
  return Object.defineProperties(system, Object.fromEntries(Object.entries(members).map(([key, member]) => [key, { configurable: true, ...member }])));
}

/**
 * Install GURPS Game Aid 1.0: its actors' and Items' data preparation (characterModel, skillLevel), its
 * GurpsActorV2#isOfType (actor/gurps-actor.ts 76-79) and its global finders (util/index.ts 8-10, util/find-item.ts:
 * GURPS.findSkillSpell(actor, name, isSkillOnly) and GURPS.findAdDisad(actor, name) call the character model's own,
 * for an actor of type `character`, else return null). Its toggleStatusEffect hands a status that is no posture to
 * core's (actor/gurps-actor.ts 456-464), which the emulation's Actor already is. Returns the remover.
 */
export function installGga1Actors() {
  const restoreItems = prepareItems((system, item) => {
    if (item.type === "skill") system.level = skillLevel(system);
  });
  const restoreActors = prepareActors(characterModel);
  Object.defineProperty(Actor.prototype, "isOfType", {
    configurable: true,
    value(...types) {
      return types.includes(this.type);
    },
  });
  const model = (actor) => (actor instanceof Actor && actor.isOfType("character") ? actor.system : null);
  globalThis.GURPS = {
    findSkillSpell: (actor, name, isSkillOnly = false) => model(actor)?.findSkillSpell(name, isSkillOnly) ?? null,
    findAdDisad: (actor, name) => model(actor)?.findAdvantage(name) ?? null,
  };
  return () => {
    restoreItems();
    restoreActors();
    delete Actor.prototype.isOfType;
    delete globalThis.GURPS;
  };
}

// --- ARS (v2023.08.06 for V11: lastredoubt/acks2-arsbase @ d47147c53b9733003995e3620df7877cdcca6d61, src/) ------
// That commit imports ARS's GitLab files unchanged ("Initial copy in from gitlab files"; src/system.json: version
// 2023.08.06, compatibility minimum 11, verified 11.306); the files read here are the same at the fork's HEAD 171feb4.
// No public copy of ARS for V13 or V14 was found: what follows is unconfirmed there (docs/dev/foundry.md §11).

/**
 * The Dexterity reaction adjustment of each variant's table, Dexterity 1 to 25 (config.js 858-947, ARS.dexterityTable
 * ["0"], ["1"], ["2"], the first of each row's three columns; the missile and defensive columns are not emulated).
 */
const ARS_DEX_REACTION = {
  0: [-3, -3, -3, -2, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3],
  1: [-6, -4, -3, -2, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 4, 4, 4, 5, 5],
  2: [-6, -4, -3, -2, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5],
};

/**
 * Install ARS's world setting of the rules variant and what its actor does to the abilities as it is prepared:
 *
 * - settings.js 76-108: the world setting `systemVariant`, a String with choices "0" (Standard), "1" and "2"
 *   (lang/en.json 782-788; Variant 2 switches to 1d10 initiative and armor damage, AD&D 2e's), default "0", read
 *   into CONFIG.ARS.settings at init (ars.js 153-168; a change needs a reload, which the harness does not model: the
 *   variant is read as each actor is prepared).
 * - ARSActor#prepareData (module/actor/actor.js 399-413) calls _buildAbilityFields (1262-1362): every ability's
 *   `value` becomes `parseInt(value) || 1` within 1 to 25 (1266-1273: a blank, 0 or text is 1), and Dexterity gets the
 *   row of that value from the variant's table, `reaction` among them (1325-1329, config.js 858-947). The stored
 *   value (`_source`) keeps what the GM typed.
 *
 * Returns the function that removes the preparation (the setting stays registered, as settings do).
 */
export function installArsActors({ variant = "0" } = {}) {
  if (env().options.systemId !== "ars") throw new Error("ARS's actors need a world of the ars game system");
  if (!game.settings.settings.has("ars.systemVariant")) {
    game.settings.register("ars", "systemVariant", {
      scope: "world", config: true, type: String, choices: { 0: "Standard", 1: "Variant 1", 2: "Variant 2" }, default: "0",
    });
  }
  game.settings.set("ars", "systemVariant", variant);
  return prepareActors((system) => {
    for (const [key, ability] of Object.entries(system.abilities ?? {})) {
      if (typeof ability !== "object" || ability === null) continue;
      ability.value = Math.min(Math.max(parseInt(ability.value, 10) || 1, 1), 25);
      if (key === "dex") ability.reaction = ARS_DEX_REACTION[game.settings.get("ars", "systemVariant")][ability.value - 1];
    }
  });
}

/** combatTracker.js 157-171 ARSCombat#_sortCombatants: a number or 9999, ascending or not by the setting, ties kept */
function arsSort(ascending) {
  return (a, b) => {
    const ia = Number.isFinite(a.initiative) ? a.initiative : 9999;
    const ib = Number.isFinite(b.initiative) ? b.initiative : 9999;
    const ci = ascending ? ia - ib : ib - ia;
    // `a.tokenId - b.tokenId` of two id strings is NaN, which Array#sort takes as 0: the order is kept
    return ci !== 0 ? ci : 0;
  };
}

/** Core's Combatant#isNPC: no actor, or no player (non-GM user) owns it (API v11 `client.Combatant.html`) */
function isNpc(combatant) {
  const actor = combatant.actor;
  return !actor || !game.users.some((user) => !user.isGM && actor.testUserPermission(user, "OWNER"));
}

/**
 * Core's Combat#resetAll as ARS calls it: every initiative back to null and the turn to 0 once started, null before
 * (foundryvtt/foundryvtt#11238). (harness choice) Two updates, the combatants' then the turn; whether core sends one
 * is not documented.
 */
async function resetAll(combat) {
  await combat.updateEmbeddedDocuments("Combatant", combat.combatants.map((c) => ({ _id: c.id, initiative: null })));
  await combat.update({ turn: combat.started ? 0 : null });
}

/**
 * Core's Combat#rollInitiative([id], {updateTurn}) as ARS calls it, with the value given instead of a roll: the
 * combatant's initiative, then with updateTurn the turn set back to the combatant whose turn it was (inference from
 * the option's name; pf2e's setMultipleInitiatives does the same, foundryvtt/pf2e src/module/encounter/document.ts).
 * (harness choice) The chat message of the roll is left out. The harness already keeps the current combatant's turn
 * locally when the order changes (emulation/combat.mjs _refreshTurns), so that second update sends nothing.
 */
async function rollInitiative(combat, combatant, value, updateTurn) {
  const currentId = combat.combatant?.id;
  await combatant.update({ initiative: value });
  if (updateTurn && currentId) await combat.update({ turn: combat.turns.findIndex((c) => c.id === currentId) });
}

/**
 * ARS's initiative re-rolled each round, as its code does it (paths under src/module/, lines at the commit above):
 *
 * - When: hooks.js 449-451 registers an `updateCombat` handler on every client; combatTracker.js 449-468 acts when
 *   the update's data holds `round` (hasProperty), any round change: startCombat (round 0 to 1), nextRound and also
 *   previousRound (no test of the direction), and only on a GM's client (`game.user.isGM`: every GM and assistant,
 *   not only the active GM). It ignores round changes while its own rolls are under way: the client-local
 *   `game.ars.config.muteInitiativeSound`, set after resetAll and cleared at the end (330, 398; not in a `finally`,
 *   so a roll that throws leaves it set).
 * - Whether: `reRollInitiative(forceRoll)` (318-320) runs when the world setting rollInitEachRound is on (default
 *   true, settings.js 218-226) or when forced, which it is in round 1 at turn 0 (466): the first round always rolls.
 * - What it resets: core's resetAll (326): every initiative, and the turn (above).
 * - Who rolls: the individual mode (initSideVSide off, its default, settings.js 147-155) rolls, in the combatants'
 *   creation order, each combatant the GM owns that is an NPC (no player owner) and has no initiative (381-397);
 *   player characters keep null until their players roll (utilities.js 1106-1164, not emulated).
 * - Each roll (utilities.js 1122-1159): startingTurnIndex is the turn before it; core's rollInitiative with
 *   `updateTurn: !startingTurnIndex`, then, as the turn before it was 0 (or null), `combat.update({turn: 0})`. So
 *   each NPC's roll re-sorts the order and sets the turn back to 0: one update per NPC, each a combatTurnChange
 *   when another combatant has come to the top. There is no last update of its own in this mode (401 is commented
 *   out); the side-vs-side mode (333-380, not emulated) sets every initiative, then `update({turn: 0})` once.
 * - The order (combatTracker.js 157-171): by initiative, ascending when the world setting InitiativeAscending is on
 *   (ARS's default, settings.js 135-143), descending otherwise; a combatant without initiative counts as 9999, so
 *   it sorts last ascending and first descending; ties keep the creation order.
 *
 * `initiative(round)` gives each combatant id the value it rolls this round (the harness's dice stay for the
 * module); an id it leaves out, or a player character, keeps null. `ascending` is the world's InitiativeAscending:
 * (harness choice) false unless given, a world that sorts descending (ARS's own default is true; the default here
 * keeps the order the existing tests were written for, docs/dev/foundry.md §11). `rollEachRound` is
 * rollInitEachRound, registered as ARS's world setting (settings.js 218-226: world scope, Boolean, default true) and
 * read at each round as ARS reads it. Returns the function that removes the handler and the order again.
 */
export function installArsInitiative(initiative, { ascending = false, rollEachRound = true } = {}) {
  const environment = env();
  if (environment.options.systemId !== "ars") throw new Error("ARS's initiative needs a world of the ars game system");
  environment._combatSort = arsSort(ascending);
  for (const combat of environment._world.combats) combat._refreshTurns();
  if (!game.settings.settings.has("ars.rollInitEachRound")) {
    game.settings.register("ars", "rollInitEachRound", { scope: "world", config: true, type: Boolean, default: true });
  }
  game.settings.set("ars", "rollInitEachRound", rollEachRound);
  let muted = false;
  const reRoll = async (combat, forceRoll) => {
    if (!game.settings.get("ars", "rollInitEachRound") && !forceRoll) return;
    const values = initiative(combat.round);
    await resetAll(combat);
    muted = true;
    for (const combatant of combat.combatants.contents) {
      if (!isNpc(combatant) || combatant.initiative !== null || !(combatant.id in values)) continue;
      const startingTurn = combat.current.turn;
      await rollInitiative(combat, combatant, values[combatant.id], !startingTurn);
      if (!startingTurn) await combat.update({ turn: 0 });
    }
    muted = false;
  };
  const id = environment.Hooks.on("updateCombat", (combat, changed) => {
    if (!("round" in changed) || muted || !game.user.isGM) return undefined;
    return reRoll(combat, combat.round === 1 && combat.turn === 0);
  });
  return () => {
    environment.Hooks.off("updateCombat", id);
    environment._combatSort = null;
  };
}

/**
 * ARS's own turn and round methods (combatTracker.js 197-298, ARSCombat, which ARS makes CONFIG.Combat.documentClass:
 * ars.js in the same commit), written to pass time by the round: none passes a direction, so no update ARS makes
 * carries one (docs/dev/foundry.md §11).
 *
 * - nextTurn (204-245): the next turn, or nextRound after the last (and in round 0); `combatTurn(combat, updateData)`
 *   with no updateOptions, then `update({round, turn})` with no options.
 * - nextRound (254-268): no combatRound hook; `update({round: round + 1, turn: 0 (null if it was null)}, {advanceTime})`
 *   with `advanceTime = CONFIG.time.roundTime` (267: "OSR systems advance time by round counter, not turns"), from
 *   round 0 too.
 * - previousRound (276-283): no hook; `update({round: max(round - 1, 0), turn: last (0 from round 0; null if null)},
 *   {advanceTime})`: from round 1 the combat goes to round 0 on its last turn, not null; advanceTime is
 *   `-CONFIG.time.roundTime` when the round it goes to is above 0, else 0 (282).
 * - previousTurn (292-297): nothing in round 0 at turn 0; previousRound at turn 0; otherwise no hook and
 *   `update({turn: turn - 1})` with no options.
 *
 * Neither turn method passes any time (the V11 core line is commented out at 242: "Classic systems update time on the
 * round, not each turn"). (harness choice) Skip Defeated is off, as in the harness's own methods. Whether ARS for
 * V13/V14 still replaces these methods, and whether V14 still reads `advanceTime`, is unconfirmed (the emulation reads
 * it: FoundryEnvironment#_passCombatTime). Patches the harness's Combat; returns the function that restores it.
 */
export function installArsTurnMethods() {
  const proto = Combat.prototype;
  const core = Object.fromEntries(["nextTurn", "nextRound", "previousTurn", "previousRound"].map((name) => [name, proto[name]]));
  const define = (name, value) => Object.defineProperty(proto, name, { configurable: true, writable: true, value });
  define("nextTurn", async function nextTurn() {
    const next = (this.turn ?? -1) + 1;
    if (this.round === 0 || next >= this.turns.length) return this.nextRound();
    const updateData = { round: this.round, turn: next };
    env()._initiatingHook("combatTurn", this, updateData);
    return this.update(updateData);
  });
  define("nextRound", async function nextRound() {
    return this.update({ round: this.round + 1, turn: this.turn === null ? null : 0 }, { advanceTime: CONFIG.time.roundTime });
  });
  define("previousRound", async function previousRound() {
    let turn = this.round === 0 ? 0 : Math.max(this.turns.length - 1, 0);
    if (this.turn === null) turn = null;
    const round = Math.max(this.round - 1, 0);
    return this.update({ round, turn }, { advanceTime: round > 0 ? -CONFIG.time.roundTime : 0 });
  });
  define("previousTurn", async function previousTurn() {
    if (this.turn === 0 && this.round === 0) return this;
    if (this.turn !== null && this.turn <= 0) return this.previousRound();
    return this.update({ turn: (this.turn ?? this.turns.length) - 1 });
  });
  return () => {
    for (const [name, value] of Object.entries(core)) define(name, value);
  };
}

/**
 * ARS's time (same commit): a round lasts a minute and a turn ten (ars.js 105-106: `CONFIG.time.roundTime = 60`,
 * `turnTime = 600`), and its effects last by the world's clock: an effect's duration is in seconds, a round's worth
 * 60 (utilities.js 953-978 convertTimeToSeconds; effects.js 205-214 writes `duration.seconds` and `duration.startTime:
 * game.time.worldTime`), and an `updateWorldTime` handler (hooks.js 482-487) on every GM's client deletes the effects
 * whose `worldTime - startTime >= seconds` (effects.js 316-383, manageEffectExpirations: an item's own effect is
 * disabled instead, not emulated). It looks at the actors of the active combat that are no player characters and at
 * the party tracker's; (harness choice) here at every combatant's actor, as if the characters were in the party.
 * On V14 the duration is `{value, units}` and the start `start.time` (docs/dev/foundry.md §8); how ARS for V14 keeps
 * its durations is unconfirmed: (inference) a `seconds` duration read there the same way. `turnTime` may be given for
 * a world that keeps ARS's rounds but not its turns. Returns the function that removes the handler.
 */
export function installArsTime({ turnTime = 600 } = {}) {
  const environment = env();
  if (environment.options.systemId !== "ars") throw new Error("ARS's time needs a world of the ars game system");
  Object.assign(CONFIG.time, { roundTime: 60, turnTime });
  const timed = (effect) => {
    const { duration } = effect._source;
    if (environment.options.generation < 14) return { seconds: duration.seconds, start: duration.startTime };
    return duration.units === "seconds" ? { seconds: duration.value, start: effect._source.start.time } : {};
  };
  const id = environment.Hooks.on("updateWorldTime", async (worldTime) => {
    if (!game.user.isGM || !game.combat?.active) return;
    for (const actor of game.combat.combatants.map((combatant) => combatant.actor).filter(Boolean)) {
      const expired = actor.effects.filter((effect) => {
        const { seconds, start } = timed(effect);
        return seconds && Number.isFinite(start) && worldTime - start >= seconds;
      });
      if (expired.length) await actor.deleteEmbeddedDocuments("ActiveEffect", expired.map((effect) => effect.id));
    }
  });
  return () => environment.Hooks.off("updateWorldTime", id);
}

// --- dnd5e 5.3 (foundryvtt/dnd5e release-5.3.3 @965ad2d0cf5d063dac675ba078b5bd3c3c0dd449) -------------------------

/** An ability's modifier (data/actor/templates/common.mjs: Math.floor((value - 10) / 2)) */
const dnd5eModifier = (value) => Math.floor(((value ?? 10) - 10) / 2);

/**
 * Prepare what dnd5e prepares of a character's or an NPC's stored data, as far as the surprise reads it: each skill's
 * `total`, the ability modifier plus its proficiency (the proficiency bonus times the skill's `value`, 0, 0.5, 1 or 2,
 * rounded down) plus a flat check bonus, and its `passive`, 10 + the total + 5 a net Advantage
 * (data/actor/templates/creature.mjs prepareSkill 251-277); the initiative's `total`, the Dexterity modifier plus a
 * flat bonus (data/actor/templates/attributes.mjs prepareInitiative 381-405). The proficiency bonus is the stored
 * `attributes.prof` here (dnd5e derives it from the level or the challenge rating). Skills or initiative the stored
 * data lacks are left out, as a vehicle has none (vehicle.mjs prepares no skills). Returns the remover.
 */
export function installDnd5eActors() {
  if (env().options.systemId !== "dnd5e") throw new Error("dnd5e's actors need a world of the dnd5e game system");
  const skillAbility = { ste: "dex", prc: "wis" }; // config.mjs 240 and 279
  return prepareActors((system) => {
    const prof = system.attributes?.prof ?? 2;
    for (const [key, skill] of Object.entries(system.skills ?? {})) {
      const mod = dnd5eModifier(system.abilities?.[skillAbility[key] ?? "dex"]?.value);
      const bonus = Number(skill.bonuses?.check ?? 0) || 0;
      skill.mod = mod;
      skill.total = mod + bonus + Math.floor(prof * (skill.value ?? 0));
      skill.passive = 10 + skill.total + 5 * (skill.roll?.mode ?? 0);
    }
    if (system.attributes?.init) {
      system.attributes.init.total = dnd5eModifier(system.abilities?.dex?.value) + (Number(system.attributes.init.bonus) || 0);
    }
  });
}

/**
 * dnd5e's D20Roll as its Initiative roll builds it: "1d20 + parts" (actor.mjs getInitiativeRoll 1770-1786). Its d20 is
 * one die before evaluation, Advantage or Disadvantage being a modifier of it ("adv", "dis": d20-die.mjs
 * applyAdvantage 69-76, from the roll's options as configureModifiers sets them, d20-roll.mjs 213-242: both at once
 * roll one die); evaluated, a die with either rolls two faces and keeps the higher or lower, the first on a tie, the
 * other marked discarded and inactive (basic-die.mjs advantage 24-45, expandAdvantage 55-70). (harness choice) Parts
 * are numbers only; the faces come from the dice a test scripts.
 */
class Dnd5eD20Roll extends Roll {
  constructor(formula, data = {}, options = {}) {
    const [die, ...parts] = String(formula).split("+").map((part) => part.trim());
    super(die.replace(/(adv|dis)$/, ""), data, options); // a stored roll's formula keeps its modifier
    if (this._formula !== "1d20") throw new Error(`harness D20Roll: a d20 roll starts with 1d20, got "${formula}"`);
    this.parts = parts.map(Number);
    if (this.parts.some((part) => !Number.isFinite(part))) throw new Error(`harness D20Roll: only numbers are emulated as parts of "${formula}"`);
    const { advantage, disadvantage } = options;
    this.mode = advantage && !disadvantage ? "adv" : disadvantage && !advantage ? "dis" : null;
    this._formula = [`1d20${this.mode ?? ""}`, ...parts].join(" + ");
  }

  async evaluate(options = {}) {
    await super.evaluate(options);
    const [die] = this.dice;
    if (this.mode) {
      die.results.push({ result: env().dice.draw(20), active: true });
      const [first, second] = die.results;
      const keepFirst = this.mode === "adv" ? first.result >= second.result : first.result <= second.result;
      Object.assign(keepFirst ? second : first, { active: false, discarded: true });
    }
    this._total = die.total + this.parts.reduce((sum, part) => sum + part, 0);
    return this;
  }
}

/** dnd5e's BasicRoll of a fixed Initiative score (actor.mjs 1783): a number, no dice */
class Dnd5eFixedRoll {
  constructor(score) {
    this.options = { fixed: score };
    this._total = undefined;
  }

  get dice() {
    return [];
  }

  get total() {
    return this._total;
  }

  async evaluate() {
    this._total = Number(this.options.fixed);
    return this;
  }
}

/**
 * dnd5e's own Initiative roll on every actor (Actor5e#getInitiativeRoll, documents/actor/actor.mjs 1770-1786 and
 * getInitiativeRollConfig 1795-1840): a D20Roll of 1d20 + the prepared Initiative bonus, + the Dexterity score / 100
 * with the world setting initiativeDexTiebreaker on (1818-1820); the actor's own Advantage mode on Initiative
 * (`attributes.init.roll.mode`, 1 or -1) given to the roll, the caller's options winning (mergeObject, 1826-1832); with
 * the setting initiativeScore "all" no d20 at all, a BasicRoll of the fixed score (1822-1828, 1779-1784).
 * (harness choice) The bonus is `system.attributes.init.total` as a whole, which dnd5e builds from the same parts
 * (mod, proficiency, bonuses); the settings are given here. Returns the remover.
 */
export function installDnd5eInitiative({ tiebreaker = false, fixedScores = false } = {}) {
  if (env().options.systemId !== "dnd5e") throw new Error("dnd5e's Initiative roll needs a world of the dnd5e game system");
  const had = Object.getOwnPropertyDescriptor(Actor.prototype, "getInitiativeRoll");
  const recovering = installDnd5eRecovery();
  const unregister = registerRollClass(Dnd5eD20Roll); // dnd5e.mjs: CONFIG.Dice.rolls gets its D20Roll
  Actor.prototype.getInitiativeRoll = function getInitiativeRoll(options = {}) {
    const init = this.system.attributes?.init ?? {};
    if (fixedScores) return new Dnd5eFixedRoll(init.score);
    const mode = init.roll?.mode ?? 0;
    const config = { advantage: mode > 0, disadvantage: mode < 0, ...options };
    const parts = [String(init.total ?? 0)];
    const dexterity = this.system.abilities?.dex?.value;
    if (tiebreaker && Number.isFinite(dexterity)) parts.push(String(dexterity / 100));
    return new Dnd5eD20Roll(["1d20", ...parts].join(" + "), {}, config);
  };
  return () => {
    unregister();
    recovering();
    if (had) Object.defineProperty(Actor.prototype, "getInitiativeRoll", had);
    else delete Actor.prototype.getInitiativeRoll;
  };
}

/**
 * Sort a dnd5e world's trackers as dnd5e does (dnd5eSort), where they keep the order the combatants were made in by
 * default (harness choice: the conformance runners make them in a vector's order, which is its scenario's). Returns
 * the remover.
 */
export function installDnd5eTrackerOrder() {
  const environment = env();
  if (environment.options.systemId !== "dnd5e") throw new Error("dnd5e's tracker order needs a world of the dnd5e game system");
  environment._combatSort = dnd5eSort;
  for (const combat of environment._world.combats) combat._refreshTurns();
  return () => {
    environment._combatSort = null;
  };
}

/**
 * dnd5e's tracker order, Combat5e#_sortCombatants (documents/combat.mjs 72-84 at release-5.3.3): different
 * initiatives sort as core sorts them (descending, none last; harness choice: core's own tiebreak is not needed
 * here), equal ones by their base actor's name and id, then by the combatant's name, with the world's language.
 * (harness choice) The harness's tokens are their actor's, so the base actor is the combatant's actor.
 */
function dnd5eSort(a, b) {
  const order = byInitiative(a, b);
  if (order !== 0) return order;
  const base = (c) => `${c.actor?.name ?? ""}.${c.actor?.id ?? ""}`;
  if (!a.actor || !b.actor || a.actor !== b.actor) return base(a).localeCompare(base(b), game.i18n.lang);
  return a.name.localeCompare(b.name, game.i18n.lang);
}

/**
 * dnd5e's recovery of limited uses in combat, Combatant5e#recoverCombatUses(periods) (documents/combatant.mjs 85-97 at
 * release-5.3.3): each item of the actor whose `system.uses.recovery` has a profile of one of the periods is updated
 * by UsesField.recoverUses (data/shared/uses-field.mjs 138-190: the first profile of the first period that has one;
 * "recoverAll" sets `spent` to 0). (harness choice) That type only: any other profile is refused, as are periods that
 * are not a list. Its card (createTurnMessage) and hooks are left out. Returns the remover.
 */
function installDnd5eRecovery() {
  Combatant.prototype.recoverCombatUses = async function recoverCombatUses(periods) {
    if (!Array.isArray(periods)) throw new Error(`harness Combatant5e#recoverCombatUses: periods must be a list, got ${periods}`);
    const updates = [];
    for (const item of this.actor?.items ?? []) {
      const uses = item.system?.uses;
      const profile = periods.map((period) => uses?.recovery?.find((entry) => entry.period === period)).find(Boolean);
      if (!profile) continue;
      if (profile.type !== "recoverAll") throw new Error(`harness: recovery type ${profile.type} is not modelled`);
      updates.push({ _id: item.id, "system.uses.spent": 0 });
    }
    if (updates.length) await this.actor.updateEmbeddedDocuments("Item", updates);
  };
  return () => {
    delete Combatant.prototype.recoverCombatUses;
  };
}

// --- dnd5e 6 (foundryvtt/dnd5e 6.0.2 on Foundry 14.368) ------------------------------------------------------------

/**
 * A game system that stamps an expiry on every effect made during a combat without one, as dnd5e 6.0.2 does (and the
 * hyp3e system did, thurianknight/hyp3e#307): its ActiveEffect#_preCreate sets `duration.expiry` to "turnStart"
 * wherever no expiry is given and the units are not turns (`if ( !expiry && (units !== "turns") )`, quoted in
 * foundryvtt/dnd5e#7482, the default units being seconds), and such a "durationless" effect is "given 0 seconds and
 * expiration at turn start", so that it "will all expire a turn after being applied" (foundryvtt/dnd5e#7484, FVTT
 * 14.368, dnd5e 6.0.2; statuses from the token HUD alike). dnd5e's code of that release is not in the public copy
 * read (its snapshot stops at 5.3.3): the stamp is written from those two reports. (harness choice) "During combat":
 * while the world has an active combat. V14 only, as dnd5e 6 is. Returns the remover.
 */
export function installDnd5eExpiryStamp() {
  const original = ActiveEffect.prototype._preCreate;
  ActiveEffect.prototype._preCreate = function _preCreate(...args) {
    original.apply(this, args);
    if (!(this.parent instanceof Actor) || env().options.generation < 14 || !env()._world.combats.active) return;
    const duration = { ...this._source.duration };
    if (duration.expiry || duration.units === "turns") return;
    this._replaceSource({ ...this._source, duration: { ...duration, units: duration.units ?? "seconds", value: duration.value ?? 0, expiry: "turnStart" } });
  };
  return () => {
    ActiveEffect.prototype._preCreate = original;
  };
}
