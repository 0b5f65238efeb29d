// Each environment's own instances of a module's files, as each page load of a Foundry client gets its own: a module
// map per environment (ModuleMap) of vm.SourceTextModule instances linked here, in this realm (the globals the
// environment installs). Foundry loads esmodules as ES modules whatever their folder holds (strict mode, live bindings,
// top-level await, import()); an import is resolved as a browser does, against the importing file's URL, and
// import.meta.url is that file's URL, so errors and stacks name the real files. Needs node --experimental-vm-modules.
//
// A file's text is read again whenever it changed on disk; the code V8 compiled for it is kept (createCachedData), so
// the hundreds of environments a runner makes do not compile the same source again.

import { fileURLToPath } from "node:url";
import vm from "node:vm";

import { parse } from "acorn";

import { fileText } from "../../file_text.mjs";

/** An import specifier a browser resolves against the importer's URL (WHATWG HTML, "resolve a module specifier") */
const RELATIVE = /^\.{0,2}\//;
/**
 * What is known of a file's compiled code, by URL and text: instances so far and code cache (a cache made at another URL
 * would name that file in stacks)
 */
const compiled = new Map();

/** Whether a text calls import(), by text: the same file is built into many folders */
const importCalls = new Map();

if (typeof vm.SourceTextModule !== "function") {
  throw new Error("the Foundry emulation loads modules with vm.SourceTextModule: run node with --experimental-vm-modules");
}

/**
 * Whether a module's code calls import(). Node 20 loses a module's import() callback when the module is made from a
 * code cache (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING, seen on 20.20), so such a file is compiled for each instance.
 */
function callsImport(source) {
  if (!/\bimport\s*\(/.test(source)) return false;
  if (!importCalls.has(source)) importCalls.set(source, findsImportCall(source));
  return importCalls.get(source);
}

/** Whether a text's syntax tree holds an ImportExpression (true where acorn cannot parse it, to be safe) */
function findsImportCall(source) {
  let pending;
  try {
    pending = [parse(source, { ecmaVersion: "latest", sourceType: "module" })];
  } catch {
    return true;
  }
  while (pending.length) {
    const node = pending.pop();
    if (node.type === "ImportExpression") return true;
    for (const value of Object.values(node)) {
      for (const child of Array.isArray(value) ? value : [value]) {
        if (typeof child?.type === "string") pending.push(child);
      }
    }
  }
  return false;
}

/** Resolve a specifier against the importing module's URL; a bare name fails as it does in a browser without import maps */
function resolved(specifier, parentURL) {
  if (RELATIVE.test(specifier)) return new URL(specifier, parentURL).href;
  if (URL.canParse(specifier)) return new URL(specifier).href;
  throw new TypeError(`Failed to resolve module specifier "${specifier}" imported from ${parentURL}: `
    + `relative references must start with "/", "./" or "../"`);
}

/** Put the file (and where acorn finds it, the line and column) at the head of a syntax error's stack */
function located(error, url, source) {
  let where = url;
  try {
    parse(source, { ecmaVersion: "latest", sourceType: "module" });
  } catch (found) {
    if (found.loc) where = `${url}:${found.loc.line}:${found.loc.column + 1}`;
  }
  error.stack = `${where}\n${error.stack}`;
  return error;
}

/** One environment's module map: each URL instantiated once, linked and evaluated on first import */
export class ModuleMap {
  #modules = new Map();

  /** Import a module by file URL: its namespace once it and its imports have been evaluated */
  async import(url) {
    const module = this.#instance(url);
    if (module.status === "unlinked") {
      try {
        await module.link((specifier, referrer) => this.#instance(resolved(specifier, referrer.identifier)));
      } catch (error) {
        throw this.#importer(error);
      }
    }
    await module.evaluate();
    return module.namespace;
  }

  /** Name the file whose import failed to link, where only one can be it (V8 names only the module it asked for) */
  #importer(error) {
    const asked = /requested module '([^']*)'/.exec(error?.message ?? "")?.[1];
    const importers = asked === undefined ? []
      : [...this.#modules.values()].filter((m) => m.status !== "evaluated" && m.dependencySpecifiers.includes(asked));
    if (importers.length === 1 && error instanceof Error) error.stack = `${importers[0].identifier}\n${error.stack}`;
    return error;
  }

  #instance(url) {
    let module = this.#modules.get(url);
    if (module) return module;
    if (!url.startsWith("file:")) throw new TypeError(`Failed to fetch module ${url}: the emulation loads files only`);
    const source = fileText(fileURLToPath(url));
    const key = `${url}\n${source}`;
    let known = compiled.get(key);
    if (!known) {
      known = { instances: 0, cachedData: undefined };
      compiled.set(key, known);
    }
    try {
      module = new vm.SourceTextModule(source, {
        identifier: url,
        cachedData: known.cachedData || undefined,
        initializeImportMeta: (meta) => { meta.url = url; },
        importModuleDynamically: async (specifier) => {
          const target = resolved(specifier, url);
          await this.import(target);
          return this.#modules.get(target);
        },
      });
    } catch (error) {
      throw error instanceof SyntaxError ? located(error, url, source) : error;
    }
    // The code cache is made from the second instance, before it runs (an evaluated module gives none): a source loaded
    // once is not worth one
    if (known.cachedData === undefined && known.instances++ > 0) {
      known.cachedData = callsImport(source) ? null : module.createCachedData();
    }
    this.#modules.set(url, module);
    return module;
  }
}
