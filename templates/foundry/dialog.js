// The GM's surprise dialog: the draft's fields (common/form.js) rendered as a form, its odds shown live as the GM
// edits, and the form read back as edits of the draft.
import { PROCEDURES } from "../common/config.js";
import { label, yesNo } from "../common/format.js";
import { applyEdits, draftForm } from "../common/form.js";
import { draftOddsLines } from "../common/session.js";
import { exportScenario, resolveSurprise } from "./actions.js";
import { escapeHtml } from "./chat.js";
import { draftOf } from "./sheets.js";
import { localize, t } from "./i18n.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = [
  "Dialog.Cancel", "Dialog.ChooseProcedure", "Dialog.Roll", "Dialog.Skip", "Dialog.Title", "Dialog.Unread", "Export.Button", "Notify.GMOnly", "Notify.NoCombat", "Odds.Title", "Procedure.{procedure}"
];

/** What the dialog returns when the GM, beginning a combat, skips the surprise */
export const SKIPPED = "skip";

/** The button that skips the surprise, offered as a combat begins */
const skipButton = () => ({ action: SKIPPED, label: localize("Dialog.Skip") });

const { DialogV2 } = foundry.applications.api;

/** The rows of opening attacks the dialog offers to declare */
const OPENER_ROWS = 3;
const ODDS_BOX = "ambush-odds";
const EXPORT_BUTTON = "ambush-export";

/** Render a select of choices, one of them selected; a choice of nobody has the empty value */
function select(name, choices, value) {
  const options = choices.map((choice) => {
    const key = choice.value ?? "";
    return `<option value="${escapeHtml(key)}" ${key === (value ?? "") ? "selected" : ""}>${escapeHtml(choice.label)}</option>`;
  });
  return `<select name="${escapeHtml(name)}">${options.join("")}</select>`;
}

/** The choices of a yes-or-no value not read from the sheet: no answer yet, yes, no */
const unreadChoices = () => [{ value: null, label: localize("Dialog.Unread") }, { value: "true", label: yesNo(true, t) },
  { value: "false", label: yesNo(false, t) }];

/**
 * Render one field of the draft as a form control named by its path, with its label. A yes-or-no value is a checkbox,
 * or, while it has none (the sheet could not give it), a choice that starts unanswered: an unticked box would say no.
 */
function control(field) {
  const label = escapeHtml(field.label);
  if (field.type === "boolean" && field.value === null) return `<label>${label} ${select(field.path, unreadChoices(), null)}</label>`;
  if (field.type === "boolean") {
    return `<label>${label} <input type="checkbox" name="${escapeHtml(field.path)}" ${field.value ? "checked" : ""}></label>`;
  }
  if (field.choices) return `<label>${label} ${select(field.path, field.choices, field.value)}</label>`;
  const shown = field.value === null ? "" : escapeHtml(String(field.value));
  return `<label>${label} <input type="number" name="${escapeHtml(field.path)}" value="${shown}" step="1"></label>`;
}

/** Render the form of a draft: the encounter's values, the opening attacks, each side's values, then every combatant */
function formHtml(draft) {
  const form = draftForm(draft, t, { openerRows: OPENER_ROWS });
  const parts = form.encounter.map(control);
  for (const row of form.openers?.slice(0, OPENER_ROWS) ?? []) parts.push(`<div class="form-group">${row.map(control).join(" ")}</div>`);
  for (const side of form.sides) {
    if (side.fields.length) parts.push(`<fieldset><legend>${escapeHtml(side.label)}</legend>${side.fields.map(control).join(" ")}</fieldset>`);
  }
  for (const combatant of form.combatants) {
    const place = select(combatant.placeField.path, combatant.placeField.choices, combatant.place);
    parts.push(`<div class="form-group"><strong>${escapeHtml(combatant.name)}</strong> ${place} ${combatant.fields.map(control).join(" ")}</div>`);
  }
  return parts.join("");
}

/** Read a control back as the value its field wants: undefined when the form has no such control */
function readControl(form, field) {
  const element = form.elements[field.path];
  if (!element) return undefined;
  if (field.type === "boolean") return element.type === "checkbox" ? Boolean(element.checked) : { true: true, false: false }[element.value] ?? null;
  if (element.value === "") return null;
  return field.type === "number" ? Number(element.value) : String(element.value);
}

/** Read the form back into the draft it was rendered from: every field an edit. Returns {draft} or {problem} */
function readForm(form, start) {
  const fields = draftForm(start, t, { openerRows: OPENER_ROWS });
  const all = [...fields.encounter, ...(fields.openers?.slice(0, OPENER_ROWS).flat() ?? []),
    ...fields.sides.flatMap((side) => side.fields),
    ...fields.combatants.flatMap((combatant) => [combatant.placeField, ...combatant.fields])];
  const edits = all.map((field) => [field.path, readControl(form, field)])
    .filter(([path, value]) => value !== undefined || !path.startsWith("place."));
  return applyEdits(start, edits, t);
}

/** Render the odds box (filled in as the GM edits) and the export button, below the form's fields */
const oddsHtml = () => `<fieldset><legend>${escapeHtml(localize("Odds.Title"))}</legend><div class="${ODDS_BOX}"></div></fieldset>`
  + `<button type="button" class="${EXPORT_BUTTON}">${escapeHtml(localize("Export.Button"))}</button>`;

/** Return the lines the odds box shows for the form: who gets the jump and each member's loss, or what is wrong */
function oddsText(form, start) {
  const { draft, problem } = readForm(form, start);
  return problem ? [problem] : draftOddsLines(draft, t);
}

/**
 * Show the odds live in a rendered dialog: read the form back on every change and recompute. The V13 render callback
 * gets the DialogV2 (its form inside its element); V12's got the element itself.
 */
function watchOdds(dialog, start) {
  const root = dialog?.element ?? dialog;
  const form = root?.querySelector?.("form") ?? dialog?.form;
  const box = root?.querySelector?.(`.${ODDS_BOX}`);
  if (!form || !box) return;
  const update = () => {
    box.replaceChildren(...oddsText(form, start).map((line) => {
      const paragraph = box.ownerDocument.createElement("p");
      paragraph.textContent = line;
      return paragraph;
    }));
  };
  form.addEventListener("change", update);
  form.addEventListener("input", update);
  root.querySelector(`.${EXPORT_BUTTON}`)?.addEventListener("click", () => {
    try {
      const { draft, problem } = readForm(form, start);
      if (problem) throw new Error(problem);
      exportScenario(draft, { download: true });
    } catch (error) {
      ui.notifications.warn(error.message);
    }
  });
  update();
}

/** Ask which procedure to use when the system has several; as a combat begins, skipping is offered too */
async function chooseProcedure(beginning) {
  if (PROCEDURES.length === 1) return PROCEDURES[0].id;
  return DialogV2.wait({
    window: { title: localize("Dialog.Title") },
    content: `<p>${escapeHtml(localize("Dialog.ChooseProcedure"))}</p>`,
    buttons: [...PROCEDURES.map((procedure, index) => ({
      action: procedure.id, label: localize(`Procedure.${procedure.id}`), default: index === 0,
    })), ...(beginning ? [skipButton()] : [])],
    rejectClose: false,
  });
}

/** Read the form when the GM rolls: the edited draft, or null after saying what is wrong */
function rolled(form, start) {
  const { draft, problem } = readForm(form, start);
  if (problem) ui.notifications.warn(problem);
  return draft ?? null;
}

/**
 * Open the GM dialog: pick the procedure, set the sides and review the values read from the sheets, then resolve.
 * Returns the outcome, or null when nothing was rolled; with `beginning` (a combat about to begin, start.js) the GM may
 * also skip the surprise, and SKIPPED is returned.
 */
export async function openSurpriseDialog(combat = game.combat, { beginning = false } = {}) {
  if (!game.user.isGM) return ui.notifications.warn(localize("Notify.GMOnly"));
  if (!combat) return ui.notifications.warn(localize("Notify.NoCombat"));
  const procedure = await chooseProcedure(beginning);
  if (!procedure || procedure === SKIPPED) return procedure ?? null;
  const start = draftOf(combat, procedure);
  const draft = await DialogV2.wait({
    window: { title: label(t, localize("Dialog.Title"), localize(`Procedure.${procedure}`)) },
    content: formHtml(start) + oddsHtml(),
    render: (event, dialog) => watchOdds(dialog, start),
    buttons: [
      { action: "roll", label: localize("Dialog.Roll"), default: true, callback: (event, button) => rolled(button.form, start) },
      ...(beginning ? [skipButton()] : []),
      { action: "cancel", label: localize("Dialog.Cancel") },
    ],
    rejectClose: false,
  });
  if (draft === SKIPPED) return SKIPPED;
  if (!draft || draft === "cancel") return null;
  return resolveSurprise(draft, combat);
}
