"""module.json for Foundry V13 and V14 (docs/dev/foundry.md §1), built as data and written with json.dumps"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from exporter.definitions import Definitions
from exporter.definitions.identity import Author

PACK_NAME = "surprise-macros"
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "zh-CN": "中文（简体）"}


def author_entry(author: Author) -> dict[str, str]:
    """Return one author with only the fields given"""
    return {k: v for k, v in asdict(author).items() if v is not None}


def manifest(defs: Definitions, esmodules: list[str]) -> dict[str, Any]:
    """Return the module manifest, keys in a fixed order; esmodules are the entry scripts, in loading order"""
    module = defs.module
    settings = defs.targets["foundry"].settings
    game_system = settings["system_id"]
    strings = defs.catalogue[module.default_language]  # a pack's label is one text: the default language's
    data: dict[str, Any] = {
        "id": module.id,
        "title": module.title,
        "description": module.description,
        "version": module.version,
        "compatibility": settings["compatibility"],  # docs/dev/foundry.md §1.1
        "authors": [author_entry(a) for a in module.authors],
        "esmodules": esmodules,
        "styles": ["styles/ambush.css"],
        "languages": [{"lang": lang, "name": LANGUAGE_NAMES[lang], "path": f"lang/{lang}.json"}
                      for lang in module.languages],
        "packs": [{"name": PACK_NAME, "label": strings["Pack.Macros"], "path": f"packs/{PACK_NAME}", "type": "Macro",
                   "ownership": {"PLAYER": "OBSERVER", "ASSISTANT": "OWNER"}}],
        "packFolders": [{"name": module.title, "sorting": "a", "packs": [PACK_NAME]}],
        "relationships": {"systems": [{"id": game_system, "type": "system"}] if game_system else []},
    }
    for key in ("manifest", "download"):
        if settings[key]:
            data[key] = settings[key]
    return data
