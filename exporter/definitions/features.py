"""The statuses, settings and macros every target offers, by neutral id, in no VTT's words"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from exporter.platforms import PLATFORMS


@dataclass(frozen=True)
class StatusDef:
    """A status the rules mark on a combatant: its neutral id and the catalogue key of its label"""

    id: str
    label: str


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


@dataclass(frozen=True)
class MacroDef:
    """A macro the GM can run: its neutral id and the catalogue key of its label"""

    id: str
    label: str


# The catalogue key of each status label, by the status ids the rules modules declare (STATUSES).
STATUS_LABELS = {"surprised": "Status.Surprised", "prone": "Status.Prone", "sleep": "Status.Asleep",
                 "unaware": "Status.Unaware"}

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

# Every system's macros: open the dialog, the system's own GM rolls (GM_ROLLS of its rules module), clear.
OPEN_DIALOG, CLEAR = "surprise", "clear"
MACRO_LABELS = {"surprise": "Macro.Surprise", "clear": "Macro.Clear", "recovery": "Macro.Recovery",
                "side-roll": "Macro.SideRoll", "spot-test": "Macro.SpotTest"}


def status_defs(ids: tuple[str, ...]) -> tuple[StatusDef, ...]:
    """Describe the statuses of a rules module"""
    return tuple(StatusDef(status, STATUS_LABELS[status]) for status in ids)


def macro_defs(gm_rolls: tuple[str, ...]) -> tuple[MacroDef, ...]:
    """Describe a system's macros: the dialog, its GM rolls, clear"""
    return tuple(MacroDef(macro, MACRO_LABELS[macro]) for macro in (OPEN_DIALOG, *gm_rolls, CLEAR))

