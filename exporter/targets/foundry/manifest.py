"""module.json for Foundry V12 and V13 (FOUNDRY.md 1), built as data and written with json.dumps"""

from __future__ import annotations

from typing import Any

from exporter.definitions import Definitions

PACK_NAME = "surprise-macros"
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "zh-CN": "中文（简体）"}
# FOUNDRY.md 1.1: installable on V12 and V13, no newer major.
COMPATIBILITY = {"minimum": "12", "verified": "13", "maximum": "13"}


def author_entry(author: Any) -> dict[str, str]:
    """Return one author with only the fields given"""
    return {k: v for k, v in author.model_dump().items() if v is not None}


def manifest(defs: Definitions, game_system: str | None) -> dict[str, Any]:
    """Return the module manifest, keys in a fixed order"""
    campaign = defs.campaign
    english = defs.catalogue["en"]
    data: dict[str, Any] = {
        "id": campaign.id,
        "title": campaign.title,
        "description": campaign.description,
        "version": campaign.version,
        "compatibility": COMPATIBILITY,
        "authors": [author_entry(a) for a in campaign.authors],
        "esmodules": ["scripts/main.js"],
        "styles": ["styles/ambush.css"],
        "languages": [{"lang": lang, "name": LANGUAGE_NAMES[lang], "path": f"lang/{lang}.json"}
                      for lang in campaign.languages],
        "packs": [{"name": PACK_NAME, "label": english["Pack.Macros"], "path": f"packs/{PACK_NAME}", "type": "Macro",
                   "ownership": {"PLAYER": "OBSERVER", "ASSISTANT": "OWNER"}}],
        "packFolders": [{"name": campaign.title, "sorting": "a", "packs": [PACK_NAME]}],
        "relationships": {"systems": [{"id": game_system, "type": "system"}] if game_system else []},
    }
    for key in ("manifest", "download"):
        url = campaign.release_url(getattr(campaign.foundry, key))
        if url:
            data[key] = url
    return data
