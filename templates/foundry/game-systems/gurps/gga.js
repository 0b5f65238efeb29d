// GURPS Game Aid's traits and skills, read by name (docs/game-systems.md): from the Foundry Items of a GGA 1.0 actor,
// else from the nested lists of a GGA 0.18 actor; GGA's own finders only ever cross-check what the module reads.
import { LOG_PREFIX } from "../../constants.js";
import { numberOf } from "../values.js";

/** The text of a name as a person reads it: spaces collapsed, trimmed, lower case */
const folded = (text) => String(text ?? "").normalize("NFC").replace(/\s+/g, " ").trim().toLowerCase();

/**
 * What may follow the name asked for. After a trait's name: GGA's importer appends GCS's qualifier in brackets
 * ("Cultural Familiarity (Homeline)") and its levels ("Charisma 2") (crnormand/gurps module/actor/actor-importer.js at
 * ac714d44, importAd), and a GM typing into the Mook Generator writes its cost in GURPS notation, "Combat Reflexes
 * [15]", which GGA keeps as typed (lib/npc-input.js checkTraits). After a skill's: its tech level ("/TL8"), then its
 * specialization in brackets (importSk; GGA 1.0 keeps both apart and shows them so, item/data/skill.ts _displayName).
 */
const QUALIFIED = {
  trait: /^( \([^()]*\))?( \d+(\.\d+)?)?( ?\[[+-]?\d+\])?$/,
  skill: /^(\/tl\S*)?( \([^()]*\))?$/,
};

/**
 * Tell whether an entry's name is the name asked for, as a person reads it: the same words, case aside, or those
 * words followed by what QUALIFIED allows. Nothing is read as a pattern: "Reflejos de combate (RC)" is found by that
 * name, and "Enhanced Combat Reflexes" is not Combat Reflexes.
 */
function sameName(entryName, wanted, kind) {
  const name = folded(entryName);
  const asked = folded(wanted);
  return name === asked || (asked !== "" && name.startsWith(asked) && QUALIFIED[kind].test(name.slice(asked.length)));
}

/**
 * Tell whether GGA's own finder returns anything for the name. It matches more than the module does (a name read as
 * a pattern, or anywhere in another name), so whatever it finds that the module did not is asked about: never a
 * silent "no" where GGA sees the trait or skill. A name GGA cannot build a pattern from finds nothing.
 */
function ggaFinds(find) {
  try {
    return Boolean(find());
  } catch (error) {
    return false;
  }
}

/** Say that GGA's finder found what the module did not: the value is asked for */
function missed(actor, name) {
  console.warn(`${LOG_PREFIX}${actor.name}: GURPS Game Aid finds "${name}" where ambush finds no entry of that name; asking for it`);
  return null;
}

/** Return the levels of the skills that count as one level: null (asked) where they differ or one is no number */
function oneLevel(levels) {
  const distinct = new Set(levels);
  const [level] = distinct;
  return distinct.size === 1 && Number.isFinite(level) ? level : null;
}

// --- GGA 1.0: traits and skills are Items ------------------------------------------------------------------------

/**
 * Tell whether an actor is GGA 1.0's: GGA migrates every actor as it loads, and tells a migrated one by a `profile`
 * in its data (crnormand/gurps src/module/actor/migrations/v1_0_0.ts at 6dd54dd7, migrateActorSource). On such an
 * actor `system.ads` and `system.skills` are deprecated getters (actor/data/character.ts): never read.
 */
export const isGga1 = (actor) =>
  Boolean(actor?.items) && Object.prototype.hasOwnProperty.call(actor._source?.system ?? {}, "profile");

/** Return an actor's Items of one GGA 1.0 type, `feature` (traits) or `skill`, without the holder of its reactions */
function itemsOf(actor, type) {
  const holder = actor.system?.holderItemId;
  return [...actor.items].filter((item) => item.type === type && item.id !== holder);
}

/** Return a 1.0 skill's name as GGA shows it: its name, tech level and specialization (item/data/skill.ts _displayName) */
function skillName(item) {
  const { techlevel, specialization } = item.system ?? {};
  return `${item.name}${techlevel ? `/TL${techlevel}` : ""}${specialization ? ` (${specialization})` : ""}`;
}

/**
 * Tell whether a 1.0 Item is switched off: itself, or a container it sits in, as GCS counts a trait in a switched-off
 * container off (src/module/importer/gcs-importer/schema/trait.ts effectivelyDisabled; GGA's importer stores each
 * trait's own flag, importer.ts #importTrait)
 */
function switchedOff(actor, item) {
  for (let current = item, depth = 0; current && depth < 20; depth += 1) {
    if (current.system?.disabled === true) return true;
    const container = current.system?.containedBy;
    current = container ? actor.items.get(container) : null;
  }
  return false;
}

/**
 * Tell whether a 1.0 skill's level is the GM's own: one GGA's importers made (from GCS or GCA) carries their id or
 * source (item/data/base.ts importid, importFrom); one typed on the sheet or in the Mook Generator carries neither
 */
const typedItem = (item) => !item.system?.importid && !item.system?.importFrom;

/** A 1.0 trait by name: true, false when none or only switched-off ones, null where only GGA's finder sees it */
function traitOf1(actor, name) {
  const found = itemsOf(actor, "feature").filter((item) => sameName(item.name, name, "trait"));
  if (found.length) return found.some((item) => !switchedOff(actor, item));
  const finder = actor.system?.findAdvantage;
  return ggaFinds(() => (typeof finder === "function" ? finder.call(actor.system, name) : null)) ? missed(actor, name) : false;
}

/** A 1.0 skill's level by name (skillLevel's rules); its level is the one GGA prepared, `system.level` */
function skillOf1(actor, name) {
  const found = itemsOf(actor, "skill").filter((item) => sameName(skillName(item), name, "skill"));
  if (!found.length) {
    const finder = globalThis.GURPS?.findSkillSpell;
    return ggaFinds(() => (typeof finder === "function" ? finder(actor, name, true) : null)) ? missed(actor, name) : undefined;
  }
  const live = found.filter((item) => !switchedOff(actor, item));
  if (!live.length) return undefined;
  const counted = live.filter((item) => numberOf(item.system?.points) >= 1 || typedItem(item));
  return counted.length ? oneLevel(counted.map((item) => numberOf(item.system?.level))) : null;
}

// --- GGA 0.18: nested lists --------------------------------------------------------------------------------------

/** Tell whether a value is one of GGA's lists: an object keyed by index */
const isList = (list) => Boolean(list) && typeof list === "object" && !Array.isArray(list);

/**
 * Visit every entry of a GGA list and of the lists nested in it: `contains`, and `collapsed`, where GGA's sheet moves
 * a container's entries when the GM folds it (crnormand/gurps module/actor/actor.js toggleExpand at ac714d44)
 */
function walkEntries(list, visit, depth = 0) {
  if (!isList(list) || depth > 20) return;
  for (const entry of Object.values(list)) {
    if (!entry || typeof entry !== "object") continue;
    visit(entry);
    walkEntries(entry.contains, visit, depth + 1);
    walkEntries(entry.collapsed, visit, depth + 1);
  }
}

/** Return the entries of a list whose name is the name asked for */
function entriesNamed(list, name, kind) {
  const found = [];
  walkEntries(list, (entry) => {
    if (sameName(entry.name, name, kind)) found.push(entry);
  });
  return found;
}

/**
 * Tell whether a 0.18 skill's level is the GM's own: GGA's importers give an entry the id of its source (GCS's,
 * actor-importer.js importSk `s.uuid = i.id`; GCA's, importSkillsFromGCA), while the Mook Generator (lib/npc-input.js
 * checkSkills, `new Skill(name, level)`) and the sheet leave _Base's empty `uuid` (module/actor/actor-components.js)
 */
const typedEntry = (entry) => !entry.uuid;

/** A 0.18 trait by name, from system.ads: true or false; null where the actor has no list or only GGA's finder sees it */
function traitOf018(actor, name) {
  const ads = foundry.utils.getProperty(actor, "system.ads");
  if (!isList(ads)) return null;
  if (entriesNamed(ads, name, "trait").length) return true;
  return ggaFinds(() => (typeof actor.findAdvantage === "function" ? actor.findAdvantage(name) : null)) ? missed(actor, name) : false;
}

/** A 0.18 skill's level by name, from system.skills (skillLevel's rules) */
function skillOf018(actor, name) {
  const skills = foundry.utils.getProperty(actor, "system.skills");
  if (!isList(skills)) return null;
  const found = entriesNamed(skills, name, "skill");
  if (!found.length) {
    const finder = globalThis.GURPS?.findSkillSpell;
    return ggaFinds(() => (typeof finder === "function" ? finder(actor, name, true) : null)) ? missed(actor, name) : undefined;
  }
  const counted = found.filter((entry) => numberOf(entry.points) >= 1 || typedEntry(entry));
  return counted.length ? oneLevel(counted.map((entry) => numberOf(entry.level))) : null;
}

// --- what the draft reads ------------------------------------------------------------------------------------------

/**
 * Tell whether an actor has a trait, by name: true or false; null (asked) where the actor holds no traits GGA's way,
 * or GGA's finder sees one of that name where the module does not. A trait switched off in GCS does not count on GGA
 * 1.0, which keeps GCS's mark; on 0.18 it counts, its importer drops the mark (docs/game-systems.md).
 */
export const hasTrait = (actor, name) => (isGga1(actor) ? traitOf1(actor, name) : traitOf018(actor, name));

/**
 * Return an actor's level in a skill, by name: undefined when he has no such skill (the rule's default, none). A
 * level counts where the skill has at least one point (B393 asks for a point in Tactics, and GCS keeps a 0-point skill
 * at its default level) or where the GM typed it (the Mook Generator's, the sheet's: no default behind it). So null
 * (asked) for an imported skill without a point, for entries of that name at different levels, for a level that is no
 * number, where the actor holds no skills GGA's way, or where GGA's finder sees a skill the module does not.
 */
export const skillLevel = (actor, name) => (isGga1(actor) ? skillOf1(actor, name) : skillOf018(actor, name));
