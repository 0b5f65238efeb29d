// The draft a surprise starts from: the combatants on their default sides, with what their sheets hold, read as GURPS
// Game Aid (gga.js) and ARS keep it (docs/game-systems.md).
import { ATTRIBUTES, PROCEDURES } from "../common/config.js";
import { draftScenario } from "../common/inputs.js";
import { hasTrait, numberOf, skillLevel } from "./gga.js";

/**
 * Return the side a combatant takes in a new draft: friendly tokens side a, hostile ones side b. Neutral and secret
 * tokens (and combatants without a token) stay out of the fight until the GM puts them on a side in the dialog.
 */
export function defaultSide(combatant) {
  const disposition = combatant.token?.disposition ?? combatant.actor?.prototypeToken?.disposition;
  const { FRIENDLY, HOSTILE } = CONST.TOKEN_DISPOSITIONS;
  return disposition === FRIENDLY ? "a" : disposition === HOSTILE ? "b" : null;
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
  if (reader.advantage !== undefined) return hasTrait(actor, reader.advantage);
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
