"""The GURPS rolls a GM can make by hand, as roll procedures (exporter/definitions/rolls/)"""

from __future__ import annotations

from exporter.definitions.rolls import (
    Choice,
    Dice,
    Number,
    Product,
    Prompt,
    RollProcedure,
    Row,
    Term,
    constant,
    highest,
    minus,
    model_input,
    plus,
    side_label,
)
from exporter.rules import gurps4e as rules
from exporter.rules.shared import SIDE_KEYS

FIRST_TURN = 1  # docs/rules/gurps4e.md#partial-surprise: a stunned character's own turns count k = 1, 2, 3, ...


def success_rule_values() -> dict[str, int]:
    """Return the numbers of the B348 success rule: the 3d6 range, the sure results, the lowest rollable target"""
    c = rules.CONSTANTS
    return {"lowest_roll": c["success_dice"], "highest_roll": c["success_dice"] * c["success_die"],
            "sure_success": c["sure_success"], "sure_failure": c["sure_failure"],
            "lowest_rollable": c["lowest_rollable"]}


SUCCESS_RULE = Row(("RollMacro.Gurps.SuccessRoll",), text="RollMacro.Gurps.SuccessRule")


def procedures() -> tuple[RollProcedure, ...]:
    """Describe the GURPS rolls: initiative, the sneaking contest, the freeze and the recovery roll"""
    success = Dice(rules.CONSTANTS["success_dice"], rules.CONSTANTS["success_die"])
    contest = []
    for key in ("stealth", "per"):
        skill = model_input(rules.Member, key)
        contest += [Row((f"Input.{key}",), success), Row((f"Input.{key}", "RollMacro.Skill"), skill)]
    return (
        initiative_procedure(),
        RollProcedure("surprise-contest", "RollMacro.Gurps.Contest", (*contest, SUCCESS_RULE), success_rule_values()),
        RollProcedure("surprise-freeze", "RollMacro.Gurps.Freeze",
                      (Row(("RollMacro.Seconds",), Dice(1, rules.CONSTANTS["freeze_die"])),)),
        RollProcedure("surprise-recovery", "RollMacro.Gurps.Recovery",
                      (Row(("RollMacro.Roll",), success), Row(("RollMacro.Target",), recovery_target()), SUCCESS_RULE),
                      success_rule_values()),
    )


def initiative_procedure() -> RollProcedure:
    """Describe B393's initiative: each side's 1d6 plus the sum of its modifiers, which the prompt lists"""
    die = Dice(1, rules.CONSTANTS["initiative_die"])
    rows = tuple(Row((side_label(key),), plus(die, Prompt("RollMacro.Gurps.SideModifiers", 0, key)))
                 for key in SIDE_KEYS)
    return RollProcedure("surprise-initiative", "RollMacro.Gurps.Initiative", rows,
                         rules.CONSTANTS["initiative_bonus"])


def recovery_target() -> Term:
    """Describe the recovery target: IQ + CR bonus, + (turn - 1) under partial surprise or with CR (A3, A4, A12)"""
    cr = model_input(rules.Member, "combat_reflexes")
    turn = Prompt("RollMacro.Gurps.Turn", FIRST_TURN)
    kind = Choice("RollMacro.Gurps.Kind", (("Procedure.partial", Number(1)), ("Procedure.total", Number(0))))
    # docs/rules/gurps4e.md#total-surprise: Combat Reflexes treats total surprise as partial, so the progression
    # applies when either does.
    progression = Product((minus(turn, Number(FIRST_TURN)), highest(kind, cr)))
    return plus(model_input(rules.Member, "iq", selected=True),
                Product((constant(rules, "combat_reflexes_recovery"), cr)), progression)
