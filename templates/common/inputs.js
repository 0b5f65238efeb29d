// From the table to a scenario: the values a GM gives in the Foundry dialog or the Roll20 draft, checked as ambush
// checks a scenario file (types, bounds, who belongs where), or one translated line saying what is wrong.
// The input's shape: {procedure, scenario: {key: value}, sides: {a|b: {combatants: [id], key: value}},
// members: {id: {label, key: value}}}; members are named by their combatant (Foundry) or token (Roll20) id.
{% if as_module %}
import * as Rules from "./rules.js";
{% endif %}

const SYSTEM = {{ system | js }};

/** Each procedure and the inputs it reads, with their level (scenario, side, member), type, bounds and default */
const PROCEDURES = {{ procedures | js }};

const SIDE_KEYS = ["a", "b"];

/** Return a procedure's definition by id, or null */
function procedureDef(id) {
  return PROCEDURES.find((procedure) => procedure.id === id) ?? null;
}

/** Return the inputs of a procedure at one level: "scenario", "side" or "member" */
function inputsAt(procedure, level) {
  return procedureDef(procedure).inputs.filter((input) => input.level === level);
}

/** Tell whether a value was left empty */
const isEmpty = (value) => value === null || value === undefined || value === "";

/** Return an object's own value at a key: ids and names never reach Object.prototype */
const own = (object, key) =>
  (object && typeof object === "object" && Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined);

/**
 * A combatant as the table knows him.
 * @typedef {object} TableCombatant
 * @property {string} id  the combatant (Foundry) or token (Roll20) id
 * @property {string} label  the name shown
 * @property {(key: string, type: string) => unknown} read  his sheet's value of an input; undefined where it holds none
 */

/**
 * Return the starting values of a table input: each side's combatants, their labels and what their sheets hold,
 * the rule defaults elsewhere; a side's first combatant leads it and side a's first opens a sneak attack.
 * @param {string} procedure
 * @param {Record<"a" | "b", Array<TableCombatant>>} sides
 */
function draftInput(procedure, sides) {
  const input = { procedure, scenario: {}, sides: {}, members: {} };
  const firstOfA = sides.a[0]?.id ?? null;
  for (const field of inputsAt(procedure, "scenario")) {
    if (field.type === "openers") input.scenario.openers = firstOfA ? [{ name: firstOfA, attack_bonus: null, target_number: null }] : [];
    else input.scenario[field.key] = field.type === "member" ? firstOfA : field.default;
  }
  for (const key of SIDE_KEYS) {
    const side = { combatants: sides[key].map((combatant) => combatant.id) };
    for (const field of inputsAt(procedure, "side")) {
      side[field.key] = field.type === "member" ? sides[key][0]?.id ?? null : field.default;
    }
    input.sides[key] = side;
    for (const combatant of sides[key]) {
      const member = { label: combatant.label };
      const fields = inputsAt(procedure, "member");
      for (const field of fields) member[field.key] = combatant.read(field.key, field.type) ?? field.default;
      // A sheet that holds a value given instead of another (AD&D: an explicit adjustment for Dexterity) gives that one.
      for (const field of fields.filter((f) => f.replaces && !isEmpty(member[f.key]))) member[field.replaces] = null;
      input.members[combatant.id] = member;
    }
  }
  return input;
}

/**
 * Tell whether a side must give an input: the sides it names ("ab", "a", "b"), or the side that surprises (sneaks)
 * or the other one, which watches
 */
function requiredOn(field, sideKey, surprising) {
  if (field.required === "surprising") return sideKey === surprising;
  if (field.required === "watching") return sideKey !== surprising && SIDE_KEYS.includes(sideKey);
  return field.required.includes(sideKey);
}

/** Tell whether a given value has an input's type and bounds */
function fits(field, value) {
  if (field.type === "boolean") return typeof value === "boolean";
  if (field.type === "side") return SIDE_KEYS.includes(value);
  if (field.type === "number") {
    return Number.isInteger(value) && (field.minimum === null || value >= field.minimum)
      && (field.maximum === null || value <= field.maximum);
  }
  return typeof value === "string";
}

/** Check one value against its input definition; return a problem text or null */
function problemWith(t, field, value, sideKey, label, surprising) {
  const data = { name: label, field: t(`Input.${field.key}`) };
  if (isEmpty(value)) return requiredOn(field, sideKey, surprising) ? t("Notify.Missing", data) : null;
  return fits(field, value) ? null : t("Notify.Invalid", data);
}

/** Copy the given values of some inputs into a rules object; return the first problem, or null */
function copyValues(t, fields, source, target, sideKey, label, surprising = "a") {
  for (const field of fields) {
    const value = own(source, field.key);
    const problem = problemWith(t, field, value, sideKey, label, surprising);
    if (problem) return problem;
    if (!isEmpty(value)) target[field.key] = value;
  }
  return null;
}

/** Tell whether an input names combatants rather than holding a value */
const isReference = (field) => field.type === "member" || field.type === "openers";

/** Refuse a member who gives a value and the one it is given instead of, as the rules models do */
function alternativeProblem(t, fields, member) {
  const both = fields.find((field) => field.replaces && !isEmpty(member[field.key]) && !isEmpty(member[field.replaces]));
  if (!both) return null;
  return t("Notify.EitherOr", { name: member.label, field: t(`Input.${both.key}`), other: t(`Input.${both.replaces}`) });
}

/** Build one side from the input; return {side} or {problem} */
function buildSide(t, procedure, input, key, seen, surprising) {
  const given = own(input.sides, key);
  const label = t(`Dialog.Side.${key}`);
  const ids = Array.isArray(given?.combatants) ? given.combatants : [];
  if (!ids.length) return { problem: t("Notify.EmptySide", { side: label }) };
  const side = { name: label, members: [] };
  const values = inputsAt(procedure, "side").filter((field) => !isReference(field));
  let problem = copyValues(t, values, given, side, key, label, surprising);
  if (problem) return { problem };
  for (const id of ids) {
    const entry = own(input.members, id);
    const name = String(own(entry, "label") ?? id).trim() || String(id);
    if (typeof id !== "string" || !id || !entry) return { problem: t("Notify.Invalid", { name: label, field: name }) };
    if (seen.has(id)) return { problem: t("Notify.Twice", { name }) };
    seen.add(id);
    const member = { name: id, label: name };
    const fields = inputsAt(procedure, "member");
    problem = copyValues(t, fields, entry, member, key, name, surprising) ?? alternativeProblem(t, fields, member);
    if (problem) return { problem };
    side.members.push(member);
  }
  for (const field of inputsAt(procedure, "side").filter(isReference)) {
    const chosen = own(given, field.key);
    if (isEmpty(chosen)) continue;
    if (!ids.includes(chosen)) return { problem: t("Notify.NotOnSide", { side: label }) };
    side[field.key] = chosen;
  }
  return { side };
}

/** Copy a scenario-level member choice, which must be on side a */
function copyMember(t, field, chosen, scenario) {
  if (isEmpty(chosen) || !scenario.sides.a.members.some((member) => member.name === chosen)) {
    return t("Notify.NotOnSide", { side: t("Dialog.Side.a") });
  }
  scenario[field.key] = chosen;
  return null;
}

/** Copy the declared opening attacks: rows without an attacker are left out; a mutual ambush may mix sides */
function copyOpeners(t, rows, scenario) {
  const members = new Map(SIDE_KEYS.flatMap((key) => scenario.sides[key].members.map((member) => [member.name, member.label])));
  const openers = [];
  const attacker = t("Input.attacker");
  for (const row of Array.isArray(rows) ? rows : []) {
    const id = own(row, "name");
    if (isEmpty(id)) continue;
    if (!members.has(id)) return t("Notify.Invalid", { name: attacker, field: String(id) });
    const name = members.get(id);
    if (openers.some((opener) => opener.name === id)) return t("Notify.OpenerTwice", { name });
    for (const key of ["attack_bonus", "target_number"]) {
      if (!Number.isInteger(own(row, key))) return t(isEmpty(own(row, key)) ? "Notify.Missing" : "Notify.Invalid", { name, field: t(`Input.${key}`) });
    }
    openers.push({ name: id, attack_bonus: row.attack_bonus, target_number: row.target_number });
  }
  if (!openers.length) return t("Notify.Missing", { name: t("Dialog.Encounter"), field: attacker });
  scenario.openers = openers;
  return null;
}

/**
 * Turn a table input into a rules scenario whose members are named by their ids and carry their labels.
 * `t(key, data)` translates the problem texts. Returns {scenario}, or {problem} with one translated line.
 */
function buildScenario(input, t) {
  const procedure = procedureDef(own(input, "procedure"));
  if (!procedure) return { problem: t("Notify.UnknownProcedure", { procedure: String(own(input, "procedure")) }) };
  const scenario = { system: SYSTEM, procedure: procedure.id, options: { ...Rules.DEFAULT_OPTIONS }, sides: {} };
  const values = inputsAt(procedure.id, "scenario").filter((field) => !isReference(field));
  let problem = copyValues(t, values, own(input, "scenario"), scenario, "ab", t("Dialog.Encounter"));
  if (problem) return { problem };
  const seen = new Set();
  for (const key of SIDE_KEYS) {
    const built = buildSide(t, procedure.id, input, key, seen, scenario.surprising ?? "a");
    if (built.problem) return { problem: built.problem };
    scenario.sides[key] = built.side;
  }
  for (const field of inputsAt(procedure.id, "scenario").filter(isReference)) {
    const chosen = own(own(input, "scenario"), field.key);
    problem = field.type === "openers" ? copyOpeners(t, chosen, scenario) : copyMember(t, field, chosen, scenario);
    if (problem) return { problem };
  }
  return { scenario };
}

{% from "exports.js" import exports %}
{{ exports(["SYSTEM", "PROCEDURES", "procedureDef", "inputsAt", "draftInput", "buildScenario"], as_module) }}
