// Module resolution hooks (node:module register) that give each environment its own instances of a module's files
// without copying them: loadModule imports the esmodules with an `ambush-env=N` query, and every import made from a
// tagged module carries the same tag, so Node's module map holds one fresh graph per environment. Foundry loads
// esmodules as ES modules whatever their folder holds, so tagged files load as modules (no format detection), and
// their text is read again only when the file changed (a runner loads the same module hundreds of times).

import { readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const TAG = "ambush-env";
const RELATIVE = /^\.{0,2}\//;
/** File text by path, with the size and time it was read at */
const sources = new Map();

function tagOf(url) {
  return url?.startsWith("file:") ? new URL(url).searchParams.get(TAG) : null;
}

/** Tag a relative import from a tagged module with the importer's tag, resolved as a browser does: against its URL */
export async function resolve(specifier, context, nextResolve) {
  const tag = tagOf(context.parentURL);
  if (tag === null || !RELATIVE.test(specifier)) return nextResolve(specifier, context);
  const url = new URL(specifier, context.parentURL);
  url.search = "";
  url.searchParams.set(TAG, tag);
  return { url: url.href, format: "module", shortCircuit: true };
}

/** Load a tagged file as an ES module, its text as it is on disk now */
export async function load(url, context, nextLoad) {
  if (tagOf(url) === null) return nextLoad(url, context);
  const file = fileURLToPath(url);
  const { size, mtimeMs } = statSync(file);
  let known = sources.get(file);
  if (known?.size !== size || known.mtimeMs !== mtimeMs) {
    known = { size, mtimeMs, source: readFileSync(file, "utf8") };
    sources.set(file, known);
  }
  return { format: "module", source: known.source, shortCircuit: true };
}
