import { inputsAt, PROCEDURES } from "./inputs.js";
import { escapeHtml } from "./chat.js";
import { localize } from "./i18n.js";
import { defaultInput } from "./draft.js";
import { resolveSurprise } from "./surprise.js";

const { DialogV2 } = foundry.applications.api;

/** Render one input as a form field named by its path in the dialog input. */
function field(path, input, value, members) {
  const label = escapeHtml(localize(`Input.${input.key}`));
  const name = escapeHtml(path);
  if (input.type === "boolean") {
    return `<label>${label} <input type="checkbox" name="${name}" ${value ? "checked" : ""}></label>`;
  }
  if (input.type === "side") {
    const options = ["a", "b"].map((key) => `<option value="${key}" ${key === value ? "selected" : ""}>${escapeHtml(localize(`Dialog.Side.${key}`))}</option>`);
    return `<label>${label} <select name="${name}">${options.join("")}</select></label>`;
  }
  if (input.type === "member") {
    const options = [`<option value="">${escapeHtml(localize("Dialog.Nobody"))}</option>`]
      .concat(members.map(([id, text]) => `<option value="${escapeHtml(id)}" ${id === value ? "selected" : ""}>${escapeHtml(text)}</option>`));
    return `<label>${label} <select name="${name}">${options.join("")}</select></label>`;
  }
  const shown = value === null || value === undefined ? "" : escapeHtml(String(value));
  return `<label>${label} <input type="number" name="${name}" value="${shown}" step="1"></label>`;
}

const OPENER_ROWS = 3;

/** Render the opening attacks: attacker (either side, for a mutual ambush), attack bonus, number to hit. */
function openerRows(input, everyone) {
  const rows = [];
  for (let index = 0; index < OPENER_ROWS; index += 1) {
    const row = input.scenario.openers[index] ?? { name: null, attack_bonus: null, target_number: null };
    const path = `scenario.openers.${index}`;
    rows.push(`<div class="form-group">${field(`${path}.name`, { key: "attacker", type: "member" }, row.name, everyone)}`
      + ` ${field(`${path}.attack_bonus`, { key: "attack_bonus", type: "number" }, row.attack_bonus, [])}`
      + ` ${field(`${path}.target_number`, { key: "target_number", type: "number" }, row.target_number, [])}</div>`);
  }
  return rows.join("");
}

/** Render the form of one procedure with the starting values. */
function formHtml(input) {
  const members = (key) => input.sides[key].combatants.map((id) => [id, input.members[id].label]);
  const parts = inputsAt(input.procedure, "scenario").map((i) => (i.type === "openers"
    ? openerRows(input, [...members("a"), ...members("b")])
    : field(`scenario.${i.key}`, i, input.scenario[i.key], members("a"))));
  for (const key of ["a", "b"]) {
    parts.push(`<fieldset><legend>${escapeHtml(localize(`Dialog.Side.${key}`))}</legend>`);
    parts.push(...inputsAt(input.procedure, "side").map((i) => field(`sides.${key}.${i.key}`, i, input.sides[key][i.key], members(key))));
    for (const id of input.sides[key].combatants) {
      const row = inputsAt(input.procedure, "member").map((i) => field(`members.${id}.${i.key}`, i, input.members[id][i.key], []));
      parts.push(`<div class="form-group"><strong>${escapeHtml(input.members[id].label)}</strong> ${row.join(" ")}</div>`);
    }
    parts.push("</fieldset>");
  }
  return parts.join("");
}

/** Read the form back into the dialog input: numbers, booleans and member choices by their field names. */
function readForm(form, input) {
  const read = (path, definition) => {
    const element = form.elements[path];
    if (!element) return undefined;
    if (definition.type === "boolean") return Boolean(element.checked);
    if (element.value === "") return definition.type === "member" ? null : undefined;
    return definition.type === "number" ? Number(element.value) : String(element.value);
  };
  const result = structuredClone(input);
  for (const i of inputsAt(input.procedure, "scenario")) {
    if (i.type !== "openers") {
      result.scenario[i.key] = read(`scenario.${i.key}`, i);
      continue;
    }
    result.scenario.openers = Array.from({ length: OPENER_ROWS }, (unused, index) => ({
      name: read(`scenario.openers.${index}.name`, { type: "member" }),
      attack_bonus: read(`scenario.openers.${index}.attack_bonus`, { type: "number" }) ?? null,
      target_number: read(`scenario.openers.${index}.target_number`, { type: "number" }) ?? null,
    }));
  }
  for (const key of ["a", "b"]) {
    for (const i of inputsAt(input.procedure, "side")) result.sides[key][i.key] = read(`sides.${key}.${i.key}`, i);
    for (const id of input.sides[key].combatants) {
      for (const i of inputsAt(input.procedure, "member")) result.members[id][i.key] = read(`members.${id}.${i.key}`, i);
    }
  }
  return result;
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

/** Open the GM dialog: pick the procedure, review the inputs read from the sheets, then resolve. */
export async function openSurpriseDialog(combat = game.combat) {
  if (!game.user.isGM) return ui.notifications.warn(localize("Notify.GMOnly"));
  if (!combat) return ui.notifications.warn(localize("Notify.NoCombat"));
  const procedure = await chooseProcedure();
  if (!procedure) return null;
  const start = defaultInput(combat, procedure);
  const input = await DialogV2.wait({
    window: { title: `${localize("Dialog.Title")}: ${localize(`Procedure.${procedure}`)}` },
    content: formHtml(start),
    buttons: [
      { action: "roll", label: localize("Dialog.Roll"), default: true, callback: (event, button) => readForm(button.form, start) },
      { action: "cancel", label: localize("Dialog.Cancel") },
    ],
    rejectClose: false,
  });
  if (!input || input === "cancel") return null;
  return resolveSurprise(input, combat);
}
