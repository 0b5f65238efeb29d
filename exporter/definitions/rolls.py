"""Roll procedures as data: the dice and terms of each roll a GM can make by hand, in no VTT's syntax

Every number is a rules module's CONSTANTS entry or a rules model's field default, so a rendered roll
computes what the rules core computes. Labels and texts are catalogue keys; a text may hold {name}
placeholders that the procedure's values fill.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel

from exporter.rules import adnd1e, fallout_ttrpg, gurps4e
from exporter.rules.shared import SIDE_KEYS, SideKey, other

FIRST_TURN = 1  # docs/rules/gurps4e.md#partial-surprise: a stunned character's own turns count k = 1, 2, 3, ...


@dataclass(frozen=True)
class Dice:
    """Roll count dice of sides faces and add them, or add only the keep_highest highest"""

    count: int
    sides: int
    keep_highest: int | None = None


@dataclass(frozen=True)
class Constant:
    """A rule constant: its key in the rules module's CONSTANTS and its value"""

    name: str
    value: int


@dataclass(frozen=True)
class Number:
    """A plain number of the arithmetic itself (1 in turn - 1, the 0 floor), not a rule constant"""

    value: int


@dataclass(frozen=True)
class Input:
    """A rules model's field: a number, or a boolean that counts 1 when true; default as in the model"""

    key: str
    type: Literal["number", "boolean"]
    default: Any = None
    side: SideKey | None = None
    selected: bool = False  # belongs to the character the roll is for, whose sheet a VTT may read


@dataclass(frozen=True)
class Prompt:
    """A number the roller gives that no rules model holds: a turn, a side's sum of modifiers"""

    label: str
    default: int | None = None
    side: SideKey | None = None


@dataclass(frozen=True)
class Choice:
    """One of several labelled terms, picked by the roller"""

    label: str
    options: tuple[tuple[str, Term], ...]


@dataclass(frozen=True)
class Sum:
    """Terms added (+1) or subtracted (-1), in order"""

    terms: tuple[tuple[int, Term], ...]


@dataclass(frozen=True)
class Product:
    """Terms multiplied"""

    factors: tuple[Term, ...]


@dataclass(frozen=True)
class Extreme:
    """The highest or the lowest of terms"""

    highest: bool
    terms: tuple[Term, ...]


Term = Dice | Constant | Number | Input | Prompt | Choice | Sum | Product | Extreme


@dataclass(frozen=True)
class Row:
    """One labelled line of a roll: a term to roll, or a rule the roll cannot compute, as text"""

    label: tuple[str, ...]
    term: Term | None = None
    text: str | None = None


@dataclass(frozen=True)
class RollProcedure:
    """One roll a GM can make by hand: its id, title, lines and the values its texts show"""

    id: str
    title: str
    rows: tuple[Row, ...]
    values: Mapping[str, int] = field(default_factory=dict)


def plus(*terms: Term) -> Sum:
    """Add terms"""
    return Sum(tuple((1, term) for term in terms))


def minus(first: Term, *terms: Term) -> Sum:
    """Subtract terms from the first"""
    return Sum(((1, first), *((-1, term) for term in terms)))


def highest(*terms: Term) -> Extreme:
    """Take the highest of terms"""
    return Extreme(True, terms)


def lowest(*terms: Term) -> Extreme:
    """Take the lowest of terms"""
    return Extreme(False, terms)


def constant(rules: Any, name: str) -> Constant:
    """Name one of a rules module's constants"""
    return Constant(name, rules.CONSTANTS[name])


def model_input(model: type[BaseModel], key: str, *, side: SideKey | None = None, selected: bool = False) -> Input:
    """Describe a rules model's field as an input, with the model's default (None when it has none)"""
    info = model.model_fields[key]
    kind: Literal["number", "boolean"] = "boolean" if info.annotation is bool else "number"
    return Input(key, kind, None if info.is_required() else info.default, side, selected)


def side_label(key: SideKey) -> str:
    """Return the catalogue key of a side's name"""
    return f"Dialog.Side.{key}"


def success_rule_values() -> dict[str, int]:
    """Return the numbers of the B348 success rule: the 3d6 range, the sure results, the lowest rollable target"""
    c = gurps4e.CONSTANTS
    return {"lowest_roll": c["success_dice"], "highest_roll": c["success_dice"] * c["success_die"],
            "sure_success": c["sure_success"], "sure_failure": c["sure_failure"],
            "lowest_rollable": c["lowest_rollable"]}


SUCCESS_RULE = Row(("RollMacro.Gurps.SuccessRoll",), text="RollMacro.Gurps.SuccessRule")


def gurps_procedures() -> tuple[RollProcedure, ...]:
    """Describe the GURPS rolls: initiative, the sneaking contest, the freeze and the recovery roll"""
    success = Dice(gurps4e.CONSTANTS["success_dice"], gurps4e.CONSTANTS["success_die"])
    contest = []
    for key in ("stealth", "per"):
        skill = model_input(gurps4e.Member, key)
        contest += [Row((f"Input.{key}",), success), Row((f"Input.{key}", "RollMacro.Skill"), skill)]
    return (
        initiative_procedure(),
        RollProcedure("surprise-contest", "RollMacro.Gurps.Contest", (*contest, SUCCESS_RULE), success_rule_values()),
        RollProcedure("surprise-freeze", "RollMacro.Gurps.Freeze",
                      (Row(("RollMacro.Seconds",), Dice(1, gurps4e.CONSTANTS["freeze_die"])),)),
        RollProcedure("surprise-recovery", "RollMacro.Gurps.Recovery",
                      (Row(("RollMacro.Roll",), success), Row(("RollMacro.Target",), recovery_target()), SUCCESS_RULE),
                      success_rule_values()),
    )


def initiative_procedure() -> RollProcedure:
    """Describe B393's initiative: each side's 1d6 plus the sum of its modifiers, which the prompt lists"""
    die = Dice(1, gurps4e.CONSTANTS["initiative_die"])
    rows = tuple(Row((side_label(key),), plus(die, Prompt("RollMacro.Gurps.SideModifiers", 0, key)))
                 for key in SIDE_KEYS)
    return RollProcedure("surprise-initiative", "RollMacro.Gurps.Initiative", rows,
                         gurps4e.CONSTANTS["initiative_bonus"])


def recovery_target() -> Term:
    """Describe the recovery target: IQ + CR bonus, + (turn - 1) under partial surprise or with CR (A3, A4, A12)"""
    cr = model_input(gurps4e.Member, "combat_reflexes")
    turn = Prompt("RollMacro.Gurps.Turn", FIRST_TURN)
    kind = Choice("RollMacro.Gurps.Kind", (("Procedure.partial", Number(1)), ("Procedure.total", Number(0))))
    # docs/rules/gurps4e.md#total-surprise: Combat Reflexes treats total surprise as partial, so the progression
    # applies when either does.
    progression = Product((minus(turn, Number(FIRST_TURN)), highest(kind, cr)))
    return plus(model_input(gurps4e.Member, "iq", selected=True),
                Product((constant(gurps4e, "combat_reflexes_recovery"), cr)), progression)


def adnd_procedures() -> tuple[RollProcedure, ...]:
    """Describe the AD&D rolls: each side's d6 against its threshold, and a member's own segments"""
    die = Dice(1, adnd1e.CONSTANTS["die"])
    rows: list[Row] = []
    for key in SIDE_KEYS:
        rows += [Row((side_label(key),), die), Row((side_label(key), "Input.surprised_on"), adnd_threshold(key))]
    rows.append(Row(("RollMacro.Adnd.Segments",), text="RollMacro.Adnd.SegmentsRule"))
    return (
        RollProcedure("surprise-d6", "RollMacro.Adnd.SideRoll", tuple(rows)),
        RollProcedure("surprise-segments", "RollMacro.Adnd.Member",
                      (Row(("RollMacro.Adnd.OwnSegments",), adnd_member_segments()),)),
    )


def adnd_threshold(key: SideKey) -> Term:
    """Describe a side's threshold: own + opponents' rating - the default, within 0..die; 0 if aware or own is 0"""
    # docs/rules/adnd1e.md#threshold, DMG p.62, as adnd1e.threshold
    own = model_input(adnd1e.Side, "surprised_on", side=key)
    combined = minus(plus(own, model_input(adnd1e.Side, "surprises_on", side=other(key))),
                     constant(adnd1e, "default_rating"))
    within = lowest(highest(combined, Number(0)), constant(adnd1e, "max_threshold"))
    # A rating is a whole number from 0, so the lowest of it and 1 is 0 exactly when it is 0.
    return Product((within, lowest(own, Number(1)), minus(Number(1), model_input(adnd1e.Side, "aware", side=key))))


def adnd_member_segments() -> Term:
    """Describe a member's own segments: side segments - adjustment, at least 0; none if the side has none (C3)"""
    side_segments = Prompt("RollMacro.Adnd.SideSegments")
    adjustment = Choice("RollMacro.Adnd.AdjustmentFrom", (("Input.dex", dex_adjustment()),
                                                          ("Input.surprise_adjustment",
                                                           model_input(adnd1e.Member, "surprise_adjustment",
                                                                       selected=True))))
    return Product((highest(minus(side_segments, adjustment), Number(0)), lowest(side_segments, Number(1))))


def dex_adjustment() -> Term:
    """Describe the 1e Dexterity adjustment (docs/rules/adnd1e.md#dexterity) as arithmetic around the 0 band"""
    dex = model_input(adnd1e.Member, "dex", selected=True)
    zero = [value for value, adjustment in adnd1e.DEX_ADJUSTMENT.items() if adjustment == 0]
    return minus(highest(minus(dex, Number(max(zero))), Number(0)), highest(minus(Number(min(zero)), dex), Number(0)))


def fallout_procedures() -> tuple[RollProcedure, ...]:
    """Describe the Fallout rolls: the World Map PER + Survival test and the opening Sneak Attack"""
    c = fallout_ttrpg.CONSTANTS
    # docs/rules/fallout-ttrpg.md#mechanics: 1d20 + (PER - 5) + Survival
    test = Sum(((1, Dice(1, c["test_die"])), (1, model_input(fallout_ttrpg.Member, "per", selected=True)),
                (-1, constant(fallout_ttrpg, "special_baseline")),
                (1, model_input(fallout_ttrpg.Member, "survival", selected=True))))
    attack = plus(Dice(c["advantage_dice"], c["test_die"], keep_highest=1),
                  model_input(fallout_ttrpg.Opener, "attack_bonus"))
    return (
        RollProcedure("surprise-spot-test", "Procedure.world-map",
                      (Row(("RollMacro.Total",), test), Row(("Input.dc",), model_input(fallout_ttrpg.Scenario, "dc")))),
        RollProcedure("surprise-sneak-attack", "Procedure.sneak-attack",
                      (Row(("RollMacro.Total",), attack),
                       Row(("Input.target_number",), model_input(fallout_ttrpg.Opener, "target_number")))),
    )


ROLL_PROCEDURES = {"gurps4e": gurps_procedures, "adnd1e": adnd_procedures, "fallout-ttrpg": fallout_procedures}


def roll_procedures(system: str) -> tuple[RollProcedure, ...]:
    """Return the roll procedures of a system"""
    return ROLL_PROCEDURES[system]()
