// The UI the product touches: ui.notifications (https://foundryvtt.com/api/classes/foundry.applications.ui.
// Notifications.html) and DialogV2.wait (https://foundryvtt.com/api/classes/foundry.applications.api.
// DialogV2.html), answered from env.dialogAnswers, the user's scripted choices.
//
// A wait dialog is rendered into a real DOM (jsdom, the WHATWG DOM and HTML standards in Node) as the public API pages of
// V13 (https://foundryvtt.com/api/) and V14 (https://foundryvtt.com/api/v14/) describe it (docs/dev/foundry.md §10);
// no Foundry source was read:
// - DialogV2 "renders a dialog containing a form with arbitrary content, and some buttons" (class DialogV2); the
//   buttons belong to that form: its examples read `button.form.elements.guess` in a button's callback.
// - The content is inside dialog.element: modules query it there in the render callback (crnormand/gurps
//   module/utilities/select-target.js `element.querySelectorAll('input[name="tokens"]')`, module/actor/modern/
//   sheet.ts `dialog.element.querySelector('textarea')`).
// - DialogV2Configuration.content: "a HTML string or a <div> element. If string, the content is cleaned with
//   foundry.utils.cleanHTML" ("closing unbalanced tags and stripping some undesirable properties", cleanHTML).
// - DialogV2Button: action, label ("Will be localized"), callback, default; (harness choice) class, disabled, icon,
//   style and type, which the product never sets, are not emulated.
// - DialogV2WaitOptions.render: "A synchronous function to invoke whenever the dialog is rendered";
//   DialogV2RenderCallback(event: Event "The render event", dialog: DialogV2 "The DialogV2 instance"). V12 passed
//   the element instead (crnormand/gurps select-target.js: `game.release.generation >= 13 ? dialog.element : dialog`).
// - DialogV2ButtonCallback(event: PointerEvent | SubmitEvent, button: HTMLButtonElement "the button that was
//   clicked", dialog: DialogV2); wait resolves with "the result returned by that button's callback" or else the
//   button's action; DialogV2WaitOptions.rejectClose "Throw a Promise rejection if the dialog is dismissed".
// The frame's class names and the exact wrappers (header, .dialog-content, footer) are the harness's own: the pages
// name none of them, so a module that relies on one fails here.

import { env } from "./core.mjs";

/**
 * Build ui.notifications; every notification is recorded on the environment. Of the options only `permanent` (the
 * notification stays until dismissed; API v13/v14 foundry.applications.ui.Notifications.html, NotifyOptions) is
 * emulated, recorded beside the message.
 */
export function createNotifications(environment) {
  const record = (type) => (message, options) => {
    const unknown = Object.keys(options ?? {}).filter((key) => key !== "permanent");
    if (unknown.length) throw new Error(`harness: ui.notifications.${type} option ${unknown[0]} is not emulated`);
    const notification = { type, message: String(message), ...(options?.permanent ? { permanent: true } : {}) };
    environment.notifications.push(notification);
    return notification;
  };
  return { info: record("info"), warn: record("warning"), error: record("error") };
}

// One browser window per environment, made when its first dialog opens (jsdom is loaded then, not by every test
// file); it runs no scripts and loads nothing (jsdom's defaults), and what it would print to the browser console is
// recorded as a warning.
const WINDOWS = new WeakMap();
let jsdom = null;

/** Return the environment's browser window, made on first use */
export async function dialogWindow(environment) {
  if (!WINDOWS.has(environment)) {
    jsdom ??= await import("jsdom");
    const console = new jsdom.VirtualConsole();
    for (const level of ["error", "warn", "jsdomError"]) {
      console.on(level, (message) => environment.warnings.push(`browser console: ${message?.message ?? message}`));
    }
    WINDOWS.set(environment, new jsdom.JSDOM("<!DOCTYPE html><html><body></body></html>", { virtualConsole: console }).window);
  }
  return WINDOWS.get(environment);
}

/** Close the environment's browser window, if a dialog ever made one */
export function closeDialogWindow(environment) {
  WINDOWS.get(environment)?.close();
  WINDOWS.delete(environment);
}

/**
 * foundry.utils.cleanHTML as its page describes it: parse the fragment (which closes unbalanced tags) and strip
 * (harness choice, the page names none) script elements and on* event handler attributes.
 */
function cleanHTML(document, raw) {
  const template = document.createElement("template");
  template.innerHTML = raw;
  for (const script of template.content.querySelectorAll("script")) script.remove();
  for (const element of template.content.querySelectorAll("*")) {
    for (const name of element.getAttributeNames()) if (name.toLowerCase().startsWith("on")) element.removeAttribute(name);
  }
  return template.innerHTML;
}

/** Throw for the keys of an object that the emulation does not implement */
function onlyEmulated(what, object, keys) {
  const others = Object.keys(object).filter((key) => !keys.includes(key));
  if (others.length) throw new Error(`harness: ${what} ${others.join(", ")} not emulated`);
}

/** The buttons of a wait dialog: at least one, each with a unique action id */
function checkedButtons(config) {
  onlyEmulated("DialogV2.wait", config, ["window", "content", "buttons", "render", "rejectClose"]);
  const buttons = config.buttons ?? [];
  for (const button of buttons) onlyEmulated("DialogV2 button", button, ["action", "label", "default", "callback"]);
  if (!buttons.length) throw new Error("DialogV2.wait needs at least one button");
  const actions = buttons.map((b) => b.action);
  if (actions.some((a) => typeof a !== "string" || !a) || new Set(actions).size !== actions.length) {
    throw new Error(`DialogV2.wait buttons need unique action ids, got ${JSON.stringify(actions)}`);
  }
  return buttons;
}

/** Make one element of a document with its classes and children */
function make(document, tag, className, ...children) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  element.append(...children);
  return element;
}

/** Render a wait dialog's frame: <dialog> holding the title and one <form> with the content and the buttons */
function renderFrame(environment, document, config, title, buttons) {
  const heading = make(document, "h1", "window-title");
  heading.textContent = title;
  const content = make(document, "div", "dialog-content");
  const footer = make(document, "footer", "form-footer");
  for (const button of buttons) {
    const element = make(document, "button", "");
    element.type = "submit"; // (harness choice) the page names the type, not its default
    element.dataset.action = button.action;
    element.textContent = environment._softLocalize(button.label ?? "");
    if (button.default) element.autofocus = true;
    footer.append(element);
  }
  const form = make(document, "form", "window-content dialog-form", content, footer);
  form.autocomplete = "off";
  // (harness choice) DialogV2 handles its own submission: the browser never navigates away
  form.addEventListener("submit", (event) => event.preventDefault());
  const element = make(document, "dialog", "application dialog", make(document, "header", "window-header", heading), form);
  element.open = true;
  document.body.append(element);
  // The content is parsed in place, inside the form, as a browser parses markup set there (a nested <form> is dropped)
  if (config.content !== undefined && typeof config.content !== "string") throw new Error("harness: DialogV2 content as an element is not emulated");
  content.innerHTML = cleanHTML(document, config.content ?? "");
  return { element, form };
}

/**
 * Watch a rendered form's field look-ups: every name the page's code asks form.elements for (by key or namedItem)
 * that the form lacks is recorded, so a module reading a field it never rendered shows up in the record.
 */
function watchLookups(form, absent) {
  const elements = form.elements;
  const watched = new Proxy(elements, {
    get(target, key) {
      if (key === "namedItem") {
        return (name) => {
          const found = target.namedItem(name);
          if (!found) absent.push(String(name));
          return found;
        };
      }
      if (typeof key === "string" && !(key in target)) absent.push(key);
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  Object.defineProperty(form, "elements", { get: () => watched, configurable: true });
}

/** Describe a form's named fields, for a harness error */
const fieldNames = (form) => [...new Set([...form.elements].map((field) => field.name).filter(Boolean))].join(", ");

/**
 * Set the named fields of a rendered form as the user would, each followed by its input and change events (what a
 * browser fires on an edit); a name the form lacks, a value a select does not offer or a disabled field is a
 * harness error, so a test never passes on a field the product does not render.
 */
export function fillForm(form, values = {}) {
  const window = form.ownerDocument.defaultView;
  for (const [name, value] of Object.entries(values)) {
    const field = form.elements.namedItem(name);
    if (!field) throw new Error(`harness: the answer sets "${name}", a field the dialog's form lacks (it has: ${fieldNames(form)})`);
    if (field instanceof window.RadioNodeList || field.disabled) {
      throw new Error(`harness: the answer sets "${name}", which is ${field.disabled ? "disabled" : "given more than once in the form"}`);
    }
    if (field.type === "checkbox") {
      if (typeof value !== "boolean") throw new Error(`harness: checkbox "${name}" takes true or false, got ${JSON.stringify(value)}`);
      field.checked = value;
    } else if (field.tagName === "SELECT") {
      const text = value === null || value === undefined ? "" : String(value);
      const offered = [...field.options].map((option) => option.value);
      if (!offered.includes(text)) throw new Error(`harness: select "${name}" offers ${JSON.stringify(offered)}, not ${JSON.stringify(text)}`);
      field.value = text;
    } else {
      field.value = value === null || value === undefined ? "" : String(value);
    }
    field.dispatchEvent(new window.Event("input", { bubbles: true }));
    field.dispatchEvent(new window.Event("change", { bubbles: true }));
  }
}

/**
 * Open a wait dialog: render it, call config.render(event, dialog), record it, take the next scripted answer and
 * resolve as the clicked button's callback does. An answer is an action id, {action, form: {name: value}} (the
 * fields set on the real form first), null to close without a choice, or a function of the dialog record (called
 * after the render callback; it may edit the form with record.fill and click with record.click) that returns one of
 * those. record.absentFields lists the names the module asked the form for that it lacks.
 */
export async function openDialog(environment, config) {
  const buttons = checkedButtons(config);
  const title = environment._softLocalize(config.window?.title ?? "");
  // (harness choice) rejectClose defaults to false in V13 and V14
  const rejectClose = config.rejectClose ?? false;
  const window = await dialogWindow(environment);
  const { element, form } = renderFrame(environment, window.document, config, title, buttons);
  const dialog = new DialogV2(config, element);
  const absentFields = [];
  watchLookups(form, absentFields);
  const record = {
    title, content: config.content ?? "", buttons: buttons.map((b) => b.action), config, dialog, element, form, absentFields,
    fill: (values) => fillForm(form, values),
    click: (selector) => {
      const target = element.querySelector(selector);
      if (!target) throw new Error(`harness: the dialog "${title}" has no ${selector} to click`);
      target.click();
    },
  };
  environment.dialogs.push(record);
  const closed = (result) => {
    element.remove();
    record.result = result;
    return result;
  };
  config.render?.(new window.Event("render"), dialog);
  if (!environment.dialogAnswers.length) {
    closed(null);
    throw new Error(`DialogV2.wait "${title}" opened but env.dialogAnswers is empty; push the user's answer first`);
  }
  let answer = environment.dialogAnswers.shift();
  if (typeof answer === "function") answer = answer(record);
  if (answer?.form) fillForm(form, answer.form);
  if (answer === null) {
    closed(null);
    if (rejectClose) throw new Error("Dialog was dismissed without a choice being made.");
    return null;
  }
  const action = typeof answer === "string" ? answer : answer?.action;
  const button = buttons.find((b) => b.action === action);
  if (!button) {
    closed(null);
    throw new Error(`DialogV2.wait "${title}": answer "${action}" is not one of ${record.buttons.join(", ")}`);
  }
  const clicked = form.querySelector(`footer button[data-action="${action}"]`);
  const event = new window.PointerEvent("click", { bubbles: true, cancelable: true });
  clicked.dispatchEvent(event);
  return closed((await button.callback?.(event, clicked, dialog)) ?? button.action);
}

/** foundry.applications.api.DialogV2: wait (the product's one dialog call) and the instance its callbacks get */
export class DialogV2 {
  #element;

  constructor(options, element) {
    this.options = options;
    this.#element = element;
  }

  /** The rendered <dialog> */
  get element() {
    return this.#element;
  }

  static async wait(config = {}) {
    return openDialog(env(), config);
  }
}
