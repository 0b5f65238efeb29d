"""AD&D 1e / OSRIC-style surprise (docs/rules/adnd1e.md): one d6 per side, segments, the Dexterity adjustment"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from exporter.limits import MEMBERS_A_SIDE
from exporter.rules.declared import EMPTY, Declared, Name, bounded, option, sized
from exporter.rules.dice import Distribution, Roller, die
from exporter.rules.records import record
from exporter.rules.shared import (
    SIDE_KEYS,
    FieldProblem,
    Inputs,
    MemberOdds,
    Odds,
    SideKey,
    add_mass,
    check_procedure_fields,
    check_unique_names,
    indexed_members,
    other,
)

if TYPE_CHECKING:
    from exporter.rules.rolls import RollProcedure, Term

SYSTEM = "adnd1e"
UNIT = "segment"
PROCEDURES = ("roll",)
# What the table automation shows and offers: the statuses these rules mark and the GM's rolls outside the dialog.
STATUSES = ("surprised",)
GM_ROLLS = ("side-roll",)
# The inputs each procedure reads, by where they live (scenario, side, member), each with the sides that must
# give it ("ab", "a", "b", or "" when optional) and, for an input only a house rule reads, that rules option;
# names are this module's model field names.
INPUTS: Inputs = {
    "roll": {"side": (("surprised_on", ""), ("surprises_on", ""), ("aware", "")),
             "member": (("dex", ""), ("surprise_adjustment", ""), ("surprised_on", "", "side_best_rating"),
                        ("surprises_on", "", "side_best_rating"), ("encumbered", "", "dex_encumbrance_gate"))},
}
INPUT_KINDS: dict[str, str] = {}  # every input is a plain number, flag or text
# Readings the rules fix (one value, or not implemented): never offered as options, refused with this reason.
FIXED_READINGS = {"percent_chances": "is not implemented: surprise chances are in sixths of a d6 (C5d)"}

DIE = 6
DEFAULT_RATING = 2
# docs/rules/adnd1e.md (units): a round has 10 segments of 6 seconds; the table's world time of a surprise segment
SEGMENT_SECONDS = 6

# docs/rules/adnd1e.md#dexterity: 1e PHB p.11 reaction/attacking adjustment; 18 -> +3 (the 2e table's +2 is not used)
DEX_ADJUSTMENT: dict[int, int] = {3: -3, 4: -2, 5: -1, **dict.fromkeys(range(6, 16), 0), 16: 1, 17: 2, 18: 3}

# Every rule constant of this module as plain data, for the generated runtimes.
CONSTANTS = {
    "die": DIE,
    "default_rating": DEFAULT_RATING,
    "dex_adjustment": {str(k): v for k, v in DEX_ADJUSTMENT.items()},
    "max_threshold": DIE,
    "segment_seconds": SEGMENT_SECONDS,
}

SurpriseSide = Literal["a", "b", "none"]
SegmentKind = Literal["surprise", "cancelled"]


class Options(Declared):
    """The configurable readings of docs/rules/adnd1e.md#readings (C4, C5)"""

    dex_unsurprised_may_act: bool = option(
        True, "Whether a member whose Dexterity cancels his side's surprise acts in the surprise segments",
        "C4", "the seed's example: the Dexterity 16+ member acts alone in segment 1",
        {"true": "he acts in every segment he is not frozen, even while his side is",
         "false": "he is not frozen, yet waits with his side until it acts"})
    side_best_rating: bool = option(
        False, "Whether a side uses the best surprise rating of its members (a ranger among them)",
        "C5a", "DMG p.62: a side surprised only on 1, or surprising on 1-3, thanks to one member",
        {"false": "ratings are given per side (surprised_on, surprises_on)",
         "true": "members may give their own surprised_on and surprises_on; the side takes the best"})
    dex_encumbrance_gate: bool = option(
        False, "Whether Dexterity counts only for a member at no more than normal gear",
        "C5b", "DMG p.62: the Dexterity adjustment needs normal gear",
        {"false": "Dexterity always counts", "true": "a member marked encumbered loses his Dexterity adjustment"})
    missile_triple_rate: bool = option(
        False, "Whether a readied missile weapon fires at three times its rate in surprise segments",
        "C5c", "DMG p.62: missiles discharged at 3 times the normal rate",
        {"false": "the narration says nothing of missile rates",
         "true": "each surprise segment of the outcome is flagged, and `ambush simulate` reminds the GM"})


class Member(Declared):
    """One combatant: a name and what sets his surprise adjustment"""

    name: Name
    dex: int | None = bounded(None, ge=3, le=18)
    surprise_adjustment: int | None = bounded(None, ge=-5, le=5)
    encumbered: bool = False
    surprised_on: int | None = bounded(None, ge=0, le=6)
    surprises_on: int | None = bounded(None, ge=1, le=6)

    def check(self) -> None:
        """Refuse a member that gives both dex and surprise_adjustment"""
        if self.dex is not None and self.surprise_adjustment is not None:
            raise FieldProblem("surprise_adjustment", "give dex or surprise_adjustment, not both")


class Side(Declared):
    """One side of the encounter and its surprise ratings"""

    name: Name | None = None
    surprised_on: int = bounded(DEFAULT_RATING, ge=0, le=6)
    surprises_on: int = bounded(DEFAULT_RATING, ge=1, le=6)
    aware: bool = False
    members: list[Member] = sized(min_length=1, max_length=MEMBERS_A_SIDE)


class Sides(Declared):
    """Exactly the two sides a (the party) and b"""

    a: Side
    b: Side

    def __getitem__(self, key: SideKey) -> Side:
        """Return side a or b by key"""
        return self.a if key == "a" else self.b


class Scenario(Declared):
    """One AD&D surprise check: two sides and the chosen readings"""

    system: Literal["adnd1e"]
    procedure: Literal["roll"]
    sides: Sides
    options: Options = EMPTY

    def check(self) -> None:
        """Refuse repeated member names, member fields whose option is off, and fields the procedure ignores"""
        check_unique_names(self.sides)
        for key, index, member in indexed_members(self.sides):
            where = f"sides.{key}.members[{index}]"
            for rating in ("surprised_on", "surprises_on"):
                if getattr(member, rating) is not None and not self.options.side_best_rating:
                    raise FieldProblem(
                        f"{where}.{rating}", "a member's own rating needs options.side_best_rating = true"
                    )
            if member.encumbered and not self.options.dex_encumbrance_gate:
                raise FieldProblem(f"{where}.encumbered", "needs options.dex_encumbrance_gate = true")
        check_procedure_fields(self, INPUTS)

    def side(self, key: SideKey) -> Side:
        """Return side a or b"""
        return self.sides[key]


DEFAULT_OPTIONS = record(Options, {})


# docs/rules/adnd1e.md#dexterity: a member may give surprise_adjustment directly instead of dex, never both.
ALTERNATIVE_INPUTS = {"surprise_adjustment": "dex"}


@dataclass(frozen=True)
class SideResult:
    """A side's threshold, its d6 (None when it did not roll) and its surprised segments"""

    threshold: int
    roll: int | None
    segments: int

    def to_json(self) -> dict[str, Any]:
        """Return the vector shape of one side"""
        return {"threshold": self.threshold, "roll": self.roll, "segments": self.segments}


@dataclass(frozen=True)
class MemberResult:
    """A member's adjustment and his own surprised segments after it"""

    name: str
    side: SideKey
    adjustment: int
    segments: int

    def to_json(self) -> dict[str, Any]:
        """Return the vector shape of one member"""
        return {"adjustment": self.adjustment, "segments": self.segments}


@dataclass(frozen=True)
class Combatant:
    """Someone on the timeline: his side and how many segments he stays frozen"""

    name: str
    side: str
    frozen: int


@dataclass(frozen=True)
class Segment:
    """One segment of the timeline: who acts, who is still frozen"""

    segment: int
    kind: SegmentKind
    acting: tuple[str, ...]
    frozen: tuple[str, ...]
    missile_triple_rate: bool | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the vector shape of one segment; the missile flag only when its option is on"""
        out: dict[str, Any] = {"segment": self.segment, "kind": self.kind, "acting": list(self.acting)}
        if self.missile_triple_rate is not None:
            out["missile_triple_rate"] = self.missile_triple_rate
        return out


@dataclass(frozen=True)
class Outcome:
    """One played surprise check"""

    surprise: SurpriseSide
    sides: dict[SideKey, SideResult]
    free_segments: int
    members: tuple[MemberResult, ...]
    timeline: tuple[Segment, ...]

    def to_json(self) -> dict[str, Any]:
        """Return the `expected` shape of the conformance vectors"""
        return {
            "surprise": self.surprise,
            "sides": {key: self.sides[key].to_json() for key in SIDE_KEYS},
            "free_segments": self.free_segments,
            "members": {member.name: member.to_json() for member in self.members},
            "timeline": [segment.to_json() for segment in self.timeline],
        }

    def member(self, name: str) -> MemberResult:
        """Return one member's result by name"""
        return next(member for member in self.members if member.name == name)


def dex_adjustment(dex: int) -> int:
    """Return the 1e surprise adjustment of a Dexterity score"""
    return DEX_ADJUSTMENT[dex]


def raw_adjustment(member: Member) -> int:
    """Return the member's explicit adjustment, else his Dex adjustment, else 0"""
    if member.surprise_adjustment is not None:
        return member.surprise_adjustment
    if member.dex is not None:
        return dex_adjustment(member.dex)
    return 0


def member_adjustment(member: Member, options: Options = DEFAULT_OPTIONS) -> int:
    """Return the adjustment that applies to the member's surprised segments"""
    adjustment = raw_adjustment(member)
    if options.dex_encumbrance_gate and member.encumbered and adjustment > 0:
        return 0  # C5b: Dex helps only at normal gear encumbrance; a penalty still counts
    return adjustment


def surprised_on(side: Side, options: Options = DEFAULT_OPTIONS) -> int:
    """Return the side's own chance to be surprised, its best member's with side_best_rating"""
    ratings = [side.surprised_on]
    if options.side_best_rating:  # C5a
        ratings += [member.surprised_on for member in side.members if member.surprised_on is not None]
    return min(ratings)


def surprises_on(side: Side, options: Options = DEFAULT_OPTIONS) -> int:
    """Return the chance with which the side surprises its opponents, its best member's with side_best_rating"""
    ratings = [side.surprises_on]
    if options.side_best_rating:  # C5a
        ratings += [member.surprises_on for member in side.members if member.surprises_on is not None]
    return max(ratings)


def threshold(side: Side, opponent: Side, options: Options = DEFAULT_OPTIONS) -> int:
    """Return thr: the side is surprised on 1..thr of its d6, and does not roll at 0"""
    own = surprised_on(side, options)
    if side.aware or own == 0:
        return 0
    # docs/rules/adnd1e.md#threshold, DMG p.62
    return max(0, min(DIE, own + surprises_on(opponent, options) - DEFAULT_RATING))


def surprised_segments(side_threshold: int, roll: int | None) -> int:
    """Return the side's surprised segments: the pips when the roll is within the threshold"""
    if roll is None or roll > side_threshold:
        return 0
    return roll  # C1


def member_segments(side_segments: int, adjustment: int) -> int:
    """Return a member's own surprised segments after his adjustment; no option changes them (C4 only delays acting)"""
    if side_segments == 0:
        return 0  # C3: Dexterity never creates surprise
    return max(0, side_segments - adjustment)


def frozen_segments(side_segments: int, own_segments: int, options: Options = DEFAULT_OPTIONS) -> int:
    """Return how many segments a member cannot act: his own, or his side's too without C4"""
    if options.dex_unsurprised_may_act:
        return own_segments
    return max(own_segments, side_segments)  # C4: he waits out his side's segments


def free_segments(segments_a: int, segments_b: int) -> int:
    """Return the side-level net segments, positive where side a acts alone"""
    return segments_b - segments_a


def surprise_side(net_segments: int) -> SurpriseSide:
    """Return which side gets the jump from the net segments"""
    if net_segments > 0:
        return "a"
    if net_segments < 0:
        return "b"
    return "none"


def timeline(combatants: Sequence[Combatant], *, missile_triple_rate: bool = False) -> tuple[Segment, ...]:
    """Return segments 1..the last surprise segment, each with who acts and who is frozen"""
    last = max((combatant.frozen for combatant in combatants), default=0)
    segments: list[Segment] = []
    for number in range(1, last + 1):
        acting = [c for c in combatants if c.frozen < number]
        frozen = [c for c in combatants if c.frozen >= number]
        # someone acts while someone of the other side is frozen; by sides, not by every pair of members
        acting_sides, frozen_sides = {c.side for c in acting}, {c.side for c in frozen}
        surprise = bool(acting_sides and frozen_sides) and len(acting_sides | frozen_sides) > 1
        kind: SegmentKind = "surprise" if surprise else "cancelled"
        flag = (kind == "surprise") if missile_triple_rate else None  # C5c
        segments.append(Segment(number, kind, tuple(c.name for c in acting), tuple(c.name for c in frozen), flag))
    while segments and segments[-1].kind != "surprise":
        segments.pop()
    return tuple(segments)


def side_thresholds(scenario: Scenario) -> dict[SideKey, int]:
    """Return both sides' thresholds"""
    sides, options = scenario.sides, scenario.options
    return {"a": threshold(sides.a, sides.b, options), "b": threshold(sides.b, sides.a, options)}


def member_results(scenario: Scenario, segments: dict[SideKey, int]) -> tuple[MemberResult, ...]:
    """Return every member's adjustment and frozen segments, given the sides' segments"""
    results = []
    for key, _, member in indexed_members(scenario.sides):
        adjustment = member_adjustment(member, scenario.options)
        own = member_segments(segments[key], adjustment)
        results.append(MemberResult(member.name, key, adjustment, own))
    return tuple(results)


def resolve(scenario: Scenario, roller: Roller) -> Outcome:
    """Play one surprise check: side a rolls its d6, then side b; a side with threshold 0 does not roll"""
    thresholds = side_thresholds(scenario)
    sides: dict[SideKey, SideResult] = {}
    for key in SIDE_KEYS:
        roll = roller.roll(DIE) if thresholds[key] > 0 else None
        sides[key] = SideResult(thresholds[key], roll, surprised_segments(thresholds[key], roll))
    members = member_results(scenario, {key: sides[key].segments for key in SIDE_KEYS})
    net = free_segments(sides["a"].segments, sides["b"].segments)
    combatants = [
        Combatant(m.name, m.side, frozen_segments(sides[m.side].segments, m.segments, scenario.options))
        for m in members
    ]
    segments = timeline(combatants, missile_triple_rate=scenario.options.missile_triple_rate)
    return Outcome(surprise_side(net), sides, net, members, segments)


def segments_distribution(side_threshold: int) -> Distribution:
    """Return the exact distribution of a side's surprised segments"""
    if side_threshold == 0:
        return {0: Fraction(1)}
    dist: Distribution = {}
    for face, p in die(DIE).items():
        dist = add_mass(dist, surprised_segments(side_threshold, face), p)
    return dist


def expectation(dist: Distribution) -> Fraction:
    """Return the mean of a distribution"""
    return sum((value * p for value, p in dist.items()), Fraction(0))


def odds(scenario: Scenario) -> Odds:
    """Return the exact odds of the scenario over both sides' d6"""
    thresholds = side_thresholds(scenario)
    dist = {key: segments_distribution(thresholds[key]) for key in SIDE_KEYS}
    net: Distribution = {}
    for seg_a, pa in dist["a"].items():
        for seg_b, pb in dist["b"].items():
            net = add_mass(net, free_segments(seg_a, seg_b), pa * pb)
    surprise = {side: Fraction(0) for side in ("a", "b", "none")}
    for value, p in net.items():
        surprise[surprise_side(value)] += p
    members: dict[str, MemberOdds] = {}
    shared: dict[tuple[SideKey, int], MemberOdds] = {}  # members of one side with one adjustment
    for key, _, member in indexed_members(scenario.sides):
        profile = (key, member_adjustment(member, scenario.options))
        if profile not in shared:
            lost: Distribution = {}
            for seg, p in dist[key].items():
                lost = add_mass(lost, member_segments(seg, profile[1]), p)
            shared[profile] = MemberOdds(unit=UNIT, lost=lost, never=Fraction(0), expected_lost=expectation(lost))
        members[member.name] = shared[profile]
    return Odds(SYSTEM, scenario.procedure, surprise, members, free_segments=net)

# --- roll procedures (exporter/rules/rolls.py) ----------------------------------------------------------
# The rolls a GM makes by hand, as data in no VTT's syntax. Each function imports the roll terms itself, so that
# `ambush odds` and `ambush simulate` start without them.


def roll_procedures() -> tuple[RollProcedure, ...]:
    """Describe the AD&D rolls: each side's d6 against its threshold, and a member's own segments"""
    from exporter.rules.rolls import Dice, RollProcedure, Row, side_label

    die = Dice(1, CONSTANTS["die"])
    rows: list[Row] = []
    for key in SIDE_KEYS:
        rows += [Row((side_label(key),), die), Row((side_label(key), "Input.surprised_on"), threshold_term(key))]
    rows.append(Row(("RollMacro.Adnd.Segments",), text="RollMacro.Adnd.SegmentsRule"))
    return (
        RollProcedure("surprise-d6", "RollMacro.Adnd.SideRoll", tuple(rows)),
        RollProcedure("surprise-segments", "RollMacro.Adnd.Member",
                      (Row(("RollMacro.Adnd.OwnSegments",), member_segments_term()),)),
    )


def threshold_term(key: SideKey) -> Term:
    """Describe a side's threshold: own + opponents' rating - the default, within 0..die; 0 if aware or own is 0"""
    from exporter.rules.rolls import Number, Product, constant, highest, lowest, minus, model_input, plus

    # docs/rules/adnd1e.md#threshold, DMG p.62: the arithmetic of threshold() above
    own = model_input(Side, "surprised_on", side=key)
    combined = minus(plus(own, model_input(Side, "surprises_on", side=other(key))),
                     constant(CONSTANTS, "default_rating"))
    within = lowest(highest(combined, Number(0)), constant(CONSTANTS, "max_threshold"))
    # A rating is a whole number from 0, so the lowest of it and 1 is 0 exactly when it is 0.
    return Product((within, lowest(own, Number(1)), minus(Number(1), model_input(Side, "aware", side=key))))


def member_segments_term() -> Term:
    """Describe a member's own segments: side segments - adjustment, at least 0; none if the side has none (C3)"""
    from exporter.rules.rolls import Choice, Number, Product, Prompt, highest, lowest, minus, model_input

    side_segments = Prompt("RollMacro.Adnd.SideSegments")
    adjustment = Choice("RollMacro.Adnd.AdjustmentFrom", (("Input.dex", dex_adjustment_term()),
                                                          ("Input.surprise_adjustment",
                                                           model_input(Member, "surprise_adjustment",
                                                                       selected=True))))
    return Product((highest(minus(side_segments, adjustment), Number(0)), lowest(side_segments, Number(1))))


def dex_adjustment_term() -> Term:
    """Describe the 1e Dexterity adjustment (docs/rules/adnd1e.md#dexterity) as arithmetic around the 0 band"""
    from exporter.rules.rolls import Number, highest, minus, model_input

    dex = model_input(Member, "dex", selected=True)
    zero = [value for value, adjustment in DEX_ADJUSTMENT.items() if adjustment == 0]
    return minus(highest(minus(dex, Number(max(zero))), Number(0)), highest(minus(Number(min(zero)), dex), Number(0)))
