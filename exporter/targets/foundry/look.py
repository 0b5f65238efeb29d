"""How the Foundry module shows the neutral statuses and macros: core icons, and a game system's own statuses"""

from __future__ import annotations

from typing import Any

from exporter.definitions import Definitions

# Foundry core icons, by the neutral status and macro ids of the definitions layer.
STATUS_ICONS = {"surprised": "icons/svg/daze.svg", "prone": "icons/svg/falling.svg", "sleep": "icons/svg/sleep.svg",
                "unaware": "icons/svg/blind.svg"}
MACRO_ICONS = {"surprise": "icons/svg/daze.svg", "clear": "icons/svg/cancel.svg", "recovery": "icons/svg/d20-grey.svg",
               "side-roll": "icons/svg/d20-grey.svg", "spot-test": "icons/svg/eye.svg"}

# Status ids a game system may already define for a status, in preference order: the module reuses the first
# one CONFIG.statusEffects has rather than adding its own (docs/dev/foundry.md §6).
STATUS_REUSE = {"surprised": ("surprised",), "prone": ("prone",), "sleep": ("sleep", "unconscious"),
                "unaware": ("unaware",)}
# What a Foundry game system defines itself, by its package id: GURPS Game Aid's mental stun is the stun of a
# GURPS surprise (docs/rules/gurps4e.md#turn-by-turn: Do Nothing, -4, no retreat).
GAME_SYSTEM_REUSE = {"gurps": {"surprised": ("mentalstun",)}}


def status_entries(defs: Definitions) -> list[dict[str, Any]]:
    """Return the statuses as the module's STATUSES constant: id, label, icon and the ids to reuse"""
    extra = GAME_SYSTEM_REUSE.get(defs.targets["foundry"].settings["system_id"] or "", {})
    return [{"id": s.id, "label": s.label, "icon": STATUS_ICONS[s.id],
             "reuse": [*STATUS_REUSE[s.id], *extra.get(s.id, ())]} for s in defs.statuses]
