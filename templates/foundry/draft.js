// The draft a surprise starts from: the combatants on their default sides, with what their sheets hold, read as GURPS
// Game Aid and ARS keep it (docs/game-systems.md).
import { ATTRIBUTES, PROCEDURES } from "../common/config.js";
import { draftScenario } from "../common/inputs.js";
import { LOG_PREFIX } from "./constants.js";

/**
 * Return the side a combatant takes in a new draft: friendly tokens side a, hostile ones side b. Neutral and secret
 * tokens (and combatants without a token) stay out of the fight until the GM puts them on a side in the dialog.
 */
export function defaultSide(combatant) {
  const disposition = combatant.token?.disposition ?? combatant.actor?.prototypeToken?.disposition;
  const { FRIENDLY, HOSTILE } = CONST.TOKEN_DISPOSITIONS;
  return disposition === FRIENDLY ? "a" : disposition === HOSTILE ? "b" : null;
}

/** The text of a name as a person reads it: spaces collapsed, trimmed, lower case */
const folded = (text) => String(text ?? "").normalize("NFC").replace(/\s+/g, " ").trim().toLowerCase();

/**
 * What GURPS Game Aid's importer appends to a name from GCS (crnormand/gurps module/actor/actor-importer.js at
 * ac714d44, importAd and importSk): a trait's qualifier in brackets, as GCS names it ("Cultural Familiarity
 * (Homeline)"), then its levels ("Charisma 2"); a skill's tech level ("/TL8"), then its specialization in brackets.
 */
const QUALIFIED = {
  trait: /^( \([^()]*\))?( \d+(\.\d+)?)?$/,
  skill: /^(\/tl\S*)?( \([^()]*\))?$/,
};

/**
 * Tell whether an entry's name is the name asked for, as a person reads it: the same words, case aside, or those
 * words followed by what GGA appends (QUALIFIED). Nothing is read as a pattern: "Reflejos de combate (RC)" is found
 * by that name, and "Enhanced Combat Reflexes" is not Combat Reflexes.
 */
function sameName(entryName, wanted, kind) {
  const name = folded(entryName);
  const asked = folded(wanted);
  return name === asked || (asked !== "" && name.startsWith(asked) && QUALIFIED[kind].test(name.slice(asked.length)));
}

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
 * Tell whether GGA's own finder (actor.findAdvantage, GURPS.findSkillSpell) returns an entry of the name asked for.
 * It walks less than the module does (findAdvantage skips collapsed containers) and matches more (a name read as a
 * pattern, anywhere in another name), so it is only a cross-check: an entry it finds that the module's own walk missed
 * is somewhere the walk does not look.
 */
function ggaFinds(find, name, kind) {
  try {
    const entry = find();
    return Boolean(entry) && sameName(entry.name, name, kind);
  } catch (error) {
    return false; // a name GGA cannot build a pattern from
  }
}

/** Say that GGA's finder found what the module's walk did not: the value is asked for */
function missedByWalk(actor, name) {
  console.warn(`${LOG_PREFIX}${actor.name}: GURPS Game Aid finds "${name}" where ambush does not look; asking for it`);
  return null;
}

/**
 * Tell whether an actor has a trait, by name, from GGA's nested list system.ads: true or false; null (asked) where
 * the actor has no such list, or GGA's findAdvantage finds the trait where the walk does not. A trait switched off in
 * GCS counts: GGA's importer keeps it, with 0 points and no mark (docs/game-systems.md).
 */
function hasAdvantage(actor, name) {
  const ads = foundry.utils.getProperty(actor, "system.ads");
  if (!isList(ads)) return null;
  if (entriesNamed(ads, name, "trait").length) return true;
  const find = () => (typeof actor.findAdvantage === "function" ? actor.findAdvantage(name) : undefined);
  return ggaFinds(find, name, "trait") ? missedByWalk(actor, name) : false;
}

/** Read a number GGA keeps as a number or as text; NaN for anything else */
const numberOf = (value) => (typeof value === "number" || (typeof value === "string" && value.trim() !== "") ? Number(value) : NaN);

/**
 * Return an actor's level in a skill, by name, from GGA's nested list system.skills: undefined when he has no such
 * skill (the rule's default, none). A level counts only where the skill has at least one point: GCS keeps a 0-point
 * skill at its default level (B393 asks for a point in Tactics), and a skill of GGA's Mook Generator or typed on the
 * sheet carries no points at all. So null (asked) for a skill without a point, for entries of that name at different
 * levels, for a level that is no number, where the actor has no list, or where GURPS.findSkillSpell finds the skill
 * where the walk does not.
 */
function skillLevel(actor, name) {
  const skills = foundry.utils.getProperty(actor, "system.skills");
  if (!isList(skills)) return null;
  const found = entriesNamed(skills, name, "skill");
  if (!found.length) {
    const finder = globalThis.GURPS?.findSkillSpell;
    const find = () => (typeof finder === "function" ? finder(actor, name, true) : undefined);
    return ggaFinds(find, name, "skill") ? missedByWalk(actor, name) : undefined;
  }
  const levels = new Set(found.filter((entry) => numberOf(entry.points) >= 1).map((entry) => numberOf(entry.level)));
  const [level] = levels;
  return levels.size === 1 && Number.isFinite(level) ? level : null;
}

/** ARS's rules variants whose Dexterity table is AD&D 1e's (lastredoubt/acks2-arsbase src/module/config.js at d47147c5) */
const ARS_1E_VARIANTS = ["0", "1"];

/** Return the ARS world's rules variant ("0", "1", "2"), or null where ARS registered none */
function arsVariant() {
  return game.settings.settings.has("ars.systemVariant") ? String(game.settings.get("ars", "systemVariant")) : null;
}

/**
 * Return an ability score as the GM typed it in ARS: undefined where the actor has none, null where ARS shows one of
 * its own instead. ARS shows a blank, 0 or text as 1 and clamps the rest to 1-25 (lastredoubt/acks2-arsbase
 * src/module/actor/actor.js _buildAbilityFields at d47147c5), so only a whole number from 1 to 25 in the stored data
 * is the actor's own.
 */
function arsScore(actor, ability) {
  const stored = foundry.utils.getProperty(actor._source ?? actor, `system.abilities.${ability}.value`);
  if (stored === undefined) return undefined;
  const score = typeof stored === "number" || /^\s*\d+\s*$/.test(String(stored ?? "")) ? Number(stored) : NaN;
  return Number.isInteger(score) && score >= 1 && score <= 25 ? score : null;
}

/**
 * Read a data path of an ARS actor. An ability score ARS replaced with its own (a blank shown as 1) is asked (null).
 * The Dexterity reaction adjustment ARS computes is read only where the 1e table stops, Dexterity 19 to 25, and only
 * from a variant with 1e tables: below 19 the module applies the 1e table to Dexterity itself, and variant 2's table
 * is AD&D 2e's (+2 at Dexterity 18, where 1e gives +3), so there the Dexterity is read instead (docs/game-systems.md).
 */
function arsValue(actor, path) {
  const ability = /^system\.abilities\.([a-z]+)\.value$/.exec(path)?.[1];
  const score = arsScore(actor, ability ?? "dex");
  if (ability) return score === undefined || score === null ? score : foundry.utils.getProperty(actor, path);
  if (path !== "system.abilities.dex.reaction") return foundry.utils.getProperty(actor, path);
  if (score === undefined || score === null) return score;
  const dex = numberOf(foundry.utils.getProperty(actor, "system.abilities.dex.value"));
  return dex > 18 && ARS_1E_VARIANTS.includes(arsVariant()) ? foundry.utils.getProperty(actor, path) : undefined;
}

/**
 * Read the raw value a reader names: a data path, an advantage's presence or a skill's level; undefined where the
 * sheet holds none, null where it holds one that cannot be read
 */
function readRaw(actor, reader) {
  if (reader.advantage !== undefined) return hasAdvantage(actor, reader.advantage);
  if (reader.skill !== undefined) return skillLevel(actor, reader.skill);
  if (game.system?.id === "ars") return arsValue(actor, reader.path);
  return foundry.utils.getProperty(actor, reader.path);
}

/**
 * Read one input through the campaign's reader: undefined when there is nothing to read (the rule's default holds),
 * null when the sheet holds a value that cannot be read (blank, not a number, not a yes or no): the dialog asks for it.
 */
export function readAttribute(actor, key, type) {
  const reader = ATTRIBUTES[key];
  if (!actor || !reader) return undefined;
  const value = readRaw(actor, reader);
  if (value === undefined || value === null) return value;
  if (type === "boolean") return typeof value === "boolean" ? value : null;
  const number = typeof value === "boolean" ? NaN : numberOf(value);
  return Number.isFinite(number) ? Math.trunc(number) : null;
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
