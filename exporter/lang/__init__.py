"""The bundled strings beside this module: every string a target shows, in one JSON file per language and, for the
strings that only one rules system shows, one file per system (systems/<id>.json) holding them in every language

Neutral ground for the campaign, which refuses an override of a string that does not exist, and for the
definitions, which build the translation catalogue from these files.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any


def flatten(tree: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    """Flatten nested translation objects into dotted keys"""
    flat: dict[str, str] = {}
    for key, value in tree.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(flatten(value, dotted + "."))
        else:
            flat[dotted] = str(value)
    return flat


def bundled_language(language: str) -> dict[str, str]:
    """Read one bundled language file as flat keys (a copy of the one read once per process)"""
    return dict(read_language(language))


@lru_cache(maxsize=None)
def read_language(language: str) -> Mapping[str, str]:
    """Read one bundled language file as flat keys, once per process: every campaign of a build reads it"""
    from importlib.resources import files  # not at import: it brings tempfile, zipfile and more (-X importtime)

    folder = files(__name__)
    strings = flatten(json.loads(folder.joinpath(f"{language}.json").read_text(encoding="utf-8")))
    for system in sorted(entry.name for entry in folder.joinpath("systems").iterdir() if entry.name.endswith(".json")):
        own = flatten(json.loads(folder.joinpath("systems", system).read_text(encoding="utf-8")).get(language, {}))
        if twice := sorted(strings.keys() & own.keys()):
            raise ValueError(f"exporter/lang/systems/{system} gives {', '.join(twice)}, which another file gives")
        strings.update(own)
    return MappingProxyType(strings)
