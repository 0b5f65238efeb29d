// The page described as data and patched into place: every change builds the description anew (cheap plain objects)
// and only what differs reaches the page, so a field keeps its element, its focus, its caret and what the GM is typing
// while the odds or a problem beside it change. Text always goes in as text (textContent, attribute values), never
// as markup, so nothing a name, a scenario file or a translation holds can become part of the page.

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [];

const TEXT = "#text";
// Set as properties, read back from the element: what the GM changes lives there, not in an attribute.
const PROPERTIES = new Set(["value", "checked"]);

/**
 * Describe an element: attributes (true present, false or null absent), `key` to follow it when the list it is in
 * changes, `text` for its text (none when empty, so that :empty matches), `value` and `checked` as properties;
 * children are descriptions, text or lists of them.
 */
function h(tag, props = {}, ...children) {
  const attributes = {};
  let key = null;
  const kids = [];
  for (const [name, value] of Object.entries(props ?? {})) {
    if (name === "key") key = value;
    else if (name === "text") {
      if (value !== "" && value !== null && value !== undefined) kids.push({ tag: TEXT, text: String(value) });
    }
    else if (value !== false && value !== null && value !== undefined) attributes[name] = value;
  }
  flatten(children, kids);
  return { tag, key, attributes, children: kids };
}

/** Append children to a list: descriptions as they are, text as text, lists flattened, nothing for empty ones */
function flatten(children, into) {
  for (const child of children) {
    if (child === null || child === undefined || child === false || child === true) continue;
    if (Array.isArray(child)) flatten(child, into);
    else into.push(typeof child === "object" ? child : { tag: TEXT, text: String(child) });
  }
}

/** The element the GM is typing in: its value is his until he leaves it, never reset under his caret */
let typedIn = null;

/** Make the element of a description */
function create(vnode) {
  if (vnode.tag === TEXT) {
    const node = document.createTextNode(vnode.text);
    node.described = vnode;
    return node;
  }
  const node = document.createElement(vnode.tag);
  update(node, vnode);
  return node;
}

/** Tell whether an element can show a description: the same tag, and for an input the same type */
const fits = (node, vnode) => node.described !== undefined && node.described.tag === vnode.tag
  && node.described.attributes?.type === vnode.attributes?.type;

/** Set one attribute or property */
function set(node, name, value) {
  if (name === "value") {
    if (node !== typedIn && node.value !== String(value)) node.value = String(value);
  } else if (name === "checked") {
    if (node.checked !== Boolean(value)) node.checked = Boolean(value);
  } else node.setAttribute(name, value === true ? "" : String(value));
}

/** Make an element show a description: attributes changed, children patched; the same description is skipped */
function update(node, vnode) {
  const before = node.described;
  if (before === vnode) return;
  if (vnode.tag === TEXT) {
    if (node.nodeValue !== vnode.text) node.nodeValue = vnode.text;
    node.described = vnode;
    return;
  }
  const old = before?.attributes ?? {};
  for (const name of Object.keys(old)) {
    if (Object.prototype.hasOwnProperty.call(vnode.attributes, name)) continue;
    if (name === "checked") node.checked = false;
    else if (name !== "value") node.removeAttribute(name);
  }
  let value = null;
  for (const [name, next] of Object.entries(vnode.attributes)) {
    if (name === "value" && vnode.tag === "select") value = next; // once its options are there
    else if (PROPERTIES.has(name) || old[name] !== next) set(node, name, next);
  }
  patch(node, vnode.children);
  if (value !== null) set(node, "value", value);
  node.described = vnode;
}

/**
 * Make an element's children show a list of descriptions: a keyed child follows its key, another is reused where it
 * stands when it fits, the rest is made; children left over go
 */
function patch(parent, vnodes) {
  const keyed = new Map();
  for (const node of parent.childNodes) if (node.described?.key !== null && node.described?.key !== undefined) keyed.set(node.described.key, node);
  vnodes.forEach((vnode, index) => {
    const here = parent.childNodes[index] ?? null;
    let node = null;
    if (vnode.key !== null && vnode.key !== undefined) node = keyed.get(vnode.key) ?? null;
    else if (here && (here.described?.key ?? null) === null) node = here;
    if (node && !fits(node, vnode)) node = null;
    if (node) {
      if (node !== here) parent.insertBefore(node, here);
      update(node, vnode);
      if (vnode.key !== null && vnode.key !== undefined) keyed.delete(vnode.key);
    } else parent.insertBefore(create(vnode), here);
  });
  while (parent.childNodes.length > vnodes.length) parent.lastChild.remove();
}

/** Run a change while the GM types in an element: its value stays as he typed it */
function typing(element, change) {
  typedIn = element;
  try {
    return change();
  } finally {
    typedIn = null;
  }
}

export { STRING_KEYS, h, patch, typing };
