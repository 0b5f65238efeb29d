"""Scenario data kept to what its procedure reads, for the tests that draw or write fields of every procedure"""

from __future__ import annotations

from typing import Any

from exporter.rules.shared import STRUCTURE
from exporter.rules.systems import system_module


def applicable(data: dict[str, Any]) -> dict[str, Any]:
    """Return scenario data without the fields only another procedure reads (the rules refuse them)"""
    module = system_module(data["system"])
    spellings: dict[str, tuple[str, ...]] = getattr(module, "INPUT_SPELLINGS", {})
    inputs = module.INPUTS[data["procedure"]]
    every = {level: {key for levels in module.INPUTS.values() for key, *_ in levels.get(level, ())}
             for level in STRUCTURE}

    def keep(level: str, table: dict[str, Any]) -> dict[str, Any]:
        read = {key for key, *_ in inputs.get(level, ())}
        read |= {alias for key in read for alias in spellings.get(key, ())}
        known = every[level] | {alias for key in every[level] for alias in spellings.get(key, ())}
        return {key: value for key, value in table.items() if key in read or key not in known}

    kept = keep("scenario", data)
    if isinstance(data.get("sides"), dict):
        kept["sides"] = {key: {**keep("side", side), "members": [keep("member", m) for m in side.get("members", [])]}
                         if isinstance(side, dict) else side for key, side in data["sides"].items()}
    return kept
