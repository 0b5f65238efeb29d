"""The automation's world settings every target offers, and what a platform must have for each, in no VTT's words"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from exporter.platforms import PLATFORMS


@dataclass(frozen=True)
class SettingDef:
    """A world setting of the automation, and what a platform must offer for it (its registry capabilities)"""

    key: str
    type: str
    default: Any
    choices: tuple[str, ...] = ()
    needs: str | None = None  # a capability of exporter/platforms.py; None: every platform has the setting

    def entry(self) -> dict[str, Any]:
        """Return the setting as a target's configuration writes it"""
        return {"key": self.key, "type": self.type, "default": self.default, "choices": list(self.choices)}


SETTINGS: tuple[SettingDef, ...] = (
    SettingDef("automation", "boolean", True),
    SettingDef("skipSurprisedTurns", "boolean", True),
    # Who sees the cards: the outcome to all and the rolls to the GM, everything to all, or everything to the GM.
    SettingDef("chatVisibility", "string", "split", ("split", "public", "gm")),
    # Open the surprise dialog when the GM begins a combat with combatants on both sides, and begin it after the
    # roll: only where a combat has a beginning the table hears before it happens.
    SettingDef("surpriseAtCombatStart", "boolean", True, needs="combat-start"),
)


def setting_entries(settings: tuple[SettingDef, ...], target: str) -> list[dict[str, Any]]:
    """Return the settings that apply to a target, as its configuration writes them"""
    offered = PLATFORMS[target].capabilities
    return [setting.entry() for setting in settings if setting.needs is None or setting.needs in offered]
