"""The macros every target offers the GM, by neutral id, in no VTT's words"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MacroDef:
    """A macro the GM can run: its neutral id and the catalogue key of its label"""

    id: str
    label: str


# Every system's macros: open the dialog, the system's own GM rolls (GM_ROLLS of its rules module), clear.
OPEN_DIALOG, CLEAR = "surprise", "clear"
MACRO_LABELS = {"surprise": "Macro.Surprise", "clear": "Macro.Clear", "recovery": "Macro.Recovery",
                "side-roll": "Macro.SideRoll", "spot-test": "Macro.SpotTest"}


def macro_defs(gm_rolls: tuple[str, ...]) -> tuple[MacroDef, ...]:
    """Describe a system's macros: the dialog, its GM rolls, clear"""
    return tuple(MacroDef(macro, MACRO_LABELS[macro]) for macro in (OPEN_DIALOG, *gm_rolls, CLEAR))
