"""The Foundry module's statuses: each neutral status's core icon, and the status ids a world may already have for it"""

from __future__ import annotations

from typing import Any

from exporter.definitions import Definitions
from exporter.game_systems import reused_statuses

# Foundry core icons, by the neutral status ids of the definitions layer.
STATUS_ICONS = {"surprised": "icons/svg/daze.svg", "prone": "icons/svg/falling.svg", "sleep": "icons/svg/sleep.svg",
                "unaware": "icons/svg/blind.svg"}

# Status ids a game system may already define for a status, in preference order: the module reuses the first
# one CONFIG.statusEffects has rather than adding its own (docs/dev/foundry.md §6).
STATUS_REUSE = {"surprised": ("surprised",), "prone": ("prone",), "sleep": ("sleep", "unconscious"),
                "unaware": ("unaware",)}


def status_entries(defs: Definitions) -> list[dict[str, Any]]:
    """Return the statuses as the module's STATUSES constant: id, label, icon and the ids to reuse"""
    extra = reused_statuses(defs.targets["foundry"].settings["system_id"])
    return [{"id": s.id, "label": s.label, "icon": STATUS_ICONS[s.id],
             "reuse": [*STATUS_REUSE[s.id], *extra.get(s.id, ())]} for s in defs.statuses]
