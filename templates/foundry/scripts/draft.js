import { ATTRIBUTES } from "./constants.js";
import { draftInput, PROCEDURES } from "./inputs.js";

/** Split a combat's combatants in turn order: side a is the friendly tokens, side b everyone else. */
export function sidesByDisposition(combat) {
  const sides = { a: [], b: [] };
  const friendly = CONST.TOKEN_DISPOSITIONS.FRIENDLY;
  for (const combatant of combat.turns) {
    const disposition = combatant.token?.disposition ?? combatant.actor?.prototypeToken?.disposition;
    sides[disposition === friendly ? "a" : "b"].push(combatant);
  }
  return sides;
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

/** Return the dialog's starting values: sides by disposition, values from the sheets, rule defaults elsewhere. */
export function defaultInput(combat, procedure = PROCEDURES[0].id) {
  const sides = sidesByDisposition(combat);
  const entry = (combatant) => ({
    id: combatant.id,
    label: combatant.name,
    read: (key, type) => readAttribute(combatant.actor, key, type),
  });
  return draftInput(procedure, { a: sides.a.map(entry), b: sides.b.map(entry) });
}
