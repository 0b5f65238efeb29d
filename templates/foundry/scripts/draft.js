import { ATTRIBUTES } from "./constants.js";
import { draftScenario, PROCEDURES } from "./inputs.js";

/**
 * Return the side a combatant takes in a new draft: friendly tokens side a, hostile ones side b. Neutral and secret
 * tokens (and combatants without a token) stay out of the fight until the GM puts them on a side in the dialog.
 */
export function defaultSide(combatant) {
  const disposition = combatant.token?.disposition ?? combatant.actor?.prototypeToken?.disposition;
  const { FRIENDLY, HOSTILE } = CONST.TOKEN_DISPOSITIONS;
  return disposition === FRIENDLY ? "a" : disposition === HOSTILE ? "b" : null;
}

/** Read one input through the campaign's actor data path; undefined when there is nothing to read. */
export function readAttribute(actor, key, type) {
  const path = ATTRIBUTES[key];
  if (!actor || !path) return undefined;
  const value = foundry.utils.getProperty(actor, path);
  if (type === "boolean") return typeof value === "boolean" ? value : undefined;
  if (value === null || value === undefined || value === "") return undefined;
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
