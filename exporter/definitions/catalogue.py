"""The translation catalogue: every string a target shows, per language, defined once"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from importlib.resources import files
from typing import Any

Catalogue = dict[str, dict[str, str]]  # language -> flat dotted key -> text


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


def nest(flat: Mapping[str, str]) -> dict[str, Any]:
    """Turn dotted keys back into nested objects, keys in sorted order"""
    tree: dict[str, Any] = {}
    for dotted in sorted(flat):
        node = tree
        *parents, leaf = dotted.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = flat[dotted]
    return tree


def bundled_language(language: str) -> dict[str, str]:
    """Read one bundled language file as flat keys"""
    text = files("exporter.definitions").joinpath("lang", f"{language}.json").read_text(encoding="utf-8")
    return flatten(json.loads(text))


def load_catalogue(languages: Iterable[str], overrides: Mapping[str, Mapping[str, str]]) -> Catalogue:
    """Load the bundled strings of each language and apply the campaign's overrides"""
    catalogue: Catalogue = {}
    for language in languages:
        strings = bundled_language(language)
        strings.update(overrides.get(language, {}))
        catalogue[language] = dict(sorted(strings.items()))
    return catalogue
