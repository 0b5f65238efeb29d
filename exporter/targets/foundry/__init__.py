"""The Foundry VTT target: render definitions into an unpacked module folder"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from exporter import __version__
from exporter._resources import templates_root
from exporter.definitions import Definitions
from exporter.definitions.catalogue import nest
from exporter.dist import write_text
from exporter.targets.environment import make_environment
from exporter.targets.foundry.look import status_entries
from exporter.targets.foundry.manifest import PACK_NAME, manifest
from exporter.targets.foundry.packs import macro_documents, write_leveldb, write_sources
from exporter.targets.rules_js import render_common_js

SOURCES_DIR = "packs/_source"


class FoundryWriter:
    """Render a campaign's definitions into a Foundry module; owns the Jinja environment"""

    def __init__(self) -> None:
        self.env = make_environment("foundry")
        self.script_names = sorted(p.name for p in (templates_root() / "foundry" / "scripts").glob("*.js"))

    def context(self, defs: Definitions) -> dict[str, Any]:
        """Return what the script templates read"""
        return {
            "ambush_version": __version__,
            "module_id": defs.module.id,
            "system": defs.system,
            "attributes": defs.targets["foundry"].attributes,
            "statuses": status_entries(defs),
            "procedures": [{"id": p.id, "inputs": [asdict(i) for i in p.inputs]} for p in defs.procedures],
            "settings": [asdict(s) for s in defs.settings],
        }

    def write(self, defs: Definitions, folder: Path) -> None:
        """Write the whole module into folder"""
        context = self.context(defs)
        for name in self.script_names:
            write_text(folder / "scripts" / name, self.env.get_template(f"scripts/{name}").render(**context))
        common = render_common_js(self.env, defs.system, as_module=True, options=defs.options,
                                  procedures=context["procedures"])
        for name, text in common.items():
            write_text(folder / "scripts" / f"{name}.js", text)
        write_text(folder / "styles" / "ambush.css", self.env.get_template("styles/ambush.css").render(**context))
        for language, strings in defs.catalogue.items():
            write_text(folder / "lang" / f"{language}.json", json_text({defs.module.id: nest(strings)}))
        write_text(folder / "module.json", json_text(manifest(defs)))
        documents = macro_documents(defs)
        write_sources(documents, folder / SOURCES_DIR / PACK_NAME)
        write_leveldb(documents, folder / "packs" / PACK_NAME)


def json_text(data: Any) -> str:
    """Render JSON the way every generated JSON file is written: 2-space indent, UTF-8, final newline"""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
