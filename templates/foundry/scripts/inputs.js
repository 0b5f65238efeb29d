import { ATTRIBUTES, OPTIONS, PROCEDURES, SYSTEM } from "./constants.js";
import { format, localize } from "./i18n.js";

const SIDE_KEYS = ["a", "b"];

/** Return a procedure's definition by id. */
export const procedureDef = (id) => PROCEDURES.find((procedure) => procedure.id === id);

/** Return the inputs of a procedure at one level: "scenario", "side" or "member". */
export const inputsAt = (procedure, level) => procedureDef(procedure).inputs.filter((input) => input.level === level);

/** Split a combat's combatants: side a is the friendly tokens, side b everyone else. */
export function sidesByDisposition(combat) {
  const sides = { a: [], b: [] };
  const friendly = CONST.TOKEN_DISPOSITIONS.FRIENDLY;
  for (const combatant of combat.turns) {
    const disposition = combatant.token?.disposition ?? combatant.actor?.prototypeToken?.disposition;
    sides[disposition === friendly ? "a" : "b"].push(combatant);
  }
  return sides;
}

/** Read one attribute through the campaign's actor data path; undefined when there is none to read. */
export function readAttribute(actor, key, type) {
  const path = ATTRIBUTES[key];
  if (!actor || !path) return undefined;
  const value = foundry.utils.getProperty(actor, path);
  if (type === "boolean") return typeof value === "boolean" ? value : undefined;
  if (value === null || value === undefined || value === "") return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? Math.trunc(number) : undefined;
}

/** Build the dialog's starting values: sides by disposition, attributes from the sheets, rule defaults elsewhere. */
export function defaultInput(combat, procedure = PROCEDURES[0].id) {
  const sides = sidesByDisposition(combat);
  const input = { procedure, scenario: {}, sides: {}, members: {} };
  const firstOfA = sides.a[0]?.id ?? null;
  for (const field of inputsAt(procedure, "scenario")) {
    if (field.type === "member") input.scenario[field.key] = firstOfA;
    else if (field.type === "openers") input.scenario[field.key] = [{ name: firstOfA, attack_bonus: null, target_number: null }];
    else input.scenario[field.key] = field.default;
  }
  for (const key of SIDE_KEYS) {
    const side = { combatants: sides[key].map((combatant) => combatant.id) };
    for (const field of inputsAt(procedure, "side")) {
      side[field.key] = field.type === "member" ? sides[key][0]?.id ?? null : field.default;
    }
    input.sides[key] = side;
    for (const combatant of sides[key]) {
      const member = { label: combatant.name };
      for (const field of inputsAt(procedure, "member")) {
        member[field.key] = readAttribute(combatant.actor, field.key, field.type) ?? field.default;
      }
      input.members[combatant.id] = member;
    }
  }
  return input;
}

/** Check one value against its input definition; return a problem text or null. */
function checkValue(field, value, sideKey, label) {
  const name = localize(`Input.${field.key}`);
  if (value === null || value === undefined || value === "") {
    return field.required.includes(sideKey) ? format("Notify.Missing", { name: label, field: name }) : null;
  }
  if (field.type === "boolean") return typeof value === "boolean" ? null : format("Notify.Invalid", { name: label, field: name });
  if (field.type === "number") {
    const bad = !Number.isInteger(value)
      || (field.minimum !== null && value < field.minimum)
      || (field.maximum !== null && value > field.maximum);
    return bad ? format("Notify.Invalid", { name: label, field: name }) : null;
  }
  return null;
}

/** Copy the inputs of one level into a rules object, leaving out empty optional values. */
function copyInputs(fields, source, target, sideKey, label) {
  for (const field of fields) {
    const value = source[field.key];
    const problem = checkValue(field, value, sideKey, label);
    if (problem) return problem;
    if (value !== null && value !== undefined && value !== "") target[field.key] = value;
  }
  return null;
}

/**
 * Turn dialog input into a rules scenario: members are named by combatant id and carry their label.
 * Returns { scenario } or { problem } with a translated one-line reason.
 */
export function buildScenario(input) {
  const procedure = procedureDef(input.procedure);
  if (!procedure) return { problem: format("Notify.UnknownProcedure", { procedure: String(input.procedure) }) };
  const scenario = { system: SYSTEM, procedure: procedure.id, options: { ...OPTIONS }, sides: {} };
  const everyone = new Set();
  const isReference = (field) => field.type === "member" || field.type === "openers";
  const scenarioFields = inputsAt(procedure.id, "scenario").filter((field) => !isReference(field));
  let problem = copyInputs(scenarioFields, input.scenario ?? {}, scenario, "ab", localize("Dialog.Encounter"));
  if (problem) return { problem };
  for (const key of SIDE_KEYS) {
    const given = input.sides?.[key] ?? { combatants: [] };
    const label = localize(`Dialog.Side.${key}`);
    if (!given.combatants?.length) return { problem: format("Notify.EmptySide", { side: label }) };
    const side = { name: label, members: [] };
    problem = copyInputs(inputsAt(procedure.id, "side").filter((f) => f.type !== "member"), given, side, key, label);
    if (problem) return { problem };
    for (const id of given.combatants) {
      const values = input.members?.[id] ?? {};
      const member = { name: id, label: values.label ?? id };
      problem = copyInputs(inputsAt(procedure.id, "member"), values, member, key, member.label);
      if (problem) return { problem };
      side.members.push(member);
      everyone.add(id);
    }
    for (const field of inputsAt(procedure.id, "side").filter((f) => f.type === "member")) {
      const chosen = given[field.key];
      if (chosen && !given.combatants.includes(chosen)) return { problem: format("Notify.NotOnSide", { side: label }) };
      if (chosen) side[field.key] = chosen;
    }
    scenario.sides[key] = side;
  }
  for (const field of inputsAt(procedure.id, "scenario").filter(isReference)) {
    problem = field.type === "openers"
      ? copyOpeners(input.scenario?.[field.key], scenario, everyone)
      : copyMember(field, input.scenario?.[field.key], scenario);
    if (problem) return { problem };
  }
  return { scenario };
}

/** Copy a scenario-level member choice, which must be on side a. */
function copyMember(field, chosen, scenario) {
  if (!chosen || !scenario.sides.a.members.some((member) => member.name === chosen)) {
    return format("Notify.NotOnSide", { side: localize("Dialog.Side.a") });
  }
  scenario[field.key] = chosen;
  return null;
}

/** Copy the declared opening attacks: rows without an attacker are left out; a mutual ambush may mix sides. */
function copyOpeners(rows, scenario, everyone) {
  const openers = [];
  for (const row of rows ?? []) {
    if (!row?.name) continue;
    const label = localize("Input.attacker");
    if (!everyone.has(row.name) || openers.some((opener) => opener.name === row.name)) {
      return format("Notify.Invalid", { name: label, field: localize("Input.attacker") });
    }
    for (const key of ["attack_bonus", "target_number"]) {
      if (!Number.isInteger(row[key])) return format("Notify.Missing", { name: label, field: localize(`Input.${key}`) });
    }
    openers.push({ name: row.name, attack_bonus: row.attack_bonus, target_number: row.target_number });
  }
  if (!openers.length) return format("Notify.Missing", { name: localize("Dialog.Encounter"), field: localize("Input.attacker") });
  scenario.openers = openers;
  return null;
}

/** Return the display label of every member of a scenario, keyed by its name (the combatant id). */
export function labelsOf(scenario) {
  return Object.fromEntries(SIDE_KEYS.flatMap((key) => scenario.sides[key].members.map((m) => [m.name, m.label])));
}
