"""The table's JavaScript as ES modules: read them, follow their imports, and bundle them into one Roll20 script

The modules under `templates/` (common/, foundry/, roll20/) are plain ES modules that import each other by relative
path; only `common/config.js` is rendered per build, and each rules system's entry (`common/systems/<id>.js`, the
same for every system but its id) is written here. Foundry loads them as they are. Roll20 runs one script without
modules, so `bundle` puts each module in a function scope inside one IIFE, in the order they import each other: its
import lines become constants read from the modules before it, its exports the function's return value.

The modules keep to a small part of the module syntax, which `read_module` checks: `import * as Name from "./x.js";`
and `import { a, b as c } from "./x.js";` at the top, `export { a, b as c };` lists and `export function` / `export
const` declarations, nothing dynamic, no default export and no re-export.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

from exporter._resources import template_file
from exporter.rules.systems import SYSTEM_IDS

IMPORT = re.compile(r'^import (?:\* as (?P<namespace>[A-Za-z_$][\w$]*)|\{(?P<names>[^}]*)\}) '
                    r'from "(?P<source>\.\.?/[^"]+\.js)";\n', re.M)
EXPORT_LIST = re.compile(r"^export \{(?P<names>[^}]*)\};\n", re.M)
EXPORT_DECLARATION = re.compile(
    r"^export (?=(?:async function\*?|function\*?|const|let|class) (?P<name>[A-Za-z_$][\w$]*))", re.M)
# What the bundler cannot translate: any other import or export at the start of a line, or a dynamic import.
UNSUPPORTED = re.compile(r"^(?:import|export)\b|\bimport\(", re.M)
# Comments and string literals, matched in one pass, so that what they hold is not read as code.
COMMENT_OR_STRING = re.compile(
    r"""//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`""", re.S)
SYSTEM_ENTRY = re.compile(r"common/systems/(?P<system>[a-z0-9-]+)\.js")
NAME_AS = re.compile(r"^(?P<name>[A-Za-z_$][\w$]*)(?:\s+as\s+(?P<alias>[A-Za-z_$][\w$]*))?$")

# Names a module's constant may not take in the Roll20 script: the sandbox's functions and JavaScript's globals.
RESERVED_NAMES = frozenset({
    "Campaign", "API_Meta", "Array", "BigInt", "Boolean", "Date", "Error", "Intl", "JSON", "Map", "Math", "Number",
    "Object", "Promise", "Proxy", "Reflect", "RegExp", "Set", "String", "Symbol", "WeakMap", "WeakSet",
})


class ModuleError(Exception):
    """A template module the bundler cannot read: a bug of ambush, never of a campaign, so no exit code 2"""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"templates/{path}: {message}")
        self.path = path


@dataclass(frozen=True)
class Import:
    """One import of a module: the module it reads, and the names it binds (a namespace, or names with aliases)"""

    source: str
    namespace: str | None
    names: tuple[tuple[str, str], ...]  # (exported name, local name)


@dataclass(frozen=True)
class JsModule:
    """One ES module of the table: its path under templates/, its text, what it imports and what it exports"""

    path: str
    text: str
    imports: tuple[Import, ...]
    exports: tuple[tuple[str, str], ...]  # (exported name, local name)


def resolve(importer: str, source: str) -> str:
    """Return the path under templates/ of a module imported by a relative specifier"""
    parts: list[str] = []
    for part in (PurePosixPath(importer).parent / source).parts:
        if part == "..":
            if not parts:
                raise ModuleError(importer, f"{source} leaves the templates")
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def name_list(path: str, text: str) -> tuple[tuple[str, str], ...]:
    """Read `a, b as c` into (name, alias) pairs"""
    pairs = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        found = NAME_AS.match(item)
        if not found:
            raise ModuleError(path, f"cannot read {item!r} in an import or export list")
        pairs.append((found["name"], found["alias"] or found["name"]))
    return tuple(pairs)


@lru_cache(maxsize=1024)  # the templates, read once per process; a build's configurations come and go
def read_module(path: str, text: str) -> JsModule:
    """Read a module's imports and exports, refusing any syntax the bundler cannot translate"""
    imports = tuple(Import(resolve(path, found["source"]), found["namespace"],
                           () if found["namespace"] else name_list(path, found["names"]))
                    for found in IMPORT.finditer(text))
    exports = [pair for found in EXPORT_LIST.finditer(text) for pair in
               ((alias, name) for name, alias in name_list(path, found["names"]))]
    exports += [(found["name"], found["name"]) for found in EXPORT_DECLARATION.finditer(text)]
    bound = [item.namespace for item in imports if item.namespace]
    bound += [local for item in imports for _, local in item.names]
    if twice := sorted({name for name in bound if bound.count(name) > 1}):
        raise ModuleError(path, f"imports {', '.join(twice)} twice")
    rest = EXPORT_DECLARATION.sub("", EXPORT_LIST.sub("", IMPORT.sub("", text)))
    # Blanking comments and strings only takes matches away, so it is needed only where the code as it is has one.
    if UNSUPPORTED.search(rest) and (unsupported := UNSUPPORTED.search(code := COMMENT_OR_STRING.sub('""', rest))):
        line = code[unsupported.start():].split("\n", 1)[0]
        raise ModuleError(path, f"the bundler cannot translate {line[:80]!r}")
    return JsModule(path, text, imports, tuple(exports))


def entry_modules(system: str, host_entry: str) -> list[str]:
    """Return a target's entry modules under templates/, in running order: the rules system's, then the host's"""
    return [system_entry_path(system), host_entry]


def system_entry_path(system: str) -> str:
    """Return where a rules system's entry module lies among the modules"""
    return f"common/systems/{system}.js"


def system_entry(system: str) -> str:
    """Return a rules system's entry module, the same for every system but its id: no template holds it"""
    return (f"// The entry module of the {system} rules, written by the build (exporter/targets/modules.py): it hands their rules\n"
            "// core with its exact odds, and its table runtime, to the session (system.js).\n"
            f'import * as Rules from "../rules/{system}.js";\n'
            f'import * as Runtime from "../runtime/{system}.js";\n'
            'import { provideSystem } from "../system.js";\n\n'
            f'provideSystem("{system}", {{ Rules, Runtime }});\n')


def module_source(root: Path, path: str) -> str:
    """Return the text of a module under templates/ (root), a rules system's entry written here"""
    found = SYSTEM_ENTRY.fullmatch(path)
    if found and found["system"] in SYSTEM_IDS:
        return system_entry(found["system"])
    return template_file(root / path)


def module_graph(entries: Iterable[str], source: Callable[[str], str]) -> list[JsModule]:
    """Return the entries and every module they import, each after the modules it imports; source(path) is its text"""
    ordered: dict[str, JsModule] = {}
    visiting: list[str] = []

    def visit(path: str) -> None:
        if path in ordered:
            return
        if path in visiting:
            raise ModuleError(path, f"imports itself through {' -> '.join(visiting[visiting.index(path):])}")
        visiting.append(path)
        module = read_module(path, source(path))
        for item in module.imports:
            visit(item.source)
        visiting.pop()
        ordered[path] = module

    for entry in entries:
        visit(entry)
    for module in ordered.values():
        for item in module.imports:
            exported = {name for name, _ in ordered[item.source].exports}
            if missing := [name for name, _ in item.names if name not in exported]:
                raise ModuleError(module.path,
                                  f"imports {', '.join(missing)} from {item.source}, which does not export it")
    return list(ordered.values())


def module_constant(path: str) -> str:
    """Name the constant that holds a module in the bundle: common/rules/fallout-ttrpg.js -> RulesFalloutTtrpg"""
    stem = path.removeprefix("common/").removesuffix(".js")
    name = "".join(part[:1].upper() + part[1:] for part in re.split(r"[/_-]", stem) if part)
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", name) or name in RESERVED_NAMES:
        raise ModuleError(path, f"its bundle name {name!r} is not a free identifier")
    return name


def module_body(module: JsModule, constants: Mapping[str, str]) -> str:
    """Return a module's code for a function scope: imports read from the modules before it, a return of its exports"""
    reads = []
    for item in module.imports:
        held = constants[item.source]
        if item.namespace:
            reads.append(f"const {item.namespace} = {held};")
        else:
            names = ", ".join(name if name == local else f"{name}: {local}" for name, local in item.names)
            reads.append(f"const {{ {names} }} = {held};")
    code = EXPORT_DECLARATION.sub("", EXPORT_LIST.sub("", IMPORT.sub("", module.text)))
    code = re.sub(r"\n{3,}", "\n\n", code).strip("\n")
    exported = ", ".join(name if name == local else f"{name}: {local}" for name, local in module.exports)
    header, _, rest = split_header(code)
    parts = [header, "\n".join(reads), rest, f"return {{ {exported} }};"]
    return "\n\n".join(part for part in parts if part)


def split_header(code: str) -> tuple[str, str, str]:
    """Split the comment lines that open a module from its code"""
    lines = code.split("\n")
    count = next((index for index, line in enumerate(lines) if not line.startswith("//")), len(lines))
    return "\n".join(lines[:count]), "", "\n".join(lines[count:]).strip("\n")


def indent(text: str, spaces: int) -> str:
    """Indent every line that has text"""
    pad = " " * spaces
    return "\n".join(pad + line if line else line for line in text.split("\n"))


def bundle(modules: list[JsModule], depth: int = 2) -> str:
    """Return modules in dependency order as one block of code: a constant per module holding what it exports"""
    constants: dict[str, str] = {}
    blocks = []
    for module in modules:
        constant = module_constant(module.path)
        if constant in constants.values():
            raise ModuleError(module.path, f"its bundle name {constant} is taken by another module")
        if unread := [item.source for item in module.imports if item.source not in constants]:
            raise ModuleError(module.path, f"comes before {', '.join(unread)}, which it imports")
        blocks.append(module_block(module))
        constants[module.path] = constant
    return indent("\n\n".join(blocks), depth)


@lru_cache(maxsize=1024)  # a template's block is the same in every campaign's bundle
def module_block(module: JsModule) -> str:
    """Return a module's block in a bundle: a constant holding what its function scope returns"""
    body = indent(module_body(module, {item.source: module_constant(item.source) for item in module.imports}), 2)
    return f"// --- {module.path}\nconst {module_constant(module.path)} = (() => {{\n{body}\n}})();"
