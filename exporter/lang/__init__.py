"""The bundled language files beside this module: every string a target shows, one JSON file per language

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

    return MappingProxyType(flatten(json.loads(files(__name__).joinpath(f"{language}.json").read_text(encoding="utf-8"))))
