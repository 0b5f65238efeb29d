// A lookup that never reads what an object inherits. No imports, so that the web runner's player bundles it inside
// the page (tests/web_pages.py) with the per-system test tails that use it.

/** Return an object's own property, or undefined: never one it inherits. */
export function own(object, key) {
  return object !== null && typeof object === "object" && Object.hasOwn(object, key) ? object[key] : undefined;
}
