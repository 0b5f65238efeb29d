"""The AD&D 1e rolls a GM can make by hand, as roll procedures (exporter/definitions/rolls/)"""

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
    lowest,
    minus,
    model_input,
    plus,
    side_label,
)
from exporter.rules import adnd1e as rules
from exporter.rules.shared import SIDE_KEYS, SideKey, other


def procedures() -> tuple[RollProcedure, ...]:
    """Describe the AD&D rolls: each side's d6 against its threshold, and a member's own segments"""
    die = Dice(1, rules.CONSTANTS["die"])
    rows: list[Row] = []
    for key in SIDE_KEYS:
        rows += [Row((side_label(key),), die), Row((side_label(key), "Input.surprised_on"), threshold(key))]
    rows.append(Row(("RollMacro.Adnd.Segments",), text="RollMacro.Adnd.SegmentsRule"))
    return (
        RollProcedure("surprise-d6", "RollMacro.Adnd.SideRoll", tuple(rows)),
        RollProcedure("surprise-segments", "RollMacro.Adnd.Member",
                      (Row(("RollMacro.Adnd.OwnSegments",), member_segments()),)),
    )


def threshold(key: SideKey) -> Term:
    """Describe a side's threshold: own + opponents' rating - the default, within 0..die; 0 if aware or own is 0"""
    # docs/rules/adnd1e.md#threshold, DMG p.62, as rules.threshold
    own = model_input(rules.Side, "surprised_on", side=key)
    combined = minus(plus(own, model_input(rules.Side, "surprises_on", side=other(key))),
                     constant(rules, "default_rating"))
    within = lowest(highest(combined, Number(0)), constant(rules, "max_threshold"))
    # A rating is a whole number from 0, so the lowest of it and 1 is 0 exactly when it is 0.
    return Product((within, lowest(own, Number(1)), minus(Number(1), model_input(rules.Side, "aware", side=key))))


def member_segments() -> Term:
    """Describe a member's own segments: side segments - adjustment, at least 0; none if the side has none (C3)"""
    side_segments = Prompt("RollMacro.Adnd.SideSegments")
    adjustment = Choice("RollMacro.Adnd.AdjustmentFrom", (("Input.dex", dex_adjustment()),
                                                          ("Input.surprise_adjustment",
                                                           model_input(rules.Member, "surprise_adjustment",
                                                                       selected=True))))
    return Product((highest(minus(side_segments, adjustment), Number(0)), lowest(side_segments, Number(1))))


def dex_adjustment() -> Term:
    """Describe the 1e Dexterity adjustment (docs/rules/adnd1e.md#dexterity) as arithmetic around the 0 band"""
    dex = model_input(rules.Member, "dex", selected=True)
    zero = [value for value, adjustment in rules.DEX_ADJUSTMENT.items() if adjustment == 0]
    return minus(highest(minus(dex, Number(max(zero))), Number(0)), highest(minus(Number(min(zero)), dex), Number(0)))
