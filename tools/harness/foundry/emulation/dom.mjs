// The Combat Tracker's DOM, as far as a module adds to it, in the markup each tracker renders (TRACKERS below, each with
// its source), passed to renderCombatTracker(app, html) as an element, or as a jQuery object where the tracker is an
// Application of the first generation (ARS v2023.08.06: ARSCombatTracker extends core's CombatTracker of V11, whose
// render hooks pass jQuery). A popped-out tracker (V14, pf2e PR #22434) lives in a window of its own: its nodes come
// from that window's document and are not instances of this window's HTMLElement (Node has no HTMLElement global at
// all, so code that tests `instanceof HTMLElement` finds nothing either way).
//
// A small element tree: the markup is parsed into elements with their classes and attributes (text is dropped); tag
// and class selectors and the descendant combinator are supported; innerHTML is kept as text, not parsed.

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
    this.attributes = new Map();
  }

  getAttribute(name) {
    return this.attributes.get(name) ?? null;
  }

  setAttribute(name, value) {
    this.attributes.set(name, String(value));
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

// The markup of each tracker as it renders for a GM with a started combat; only the header rows a module adds to and
// their kind of children are written out, not the combatants. (harness choice) The root's classes and what the rows
// hold beyond what the sources below show are left out.
export const TRACKERS = {
  // Core V13 and V14: header.combat-tracker-header > div.encounter-controls > div.control-buttons.left / .right,
  // the same on both (docs/dev/foundry.md §10). Sources: modules that add to those rows, V13:
  // MetaMorphic-Digital/universal-tabletop-system src/module/apps/combat/UTSCombatTracker.mjs at b15844c
  // (".encounter-controls.combat", minimum 13.338); V14: Larkinabout/fvtt-custom-dnd5e
  // scripts/gameplay/speed-factor-initiative.js line 1159 at 8fd6900 (".encounter-controls .control-buttons.left"
  // holds the bulk initiative rolls; minimum 14.359), ironmonk108/monks-combat-details monks-combat-details.js 747
  // at a4878a8 ("#combat .encounter-controls"); foundryvtt/pf2e#22434. GURPS Game Aid keeps core's tracker: it
  // replaces no CONFIG.ui.combat and ships no tracker template, and only adds to the combatants' rows in its
  // renderCombatTracker hook (crnormand/gurps module/combat-tracker/render-combat-tracker.ts at ac714d44).
  core: `
    <section class="tab sidebar-tab combat-sidebar">
      <header class="combat-tracker-header">
        <div class="encounter-controls combat">
          <div class="control-buttons left"></div>
          <div class="control-buttons right"></div>
        </div>
      </header>
      <ol class="combat-tracker plain"></ol>
    </section>`,
  // ARS v2023.08.06 (lastredoubt/acks2-arsbase at d47147c, src/): its own tracker (module/ars.js 137
  // `CONFIG.ui.combat = ARSCombatTracker`; module/combat/combatTracker.js 14: templates/sidebar/combat-tracker.hbs),
  // rendered for a GM: the encounters nav, then the encounter controls, one flex row of links (roll all, roll NPCs),
  // the round's title and three more links (reset, scene link, settings), and no .control-buttons; the turn controls
  // are in the footer nav#combat-controls. Whether ARS for V13 or V14 renders the same is unconfirmed (no public
  // copy; docs/dev/foundry.md §11).
  ars: `
    <section class="tab sidebar-tab directory flexcol" id="combat">
      <header class="combat-tracker-header">
        <nav class="encounters flexrow">
          <a class="combat-button combat-create"><i class="fas fa-plus"></i></a>
          <h4 class="encounter">Encounter 1 / 1</h4>
          <a class="combat-button combat-control" data-control="endCombat"><i class="fas fa-trash"></i></a>
        </nav>
        <div class="encounter-controls flexrow combat">
          <a class="combat-button combat-control" data-control="rollAll"><i class="fas fa-users"></i></a>
          <a class="combat-button combat-control" data-control="rollNPC"><i class="fas fa-users-cog"></i></a>
          <h3 class="encounter-title noborder">Round 1</h3>
          <a class="combat-button combat-control" data-control="resetAll"><i class="fas fa-undo"></i></a>
          <a class="combat-button combat-control" data-control="toggleSceneLink"><i class="fas fa-link"></i></a>
          <a class="combat-button combat-settings" data-control="trackerSettings"><i class="fas fa-cog"></i></a>
        </div>
      </header>
      <ol id="combat-tracker" class="directory-list"></ol>
      <nav id="combat-controls" class="directory-footer flexrow">
        <a class="combat-control" data-control="previousRound"><i class="fas fa-step-backward"></i></a>
        <a class="combat-control" data-control="nextTurn"><i class="fas fa-arrow-right"></i></a>
      </nav>
    </section>`,
};

/** Elements that have no end tag */
const VOID = new Set(["br", "hr", "img", "input"]);
const TAG = /<(\/?)([a-zA-Z][\w-]*)((?:\s+[\w:-]+(?:="[^"]*")?)*)\s*>/g;
const ATTRIBUTE = /([\w:-]+)(?:="([^"]*)")?/g;

/** Parse well-formed markup into the elements of a document; a tag closed out of order is a harness error */
export function parseMarkup(document, markup) {
  const top = document.createElement("template");
  const open = [top];
  for (const [, closing, name, attributes] of markup.matchAll(TAG)) {
    const tag = name.toLowerCase();
    if (closing) {
      if (open.length < 2 || open.at(-1).tagName.toLowerCase() !== tag) throw new Error(`harness: markup closes <${tag}> out of order`);
      open.pop();
      continue;
    }
    const element = document.createElement(tag);
    for (const [, key, value = ""] of attributes.matchAll(ATTRIBUTE)) {
      if (key === "class") element.className = value;
      else element.setAttribute(key, value);
    }
    open.at(-1).append(element);
    if (!VOID.has(tag)) open.push(element);
  }
  if (open.length !== 1 || top.children.length !== 1) throw new Error("harness: the markup is not one closed root element");
  const [root] = top.children;
  root.parentElement = null;
  return root;
}

/**
 * Fire renderCombatTracker(app, html) with a fresh tracker in the main window or a popped-out one. `tracker` names
 * one of TRACKERS (the world's game system's own by default: ARS's where the system is ars, else core's) or is
 * markup of its own; `jquery` passes html as a jQuery object, as an Application of the first generation does.
 */
export function renderCombatTracker(environment, { popout = false, tracker, jquery = false } = {}) {
  const document = popout ? new FakeDocument("popout") : MAIN_DOCUMENT;
  const name = tracker ?? (environment.options.systemId === "ars" ? "ars" : "core");
  const root = parseMarkup(document, TRACKERS[name] ?? name);
  const app = { id: "combat", popout, element: root, options: { window: { popOut: popout } } };
  environment.Hooks.callAll("renderCombatTracker", app, jquery ? { jquery: "3.7.1", length: 1, 0: root } : root);
  return root;
}
