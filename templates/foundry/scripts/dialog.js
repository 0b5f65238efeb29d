import { escapeHtml } from "./chat.js";
import { draftOf } from "./draft.js";
import { exportScenario } from "./encounter.js";
import { localize, t } from "./i18n.js";
import { buildScenario, inputsAt, PROCEDURES } from "./inputs.js";
import { odds, oddsLines } from "./odds.js";
import { resolveSurprise } from "./surprise.js";

const { DialogV2 } = foundry.applications.api;

const PLACES = ["a", "b", "out"];
const OPENER_ROWS = 3;

/** Render a select of choices [value, text], one of them selected. */
function select(name, choices, value) {
  const options = choices.map(([key, text]) =>
    `<option value="${escapeHtml(key)}" ${key === value ? "selected" : ""}>${escapeHtml(text)}</option>`);
  return `<select name="${escapeHtml(name)}">${options.join("")}</select>`;
}

/** Render one input as a form field named by its path in the draft; `names` are the members it may choose from. */
function field(path, input, value, names) {
  const label = escapeHtml(localize(`Input.${input.key}`));
  if (input.type === "boolean") {
    return `<label>${label} <input type="checkbox" name="${escapeHtml(path)}" ${value ? "checked" : ""}></label>`;
  }
  if (input.type === "side") {
    return `<label>${label} ${select(path, ["a", "b"].map((key) => [key, localize(`Dialog.Side.${key}`)]), value)}</label>`;
  }
  if (input.type === "member") {
    const choices = [["", localize("Dialog.Nobody")], ...names.map((name) => [name, name])];
    return `<label>${label} ${select(path, choices, value ?? "")}</label>`;
  }
  const shown = value === null || value === undefined ? "" : escapeHtml(String(value));
  return `<label>${label} <input type="number" name="${escapeHtml(path)}" value="${shown}" step="1"></label>`;
}

/** Return every combatant of a draft with his place: side a, side b, or out of the fight. */
const everyone = (draft) => [
  ...draft.sides.a.members.map((member) => ["a", member]),
  ...draft.sides.b.members.map((member) => ["b", member]),
  ...draft.out.map((member) => ["out", member]),
];

/** Render the opening attacks: attacker (either side, for a mutual ambush), attack bonus, number to hit. */
function openerRows(draft, names) {
  const rows = [];
  for (let index = 0; index < OPENER_ROWS; index += 1) {
    const row = draft.openers[index] ?? { name: null, attack_bonus: null, target_number: null };
    const path = `openers.${index}`;
    rows.push(`<div class="form-group">${field(`${path}.name`, { key: "attacker", type: "member" }, row.name, names)}`
      + ` ${field(`${path}.attack_bonus`, { key: "attack_bonus", type: "number" }, row.attack_bonus, [])}`
      + ` ${field(`${path}.target_number`, { key: "target_number", type: "number" }, row.target_number, [])}</div>`);
  }
  return rows.join("");
}

/** Render the form of a draft: the encounter's values, each side's, then every combatant with his side. */
function formHtml(draft) {
  const names = everyone(draft).map(([, member]) => member.name);
  const parts = inputsAt(draft.procedure, "scenario").map((input) => (input.type === "openers"
    ? openerRows(draft, names)
    : field(input.key, input, draft[input.key], names)));
  for (const key of ["a", "b"]) {
    const sideInputs = inputsAt(draft.procedure, "side").map((input) => field(`sides.${key}.${input.key}`, input, draft.sides[key][input.key], names));
    if (sideInputs.length) parts.push(`<fieldset><legend>${escapeHtml(localize(`Dialog.Side.${key}`))}</legend>${sideInputs.join(" ")}</fieldset>`);
  }
  const places = PLACES.map((place) => [place, localize(place === "out" ? "Dialog.Out" : `Dialog.Side.${place}`)]);
  for (const [place, member] of everyone(draft)) {
    const values = inputsAt(draft.procedure, "member").map((input) => field(`members.${member.id}.${input.key}`, input, member[input.key], []));
    parts.push(`<div class="form-group"><strong>${escapeHtml(member.name)}</strong> ${select(`place.${member.id}`, places, place)} ${values.join(" ")}</div>`);
  }
  return parts.join("");
}

/** Read the form back into a draft: the values by their field names, each combatant on the side chosen for him. */
function readForm(form, draft) {
  const read = (path, input) => {
    const element = form.elements[path];
    if (!element) return undefined;
    if (input.type === "boolean") return Boolean(element.checked);
    if (element.value === "") return input.type === "member" ? null : undefined;
    return input.type === "number" ? Number(element.value) : String(element.value);
  };
  const result = structuredClone(draft);
  for (const input of inputsAt(draft.procedure, "scenario")) {
    if (input.type !== "openers") {
      result[input.key] = read(input.key, input);
      continue;
    }
    result.openers = Array.from({ length: OPENER_ROWS }, (unused, index) => ({
      name: read(`openers.${index}.name`, { type: "member" }),
      attack_bonus: read(`openers.${index}.attack_bonus`, { type: "number" }) ?? null,
      target_number: read(`openers.${index}.target_number`, { type: "number" }) ?? null,
    }));
  }
  for (const key of ["a", "b"]) {
    for (const input of inputsAt(draft.procedure, "side")) result.sides[key][input.key] = read(`sides.${key}.${input.key}`, input);
    result.sides[key].members = [];
  }
  result.out = [];
  for (const [place, member] of everyone(draft)) {
    const values = { ...member };
    for (const input of inputsAt(draft.procedure, "member")) values[input.key] = read(`members.${member.id}.${input.key}`, input);
    const chosen = read(`place.${member.id}`, { type: "string" }) ?? place;
    (chosen === "out" ? result.out : result.sides[chosen === "b" ? "b" : "a"].members).push(values);
  }
  return result;
}

const ODDS_BOX = "ambush-odds";
const EXPORT_BUTTON = "ambush-export";

/** Render the odds box (filled in as the GM edits) and the export button, below the form's fields. */
const oddsHtml = () => `<fieldset><legend>${escapeHtml(localize("Odds.Title"))}</legend><div class="${ODDS_BOX}"></div></fieldset>`
  + `<button type="button" class="${EXPORT_BUTTON}">${escapeHtml(localize("Export.Button"))}</button>`;

/** Return the lines the odds box shows for a draft: who gets the jump and each member's loss, or what is wrong. */
function oddsText(draft) {
  const { scenario, problem } = buildScenario(draft, t);
  return problem ? [problem] : oddsLines(odds(scenario), t, scenario);
}

/**
 * Show the odds live in a rendered dialog: read the form back with readForm on every change and recompute. The V13
 * render callback gets the DialogV2 (its form inside its element); V12's got the element itself.
 */
function watchOdds(dialog, start) {
  const root = dialog?.element ?? dialog;
  const form = root?.querySelector?.("form") ?? dialog?.form;
  const box = root?.querySelector?.(`.${ODDS_BOX}`);
  if (!form || !box) return;
  const update = () => {
    box.replaceChildren(...oddsText(readForm(form, start)).map((line) => {
      const paragraph = box.ownerDocument.createElement("p");
      paragraph.textContent = line;
      return paragraph;
    }));
  };
  form.addEventListener("change", update);
  form.addEventListener("input", update);
  root.querySelector(`.${EXPORT_BUTTON}`)?.addEventListener("click", () => {
    try {
      exportScenario(readForm(form, start), { download: true });
    } catch (error) {
      ui.notifications.warn(error.message);
    }
  });
  update();
}

/** Ask which procedure to use when the system has several. */
async function chooseProcedure() {
  if (PROCEDURES.length === 1) return PROCEDURES[0].id;
  return DialogV2.wait({
    window: { title: localize("Dialog.Title") },
    content: `<p>${escapeHtml(localize("Dialog.ChooseProcedure"))}</p>`,
    buttons: PROCEDURES.map((procedure, index) => ({
      action: procedure.id, label: localize(`Procedure.${procedure.id}`), default: index === 0,
    })),
    rejectClose: false,
  });
}

/** Open the GM dialog: pick the procedure, set the sides and review the values read from the sheets, then resolve. */
export async function openSurpriseDialog(combat = game.combat) {
  if (!game.user.isGM) return ui.notifications.warn(localize("Notify.GMOnly"));
  if (!combat) return ui.notifications.warn(localize("Notify.NoCombat"));
  const procedure = await chooseProcedure();
  if (!procedure) return null;
  const start = draftOf(combat, procedure);
  const draft = await DialogV2.wait({
    window: { title: `${localize("Dialog.Title")}: ${localize(`Procedure.${procedure}`)}` },
    content: formHtml(start) + oddsHtml(),
    render: (event, dialog) => watchOdds(dialog, start),
    buttons: [
      { action: "roll", label: localize("Dialog.Roll"), default: true, callback: (event, button) => readForm(button.form, start) },
      { action: "cancel", label: localize("Dialog.Cancel") },
    ],
    rejectClose: false,
  });
  if (!draft || draft === "cancel") return null;
  return resolveSurprise(draft, combat);
}
