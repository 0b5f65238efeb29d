"""The Roll20 target: one Mod script, its script.json, an install README and chat macros"""

from __future__ import annotations

import html
import json
import re
from dataclasses import asdict
from pathlib import Path
from typing import Any

from exporter import __version__
from exporter.definitions import Definitions
from exporter.dist import source_date_epoch, write_text
from exporter.targets.environment import make_environment
from exporter.targets.roll20.macros import chat_macros
from exporter.targets.roll20.markers import status_markers
from exporter.targets.roll20.strings import script_strings
from exporter.targets.rules_js import render_common_js


def script_name(campaign_id: str) -> str:
    """Turn a campaign id into the script's JS identifier: ambush-gurps-example -> AmbushGurpsExample"""
    name = "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", campaign_id) if part)
    return name if name[:1].isalpha() else f"Surprise{name}"


class Roll20Writer:
    """Render a campaign's definitions into the Roll20 files; owns the Jinja environment"""

    def __init__(self) -> None:
        self.env = make_environment("roll20")
        self.env.filters["reader_text"] = reader_text

    def context(self, defs: Definitions) -> dict[str, Any]:
        """Return what the Roll20 templates read; the script's strings are those its rendered code refers to"""
        settings = defs.targets["roll20"].settings
        procedures = [{"id": p.id, "inputs": [asdict(i) for i in p.inputs]} for p in defs.procedures]
        context = {
            "ambush_version": __version__,
            "script_name": script_name(defs.module.id),
            "module_id": defs.module.id,
            "version": defs.module.version,
            "last_update": source_date_epoch(),  # the banner's date: fixed, for reproducible builds
            "system": defs.system,
            "common": render_common_js(self.env, defs.system, as_module=False, options=defs.options,
                                       procedures=procedures),
            "attributes": defs.targets["roll20"].attributes,
            "markers": status_markers(defs),
            "side_rule": settings["side_rule"],
            "settings": {s.key: {"default": s.default, "choices": list(s.choices)} for s in defs.settings},
            "strings": {},
            "macros": chat_macros(defs),
            "publishable": publishable(defs),
        }
        context["strings"] = script_strings(defs, self.env.get_template("script.js").render(**context))
        return context

    def write(self, defs: Definitions, folder: Path) -> None:
        """Write the script, script.json, the README and the macros into folder"""
        context = self.context(defs)
        name = context["script_name"]
        write_text(folder / f"{name}.js", self.env.get_template("script.js").render(**context))
        if publishable(defs):  # README.md: without user ids the repository would reject script.json
            write_text(folder / "script.json", json.dumps(script_json(defs, name), indent=2, ensure_ascii=False) + "\n")
        write_text(folder / "README.md", self.env.get_template("README.md").render(**context))
        for macro in context["macros"]:
            write_text(folder / "macros" / f"{macro['id']}.txt", macro["action"] + "\n")


def reader_text(reader: dict[str, Any]) -> str:
    """Describe a sheet reader for the README: an attribute, set-only attributes or a section's named row"""
    if "set" in reader:
        return " or ".join(f"`{name}`" for name in reader["set"]) + " where set on the character"
    if "section" in reader:
        field = f"`{reader['value']}` of " if reader.get("value") else ""
        return f"{field}the `{reader['section']}` row named `{html.escape(reader['name'])}`"
    return f"`{reader['attribute']}`"


def publishable(defs: Definitions) -> bool:
    """Tell whether the campaign names the authors' Roll20 user ids, which the one-click repository requires"""
    return bool(defs.targets["roll20"].settings["user_ids"])


def unpublishable_warning(campaign_id: str) -> str:
    """Say what a campaign lacks for the one-click repository, and what was left out for it"""
    return (f"{campaign_id}: script.json not written: [roll20] user_ids is not set; the one-click script repository "
            "requires the authors' Roll20 user ids (the script itself works when pasted into the Mod page)")


def script_json(defs: Definitions, name: str) -> dict[str, Any]:
    """Return script.json in the format of the public Roll20 script repository"""
    module = defs.module
    return {
        "name": module.title,
        "script": f"{name}.js",
        "version": module.version,
        "previousversions": [],
        "description": module.description or f"Surprise rules for {defs.system}. Type !surprise help in chat.",
        "authors": ", ".join(a.name for a in module.authors) or "ambush",
        "roll20userid": ",".join(defs.targets["roll20"].settings["user_ids"]),
        "useroptions": [],
        "dependencies": [],
        "modifies": {f"state.{name}": "read,write", "graphic.statusmarkers": "read,write",
                     "campaign.turnorder": "read,write", "macro": "read,write"},
        "conflicts": [],
    }
