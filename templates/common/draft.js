// The draft: built from the combatants at the table, checked, and turned into a rules scenario. The GM's starting point
// (the draft) has the shape of a scenario file: the procedure, its values, and sides a and b whose members carry the id
// of their combatant (Foundry) or token (Roll20) beside their name; `out` lists, in the same shape, who is at the table
// but not in this fight. What the GM gives in the Foundry dialog or the Roll20 draft is checked as ambush checks a
// scenario file (types, bounds, who belongs where), and becomes the rules scenario the runtime plays, or one translated
// line saying what is wrong.
import { PROCEDURES, SIDE_KEYS, SYSTEM } from "./config.js";
import { membersOf, scenarioOptions } from "./scenario.js";
import { rulesSystem } from "./system.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [
  "Dialog.Encounter", "Dialog.Side.*", "Input.{input}", "Notify.EitherOr", "Notify.EmptySide", "Notify.Invalid",
  "Notify.Missing", "Notify.NotOnSide", "Notify.NotWhole", "Notify.OpenerTwice", "Notify.OutOfRange", "Notify.OutOfRangeEither",
  "Notify.Twice", "Notify.UnknownProcedure", "Notify.Unread"
];

/** What an input of PROCEDURES leaves out, as exporter/definitions' InputDef gives it */
const INPUT_DEFAULTS = { required: "", default: null, minimum: null, maximum: null, replaces: null, label: null, fields: [], prefill: null };

/** Return an input with every attribute, those it leaves out at their defaults */
const withDefaults = (input) => ({ ...INPUT_DEFAULTS, ...input, fields: (input.fields ?? []).map(withDefaults) });

const DEFINED = PROCEDURES.map((procedure) => ({ ...procedure, inputs: procedure.inputs.map(withDefaults) }));

/** Return a procedure's definition by id, every input whole, or null */
function procedureDef(id) {
  return DEFINED.find((procedure) => procedure.id === id) ?? null;
}

/** Return the inputs of a procedure at one level: "scenario", "side" or "member" */
function inputsAt(procedure, level) {
  return procedureDef(procedure).inputs.filter((input) => input.level === level);
}

/** Tell whether a value was left empty */
const isEmpty = (value) => value === null || value === undefined || value === "";

/** Return an object's own value at a key: ids and names never reach Object.prototype */
const ownValue = (object, key) =>
  (object && typeof object === "object" && Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined);

/** Return the catalogue key of an input's label */
const labelKey = (field) => `Input.${field.label ?? field.key}`;

/** Tell whether an input names a member (a leader, an attacker) or lists the opening attacks */
const isReference = (field) => field.type === "member" || field.type === "openers";

/**
 * A combatant as the table knows him.
 * @typedef {object} HostCombatant
 * @property {string} id  the combatant (Foundry) or token (Roll20) id
 * @property {string} label  the name shown
 * @property {"a" | "b" | null} side  where the table puts him by default; null: not in this fight
 * @property {(key: string, type: string) => unknown} read  his sheet's value of an input; undefined where it holds none
 *   (the rule's default stands), null where it holds one that cannot be read (the GM is asked for it)
 */

// A name is one line (exporter/rules/shared.py CONTROL_CHARACTER): a token named across two lines reads as one.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** Give every combatant a one-line name no other has: a second "Goblin" becomes "Goblin 2", a blank one "?" */
function uniqueNames(combatants) {
  const taken = new Set();
  return combatants.map((combatant) => {
    const base = String(combatant.label ?? "").replace(CONTROL_CHARACTERS, " ").trim() || "?";
    let name = base;
    for (let count = 2; taken.has(name); count += 1) name = `${base} ${count}`;
    taken.add(name);
    return name;
  });
}

/**
 * Return a member of the draft with the values his sheet holds, rule defaults for the rest; `unread` lists the inputs
 * his sheet holds but could not be read, left empty for the GM to give (never a rule default in their place)
 */
function draftMember(procedure, combatant, name) {
  const member = { id: combatant.id, name };
  const fields = inputsAt(procedure, "member");
  const unread = [];
  for (const field of fields) {
    const value = combatant.read(field.key, field.type);
    if (value === null) unread.push(field.key);
    member[field.key] = value === null ? null : value ?? field.default;
  }
  // A sheet that holds a value given instead of another (AD&D: an explicit adjustment for Dexterity) gives that one.
  for (const field of fields.filter((f) => f.replaces && !isEmpty(member[f.key]))) member[field.replaces] = null;
  if (unread.length) member.unread = unread;
  return member;
}

/**
 * Return the inputs of a draft member that his sheet could not give and nobody has given since: listed in his
 * `unread`, still empty, and no input given instead of it (or that it is given instead of) holds a value
 */
function askedOf(fields, member) {
  const unread = ownValue(member, "unread");
  if (!Array.isArray(unread)) return new Set();
  const partners = (key) => fields.filter((f) => f.replaces === key).map((f) => f.key)
    .concat(fields.find((f) => f.key === key)?.replaces ?? []);
  return new Set(unread.filter((key) => isEmpty(ownValue(member, key)) && partners(key).every((other) => isEmpty(ownValue(member, other)))));
}

/**
 * Return the draft of a procedure for the combatants at the table, in table order: each on the side the table puts
 * him (or out), what the sheets hold, the rule defaults elsewhere. A side's first member leads it; side a's first
 * opens a sneak attack.
 * @param {string} procedure
 * @param {HostCombatant[]} combatants
 */
function draftFromCombatants(procedure, combatants) {
  const names = uniqueNames(combatants);
  const draft = { system: SYSTEM, procedure, sides: {}, out: [] };
  for (const key of SIDE_KEYS) draft.sides[key] = { members: [] };
  combatants.forEach((combatant, index) => {
    if (SIDE_KEYS.includes(combatant.side)) draft.sides[combatant.side].members.push(draftMember(procedure, combatant, names[index]));
    else draft.out.push(draftMember(procedure, combatant, names[index]));
  });
  const first = (key) => draft.sides[key].members[0]?.name ?? null;
  for (const key of SIDE_KEYS) {
    for (const field of inputsAt(procedure, "side")) draft.sides[key][field.key] = field.type === "member" ? first(key) : field.default;
  }
  for (const field of inputsAt(procedure, "scenario")) {
    if (field.type === "openers") draft.openers = first("a") ? [{ name: first("a"), attack_bonus: null, target_number: null }] : [];
    else draft[field.key] = field.type === "member" ? first("a") : field.default;
  }
  return draft;
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

/** Tell whether a whole number lies outside an input's bounds */
const outOfRange = (field, value) => field.type === "number" && Number.isInteger(value)
  && ((field.minimum !== null && value < field.minimum) || (field.maximum !== null && value > field.maximum));

/**
 * Check one value against its input definition; return a problem text or null. A number outside the bounds says
 * them, and names the input given instead of it where there is one (AD&D: a Dex beyond the 1e table's 18 needs
 * the adjustment, never a silent clamp). An empty value the sheet could not give (`asked`) is wanted on a side even
 * where the rules have a default: a value that was not read is never taken for the default.
 */
function problemWith(t, field, value, sideKey, label, surprising, fields = [], asked = false) {
  const data = { name: label, field: t(labelKey(field)) };
  if (isEmpty(value)) {
    if (asked && SIDE_KEYS.includes(sideKey)) return t("Notify.Unread", data);
    return requiredOn(field, sideKey, surprising) ? t("Notify.Missing", data) : null;
  }
  if (outOfRange(field, value)) {
    const bounds = { ...data, value, minimum: field.minimum ?? "", maximum: field.maximum ?? "" };
    const instead = fields.find((other) => other.replaces === field.key);
    return instead ? t("Notify.OutOfRangeEither", { ...bounds, other: t(labelKey(instead)) }) : t("Notify.OutOfRange", bounds);
  }
  if (fits(field, value)) return null;
  return t(field.type === "number" && !Number.isInteger(value) ? "Notify.NotWhole" : "Notify.Invalid", { ...data, value: String(value) });
}

/** Copy the given values of some inputs into a rules object; return the first problem, or null */
function copyValues(t, fields, source, target, sideKey, label, surprising, asked = new Set()) {
  for (const field of fields) {
    const value = ownValue(source, field.key);
    const problem = problemWith(t, field, value, sideKey, label, surprising, fields, asked.has(field.key));
    if (problem) return problem;
    if (!isEmpty(value)) target[field.key] = value;
  }
  return null;
}

/** Refuse a member who gives a value and the one it is given instead of, as the rules models do */
function alternativeProblem(t, fields, member) {
  const both = fields.find((field) => field.replaces && !isEmpty(member[field.key]) && !isEmpty(member[field.replaces]));
  if (!both) return null;
  return t("Notify.EitherOr", { name: member.label, field: t(labelKey(both)), other: t(`Input.${both.replaces}`) });
}

/** Build one side of the rules scenario; members are named by their ids. Returns {side} or {problem} */
function buildSide(t, draft, key, seen, surprising) {
  const given = ownValue(draft.sides, key);
  const label = String(ownValue(given, "name") ?? "").trim() || t(`Dialog.Side.${key}`);
  const entries = ownValue(given, "members");
  if (!Array.isArray(entries) || !entries.length) return { problem: t("Notify.EmptySide", { side: label }) };
  const side = { name: label, members: [] };
  const values = inputsAt(draft.procedure, "side").filter((field) => !isReference(field));
  let problem = copyValues(t, values, given, side, key, label, surprising);
  if (problem) return { problem };
  const fields = inputsAt(draft.procedure, "member");
  for (const entry of entries) {
    const id = ownValue(entry, "id");
    const name = typeof ownValue(entry, "name") === "string" ? entry.name.trim() : "";
    if (typeof id !== "string" || !id || !name) return { problem: t("Notify.Invalid", { name: label, field: name || "?" }) };
    if (seen.ids.has(id) || seen.names.has(name)) return { problem: t("Notify.Twice", { name }) };
    seen.ids.add(id);
    seen.names.set(name, id);
    const member = { name: id, label: name };
    problem = copyValues(t, fields, entry, member, key, name, surprising, askedOf(fields, entry))
      ?? alternativeProblem(t, fields, member);
    if (problem) return { problem };
    side.members.push(member);
  }
  for (const field of inputsAt(draft.procedure, "side").filter(isReference)) {
    const chosen = ownValue(given, field.key);
    if (isEmpty(chosen)) continue;
    const member = side.members.find((candidate) => candidate.label === chosen);
    if (!member) return { problem: t("Notify.NotOnSide", { side: label, field: t(labelKey(field)), name: String(chosen) }) };
    side[field.key] = member.name;
  }
  return { side };
}

/** Copy a scenario-level member choice (the lone attacker), who must be on side a */
function copyMember(t, field, chosen, scenario) {
  if (isEmpty(chosen)) return t("Notify.Missing", { name: t("Dialog.Encounter"), field: t(labelKey(field)) });
  const member = scenario.sides.a.members.find((candidate) => candidate.label === chosen);
  if (!member) return t("Notify.NotOnSide", { side: scenario.sides.a.name, field: t(labelKey(field)), name: String(chosen) });
  scenario[field.key] = member.name;
  return null;
}

/**
 * Copy the declared opening attacks, each a row of the input's fields (who attacks, then his numbers): rows without an
 * attacker are left out; a mutual ambush may mix sides
 */
function copyOpeners(t, rows, input, scenario) {
  const members = membersOf(scenario);
  const [who, ...numbers] = input.fields;
  const attacker = t(labelKey(who));
  const openers = [];
  for (const row of Array.isArray(rows) ? rows : []) {
    const name = ownValue(row, who.key);
    if (isEmpty(name)) continue;
    const member = members.find((candidate) => candidate.label === name);
    if (!member) return t("Notify.Invalid", { name: attacker, field: String(name) });
    if (openers.some((opener) => opener[who.key] === member.name)) return t("Notify.OpenerTwice", { name });
    const opener = { [who.key]: member.name };
    const problem = copyValues(t, numbers, row, opener, "ab", name, "a");
    if (problem) return problem;
    openers.push(opener);
  }
  if (!openers.length) return t("Notify.Missing", { name: t("Dialog.Encounter"), field: attacker });
  scenario.openers = openers;
  return null;
}

/**
 * Turn a draft into the rules scenario the runtime plays: members named by their ids, with their names as labels.
 * `t(key, data)` translates the problem texts. Returns {scenario}, or {problem} with one translated line.
 */
function scenarioFromDraft(draft, t) {
  const procedure = procedureDef(ownValue(draft, "procedure"));
  if (!procedure) return { problem: t("Notify.UnknownProcedure", { procedure: String(ownValue(draft, "procedure")) }) };
  const scenario = { system: SYSTEM, procedure: procedure.id, options: scenarioOptions({}), sides: {} };
  const values = inputsAt(procedure.id, "scenario").filter((field) => !isReference(field));
  let problem = copyValues(t, values, draft, scenario, "ab", t("Dialog.Encounter"), "a");
  if (problem) return { problem };
  const seen = { ids: new Set((ownValue(draft, "out") ?? []).map((entry) => ownValue(entry, "id"))), names: new Map() };
  for (const key of SIDE_KEYS) {
    const built = buildSide(t, draft, key, seen, scenario.surprising ?? "a");
    if (built.problem) return { problem: built.problem };
    scenario.sides[key] = built.side;
  }
  for (const field of inputsAt(procedure.id, "scenario").filter(isReference)) {
    const chosen = ownValue(draft, field.key);
    problem = field.type === "openers" ? copyOpeners(t, chosen, field, scenario) : copyMember(t, field, chosen, scenario);
    if (problem) return { problem };
  }
  // What only the rules can tell of the whole scenario, as their Python core's check does
  const refused = rulesSystem().Rules.scenarioProblem?.(scenario);
  return refused ? { problem: t(refused.key, refused.data) } : { scenario };
}

export {
  STRING_KEYS, askedOf, draftFromCombatants, inputsAt, isEmpty, labelKey, ownValue, problemWith, procedureDef, scenarioFromDraft,
};
