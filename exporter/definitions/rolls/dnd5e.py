"""The D&D 5e rolls a GM can make by hand, as roll procedures (exporter/definitions/rolls/)"""

from __future__ import annotations

from exporter.definitions.rolls import Dice, RollProcedure, Row, lowest, model_input, plus
from exporter.rules import dnd5e as rules


def procedures() -> tuple[RollProcedure, ...]:
    """Describe the 5e rolls: a hider's Stealth check against a watcher's passive Perception, and the 2024
    Initiative of a surprised creature"""
    d20 = Dice(1, rules.CONSTANTS["d20"])
    # docs/rules/dnd5e.md#readings, D2: d20 + Stealth, kept hidden from a passive Perception it meets (D4)
    stealth = plus(d20, model_input(rules.Member, "stealth", selected=True))
    # D9: a surprised creature rolls Initiative with Disadvantage, the lower of two d20
    initiative = plus(lowest(d20, d20), model_input(rules.Member, "initiative", selected=True))
    return (
        RollProcedure("surprise-stealth-check", "RollMacro.Dnd5e.Stealth",
                      (Row(("RollMacro.Total",), stealth),
                       Row(("Input.passive_perception",), text="RollMacro.Dnd5e.StealthRule"))),
        RollProcedure("surprise-initiative-disadvantage", "RollMacro.Dnd5e.Initiative",
                      (Row(("RollMacro.Total",), initiative),)),
    )
