"""Render the JavaScript rules core of one system, as an ES module or as a function body"""

from __future__ import annotations

from jinja2 import Environment

from exporter.rules.systems import system_module


def rules_context(system: str, options: dict | None = None) -> dict:
    """Return what the rules template needs: the system's constants and its option values"""
    module = system_module(system)
    defaults = module.Options().model_dump(mode="json")
    return {"system": system, "constants": module.CONSTANTS, "options": {**defaults, **(options or {})}}


def render_rules_js(env: Environment, system: str, *, as_module: bool, options: dict | None = None) -> str:
    """Render the rules core; as_module ends it with exports, otherwise with a return of the same names"""
    return env.get_template(f"rules/{system}.js").render(**rules_context(system, options), as_module=as_module)
