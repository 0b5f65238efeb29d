// The UI the product touches: ui.notifications (https://foundryvtt.com/api/classes/foundry.applications.ui.
// Notifications.html) and DialogV2.wait (https://foundryvtt.com/api/classes/foundry.applications.api.
// DialogV2.html), answered from env.dialogAnswers, the user's scripted choices.

import { deepClone, env } from "./core.mjs";

/** Build ui.notifications; every notification is recorded on the environment */
export function createNotifications(environment) {
  const record = (type) => (message, options = {}) => {
    let text = String(message);
    if (options.format) text = environment.game.i18n.format(message, options.format);
    else if (options.localize) text = environment.game.i18n.localize(message);
    const notification = { id: environment.notifications.length + 1, type, message: text, options };
    environment.notifications.push(notification);
    return notification;
  };
  return { info: record("info"), warn: record("warning"), error: record("error") };
}

/** A stand-in for the dialog's HTML form, built from the scripted answer's form values */
function fakeForm(values = {}) {
  const elements = {};
  for (const [name, value] of Object.entries(values)) {
    elements[name] = {
      name,
      value: value === null || value === undefined ? "" : String(value),
      valueAsNumber: Number(value),
      checked: value === true,
      type: typeof value === "boolean" ? "checkbox" : typeof value === "number" ? "number" : "text",
    };
  }
  return {
    elements,
    _values: deepClone(values),
    querySelector(selector) {
      const match = /\[name=["']?([^"'\]]+)["']?\]/.exec(selector);
      return match ? elements[match[1]] ?? null : null;
    },
  };
}

/** The buttons of a wait dialog: at least one, each with a unique action id */
function checkedButtons(config) {
  const buttons = config.buttons ?? [];
  if (!buttons.length) throw new Error("DialogV2.wait needs at least one button");
  const actions = buttons.map((b) => b.action);
  if (actions.some((a) => typeof a !== "string" || !a) || new Set(actions).size !== actions.length) {
    throw new Error(`DialogV2.wait buttons need unique action ids, got ${JSON.stringify(actions)}`);
  }
  return buttons;
}

/**
 * Open a wait dialog: record it, take the next scripted answer (an action id, {action, form}, null to
 * dismiss, or a function of the dialog record) and resolve as the clicked button's callback does.
 */
export async function openDialog(environment, config) {
  const buttons = checkedButtons(config);
  const title = environment._softLocalize(config.window?.title ?? "");
  for (const button of buttons) environment._softLocalize(button.label);
  // (harness choice) rejectClose defaults to false in V13 and V14
  const rejectClose = config.rejectClose ?? false;
  const record = { kind: "wait", title, content: config.content ?? "", buttons: buttons.map((b) => b.action), config };
  environment.dialogs.push(record);
  if (!environment.dialogAnswers.length) {
    throw new Error(`DialogV2.wait "${title}" opened but env.dialogAnswers is empty; push the user's answer first`);
  }
  let answer = environment.dialogAnswers.shift();
  if (typeof answer === "function") answer = answer(record);
  record.answer = answer;
  if (answer === null || answer?.dismiss) {
    config.close?.();
    record.result = null;
    if (rejectClose) throw new Error("Dialog was dismissed without a choice being made.");
    return null;
  }
  const action = typeof answer === "string" ? answer : answer?.action;
  const button = buttons.find((b) => b.action === action);
  if (!button) throw new Error(`DialogV2.wait "${title}": answer "${action}" is not one of ${record.buttons.join(", ")}`);
  const form = fakeForm(answer?.form);
  const element = { dataset: { action }, form };
  const dialog = { element: { querySelector: form.querySelector }, form };
  const event = { type: "click", target: element, currentTarget: element };
  const result = (await button.callback?.(event, element, dialog)) ?? button.action;
  await config.submit?.(result, dialog);
  record.result = result;
  return result;
}

/** foundry.applications.api.DialogV2, wait only (the product's one dialog call) */
export class DialogV2 {
  static async wait(config = {}) {
    return openDialog(env(), config);
  }
}
