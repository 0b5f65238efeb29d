"""The translation catalogue: the bundled strings of each language (exporter/lang/) with the campaign's overrides"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from exporter.lang import bundled_language

Catalogue = dict[str, dict[str, str]]  # language -> flat dotted key -> text


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


def load_catalogue(languages: Iterable[str], overrides: Mapping[str, Mapping[str, str]]) -> Catalogue:
    """Load the bundled strings of each language and apply the campaign's overrides"""
    catalogue: Catalogue = {}
    for language in languages:
        strings = bundled_language(language)
        strings.update(overrides.get(language, {}))
        catalogue[language] = dict(sorted(strings.items()))
    return catalogue
