"""The Macro compendium pack: documents, their CLI-format JSON sources and the LevelDB pack itself"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from pathlib import Path
from typing import Any

from exporter.definitions import Definitions
from exporter.dist import OutputTree
from exporter.targets.escaping import js_literal
from exporter.targets.foundry.leveldb import database_files

# Foundry core icons, by the neutral macro ids of the definitions layer.
MACRO_ICONS = {"surprise": "icons/svg/daze.svg", "clear": "icons/svg/cancel.svg", "recovery": "icons/svg/d20-grey.svg",
               "side-roll": "icons/svg/d20-grey.svg", "spot-test": "icons/svg/eye.svg"}

# The method of the module's API (templates/foundry/api.js) each macro calls, by neutral macro id.
MACRO_CALLS = {"surprise": "openDialog", "clear": "clear", "recovery": "recoveryRoll", "side-roll": "sideRoll",
               "spot-test": "spotTest"}


def document_id(*parts: str) -> str:
    """Derive a stable 16-character Foundry id from names (docs/dev/foundry.md §4)"""
    return hashlib.sha256(".".join(parts).encode("utf-8")).hexdigest()[:16]


SAFE_NAME_BYTES = 100  # file systems refuse names over 255 bytes; the id after it keeps names unique


def safe_name(name: str) -> str:
    """Name a source file after its document: its letters and digits in any script as they are (NFC), the rest _

    The official CLI's extract keeps only ASCII and Cyrillic letters (Überraschung becomes _berraschung); a name in
    German or Chinese keeps its letters here, cut to a safe length in UTF-8 bytes at a character's end. Any name
    compiles: the CLI reads every JSON file of the folder (docs/dev/foundry.md §4).
    """
    kept = "".join(ch if ch.isalnum() else "_" for ch in unicodedata.normalize("NFC", name))
    return kept.encode("utf-8")[:SAFE_NAME_BYTES].decode("utf-8", "ignore")


def macro_documents(defs: Definitions) -> list[dict[str, Any]]:
    """Return the macros as Macro documents with their LevelDB keys, named in the campaign's default language"""
    module_id = defs.module.id
    default = defs.module.default_language
    names = defs.catalogue[default]
    # An inactive module loads no translations, so the macro carries its one message in every language.
    inactive = {language: strings["Notify.ModuleInactive"] for language, strings in defs.catalogue.items()}
    documents = []
    for index, macro in enumerate(defs.macros):
        doc_id = document_id(module_id, "macro", macro.id)
        command = (f"const api = game.modules.get({js_literal(module_id)})?.api;\n"
                   f"if (api) await api.{MACRO_CALLS[macro.id]}();\n"
                   f"else {{\n  const inactive = {js_literal(inactive)};\n"
                   f"  ui.notifications.error(inactive[game.i18n.lang] ?? inactive[{js_literal(default)}]);\n}}")
        documents.append({
            "_id": doc_id,
            "name": names[macro.label],
            "type": "script",
            "img": MACRO_ICONS[macro.id],
            "scope": "global",
            "command": command,
            "folder": None,
            "sort": (index + 1) * 100_000,
            "ownership": {"default": 0},
            "flags": {module_id: {"macro": macro.id}},
            "_key": f"!macros!{doc_id}",
        })
    return documents


def write_sources(documents: list[dict[str, Any]], folder: Path, tree: OutputTree) -> None:
    """Write one JSON source per document, as the official CLI's extract does (2-space indent, final newline)"""
    for doc in documents:
        tree.write_text(folder / f"{safe_name(doc['name'])}_{doc['_id']}.json",
                        json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def write_leveldb(documents: list[dict[str, Any]], folder: Path, tree: OutputTree) -> None:
    """Write the LevelDB pack Foundry reads (a new folder): key -> JSON document, in key order"""
    items = [(doc["_key"].encode("utf-8"),
              json.dumps({k: v for k, v in doc.items() if k != "_key"}, ensure_ascii=False,
                         separators=(",", ":")).encode("utf-8"))
             for doc in sorted(documents, key=lambda d: d["_key"])]
    for name, data in database_files(items).items():
        tree.write_bytes(folder / name, data)
