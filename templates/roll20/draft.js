// The draft in chat: started from the selected tokens or the turn order, shown to the GM as a card of its fields
// (common/form.js) with a button to change each, and changed by the `set` commands those buttons send.
import { SIDE_KEYS } from "../common/config.js";
import { applyEdits, draftForm, openerFields, parseValue, placeOf } from "../common/form.js";
import { yesNo } from "../common/format.js";
import { draftScenario, inputsAt, own } from "../common/inputs.js";
import { draftOddsLines, scenarioText } from "../common/session.js";
import { readAttribute, splitSides, tokenName } from "./sheets.js";
import { button, card, COMMAND, HE, number, promptText, STYLE, t } from "./text.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = [
  "Dialog.Cancel", "Dialog.Nobody", "Dialog.Out", "Dialog.Roll", "Dialog.Side.*", "Dialog.Title", "Export.Button",
  "Export.Title", "Notify.Invalid", "Odds.Title", "Procedure.{procedure}", "Roll20.AddOpener", "Roll20.LeaveOut",
  "Roll20.MoveTo", "Roll20.UseSelected"
];

/** Start a draft for the tokens (the selection, else the turn order), on their sides, values read from the sheets */
export function startDraft(procedure, tokens, order) {
  const sides = splitSides(tokens, order);
  const side = (token) => (sides.a.includes(token) ? "a" : "b");
  return draftScenario(procedure, tokens.map((token) => ({
    id: token.id, label: tokenName(token), side: side(token), read: (key, type) => readAttribute(token, key, type),
  })));
}

/** Return a draft without the tokens deleted since it was started */
export function present(draft) {
  const alive = (members) => members.filter((member) => getObj("graphic", member.id));
  const sides = Object.fromEntries(SIDE_KEYS.map((key) => [key, { ...draft.sides[key], members: alive(draft.sides[key].members) }]));
  return { ...draft, sides, out: alive(draft.out) };
}

/** Show a field's value in the script's language (a number as it writes numbers, yes or no in words), a missing one in red */
function shown(field) {
  if (field.value === null) return `<span style="${STYLE.missing}">?</span>`;
  if (field.type === "side") return HE(t(`Dialog.Side.${field.value}`));
  if (typeof field.value === "boolean") return HE(yesNo(field.value, t));
  return HE(typeof field.value === "number" ? number(field.value) : field.value);
}

/** A roll query offering a field's choices by label, sending their values; nobody sends "none" */
const choiceQuery = (prompt, choices) =>
  `?{${promptText(prompt)}|${choices.map((choice) => `${promptText(choice.label)},${choice.id ?? choice.value ?? "none"}`).join("|")}}`;

/** A button that asks for one value with a roll query and sets it with `set` and the flag naming where it lives */
function setButton(field, flag, prompt) {
  const text = `${field.label}: ${prompt}`;
  let query;
  if (field.type === "member") query = choiceQuery(field.label, field.choices);
  else if (field.type === "boolean") query = choiceQuery(text, [{ label: yesNo(true, t), value: "true" }, { label: yesNo(false, t), value: "false" }]);
  else if (field.type === "side") query = choiceQuery(text, field.choices);
  else query = `?{${promptText(text)}|${field.value ?? ""}}`;
  return button("✎", `${COMMAND} set ${flag} --${field.key} ${query}`);
}

/** Buttons that move a token to the other places: side a, side b, out of the fight */
const moveButtons = (combatant) => combatant.placeField.choices.filter((choice) => choice.value !== combatant.place)
  .map((choice) => button(choice.value === "out" ? t("Roll20.LeaveOut") : t("Roll20.MoveTo", { side: choice.label }),
    `${COMMAND} set --token ${combatant.id} --join ${choice.value}`)).join("");

/** What a roll query offers for an opening attack's number before one is set: no bonus, the usual number to hit */
const OPENER_PREFILL = { attack_bonus: 0, target_number: 15 };

/** Describe one declared opening attack, with buttons to change its numbers and to take the selected token */
function openerLine(row, index) {
  const [who, ...numbers] = row;
  const query = numbers.map((field) => `--${field.key} ?{${promptText(field.label)}|${field.value ?? OPENER_PREFILL[field.key] ?? ""}}`);
  return `${HE(who.label)} ${number(index + 1)}: ${who.value ? HE(who.value) : "?"} `
    + `${numbers.map((field) => `${HE(field.label)} ${shown(field)}`).join(" ")} `
    + button("✎", `${COMMAND} set --opener ${index} ${query.join(" ")}`)
    + button(t("Roll20.UseSelected"), `${COMMAND} set --opener ${index} --${who.key} selected`);
}

/** Render the draft for the GM: every value, what is missing, buttons to change any of it or move a token, and Roll */
export function draftCard(draft) {
  const form = draftForm(draft, t);
  const lines = form.encounter.map((field) => `${HE(field.label)}: ${shown(field)} ${setButton(field, "--scenario", "")}`);
  if (form.openers) {
    form.openers.forEach((row, index) => lines.push(openerLine(row, index)));
    lines.push(button(t("Roll20.AddOpener"), `${COMMAND} set --opener ${form.openers.length} --${openerFields(draft.procedure)[0].key} selected`));
  }
  for (const side of form.sides) {
    const values = side.fields.map((field) => (field.type === "member"
      ? `${HE(field.label)}: ${HE(field.value ?? t("Dialog.Nobody"))} ${setButton(field, `--side ${side.key}`, "")}`
      : `${HE(field.label)}: ${shown(field)} ${setButton(field, `--side ${side.key}`, side.label)}`));
    lines.push(`<b>${HE(side.label)}</b> ${values.join(" · ")}`);
    for (const combatant of form.combatants.filter((entry) => entry.place === side.key)) {
      const fields = combatant.fields.map((field) => `${HE(field.label)} ${shown(field)}${setButton(field, `--token ${combatant.id}`, combatant.name)}`);
      lines.push(`${HE(combatant.name)}: ${fields.join(" ")} ${moveButtons(combatant)}`);
    }
  }
  const out = form.combatants.filter((entry) => entry.place === "out");
  if (out.length) {
    lines.push(`<b>${HE(t("Dialog.Out"))}</b>`);
    for (const combatant of out) lines.push(`${HE(combatant.name)} ${moveButtons(combatant)}`);
  }
  lines.push(`<b>${HE(t("Odds.Title"))}</b>`, ...draftOddsLines(present(draft), t).map(HE));
  lines.push(button(t("Dialog.Roll"), `${COMMAND} roll`) + button(t("Dialog.Cancel"), `${COMMAND} clear --draft`)
    + button(t("Odds.Title"), `${COMMAND} odds`) + button(t("Export.Button"), `${COMMAND} export`));
  return card(`${t("Dialog.Title")}: ${t(`Procedure.${draft.procedure}`)}`, lines);
}

/** The draft's exact odds as lines for the GM (who gets the jump, each member's loss), or what is wrong with it */
export const oddsCard = (draft) => card(t("Odds.Title"), draftOddsLines(present(draft), t).map(HE));

/** The draft as a scenario file for `ambush odds` and `ambush simulate`, escaped for chat in a monospaced block */
export function exportCard(draft) {
  try {
    return card(t("Export.Title"), [`<pre style="white-space:pre-wrap;font-size:90%;margin:0;">${HE(scenarioText(present(draft), t))}</pre>`]);
  } catch (error) {
    return card(t("Export.Title"), [HE(error.message)]);
  }
}

/**
 * Turn a `set` command's arguments into edits of the draft: a token's value or place (--token), a side's value
 * (--side), an encounter value (--scenario), or an opening attack (--opener N, --name a token id or "selected").
 * Returns {edits}, or {problem} for a token or a side the draft does not have.
 */
function editsOf(draft, args, selected) {
  if ("opener" in args) {
    const path = `openers.${args.opener}`;
    const [who, ...numbers] = openerFields(draft.procedure);
    const named = args[who?.key] === "selected" ? selected[0]?._id : args[who?.key];
    // Without a token the row is only declared: its attacker stays as it was.
    const edits = [[`${path}.${who?.key}`, named || (own(draft.openers?.[Number(args.opener)], who?.key) ?? null)]];
    for (const field of numbers) if (field.key in args) edits.push([`${path}.${field.key}`, parseValue(field.type, args[field.key])]);
    return { edits };
  }
  const invalid = (what) => ({ problem: t("Notify.Invalid", { name: t("Dialog.Title"), field: String(what) }) });
  if ("token" in args && !placeOf(draft, args.token).member) return invalid(args.token);
  if ("side" in args && !("token" in args) && !SIDE_KEYS.includes(args.side)) return invalid(args.side);
  if ("token" in args && "join" in args) return { edits: [[`place.${args.token}`, args.join]] };
  const [level, prefix] = "token" in args ? ["member", `members.${args.token}.`] : "side" in args ? ["side", `sides.${args.side}.`]
    : ["scenario", ""];
  return { edits: inputsAt(draft.procedure, level).filter((input) => input.key in args)
    .map((input) => [`${prefix}${input.key}`, parseValue(input.type, args[input.key])]) };
}

/** Apply a `set` command to the draft; returns {draft} or {problem} */
export function editDraft(draft, args, selected) {
  const { edits, problem } = editsOf(draft, args, selected);
  return problem ? { problem } : applyEdits(draft, edits, t);
}
