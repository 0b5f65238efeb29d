"""The page itself: the table's modules bundled into one inline script, the stylesheet inline, a policy that lets
nothing else run or load (no network, no server: the page works from file://)"""

from __future__ import annotations

import base64
import hashlib
import re

from jinja2 import Template

from exporter import __version__
from exporter.definitions import Definitions
from exporter.targets.modules import JsModule, ModuleError, bundle, module_constant

# What would end an inline <script> or <style> early, or open a comment inside one (HTML's script data states).
CLOSES = re.compile(r"</(?:script|style)|<!--", re.I)


def csp_hash(text: str) -> str:
    """Return the Content-Security-Policy source that allows exactly this inline script or stylesheet"""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def script_text(defs: Definitions, modules: list[JsModule], entry: str) -> str:
    """Return the page's one script: every module in a function scope, each after those it imports"""
    return "\n".join([
        "",
        f"// The table's modules of ambush {__version__} (templates/common and templates/web) for {defs.system}, each",
        "// in a function scope after the modules it imports: generated from a campaign.toml, edit that and rebuild.",
        "(() => {",
        '  "use strict";',
        "",
        bundle(modules),
        "",
        f"  {module_constant(entry)}.start();",
        "})();",
        "",
    ])


def page_html(template: Template, defs: Definitions, modules: list[JsModule], style: str, entry: str) -> str:
    """Return the page: the template around the inline stylesheet and script, both allowed by hash and nothing else"""
    script = script_text(defs, modules, entry)
    for name, text in (("the page's script", script), ("templates/web/style.css", style)):
        if found := CLOSES.search(text):
            raise ModuleError("web/index.html", f"{name} holds {found.group(0)!r}, which would end it early")
    policy = (f"default-src 'none'; script-src {csp_hash(script)}; style-src {csp_hash(style)}; img-src data:; "
              "base-uri 'none'; form-action 'none'")
    return template.render(language=defs.module.default_language, title=defs.module.title, policy=policy,
                           style=style, script=script, ambush_version=__version__)
