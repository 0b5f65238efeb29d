"""Render the common JavaScript of one system, as ES modules for Foundry or as function bodies for Roll20

The same templates (`templates/common/`) become both: the rules core, its exact odds, the table bookkeeping, the input
checks, the scenario file export and the system's table runtime. Only their import lines (ES module) or closing
`return` (function body) differ.
"""

from __future__ import annotations

from typing import Any

from jinja2 import Environment

from exporter.rules.shared import SIDE_KEYS, TAIL_CUT
from exporter.rules.systems import system_module


def rules_context(system: str, options: dict | None = None) -> dict:
    """Return what the rules template needs: the system's constants and its option values"""
    module = system_module(system)
    defaults = module.Options().model_dump(mode="json")
    odds = {"unit": module.UNIT, "tail_cut": [TAIL_CUT.numerator, TAIL_CUT.denominator]}
    return {"system": system, "constants": module.CONSTANTS, "options": {**defaults, **(options or {})}, "odds": odds,
            "side_keys": SIDE_KEYS}


def render_rules_js(env: Environment, system: str, *, as_module: bool, options: dict | None = None) -> str:
    """Render the rules core; as_module ends it with exports, otherwise with a return of the same names"""
    return env.get_template(f"rules/{system}.js").render(**rules_context(system, options), as_module=as_module)


def common_templates(system: str) -> dict[str, str]:
    """Name the common files of a system, each rendered to <name>.js, in the order the Roll20 IIFE runs them"""
    return {"rules": f"rules/{system}.js", "odds": f"odds/{system}.js", "table": "table.js", "inputs": "inputs.js",
            "export": "export.js", "runtime": f"runtime/{system}.js"}


def render_common_js(env: Environment, system: str, *, as_module: bool, options: dict[str, Any],
                     procedures: list[dict[str, Any]]) -> dict[str, str]:
    """Render every common file of a system, keyed by its name in common_templates"""
    context = {**rules_context(system, options), "procedures": procedures, "as_module": as_module}
    templates = common_templates(system)
    return {name: env.get_template(path).render(**context).rstrip() + "\n" for name, path in templates.items()}
