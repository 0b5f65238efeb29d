// The Combat Tracker's DOM, as far as a module adds to it (docs/dev/foundry.md §10): header.combat-tracker-header >
// div.encounter-controls > div.control-buttons.left / .right, the same on V13 and V14, passed to
// renderCombatTracker(app, html) as an element. A popped-out tracker (V14, pf2e PR #22434) lives in a window of its
// own: its nodes come from that window's document and are not instances of this window's HTMLElement (Node has no
// HTMLElement global at all, so code that tests `instanceof HTMLElement` finds nothing either way).
//
// A small element tree: tag and class selectors and the descendant combinator are supported; innerHTML is kept as
// text, not parsed.

/** Parse one compound selector ("div.a.b", ".a", "header") into a tag and classes */
function compound(text) {
  const [tag, ...classes] = text.split(".");
  return { tag: tag.toLowerCase() || null, classes };
}

class FakeElement {
  constructor(ownerDocument, tagName) {
    this.ownerDocument = ownerDocument;
    this.tagName = tagName.toUpperCase();
    this.children = [];
    this.parentElement = null;
    this.className = "";
    this.innerHTML = "";
    this.listeners = {};
  }

  get classList() {
    return { contains: (name) => this.className.split(/\s+/).includes(name) };
  }

  #matchesCompound({ tag, classes }) {
    return (!tag || this.tagName.toLowerCase() === tag) && classes.every((name) => this.classList.contains(name));
  }

  /** Tell whether this element matches a selector of descendant compounds, e.g. ".encounter-controls .right" */
  matches(selector) {
    const parts = selector.trim().split(/\s+/).map(compound);
    if (!this.#matchesCompound(parts.at(-1))) return false;
    let node = this.parentElement;
    for (let index = parts.length - 2; index >= 0; index -= 1) {
      while (node && !node.#matchesCompound(parts[index])) node = node.parentElement;
      if (!node) return false;
      node = node.parentElement;
    }
    return true;
  }

  *#descendants() {
    for (const child of this.children) {
      yield child;
      yield* child.#descendants();
    }
  }

  querySelector(selector) {
    for (const node of this.#descendants()) if (node.matches(selector)) return node;
    return null;
  }

  querySelectorAll(selector) {
    return [...this.#descendants()].filter((node) => node.matches(selector));
  }

  append(...nodes) {
    for (const node of nodes) {
      if (!(node instanceof FakeElement)) throw new Error("harness: only elements can be appended");
      if (node.ownerDocument !== this.ownerDocument) {
        throw new Error("harness: a node of another document was appended (create nodes with root.ownerDocument)");
      }
      node.parentElement = this;
      this.children.push(node);
    }
  }

  addEventListener(type, listener) {
    (this.listeners[type] ??= []).push(listener);
  }

  /** Dispatch a click to the listeners, returning their results (promises included) */
  click() {
    return (this.listeners.click ?? []).map((listener) => listener({ type: "click", target: this, currentTarget: this }));
  }
}

/** A document of one window: it makes the elements of that window */
class FakeDocument {
  constructor(name) {
    this.name = name;
  }

  createElement(tagName) {
    return new FakeElement(this, tagName);
  }
}

/** The main window's document, shared by every environment */
const MAIN_DOCUMENT = new FakeDocument("main");

/** Build the tracker's root element with its header, encounter controls and the two rows of control buttons */
function trackerElement(document) {
  const make = (tag, className, ...children) => {
    const element = document.createElement(tag);
    element.className = className;
    element.append(...children);
    return element;
  };
  return make("section", "combat-sidebar tab sidebar-tab", make("header", "combat-tracker-header",
    make("div", "encounter-controls", make("div", "control-buttons left"), make("div", "control-buttons right"))),
  make("ol", "combat-tracker plain"));
}

/** Fire renderCombatTracker(app, html) with a fresh tracker in the main window or a popped-out one */
export function renderCombatTracker(environment, { popout = false } = {}) {
  const document = popout ? new FakeDocument("popout") : MAIN_DOCUMENT;
  const root = trackerElement(document);
  const app = { id: "combat", popout, element: root, options: { window: { popOut: popout } } };
  environment.Hooks.callAll("renderCombatTracker", app, root);
  return root;
}
