"""The web target: one self-contained page (dist/<id>/web/index.html) for a GM at a table without a VTT"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from exporter import __version__
from exporter._resources import template_text, templates_root
from exporter.definitions import Definitions
from exporter.dist import OutputTree
from exporter.limits import file_limits
from exporter.targets.config_js import ConfigEntry, render_config, settings_entry
from exporter.targets.environment import make_environment
from exporter.targets.modules import JsModule, entry_modules
from exporter.targets.strings import bundled_modules
from exporter.targets.web.page import page_html

HOST_ENTRY = "web/main.js"
PAGE = "index.html"
README = "README.md"


def storage_key(campaign_id: str) -> str:
    """Return the localStorage key the page keeps its encounter under: one per campaign"""
    return f"ambush:{campaign_id}"


def config_entries(defs: Definitions, strings: dict[str, dict[str, str]]) -> list[ConfigEntry]:
    """Return what the page's configuration adds to the shared entries"""
    return [
        ConfigEntry("TITLE", "The campaign's title, which heads the page", defs.module.title),
        ConfigEntry("VERSION", "The campaign's version", defs.module.version),
        ConfigEntry("STORAGE_KEY", "The localStorage key the page keeps its encounter under: one per campaign",
                    storage_key(defs.module.id)),
        settings_entry(defs, "web"),
        ConfigEntry("STATUSES", "The statuses the rules mark, each with the catalogue key of its label",
                    [{"id": status.id, "label": status.label} for status in defs.statuses]),
        ConfigEntry("FILE_LIMITS", "The limits on a scenario file the page opens, as ambush keeps them "
                    "(exporter/limits.py)", file_limits()),
        ConfigEntry("STRINGS", "Every string the page shows, per language", strings),
        ConfigEntry("DEFAULT_LANGUAGE", "The language the page speaks until the GM picks another: the campaign's "
                    "default_language", defs.module.default_language),
    ]


class WebWriter:
    """Render a campaign's definitions into its web page; owns the Jinja environment"""

    def __init__(self) -> None:
        self.env = make_environment("web")
        self.root = templates_root()

    def render_config(self, defs: Definitions, strings: dict[str, dict[str, str]]) -> str:
        """Render the page's configuration module, carrying these strings"""
        return render_config(self.env, defs, f"the web page of {defs.module.id}", config_entries(defs, strings))

    def modules(self, defs: Definitions) -> list[JsModule]:
        """Return the page's modules in running order, the configuration carrying the strings they declare"""
        return bundled_modules(defs, entry_modules(defs.system, HOST_ENTRY), self.root,
                               lambda strings: self.render_config(defs, strings))

    def page(self, defs: Definitions) -> str:
        """Return the page"""
        style = template_text("web/style.css")
        return page_html(self.env.get_template(PAGE), defs, self.modules(defs), style, HOST_ENTRY)

    def readme_context(self, defs: Definitions) -> dict[str, Any]:
        """Return what the README template reads: checked names and codes only, never the campaign's free text"""
        return {
            "ambush_version": __version__,
            "module_id": defs.module.id,
            "version": defs.module.version,
            "system": defs.system,
            "languages": list(defs.module.languages),
            "default_language": defs.module.default_language,
            "storage_key": storage_key(defs.module.id),
            "page": PAGE,
        }

    def write(self, defs: Definitions, folder: Path, tree: OutputTree) -> None:
        """Write the page and its README into folder"""
        tree.write_text(folder / PAGE, self.page(defs))
        tree.write_text(folder / README, self.env.get_template(README).render(**self.readme_context(defs)))
