// The draft as a form: every value a GM sets before the roll, declared once for every host (the Foundry dialog, the
// Roll20 draft card). A field says where its value lives in the draft (its path), its type and choices, the value now,
// its translated label and what is wrong with it; an edit names a field by its path. The hosts only render the fields
// and send the edits back.
import { SIDE_KEYS } from "./config.js";
import { everyone, placeOf } from "./draft-combatants.js";
import { askedOf, inputsAt, isEmpty, labelKey, ownValue, problemWith } from "./draft.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [
  "Dialog.Encounter", "Dialog.Nobody", "Dialog.Out", "Dialog.Side.*", "Dialog.Title", "Input.{input}",
  "Input.place", "Notify.Invalid", "Notify.NotWhole",
];

/** Where a combatant can stand in a draft: on side a, on side b, or out of the fight */
const PLACES = ["a", "b", "out"];

/** The input that sets where a combatant stands */
const PLACE_INPUT = { key: "place", type: "place" };

/**
 * One value of the draft, as a host shows it.
 * @typedef {object} Field
 * @property {string} path  where the value lives: "dc", "sides.a.leader", "members.<id>.iq", "place.<id>",
 *   "openers.0.name"
 * @property {string} key  the input it sets ("iq", "leader", "attack_bonus", "place")
 * @property {"number" | "boolean" | "side" | "member" | "place"} type
 * @property {string} label  translated (a place's: the combatant's name)
 * @property {unknown} value  null when not given
 * @property {Choice[]} [choices]  for a side, a member or a place
 * @property {string | null} problem  what is wrong with the value, translated, or null
 */

/**
 * One choice of a field.
 * @typedef {object} Choice
 * @property {string | null} value  null: nobody
 * @property {string} label  translated, or a combatant's name
 * @property {string} [id]  the combatant a member choice names
 */

/**
 * The draft as a form.
 * @typedef {object} DraftForm
 * @property {string} procedure
 * @property {Field[]} encounter  the values of the whole encounter, the opening attacks apart
 * @property {Field[][] | null} openers  the declared opening attacks, a row of fields each, where the procedure has them
 * @property {Array<{key: string, label: string, fields: Field[]}>} sides  each side's own values
 * @property {Array<{id: string, name: string, place: string, placeField: Field, fields: Field[]}>} combatants
 *   everyone drafted, side a, side b, then those out of the fight, with his place and his values
 */

/** Return the value shown for a field: null when not given */
const shown = (value) => (value === undefined ? null : value);

/** Return the choices of a member field: nobody, then everyone drafted by name */
const memberChoices = (draft, t) => [{ value: null, label: t("Dialog.Nobody") },
  ...everyone(draft).map(([, member]) => ({ value: member.name, label: member.name, id: member.id }))];

/** Return the choices of a field of a type, or undefined for a type without choices */
function choicesOf(type, draft, t) {
  if (type === "member") return memberChoices(draft, t);
  if (type === "side") return SIDE_KEYS.map((key) => ({ value: key, label: t(`Dialog.Side.${key}`) }));
  if (type === "place") return PLACES.map((place) => ({ value: place, label: t(place === "out" ? "Dialog.Out" : `Dialog.Side.${place}`) }));
  return undefined;
}

/** Describe one field: where it lives, the input it sets, its label, its value and what is wrong with it */
function field(draft, t, path, input, value, problem = null, label = t(labelKey(input))) {
  const choices = choicesOf(input.type, draft, t);
  return { path, key: input.key, type: input.type, label, value: shown(value), ...(choices ? { choices } : {}), problem };
}

/**
 * Describe an input of the procedure as a field, with what is wrong with its value where it belongs; `asked`: the
 * inputs of a member his sheet could not give (draft.js askedOf)
 */
function inputField(draft, t, path, input, holder, sideKey, label, inputs, asked = new Set()) {
  const value = ownValue(holder, input.key);
  const checked = input.type === "member" ? null
    : problemWith(t, input, isEmpty(value) ? null : value, sideKey, label, draft.surprising ?? "a", inputs, asked.has(input.key));
  return field(draft, t, path, input, value, checked);
}

/** Return the fields of one opening attack where the procedure declares them (Fallout), else none */
const openerFields = (procedure) => inputsAt(procedure, "scenario").find((input) => input.type === "openers")?.fields ?? [];

/** Describe the fields of one opening attack: a row declared, or an empty one past them */
const openerRow = (draft, t, index) => openerFields(draft.procedure).map((input) =>
  field(draft, t, `openers.${index}.${input.key}`, input, ownValue(draft.openers?.[index], input.key)));

/**
 * Describe a draft as a form, in translated words; `openerRows` rows of opening attacks at least, empty ones after
 * those declared.
 * @returns {DraftForm}
 */
function draftForm(draft, t, { openerRows = 0 } = {}) {
  const scenarioInputs = inputsAt(draft.procedure, "scenario");
  const encounterLabel = t("Dialog.Encounter");
  const encounter = scenarioInputs.filter((input) => input.type !== "openers")
    .map((input) => inputField(draft, t, input.key, input, draft, "ab", encounterLabel, scenarioInputs));
  const hasOpeners = scenarioInputs.some((input) => input.type === "openers");
  const rows = Math.max(openerRows, draft.openers?.length ?? 0);
  const openers = hasOpeners ? Array.from({ length: rows }, (unused, index) => openerRow(draft, t, index)) : null;
  const sideInputs = inputsAt(draft.procedure, "side");
  const sides = SIDE_KEYS.map((key) => {
    const label = t(`Dialog.Side.${key}`);
    const fields = sideInputs.map((input) => inputField(draft, t, `sides.${key}.${input.key}`, input, draft.sides[key], key,
      label, sideInputs));
    return { key, label, fields };
  });
  const memberInputs = inputsAt(draft.procedure, "member");
  const combatants = everyone(draft).map(([place, member]) => ({
    id: member.id,
    name: member.name,
    place,
    placeField: field(draft, t, `place.${member.id}`, PLACE_INPUT, place, null, member.name),
    fields: memberInputs.map((input) => inputField(draft, t, `members.${member.id}.${input.key}`, input, member,
      place, member.name, memberInputs, askedOf(memberInputs, member))),
  }));
  return { procedure: draft.procedure, encounter, openers, sides, combatants };
}

/**
 * Read a value typed as text (a chat command, a roll query) as a field of a type wants it: a boolean only from true
 * or false, a number only from decimal digits; anything else stays text, which applyEdits refuses for such a field
 */
function parseValue(type, raw) {
  const text = String(raw ?? "").trim();
  if (type === "boolean") return { true: true, false: false }[text.toLowerCase()] ?? text;
  if (text === "" || text === "none") return null;
  if (type === "number" && /^[+-]?\d{1,15}$/.test(text)) return Number(text);
  return text;
}

/** Tell whether an edit's value has its field's type: a boolean, a whole number, or text; none (null) fits any */
const typed = (type, value) => value === null
  || (type === "boolean" ? typeof value === "boolean" : type === "number" ? Number.isInteger(value) : typeof value === "string");

/** Return the name of the combatant a member value names, by his id or his name; undefined when none */
function memberName(draft, value) {
  const found = everyone(draft).find(([, member]) => member.id === value)
    ?? everyone(draft).find(([, member]) => member.name === value);
  return found?.[1].name;
}

/** Return the input a path sets at a level, or undefined */
const inputNamed = (draft, level, key) => inputsAt(draft.procedure, level).find((input) => input.key === key);

/**
 * Find where one edit goes: the object that holds the value, its key there and its type; or a problem. Keys that
 * come from chat are looked up as own properties only, so none reaches an object prototype.
 */
function target(draft, path, t) {
  const invalid = (what) => ({ problem: t("Notify.Invalid", { name: t("Dialog.Title"), field: String(what ?? "?") }) });
  const [head, ...rest] = String(path).split(".");
  if (head === "place" && rest.length === 1) {
    const { member } = placeOf(draft, rest[0]);
    return member ? { place: rest[0], type: "place", who: member.name, field: t("Input.place") } : invalid(rest[0]);
  }
  if (head === "members" && rest.length === 2) {
    const { member } = placeOf(draft, rest[0]);
    const input = inputNamed(draft, "member", rest[1]);
    return member && input ? { holder: member, key: input.key, type: input.type, who: member.name, field: t(labelKey(input)) }
      : invalid(member ? rest[1] : rest[0]);
  }
  if (head === "sides" && rest.length === 2) {
    const side = SIDE_KEYS.includes(rest[0]) ? draft.sides[rest[0]] : null;
    const input = inputNamed(draft, "side", rest[1]);
    return side && input ? { holder: side, key: input.key, type: input.type, field: t(labelKey(input)),
      who: String(side.name ?? "").trim() || t(`Dialog.Side.${rest[0]}`) } : invalid(side ? rest[1] : rest[0]);
  }
  if (head === "openers" && rest.length === 2 && inputNamed(draft, "scenario", "openers")) {
    const index = Number(rest[0]);
    const rows = draft.openers ?? [];
    const spec = openerFields(draft.procedure).find((input) => input.key === rest[1]);
    // Any declared opener may trigger the Surprise Round (docs/rules/fallout-ttrpg.md#surprise-round): an index names a
    // row or adds the next one.
    if (!Number.isInteger(index) || index < 0 || index > rows.length || !spec) {
      return { problem: t("Notify.Invalid", { name: t("Input.attacker"), field: "#" }) };
    }
    if (!rows[index]) rows[index] = Object.fromEntries(openerFields(draft.procedure).map((input) => [input.key, null]));
    draft.openers = rows;
    return { holder: rows[index], key: spec.key, type: spec.type, field: t(labelKey(spec)), who: t("Dialog.Encounter") };
  }
  const input = rest.length === 0 ? inputNamed(draft, "scenario", head) : undefined;
  return input && input.type !== "openers"
    ? { holder: draft, key: input.key, type: input.type, field: t(labelKey(input)), who: t("Dialog.Encounter") } : invalid(head);
}

/** Put combatants where the edits place them, each place keeping the draft's order */
function placeAll(draft, places) {
  const lists = { a: [], b: [], out: [] };
  for (const [place, member] of everyone(draft)) lists[places.get(member.id) ?? place].push(member);
  for (const key of SIDE_KEYS) draft.sides[key].members = lists[key];
  draft.out = lists.out;
}

/** Say that a value does not fit its field, naming whose field it is, the field and the value */
function misfit(t, found, value) {
  const data = { name: found.who, field: found.field, value: String(value) };
  return t(found.type === "number" ? "Notify.NotWhole" : "Notify.Invalid", data);
}

/**
 * Apply edits, [path, value] in order, to a copy of a draft: values as the fields' types want them (a member named
 * by his id or his name), combatants moved between the places in the draft's order. Returns {draft}, or {problem}
 * with one translated line naming the first edit that does not fit. With `keepTyped`, a value that is not of its
 * field's type is kept as it was typed, for the draft's checks to name and the host to show on its field (the page),
 * instead of refused (a chat command).
 */
function applyEdits(draft, edits, t, { keepTyped = false } = {}) {
  const edited = JSON.parse(JSON.stringify(draft)); // a draft is plain JSON; not every host has structuredClone
  const places = new Map();
  for (const [path, value] of edits) {
    const found = target(edited, path, t);
    if (found.problem) return { problem: found.problem };
    const fitting = typed(found.type, isEmpty(value) ? null : value);
    if (!fitting && !(keepTyped && typeof value === "string" && ["number", "boolean"].includes(found.type))) {
      return { problem: misfit(t, found, value) };
    }
    if (found.type === "place") {
      if (!PLACES.includes(value)) return { problem: misfit(t, found, value) };
      places.set(found.place, value);
    } else if (found.type === "member" && !isEmpty(value)) {
      const name = memberName(edited, value);
      if (name === undefined) return { problem: misfit(t, found, value) };
      found.holder[found.key] = name;
    } else {
      found.holder[found.key] = isEmpty(value) ? null : value;
    }
  }
  if (places.size) placeAll(edited, places);
  return { draft: edited };
}

export { STRING_KEYS, applyEdits, draftForm, openerFields, parseValue, PLACES, typed };
