// The draft as the page shows it: the procedure, the scenario file (open, paste, export), the encounter's values, the
// opening attacks, each side's values and every combatant with every input the procedure reads, and the odds beside
// them, recomputed at every edit as in the Foundry dialog. Each control has a real <label>; what is wrong with a value
// is said next to it, and tied to it for a screen reader.
import { PROCEDURES, SIDE_KEYS } from "../common/config.js";
import { yesNo } from "../common/format.js";
import { draftForm, parseValue } from "../common/form.js";
import { draftOddsLines } from "../common/session.js";
import { el, idOf } from "./dom.js";
import { t } from "./i18n.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [
  "Dialog.Unread", "Export.Button", "Odds.Title", "Procedure.{procedure}", "Web.AddTo", "Web.Combatants",
  "Web.File.Choose", "Web.File.Paste", "Web.File.Read", "Web.File.Title", "Web.Name", "Web.Opener", "Web.Place",
  "Dialog.ChooseProcedure", "Web.Prepare", "Web.Remove", "Web.SideName",
];

/** The rows of opening attacks offered past those declared */
const SPARE_OPENERS = 1;

/** Return a select of choices, one selected; a choice of nobody has the empty value */
function select(attributes, choices, value) {
  return el("select", attributes, choices.map((choice) => el("option", {
    value: choice.value ?? "", selected: (choice.value ?? "") === (value ?? ""), text: choice.label,
  })));
}

/** The choices of a yes-or-no value nobody has given yet: no answer, yes, no */
const unreadChoices = () => [{ value: null, label: t("Dialog.Unread") }, { value: "true", label: yesNo(true, t) },
  { value: "false", label: yesNo(false, t) }];

/** Render one field of the draft: its label, its control named by its path, and what is wrong with its value */
function control(field, label = field.label) {
  const id = idOf("f", field.path);
  const problem = idOf("p", field.path);
  const common = { id, "data-path": field.path, "data-type": field.type, "aria-describedby": problem,
    "aria-invalid": field.problem ? "true" : null };
  let input;
  if (field.type === "boolean" && field.value === null) input = select(common, unreadChoices(), null);
  else if (field.type === "boolean") input = el("input", { ...common, type: "checkbox", checked: Boolean(field.value) });
  else if (field.choices) input = select(common, field.choices, field.value);
  else input = el("input", { ...common, type: "text", inputmode: "numeric", autocomplete: "off", value: field.value ?? "" });
  return el("div", { class: `field field-${field.type}` }, el("label", { for: id, text: label }), input,
    el("span", { id: problem, class: "problem", text: field.problem ?? "" }));
}

/** Read a control back as the value its field wants: a boolean, a whole number, a choice, null for none, else text */
function readControl(element) {
  const type = element.dataset.type;
  if (type === "boolean") return element.type === "checkbox" ? element.checked : { true: true, false: false }[element.value] ?? null;
  if (element.tagName === "SELECT") return element.value === "" ? null : element.value;
  return parseValue(type, element.value);
}

/** Render the scenario file's controls: open a file, paste one, export the draft as one */
const fileControls = () => el("fieldset", { class: "file" }, el("legend", { text: t("Web.File.Title") }),
  el("div", { class: "field" }, el("label", { for: "file-open", text: t("Web.File.Choose") }),
    el("input", { id: "file-open", type: "file", accept: ".toml,text/plain", "data-action": "open-file" })),
  el("div", { class: "field field-wide" }, el("label", { for: "file-text", text: t("Web.File.Paste") }),
    el("textarea", { id: "file-text", rows: 4, spellcheck: "false" })),
  el("div", { class: "buttons" },
    el("button", { type: "button", "data-action": "read-file", text: t("Web.File.Read") }),
    el("button", { type: "button", "data-action": "export-file", text: t("Export.Button") })),
  el("p", { id: "file-problem", class: "problem", role: "alert" }));

/** Render one combatant: his name, where he stands, every value the procedure reads of him, and a remove button */
function combatantBox(combatant) {
  const nameId = idOf("name", combatant.id);
  return el("fieldset", { class: `combatant place-${combatant.place}` },
    el("legend", { text: combatant.name }),
    el("div", { class: "field" }, el("label", { for: nameId, text: t("Web.Name") }),
      el("input", { id: nameId, type: "text", value: combatant.name, "data-rename": combatant.id, autocomplete: "off" })),
    control(combatant.placeField, t("Web.Place")),
    combatant.fields.map((field) => control(field)),
    el("div", { class: "buttons" }, el("button", { type: "button", "data-remove": combatant.id,
      "aria-label": `${t("Web.Remove")}: ${combatant.name}`, text: t("Web.Remove") })));
}

/** Render the draft's form: procedure, file, encounter, opening attacks, sides, combatants */
function renderForm(draft) {
  const form = draftForm(draft, t, { openerRows: (draft.openers?.length ?? 0) + SPARE_OPENERS });
  const procedures = PROCEDURES.map((procedure) => ({ value: procedure.id, label: t(`Procedure.${procedure.id}`) }));
  const parts = [
    el("h2", { text: t("Web.Prepare") }),
    el("div", { class: "field field-wide" }, el("label", { for: "procedure", text: t("Dialog.ChooseProcedure") }),
      select({ id: "procedure", "data-action": "procedure" }, procedures, draft.procedure)),
    fileControls(),
  ];
  if (form.encounter.length) parts.push(el("div", { class: "group" }, form.encounter.map((field) => control(field))));
  for (const [index, row] of (form.openers ?? []).entries()) {
    parts.push(el("fieldset", { class: "group" }, el("legend", { text: t("Web.Opener", { number: index + 1 }) }),
      row.map((field) => control(field))));
  }
  for (const side of form.sides) {
    const nameId = `side-name-${side.key}`;
    parts.push(el("fieldset", { class: `side side-${side.key}` }, el("legend", { text: side.label }),
      el("div", { class: "field" }, el("label", { for: nameId, text: t("Web.SideName") }),
        el("input", { id: nameId, type: "text", value: draft.sides[side.key].name ?? "", "data-side-name": side.key, autocomplete: "off" })),
      side.fields.map((field) => control(field))));
  }
  parts.push(el("h3", { text: t("Web.Combatants") }));
  parts.push(el("div", { class: "combatants" }, form.combatants.map(combatantBox)));
  parts.push(el("div", { class: "buttons" }, SIDE_KEYS.map((key) => el("button", { type: "button", "data-add": key,
    text: t("Web.AddTo", { side: t(`Dialog.Side.${key}`) }) }))));
  return parts;
}

/** Update what is wrong with each value without rendering the form again (the control being typed in keeps its focus) */
function updateProblems(root, draft) {
  const form = draftForm(draft, t, { openerRows: (draft.openers?.length ?? 0) + SPARE_OPENERS });
  const fields = [...form.encounter, ...(form.openers ?? []).flat(), ...form.sides.flatMap((side) => side.fields),
    ...form.combatants.flatMap((combatant) => [combatant.placeField, ...combatant.fields])];
  for (const field of fields) {
    const problem = root.ownerDocument.getElementById(idOf("p", field.path));
    if (problem) problem.textContent = field.problem ?? "";
    root.ownerDocument.getElementById(idOf("f", field.path))?.setAttribute("aria-invalid", field.problem ? "true" : "false");
  }
}

/** Fill the odds box for a draft, timing the computation (performance.now(), kept on the box as data-ms) */
function renderOdds(box, draft) {
  const started = performance.now();
  const lines = draftOddsLines(draft, t);
  const took = performance.now() - started;
  box.replaceChildren(el("h2", { text: t("Odds.Title") }), ...lines.map((line) => el("p", { text: line })));
  box.dataset.ms = took.toFixed(3);
}

export { STRING_KEYS, readControl, renderForm, renderOdds, updateProblems };
