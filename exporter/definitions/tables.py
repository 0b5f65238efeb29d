"""The fixed tables of the definitions layer: statuses, settings, macros and procedure inputs per system"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class StatusDef:
    """A status a VTT shows on a token; reuse lists ids a game system may already define, in preference order"""

    id: str
    label: str
    icon: str
    reuse: tuple[str, ...] = ()
    marker: str = "yellow"


@dataclass(frozen=True)
class SettingDef:
    """A world setting of the automation"""

    key: str
    type: str
    default: Any
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class MacroDef:
    """A macro the GM can run: its label and the API procedure it calls"""

    id: str
    label: str
    call: str
    icon: str


SURPRISED = StatusDef("surprised", "Status.Surprised", "icons/svg/daze.svg", reuse=("surprised",), marker="yellow")
PRONE = StatusDef("prone", "Status.Prone", "icons/svg/falling.svg", reuse=("prone",), marker="brown")
ASLEEP = StatusDef("sleep", "Status.Asleep", "icons/svg/sleep.svg", reuse=("sleep", "unconscious"), marker="purple")
UNAWARE = StatusDef("unaware", "Status.Unaware", "icons/svg/blind.svg", reuse=("unaware",), marker="red")

# RULES.md 1.7 markers: stunned (Do Nothing, -4, no retreat) reuses GURPS Game Aid's mental stun (FOUNDRY.md 6).
STATUSES: dict[str, tuple[StatusDef, ...]] = {
    "gurps4e": (StatusDef("surprised", "Status.Surprised", "icons/svg/daze.svg", reuse=("surprised", "mentalstun"),
                          marker="yellow"), UNAWARE),
    "adnd1e": (SURPRISED,),
    "fallout-ttrpg": (SURPRISED, PRONE, ASLEEP),
}

SETTINGS: tuple[SettingDef, ...] = (
    SettingDef("automation", "boolean", True),
    SettingDef("skipSurprisedTurns", "boolean", True),
    SettingDef("chatVisibility", "string", "public", ("public", "gm")),
)

OPEN_DIALOG = MacroDef("surprise", "Macro.Surprise", "openDialog", "icons/svg/daze.svg")
CLEAR = MacroDef("clear", "Macro.Clear", "clear", "icons/svg/cancel.svg")
MACROS: dict[str, tuple[MacroDef, ...]] = {
    "gurps4e": (OPEN_DIALOG, MacroDef("recovery", "Macro.Recovery", "recoveryRoll", "icons/svg/d20-grey.svg"), CLEAR),
    "adnd1e": (OPEN_DIALOG, MacroDef("side-roll", "Macro.SideRoll", "sideRoll", "icons/svg/d20-grey.svg"), CLEAR),
    "fallout-ttrpg": (OPEN_DIALOG, MacroDef("spot-test", "Macro.SpotTest", "spotTest", "icons/svg/eye.svg"), CLEAR),
}

# The inputs each procedure reads, by where they live, each with the sides that must give it ("ab", "a",
# "b", "surprising" or "watching" for the side the scenario's `surprising` names or the other one, or "" when
# optional) and, for an input only a house rule reads, that rules option; names are the rules
# models' field names.
PROCEDURE_INPUTS: dict[str, dict[str, dict[str, tuple[tuple[str, ...], ...]]]] = {
    "gurps4e": {
        "partial": {"side": (("leader", ""), ("animals", ""), ("gm_modifier", "")),
                    "member": (("iq", "ab"), ("combat_reflexes", ""), ("tactics", ""))},
        "total": {"scenario": (("surprising", ""),), "member": (("iq", "ab"), ("combat_reflexes", ""))},
        "quick-contest": {"scenario": (("surprising", ""),), "side": (("expecting_trouble", ""),),
                          "member": (("iq", "ab"), ("combat_reflexes", ""), ("stealth", "surprising"),
                                     ("per", "watching"))},
    },
    "adnd1e": {
        "roll": {"side": (("surprised_on", ""), ("surprises_on", ""), ("aware", "")),
                 "member": (("dex", ""), ("surprise_adjustment", ""), ("surprised_on", "", "side_best_rating"),
                            ("surprises_on", "", "side_best_rating"), ("encumbered", "", "dex_encumbrance_gate"))},
    },
    "fallout-ttrpg": {
        "world-map": {"scenario": (("dc", "ab"), ("hunting", "")),
                      "member": (("per", "a"), ("survival", "a"), ("cautious_nature", ""), ("asleep", ""),
                                 ("sequence", ""))},
        "sneak-attack": {"scenario": (("openers", "ab"),),
                         "member": (("cautious_nature", ""), ("asleep", ""), ("sequence", ""))},
    },
}


def option_gated_inputs(system: str) -> dict[str, str]:
    """Return the member inputs of a system that only a rules option reads, with that option"""
    return {entry[0]: entry[2] for levels in PROCEDURE_INPUTS[system].values()
            for entry in levels.get("member", ()) if len(entry) > 2}
