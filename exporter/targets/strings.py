"""The strings a build carries: the catalogue keys its modules declare, and no other

Each module of the table declares the keys it shows in a `STRING_KEYS` list. A declared key is a whole key
("Dialog.Title"), a namespace ("Gurps.Modifier.*": every key under it), or a key with a placeholder that the build
fills from its definitions: `{procedure}` (its procedures), `{input}` (the labels of the inputs they read, and of
the fields of an opening attack where they read some), `{unit}` (what its odds count) and `{status}` (its
statuses' labels). So the Foundry module ships in its lang files, and the Roll20 script in its STRINGS, its own
system's strings and its own target's, nothing else.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

from exporter.definitions import Definitions
from exporter.definitions.catalogue import Catalogue
from exporter.targets.config_js import CONFIG_MODULE
from exporter.targets.modules import JsModule, module_graph, module_source, read_module

DECLARATION = re.compile(r"^(?:export )?const STRING_KEYS = (?P<keys>\[[^\]]*\]);$", re.M | re.S)
PLACEHOLDER = re.compile(r"\{(\w+)\}")


class StringsError(ValueError):
    """A module declares a key the catalogue has not: a bug of ambush, never of a campaign"""


@lru_cache(maxsize=1024)  # a template declares the same keys in every campaign's build
def declared_keys(module: JsModule) -> tuple[str, ...]:
    """Return the keys a module declares, as written; none when it shows no string"""
    found = DECLARATION.search(module.text)
    if not found:
        return ()
    return tuple(json.loads(re.sub(r",\s*\]$", "]", found["keys"])))


def placeholders(defs: Definitions) -> dict[str, list[str]]:
    """Return what each placeholder stands for in a build"""
    inputs = [item for procedure in defs.procedures for item in procedure.inputs]
    labels = [field.label or field.key for item in inputs for field in (item, *item.fields) if not field.fields]
    return {"procedure": list(defs.procedure_ids), "input": labels,
            "unit": [defs.unit], "status": [status.label for status in defs.statuses]}


def expand(key: str, values: dict[str, list[str]]) -> list[str]:
    """Return the keys one declared key stands for, placeholders filled"""
    names = PLACEHOLDER.findall(key)
    if not names:
        return [key]
    [name] = names
    return [key.replace(f"{{{name}}}", value) for value in values[name]]


def starting_with(ordered: list[str], prefix: str) -> list[str]:
    """Return the keys of a sorted list that start with prefix"""
    first = bisect_left(ordered, prefix)
    last = first
    while last < len(ordered) and ordered[last].startswith(prefix):
        last += 1
    return ordered[first:last]


def build_keys(defs: Definitions, modules: Iterable[JsModule]) -> list[str]:
    """Return, sorted, every catalogue key the modules of a build declare"""
    known = defs.catalogue["en"]  # en has every key: a dict, so `in` is a look-up
    ordered = sorted(known)  # a wildcard's keys lie together in it, found by bisection
    values = placeholders(defs)
    keys: set[str] = set()
    for module in modules:
        for declared in declared_keys(module):
            for key in expand(declared, values):
                matched = (set(starting_with(ordered, key[:-1])) if key.endswith(".*")
                           else {key} if key in known else set())
                if not matched:
                    raise StringsError(f"templates/{module.path} declares {key!r}, which the catalogue has not")
                keys |= matched
    return sorted(keys)


def build_strings(defs: Definitions, modules: Iterable[JsModule]) -> Catalogue:
    """Return, per language, the strings the modules of a build declare, keys sorted"""
    keys = build_keys(defs, modules)
    return {language: {key: table[key] for key in keys if key in table} for language, table in defs.catalogue.items()}


def bundled_modules(defs: Definitions, entries: list[str], root: Path,
                    render_config: Callable[[dict[str, dict[str, str]]], str]) -> list[JsModule]:
    """Return a bundle's modules in running order, its configuration carrying the strings they declare

    The graph is read once with a configuration without strings (which declares none), then the configuration is
    rendered again with the strings the modules declare.
    """
    config = render_config({})

    def source(path: str) -> str:
        return config if path == CONFIG_MODULE else module_source(root, path)

    modules = module_graph(entries, source)
    shipped = read_module(CONFIG_MODULE, render_config(build_strings(defs, modules)))
    return [shipped if module.path == CONFIG_MODULE else module for module in modules]
