// The draft a surprise starts from: the combatants on their default sides, with what their sheets hold, read as GURPS
// Game Aid and ARS keep it (docs/game-systems.md).
import { ATTRIBUTES, PROCEDURES } from "../common/config.js";
import { draftScenario } from "../common/inputs.js";

/**
 * Return the side a combatant takes in a new draft: friendly tokens side a, hostile ones side b. Neutral and secret
 * tokens (and combatants without a token) stay out of the fight until the GM puts them on a side in the dialog.
 */
export function defaultSide(combatant) {
  const disposition = combatant.token?.disposition ?? combatant.actor?.prototypeToken?.disposition;
  const { FRIENDLY, HOSTILE } = CONST.TOKEN_DISPOSITIONS;
  return disposition === FRIENDLY ? "a" : disposition === HOSTILE ? "b" : null;
}

/** The text of a name to match: trimmed, lower case (GGA matches names case-insensitively) */
const folded = (text) => String(text ?? "").trim().toLowerCase();

/** Visit every entry of a game system's nested list: an object keyed by index whose entries may hold `contains` */
function walkEntries(list, visit, depth = 0) {
  if (!list || typeof list !== "object" || depth > 20) return;
  for (const entry of Object.values(list)) {
    if (!entry || typeof entry !== "object") continue;
    visit(entry);
    walkEntries(entry.contains, visit, depth + 1);
    walkEntries(entry.collapsed, visit, depth + 1);
  }
}

/**
 * Tell whether an actor has an advantage, by name: GGA's own actor.findAdvantage where the game system offers it,
 * else a walk of system.ads matching as it does (case-insensitive, the name within the entry's).
 */
function hasAdvantage(actor, name) {
  if (typeof actor.findAdvantage === "function") {
    try {
      return Boolean(actor.findAdvantage(name));
    } catch (error) {
      // A name GGA cannot read as a pattern: fall back to the walk.
    }
  }
  const ads = foundry.utils.getProperty(actor, "system.ads");
  if (!ads || typeof ads !== "object") return undefined;
  let found = false;
  walkEntries(ads, (entry) => {
    if (folded(entry.name).includes(folded(name))) found = true;
  });
  return found;
}

/**
 * Return an actor's level in a skill, by name: GGA's GURPS.findSkillSpell(actor, name, true) where present, else a
 * walk of system.skills as it matches (case-insensitive, the entry's name starting with it, the best level).
 */
function skillLevel(actor, name) {
  const finder = globalThis.GURPS?.findSkillSpell;
  if (typeof finder === "function") {
    try {
      const skill = finder(actor, name, true);
      return skill ? skill.level : null;
    } catch (error) {
      // A name GGA cannot read as a pattern: fall back to the walk.
    }
  }
  const skills = foundry.utils.getProperty(actor, "system.skills");
  if (!skills || typeof skills !== "object") return undefined;
  let best = null;
  walkEntries(skills, (entry) => {
    const level = Number(entry.level);
    if (folded(entry.name).startsWith(folded(name)) && Number.isFinite(level) && (best === null || level > best)) best = level;
  });
  return best;
}

/** Read the raw value a reader names: a data path, an advantage's presence or a skill's level */
function readRaw(actor, reader) {
  if (reader.advantage !== undefined) return hasAdvantage(actor, reader.advantage);
  if (reader.skill !== undefined) return skillLevel(actor, reader.skill);
  return foundry.utils.getProperty(actor, reader.path);
}

/** Read one input through the campaign's reader; undefined when there is nothing to read. */
export function readAttribute(actor, key, type) {
  const reader = ATTRIBUTES[key];
  if (!actor || !reader) return undefined;
  const value = readRaw(actor, reader);
  if (type === "boolean") return typeof value === "boolean" ? value : undefined;
  if (value === null || value === undefined || value === "" || typeof value === "boolean") return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? Math.trunc(number) : undefined;
}

/**
 * Return the scenario a surprise in this combat starts from (the dialog's starting values): every combatant on his
 * default side or out of the fight, named as in the tracker, with the values his sheet holds.
 */
export function draftOf(combat = game.combat, procedure = PROCEDURES[0].id) {
  const combatants = (combat?.turns ?? []).map((combatant) => ({
    id: combatant.id,
    label: combatant.name,
    side: defaultSide(combatant),
    read: (key, type) => readAttribute(combatant.actor, key, type),
  }));
  return draftScenario(procedure, combatants);
}
