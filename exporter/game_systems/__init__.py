"""The Foundry game systems ambush has an adapter for, by package id: one module each, the build's half of its adapter

What the build knows of a game system (the readers of its sheets, the versions checked, the statuses it has that the
module reuses) lives in its module here; what the module does with them at the table lives in its folder of
templates/foundry/game-systems/, which the world's game.system.id chooses. A world with another game system gets
none/ there and nothing here. Kept apart from exporter/targets/foundry/: loading a campaign reads these defaults
without importing the definitions.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from exporter.game_systems import ars, dnd5e, gurps

GAME_SYSTEMS: dict[str, ModuleType] = {module.GAME_SYSTEM_ID: module for module in (gurps, ars, dnd5e)}


def sheet(game_system: ModuleType) -> dict[str, Any]:
    """Return a game system's entry of the sheets table: its id, the versions checked and its readers"""
    return {"system_id": game_system.GAME_SYSTEM_ID, "versions": game_system.VERSIONS, "readers": game_system.READERS}


def reused_statuses(game_system_id: str | None) -> dict[str, tuple[str, ...]]:
    """Return the status ids a game system has of its own, by the module's status id; none for one without an adapter"""
    game_system = GAME_SYSTEMS.get(game_system_id or "")
    return game_system.REUSED_STATUSES if game_system else {}
