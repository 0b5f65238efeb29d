"""The Foundry VTT target: render definitions into an unpacked module folder"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from exporter._resources import template_text, templates_root
from exporter.definitions import Definitions
from exporter.definitions.catalogue import nest
from exporter.dist import OutputTree
from exporter.targets.config_js import CONFIG_MODULE, ConfigEntry, render_config, settings_entry
from exporter.targets.environment import make_environment
from exporter.targets.foundry.statuses import status_entries
from exporter.targets.foundry.manifest import PACK_NAME, manifest
from exporter.targets.foundry.packs import macro_documents, write_leveldb, write_sources
from exporter.targets.modules import JsModule, entry_modules, module_graph, module_source
from exporter.targets.strings import build_strings

SOURCES_DIR = "packs/_source"
SCRIPTS_DIR = "scripts"
HOST_ENTRY = "foundry/main.js"


def config_entries(defs: Definitions) -> list[ConfigEntry]:
    """Return what the Foundry module's configuration adds to the shared entries"""
    return [
        ConfigEntry("MODULE_ID", "The module's id: its settings, flags and translations live under it", defs.module.id),
        ConfigEntry("LANGUAGES", "The languages the module speaks; a client in another reads English, Foundry's "
                    "fallback", list(defs.module.languages)),
        ConfigEntry("ATTRIBUTES", "The reader of each input the rules read from an actor; an input without one is "
                    "asked for in the dialog", defs.targets["foundry"].attributes),
        ConfigEntry("STATUSES", "The statuses the module shows; reuse lists the ids a game system may already define",
                    status_entries(defs)),
        settings_entry(defs, "foundry", "The world settings of the automation"),
        ConfigEntry("CHECKED_VERSIONS", "The game system and its versions ambush was checked against "
                    "(exporter/game_systems/); on another the GM is told once per world", checked_versions(defs)),
        ConfigEntry("SURPRISE_MACRO", "The compendium and the macro that open the surprise dialog, named as Foundry "
                    "shows them (module.json, the pack), for a tracker without a place for the button",
                    surprise_macro(defs)),
    ]


def checked_versions(defs: Definitions) -> dict[str, Any] | None:
    """Return the game system's id and the versions checked, or None for a system ambush has no versions of"""
    settings = defs.targets["foundry"].settings
    versions = settings["checked_versions"]
    return {"system_id": settings["system_id"], "versions": versions} if versions else None


def surprise_macro(defs: Definitions) -> dict[str, str]:
    """Return the names of the macro pack and of its macro that opens the dialog, as the manifest and pack give them"""
    [document] = [doc for doc in macro_documents(defs) if doc["flags"][defs.module.id]["macro"] == "surprise"]
    [pack] = [pack["label"] for pack in manifest(defs, [])["packs"] if pack["name"] == PACK_NAME]
    return {"pack": pack, "macro": document["name"]}


class FoundryWriter:
    """Render a campaign's definitions into a Foundry module; owns the Jinja environment"""

    def __init__(self) -> None:
        self.env = make_environment("foundry")

    def modules(self, defs: Definitions) -> list[JsModule]:
        """Return the module's scripts: the entries and what they import, the configuration rendered for defs"""
        config = render_config(self.env, defs, f"the Foundry module {defs.module.id}", config_entries(defs))

        def source(path: str) -> str:
            return config if path == CONFIG_MODULE else module_source(templates_root(), path)

        return module_graph(entry_modules(defs.system, HOST_ENTRY), source)

    def write(self, defs: Definitions, folder: Path, tree: OutputTree) -> None:
        """Write the whole module into folder"""
        modules = self.modules(defs)
        for module in modules:
            tree.write_text(folder / SCRIPTS_DIR / module.path, module.text)
        css = self.env.get_template("styles/ambush.css").render(module_id=defs.module.id)
        tree.write_text(folder / "styles" / "ambush.css", css)
        for language, strings in build_strings(defs, modules).items():
            tree.write_text(folder / "lang" / f"{language}.json", json_text({defs.module.id: nest(strings)}))
        esmodules = [f"{SCRIPTS_DIR}/{path}" for path in entry_modules(defs.system, HOST_ENTRY)]
        tree.write_text(folder / "module.json", json_text(manifest(defs, esmodules)))
        documents = macro_documents(defs)
        write_sources(documents, folder / SOURCES_DIR / PACK_NAME, tree)
        write_leveldb(documents, folder / "packs" / PACK_NAME, tree)


def json_text(data: Any) -> str:
    """Render JSON the way every generated JSON file is written: 2-space indent, UTF-8, final newline"""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
