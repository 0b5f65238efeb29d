// The draft in chat: started from the selected tokens or the turn order, shown to the GM in pages of its fields
// (common/form.js), each combatant a button opening his own card, a button to change each value, and changed by the
// `set` commands those buttons send.
import { SIDE_KEYS } from "../common/config.js";
import { placeOf } from "../common/draft-combatants.js";
import { applyEdits, draftForm, openerFields, parseValue } from "../common/form.js";
import { label, list, yesNo } from "../common/format.js";
import { draftFromCombatants, inputsAt, ownValue } from "../common/draft.js";
import { draftOddsLines, scenarioText } from "../common/session.js";
import { readAttribute, splitSides, tokenName, unreadReason } from "./sheets.js";
import {
  button, card, COMMAND, HE, language, markup, number, promptText, shortName, STYLE, t, textLines, utf8Length,
} from "./text.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = [
  "Dialog.Cancel", "Dialog.Encounter", "Dialog.Nobody", "Dialog.Out", "Dialog.Roll", "Dialog.Side.*", "Dialog.Title", "Export.Button",
  "Export.Title", "Format.Count", "Format.Label", "Format.Named", "Notify.Invalid", "Odds.Title", "Procedure.{procedure}",
  "Roll20.AddOpener", "Roll20.LeaveOut", "Roll20.Unknown.Give", "Roll20.Unknown.Line", "Roll20.Unknown.Mark",
  "Roll20.Unknown.NotGiven",
  "Roll20.MoveTo", "Roll20.ShowDraft", "Roll20.UseSelected"
];

/** Start a draft for the tokens (the selection, else the turn order), on their sides, values read from the sheets */
export function startDraft(procedure, tokens, order) {
  const sides = splitSides(tokens, order);
  const side = (token) => (sides.a.includes(token) ? "a" : "b");
  return draftFromCombatants(procedure, tokens.map((token) => ({
    id: token.id, label: tokenName(token), side: side(token), read: (key, type) => readAttribute(token, key, type),
  })));
}

/** Return a draft without the tokens deleted since it was started */
export function present(draft) {
  const alive = (members) => members.filter((member) => getObj("graphic", member.id));
  const sides = Object.fromEntries(SIDE_KEYS.map((key) => [key, { ...draft.sides[key], members: alive(draft.sides[key].members) }]));
  return { ...draft, sides, out: alive(draft.out) };
}

/** How many combatants of each place (side a, side b, out of the fight) and opening attacks a page of the draft shows */
export const PAGE_SIZE = 10;

/**
 * Show a field's value in the script's language (a number as it writes numbers, yes or no in words; a name shortened):
 * a value the roll still needs as a red ?, which the card explains (unknownLines); nobody for a member nobody is; a
 * dash for a value no one needs, where another stands for it (AD&D's adjustment given instead of Dexterity)
 */
function shown(field) {
  if (field.value === null && field.problem) return unknown();
  if (field.value === null) return HE(field.type === "member" ? t("Dialog.Nobody") : "–");
  if (field.type === "side") return HE(t(`Dialog.Side.${field.value}`));
  if (typeof field.value === "boolean") return HE(yesNo(field.value, t));
  return HE(typeof field.value === "number" ? number(field.value) : shortName(field.value));
}

/** The mark of a value the roll still needs, in red */
const unknown = () => `<span style="${STYLE.missing}">${HE(t("Roll20.Unknown.Mark"))}</span>`;

/** Why a member's sheet gave no value for an input: what it holds that could not be read, or null */
function unreadWhy(draft, id, key) {
  const unread = id === null ? undefined : placeOf(draft, id).member?.unread;
  const token = Array.isArray(unread) && unread.includes(key) ? getObj("graphic", id) : null;
  return token ? unreadReason(token, key) : null;
}

/**
 * Say what each value shown as ? is and why it is wanted, once per reason: what the sheet holds that could not be
 * read (the attribute and its text, the row without a point, the two values that disagree), or that no one gave it
 * yet; then how to give one. `owners`: {name, id (null for the encounter or a side), fields} whose values the card shows.
 */
function unknownLines(draft, owners) {
  const reasons = new Map();
  for (const { name, id, fields } of owners) {
    for (const field of fields.filter((entry) => entry.value === null && entry.problem)) {
      const why = unreadWhy(draft, id, field.key) ?? t("Roll20.Unknown.NotGiven");
      const reason = reasons.get(why) ?? { fields: new Set(), names: new Set() };
      reason.fields.add(field.label);
      reason.names.add(shortName(name));
      reasons.set(why, reason);
    }
  }
  if (!reasons.size) return [];
  const mark = t("Roll20.Unknown.Mark");
  return textLines([...[...reasons].map(([why, { fields, names }]) => t("Roll20.Unknown.Line",
    { mark, fields: list([...fields], language()), names: list([...names], language()), why })), t("Roll20.Unknown.Give", { mark })]);
}

/** A roll query offering a field's choices by label, sending their values; nobody sends "none" */
const choiceQuery = (prompt, choices) =>
  `?{${promptText(prompt)}|${choices.map((choice) => `${promptText(shortName(choice.label))},${choice.id ?? choice.value ?? "none"}`).join("|")}}`;

/**
 * A button that asks for one value with a roll query and sets it with `set` and the flags naming where it lives; a
 * member field offers nobody and the `members` given (those the page shows), never the whole draft
 */
function setButton(field, flag, prompt, members = []) {
  const text = label(t, field.label, shortName(prompt));
  let query;
  if (field.type === "member") query = choiceQuery(field.label, field.choices.filter((choice) => choice.value === null || members.includes(choice.id)));
  else if (field.type === "boolean") query = choiceQuery(text, [{ label: yesNo(true, t), value: "true" }, { label: yesNo(false, t), value: "false" }]);
  else if (field.type === "side") query = choiceQuery(text, field.choices);
  else query = `?{${promptText(text)}|${field.value ?? ""}}`;
  return button("✎", `${COMMAND} set ${flag} --${field.key} ${query}`);
}

/** Buttons that move a token to the other places: side a, side b, out of the fight */
const moveButtons = (combatant) => combatant.placeField.choices.filter((choice) => choice.value !== combatant.place)
  .map((choice) => button(choice.value === "out" ? t("Roll20.LeaveOut") : t("Roll20.MoveTo", { side: choice.label }),
    `${COMMAND} set --token ${combatant.id} --join ${choice.value}`)).join("");

/** What a roll query offers for an opening attack's number before one is set: the rules module's prefill (config.js) */
const openerPrefill = (procedure, key) => openerFields(procedure).find((input) => input.key === key)?.prefill ?? "";

/** An opening attack's fields as the roll needs them: every one of them, so that an empty one is a ? */
const openerNeeds = (row) => row.map((field) => (field.value === null ? { ...field, problem: field.problem ?? field.key } : field));

/** An opening attack's name: "Opening attacker 2" */
const openerName = (row, index) => markup("Format.Named", { label: HE(row[0].label), value: number(index + 1) });

/** Describe one declared opening attack, with buttons to change its numbers and to take the selected token */
function openerLine(row, index, page, procedure) {
  const [who, ...numbers] = openerNeeds(row);
  const query = numbers.map((field) => `--${field.key} ?{${promptText(field.label)}|${field.value ?? openerPrefill(procedure, field.key)}}`);
  const attacker = who.value ? HE(shortName(who.value)) : unknown();
  return `${[markup("Format.Label", { label: openerName(row, index), value: attacker }), ...numbers.map(valueText)].join(" · ")} `
    + button("✎", `${COMMAND} set --page ${page} --opener ${index} ${query.join(" ")}`)
    + button(t("Roll20.UseSelected"), `${COMMAND} set --page ${page} --opener ${index} --${who.key} selected`);
}

/** The combatants of a form in one place: side a, side b or out of the fight */
const placed = (form, place) => form.combatants.filter((entry) => entry.place === place);

/** How many pages the draft takes: its longest list of combatants in one place, or of opening attacks */
const pageCount = (form) => Math.max(1, ...[...SIDE_KEYS, "out"].map((place) => Math.ceil(placed(form, place).length / PAGE_SIZE)),
  Math.ceil((form.openers?.length ?? 0) / PAGE_SIZE));

/** Read a page number from chat: a whole number from 1 to the last page, else the first page */
const pageNumber = (text, pages) => (/^\d{1,6}$/.test(String(text ?? "").trim()) ? Math.min(Math.max(Number(text), 1), pages) : 1);

/** The page of the draft that shows a combatant: his place's list, PAGE_SIZE to a page */
function pageWith(form, id) {
  const entry = form.combatants.find((combatant) => combatant.id === id);
  return entry ? Math.floor(placed(form, entry.place).indexOf(entry) / PAGE_SIZE) + 1 : 1;
}

/** The first line of the draft's odds: who gets the jump, or what is wrong with the draft */
const headline = (draft) => draftOddsLines(present(draft), t)[0];

/** A combatant as one line of the draft's page: a button with his name that opens his card, then his values */
const memberLine = (combatant) => `${button(shortName(combatant.name), `${COMMAND} draft --token ${combatant.id}`)} `
  + combatant.fields.map(valueText).join(" · ");

/** A value of the draft with its label: "IQ: 12", in Chinese "IQ：12" */
const valueText = (field) => markup("Format.Label", { label: HE(field.label), value: shown(field) });

/** A value of the draft with its label, and a button that changes it */
const fieldLine = (field, flag, prompt, members) => `${valueText(field)} ${setButton(field, flag, prompt, members)}`;

/** A place's name in bold with how many stand there: "Side A (friendly) (3)" */
const placeHeading = (name, count) => markup("Format.Count", { label: `<b>${HE(name)}</b>`, count: number(count) });

/**
 * Render one page of the draft for the GM, the page asked for or the one that shows the combatant `showing`: the
 * encounter's and each side's values with a button to change each, the page's combatants of each place with a button
 * that opens each one's card, who gets the jump, the pages, and Roll. Every page holds PAGE_SIZE combatants of each
 * place at most, so that a card stays within a chat message however many take part (docs/dev/roll20.md §6.1).
 */
export function draftCard(draft, page = 1, showing = null) {
  const form = draftForm(draft, t);
  const pages = pageCount(form);
  const at = showing === null ? pageNumber(page, pages) : pageWith(form, showing);
  const shownHere = (list) => list.slice((at - 1) * PAGE_SIZE, at * PAGE_SIZE);
  const ids = (place) => shownHere(placed(form, place)).map((entry) => entry.id);
  const lines = form.encounter.map((field) => fieldLine(field, `--scenario --page ${at}`, "", ids("a")));
  const openers = (form.openers ?? []).map((row, index) => ({ row, index })).filter(({ index }) => Math.floor(index / PAGE_SIZE) + 1 === at);
  if (form.openers) {
    lines.push(...openers.map(({ row, index }) => openerLine(row, index, at, draft.procedure)));
    lines.push(button(t("Roll20.AddOpener"), `${COMMAND} set --page ${at} --opener ${form.openers.length} --${openerFields(draft.procedure)[0].key} selected`));
  }
  for (const side of form.sides) {
    const values = side.fields.map((field) => fieldLine(field, `--side ${side.key} --page ${at}`, side.label, ids(side.key)));
    lines.push(`${placeHeading(side.label, placed(form, side.key).length)} ${values.join(" · ")}`);
    lines.push(...shownHere(placed(form, side.key)).map(memberLine));
  }
  const out = placed(form, "out");
  if (out.length) {
    lines.push(placeHeading(t("Dialog.Out"), out.length));
    lines.push(...shownHere(out).map(memberLine));
  }
  const inPlace = [...SIDE_KEYS, "out"].flatMap((place) => shownHere(placed(form, place)));
  lines.push(...unknownLines(draft, [{ name: t("Dialog.Encounter"), id: null, fields: form.encounter },
    ...openers.map(({ row, index }) => ({ name: t("Format.Named", { label: row[0].label, value: index + 1 }), id: null, fields: openerNeeds(row) })),
    ...form.sides.map((side) => ({ name: side.label, id: null, fields: side.fields })),
    ...inPlace.map((combatant) => ({ name: combatant.name, id: combatant.id, fields: combatant.fields }))]));
  lines.push(...textLines([headline(draft)]));
  if (pages > 1) {
    lines.push([at > 1 ? button("◂", `${COMMAND} draft --page ${at - 1}`) : "", `${at}/${pages}`,
      at < pages ? button("▸", `${COMMAND} draft --page ${at + 1}`) : ""].join(" "));
  }
  lines.push(button(t("Dialog.Roll"), `${COMMAND} roll`) + button(t("Dialog.Cancel"), `${COMMAND} clear --draft`)
    + button(t("Odds.Title"), `${COMMAND} odds`) + button(t("Export.Button"), `${COMMAND} export`));
  return card(label(t, t("Dialog.Title"), t(`Procedure.${draft.procedure}`)), lines);
}

/**
 * Render one combatant's card: where he stands with buttons to move him, each of his values with a button to change
 * it, what is wrong with them, who gets the jump, and a button back to his page of the draft
 */
export function memberCard(draft, id) {
  const form = draftForm(draft, t);
  const combatant = form.combatants.find((entry) => entry.id === id);
  if (!combatant) return card(t("Dialog.Title"), textLines([t("Notify.Invalid", { name: t("Dialog.Title"), field: String(id) })]));
  const place = combatant.placeField.choices.find((choice) => choice.value === combatant.place);
  const lines = [`<b>${HE(place.label)}</b> ${moveButtons(combatant)}`,
    ...combatant.fields.map((field) => fieldLine(field, `--token ${id}`, combatant.name)),
    ...unknownLines(draft, [{ name: combatant.name, id, fields: combatant.fields }]),
    ...textLines([...combatant.fields.map((field) => field.problem).filter(Boolean), headline(draft)]),
    button(t("Roll20.ShowDraft"), `${COMMAND} draft --page ${pageWith(form, id)}`)];
  return card(label(t, t("Dialog.Title"), shortName(combatant.name, 60)), lines);
}

/** The draft's exact odds as lines for the GM (who gets the jump, each member's loss), or what is wrong with it */
export const oddsCard = (draft) => card(t("Odds.Title"), textLines(draftOddsLines(present(draft), t)));

/** The most bytes of the scenario file one message of the export card holds, escaped */
const EXPORT_BYTES = 12000;

/**
 * The draft as a scenario file for `ambush odds` and `ambush simulate`, escaped for chat in monospaced blocks: one
 * block to a message, each holding whole lines of the file as far as they fit (a line longer than a block, only of
 * an enormous name, goes on in the next)
 */
export function exportCard(draft) {
  let text;
  try {
    text = scenarioText(present(draft), t);
  } catch (error) {
    return card(t("Export.Title"), textLines([error.message]));
  }
  const blocks = [];
  let [block, used] = [null, 0];
  for (const line of text.split("\n")) {
    for (const piece of textLines([line], EXPORT_BYTES)) {
      const size = utf8Length(piece);
      if (block !== null && used + size + 4 <= EXPORT_BYTES) {
        block += `<br>${piece}`;
        used += size + 4;
      } else {
        if (block !== null) blocks.push(block);
        [block, used] = [piece, size];
      }
    }
  }
  blocks.push(block);
  return card(t("Export.Title"), blocks.map((html) => `<pre style="white-space:pre-wrap;font-size:90%;margin:0;">${html}</pre>`));
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
    const edits = [[`${path}.${who?.key}`, named || (ownValue(draft.openers?.[Number(args.opener)], who?.key) ?? null)]];
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
