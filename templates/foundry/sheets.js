// The draft a surprise starts from: the combatants on their default sides, with what their sheets hold, read through
// the adapter of the world's game system (game-systems/registry.js, docs/game-systems.md).
import { ATTRIBUTES, PROCEDURES } from "../common/config.js";
import { draftFromCombatants } from "../common/draft.js";
import { gameSystemAdapter } from "./game-systems/registry.js";
import { numberOf } from "./game-systems/values.js";

/**
 * Return the side a combatant takes in a new draft: friendly tokens side a, hostile ones side b. Neutral and secret
 * tokens (and combatants without a token) stay out of the fight until the GM puts them on a side in the dialog.
 */
export function defaultSide(combatant) {
  const disposition = combatant.token?.disposition ?? combatant.actor?.prototypeToken?.disposition;
  const { FRIENDLY, HOSTILE } = CONST.TOKEN_DISPOSITIONS;
  return disposition === FRIENDLY ? "a" : disposition === HOSTILE ? "b" : null;
}

/**
 * Read the raw value a reader names: a data path, an advantage's presence or a skill's level; undefined where the
 * sheet holds none, null where it holds one that cannot be read
 */
function readRaw(actor, reader) {
  const adapter = gameSystemAdapter();
  if (reader.advantage !== undefined) return adapter.hasTrait(actor, reader.advantage);
  if (reader.skill !== undefined) return adapter.skillLevel(actor, reader.skill);
  return adapter.readPath(actor, reader.path);
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
  return draftFromCombatants(procedure, combatants);
}
