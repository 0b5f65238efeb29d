// What two game systems add to the emulated Foundry client, each part shaped after the public code it follows:
// GURPS Game Aid's nested trait and skill lists and its finders, and ARS's initiative re-rolled each round.
import { Actor } from "./documents.mjs";
import { env } from "./core.mjs";

// --- GURPS Game Aid (crnormand/gurps @ac714d44d6b93fd989bdeb6870c736fb04645ec4, 0.18.22) -------------------

/**
 * A GGA list: an object keyed by zero-filled index (lib/utilities.js arrayToObject and zeroFill, width 5), each
 * entry with its own `contains` list (module/actor/actor-components.js _Base: `this.contains = {}`).
 * `entries` are {name, level?, points?, contains?: [...]}.
 */
export function ggaList(entries) {
  const list = {};
  entries.forEach((entry, index) => {
    const { contains = [], ...rest } = entry;
    list[String(index).padStart(5, "0")] = { notes: "", pageref: "", ...rest, contains: ggaList(contains) };
  });
  return list;
}

/** lib/utilities.js recurselist: every entry, then its `contains` and `collapsed` lists */
function recurselist(list, fn) {
  if (!list) return;
  for (const value of Object.values(list)) {
    if (fn(value) !== false) {
      recurselist(value.contains, fn);
      recurselist(value.collapsed, fn);
    }
  }
}

/** lib/utilities.js flattenContainedList */
function flattenContainedList(list) {
  const result = [];
  recurselist(list, (item) => { result.push(item); });
  return result;
}

/** lib/utilities.js makeRegexPatternFrom(text, end, start): `*` is a wildcard, brackets and + are escaped */
function makeRegexPatternFrom(text, end = true, start = true) {
  let pattern = text.split("*").join(".*?").replace(/\(/g, "\\(").replace(/\)/g, "\\)");
  pattern = pattern.replace(/\[/g, "\\[").replace(/\]/g, "\\]").replace(/\+/g, "\\+").replace(/\^/g, "\\^");
  return (start ? "^" : "") + pattern.trim() + (end ? "$" : "");
}

/**
 * Install GGA's actor behaviour: its toggleStatusEffect that returns undefined, and its finders: GurpsActor#findAdvantage
 * (module/actor/actor.js: the name as a case-insensitive pattern anywhere in an entry's name of system.ads) and
 * GURPS.findSkillSpell (module/gurps.js: the best level among system.skills entries whose name starts with the
 * pattern; spells are searched too unless isSkillOnly, which the product always passes, so that branch is left out).
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

// --- ARS -----------------------------------------------------------------------------------------------------

/**
 * ARS's rollInitEachRound, as its combat tracker does it (combatTracker.js ARSCombat#reRollInitiative, called from
 * its combat update handler when the update holds a round, on the GM's client; read from a V11-era copy whose
 * repository and commit the code index does not name, so V13/V14 details stay unconfirmed): reset every initiative,
 * roll each combatant's, then set the turn to 0. `initiative(round)` gives each combatant id its value (the
 * harness's dice stay for the module); ARS's own sort and its side-vs-side variant are not emulated: the
 * harness sorts descending.
 */
export function installArsInitiative(initiative) {
  return env().Hooks.on("updateCombat", (combat, changed) => {
    if (!("round" in changed) || !game.user.isGM || !combat.started) return undefined;
    return (async () => {
      const values = initiative(combat.round);
      await combat.updateEmbeddedDocuments("Combatant", combat.combatants.map((c) => ({ _id: c.id, initiative: null })));
      await combat.update({ turn: 0 });
      for (const combatant of combat.combatants.contents) {
        if (combatant.id in values) await combatant.update({ initiative: values[combatant.id] });
      }
      await combat.update({ turn: 0 });
    })();
  });
}
