// Elements built from data: text always goes in as text (textContent, attribute values), never as markup, so nothing a
// name, a scenario file or a translation holds can become part of the page.

/** Make an element: `attributes` set as attributes (true: present, false or null: left out), children appended */
function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "text") element.textContent = String(value);
    else if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** Turn a field's path into an element id: letters, digits, - and _ only, whatever the combatant's id holds */
const idOf = (prefix, path) => `${prefix}-${Array.from(String(path), (ch) => (/[A-Za-z0-9_-]/.test(ch) ? ch : `.${ch.codePointAt(0).toString(16)}.`)).join("")}`;

/** Offer a file for download, made here: nothing leaves the page but to the GM's own disk */
function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = el("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export { download, el, idOf };
