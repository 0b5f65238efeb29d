// The draft as the page shows it: the procedure, the scenario file (open, paste, export), the encounter's values, the
// opening attacks, each side's values and every combatant with every input the procedure reads, and the odds beside
// them, recomputed at every edit as in the Foundry dialog. Each control has a real <label>; what is wrong with a value
// is said next to it, tied to it for a screen reader and read out as it appears. A combatant whose values did not
// change is described by the same object as before, which the page then leaves alone (vdom.js).
import { PROCEDURES, SIDE_KEYS } from "../common/config.js";
import { everyone } from "../common/draft-combatants.js";
import { label, yesNo } from "../common/format.js";
import { draftForm, parseValue } from "../common/form.js";
import { draftOddsLines } from "../common/session.js";
import { idOf } from "./dom.js";
import { language, t } from "./i18n.js";
import { h } from "./vdom.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [
  "Dialog.Unread", "Export.Button", "Notify.Missing", "Notify.Twice", "Odds.Title", "Procedure.{procedure}",
  "Web.AddTo", "Web.Combatants", "Web.File.Choose", "Web.File.Paste", "Web.File.Read", "Web.File.Title", "Web.Name",
  "Web.Opener", "Input.place", "Dialog.ChooseProcedure", "Web.Prepare", "Web.Remove", "Web.SideName",
];

/** The rows of opening attacks offered past those declared */
const SPARE_OPENERS = 1;

/** Return a select of choices, one selected; a choice of nobody has the empty value */
function select(attributes, choices, value) {
  return h("select", { ...attributes, value: value ?? "" }, choices.map((choice) => h("option", {
    value: choice.value ?? "", text: choice.label,
  })));
}

/** The choices of a yes-or-no value nobody has given yet: no answer, yes, no */
const unreadChoices = () => [{ value: null, label: t("Dialog.Unread") }, { value: "true", label: yesNo(true, t) },
  { value: "false", label: yesNo(false, t) }];

/** Render a problem beside its control: empty until there is one, then read out (aria-live) */
const problemLine = (id, problem) => h("span", { id, class: "problem", "aria-live": "polite", text: problem ?? "" });

/** Render one field of the draft: its label, its control named by its path, and what is wrong with its value */
function control(field, label = field.label) {
  const id = idOf("f", field.path);
  const problem = idOf("p", field.path);
  const common = { id, "data-path": field.path, "data-type": field.type, "aria-describedby": problem,
    "aria-invalid": field.problem ? "true" : null };
  let input;
  if (field.type === "boolean" && field.value === null) input = select(common, unreadChoices(), null);
  else if (field.type === "boolean") input = h("input", { ...common, type: "checkbox", checked: Boolean(field.value) });
  else if (field.choices) input = select(common, field.choices, field.value);
  else input = h("input", { ...common, type: "text", inputmode: "numeric", autocomplete: "off", value: field.value ?? "" });
  return h("div", { class: `field field-${field.type}` }, h("label", { for: id, text: label }), input,
    problemLine(problem, field.problem));
}

/** Read a control back as the value its field wants: a boolean, a whole number, a choice, null for none, else text */
function readControl(element) {
  const type = element.dataset.type;
  if (type === "boolean") return element.type === "checkbox" ? element.checked : { true: true, false: false }[element.value] ?? null;
  if (element.tagName === "SELECT") return element.value === "" ? null : element.value;
  return parseValue(type, element.value);
}

/** Render the scenario file's controls: open a file, paste one, export the draft as one; what was wrong with the last */
const fileControls = (problem) => h("fieldset", { class: "file" }, h("legend", { text: t("Web.File.Title") }),
  h("div", { class: "field" }, h("label", { for: "file-open", text: t("Web.File.Choose") }),
    h("input", { id: "file-open", type: "file", accept: ".toml,text/plain", "data-action": "open-file" })),
  h("div", { class: "field field-wide" }, h("label", { for: "file-text", text: t("Web.File.Paste") }),
    h("textarea", { id: "file-text", rows: 4, spellcheck: "false" })),
  h("div", { class: "buttons" },
    h("button", { type: "button", "data-action": "read-file", text: t("Web.File.Read") }),
    h("button", { type: "button", "data-action": "export-file", text: t("Export.Button") })),
  h("p", { id: "file-problem", class: "problem", role: "alert", text: problem }));

/** Return what is wrong with each combatant's name: none given, or given to another too */
function nameProblems(draft) {
  const counts = new Map();
  for (const [, member] of everyone(draft)) counts.set(member.name.trim(), (counts.get(member.name.trim()) ?? 0) + 1);
  return new Map(everyone(draft).map(([, member]) => {
    const name = member.name.trim();
    const problem = !name ? t("Notify.Missing", { name: "?", field: t("Web.Name") })
      : counts.get(name) > 1 ? t("Notify.Twice", { name }) : null;
    return [member.id, problem];
  }));
}

/** Render one combatant: his name, where he stands, every value the procedure reads of him, and a remove button */
function combatantBox(combatant, nameProblem) {
  const nameId = idOf("name", combatant.id);
  const problemId = idOf("pn", combatant.id);
  return h("fieldset", { key: `combatant ${combatant.id}`, class: `combatant place-${combatant.place}` },
    h("legend", { text: combatant.name }),
    h("div", { class: "field" }, h("label", { for: nameId, text: t("Web.Name") }),
      h("input", { id: nameId, type: "text", value: combatant.name, "data-rename": combatant.id, autocomplete: "off",
        "aria-describedby": problemId, "aria-invalid": nameProblem ? "true" : null }),
      problemLine(problemId, nameProblem)),
    control(combatant.placeField, t("Input.place")),
    combatant.fields.map((field) => control(field)),
    h("div", { class: "buttons" }, h("button", { type: "button", "data-remove": combatant.id,
      "aria-label": label(t, t("Web.Remove"), combatant.name), text: t("Web.Remove") })));
}

/**
 * Return a form renderer that remembers each combatant's description: a combatant whose fields, name and problems
 * are as before gets the same description, which the page does not look at again
 */
function formRenderer() {
  const boxes = new Map();
  let last = { draft: null, language: null, parts: null };

  /** Describe a combatant, the same object as last time where nothing of his changed */
  function box(combatant, nameProblem) {
    const signature = JSON.stringify([language(), combatant, nameProblem]);
    const kept = boxes.get(combatant.id);
    if (kept?.signature === signature) return kept.vnode;
    const vnode = combatantBox(combatant, nameProblem);
    boxes.set(combatant.id, { signature, vnode });
    return vnode;
  }

  /**
   * Render the draft's form, once per draft: {top} the title and the procedure, {rest} the encounter, the opening
   * attacks, the sides and the combatants (the scenario file's controls go between them, fileControls)
   */
  return function renderForm(draft) {
    if (last.draft === draft && last.language === language()) return last.parts;
    const form = draftForm(draft, t, { openerRows: (draft.openers?.length ?? 0) + SPARE_OPENERS });
    const names = nameProblems(draft);
    const present = new Set(form.combatants.map((combatant) => combatant.id));
    for (const id of boxes.keys()) if (!present.has(id)) boxes.delete(id);
    const procedures = PROCEDURES.map((procedure) => ({ value: procedure.id, label: t(`Procedure.${procedure.id}`) }));
    // Radio buttons, not a select: every way to begin in sight, and a long name wraps on a phone rather than cut off.
    const top = [
      h("h2", { id: "prepare-title", text: t("Web.Prepare") }),
      h("fieldset", { class: "procedures" }, h("legend", { text: t("Dialog.ChooseProcedure") }),
        procedures.map((procedure) => h("label", { class: "choice" }, h("input", { type: "radio", name: "procedure",
          id: `procedure-${procedure.value}`, value: procedure.value, checked: procedure.value === draft.procedure,
          "data-action": "procedure" }), procedure.label))),
    ];
    const rest = [
      form.encounter.length ? h("div", { class: "group" }, form.encounter.map((field) => control(field))) : null,
      (form.openers ?? []).map((row, index) => h("fieldset", { key: `opener ${index}`, class: "group" },
        h("legend", { text: t("Web.Opener", { number: index + 1 }) }), row.map((field) => control(field)))),
      form.sides.map((side) => {
        const nameId = `side-name-${side.key}`;
        return h("fieldset", { key: `side ${side.key}`, class: `side side-${side.key}` }, h("legend", { text: side.label }),
          h("div", { class: "field" }, h("label", { for: nameId, text: t("Web.SideName") }),
            h("input", { id: nameId, type: "text", value: draft.sides[side.key].name ?? "", "data-side-name": side.key,
              autocomplete: "off" })),
          side.fields.map((field) => control(field)));
      }),
      h("h3", { text: t("Web.Combatants") }),
      h("div", { class: "combatants" }, form.combatants.map((combatant) => box(combatant, names.get(combatant.id)))),
      h("div", { class: "buttons" }, SIDE_KEYS.map((key) => h("button", { type: "button", "data-add": key,
        text: t("Web.AddTo", { side: t(`Dialog.Side.${key}`) }) }))),
    ];
    last = { draft, language: language(), parts: { top, rest } };
    return last.parts;
  };
}

/** Return the first problem of a draft's names, or null: the rules' checks name the rest */
function firstNameProblem(draft) {
  for (const problem of nameProblems(draft).values()) if (problem) return problem;
  return null;
}

/**
 * Return an odds renderer: the odds of a draft, or what is wrong with it, computed once per draft (the draft is a
 * new object after every edit) and timed (performance.now(), kept on the box as data-ms)
 */
function oddsRenderer() {
  let last = { draft: null, language: null, lines: [], problem: null, ms: 0 };
  return function renderOdds(draft) {
    if (last.draft !== draft || last.language !== language()) {
      const started = performance.now();
      const problem = firstNameProblem(draft);
      const lines = problem ? [problem] : draftOddsLines(draft, t);
      last = { draft, language: language(), lines, ms: performance.now() - started };
    }
    return { ms: last.ms, nodes: [h("h2", { id: "odds-title", text: t("Odds.Title") }), ...last.lines.map((line) => h("p", { text: line }))] };
  };
}

export { STRING_KEYS, fileControls, firstNameProblem, formRenderer, oddsRenderer, readControl };
