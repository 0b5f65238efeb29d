// Module resolution hooks (node:module register) that give each environment its own instances of a module's files
// without copying them: loadModule imports the esmodules with an `ambush-env=N` query, and every file: import made
// from a tagged module carries the same tag, so Node's module map holds one fresh graph per environment. Foundry loads
// esmodules as ES modules whatever their folder holds, so tagged files load as modules (no format detection).

export const TAG = "ambush-env";

/** Tag a file: URL imported from a tagged module with the importer's tag */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const tag = context.parentURL?.startsWith("file:") ? new URL(context.parentURL).searchParams.get(TAG) : null;
  if (tag === null || !resolved.url.startsWith("file:")) return resolved;
  const url = new URL(resolved.url);
  url.searchParams.set(TAG, tag);
  return { ...resolved, url: url.href };
}

/** Load a tagged JavaScript file as an ES module, as Foundry loads esmodules */
export async function load(url, context, nextLoad) {
  const tagged = url.startsWith("file:") && new URL(url).searchParams.has(TAG) && /\.m?js$/.test(new URL(url).pathname);
  return nextLoad(url, tagged ? { ...context, format: "module" } : context);
}
