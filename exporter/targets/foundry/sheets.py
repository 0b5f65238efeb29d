"""The Foundry sheets GMs use: the game system each rules system usually runs on, and its readers

A reader is an actor data path or a named entry of a game system's lists; each game system's readers, the versions
they were checked against and the rules system it serves live beside its adapter (exporter/game_systems/).
tests/test_sheets.py checks the defaults against the sheets' characters.
"""

from __future__ import annotations

from typing import Any

from exporter.game_systems import GAME_SYSTEMS, sheet

# The game system each rules system usually runs on, by the rules system's id
FOUNDRY_SHEETS: dict[str, dict[str, Any]] = {module.RULES_SYSTEM: sheet(module) for module in GAME_SYSTEMS.values()}


def foundry_sheet(system: str) -> dict[str, Any]:
    """Return the Foundry game system and the default reader of each input a system usually meets"""
    entry = FOUNDRY_SHEETS.get(system)
    if entry is None:
        return {"system_id": None, "attributes": {}, "versions": []}
    readers = {key: reader for key, (reader, _) in entry["readers"].items()}
    return {"system_id": entry["system_id"], "attributes": readers, "versions": list(entry["versions"])}


def foundry_reader(reader: Any) -> dict[str, str]:
    """Normalise a Foundry reader: a data path string becomes {"path": ...}"""
    return {"path": reader} if isinstance(reader, str) else dict(reader)
