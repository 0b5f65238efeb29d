"""The Fallout TTRPG rolls a GM can make by hand, as roll procedures (exporter/definitions/rolls/)"""

from __future__ import annotations

from exporter.definitions.rolls import Dice, RollProcedure, Row, Sum, constant, model_input, plus
from exporter.rules import fallout_ttrpg as rules


def procedures() -> tuple[RollProcedure, ...]:
    """Describe the Fallout rolls: the World Map PER + Survival test and the opening Sneak Attack"""
    c = rules.CONSTANTS
    # docs/rules/fallout-ttrpg.md#mechanics: 1d20 + (PER - 5) + Survival
    test = Sum(((1, Dice(1, c["test_die"])), (1, model_input(rules.Member, "per", selected=True)),
                (-1, constant(rules, "special_baseline")),
                (1, model_input(rules.Member, "survival", selected=True))))
    attack = plus(Dice(c["advantage_dice"], c["test_die"], keep_highest=1),
                  model_input(rules.Opener, "attack_bonus"))
    return (
        RollProcedure("surprise-spot-test", "Procedure.world-map",
                      (Row(("RollMacro.Total",), test), Row(("Input.dc",), model_input(rules.Scenario, "dc")))),
        RollProcedure("surprise-sneak-attack", "Procedure.sneak-attack",
                      (Row(("RollMacro.Total",), attack),
                       Row(("Input.target_number",), model_input(rules.Opener, "target_number")))),
    )
