"""D&D 5th edition surprise (docs/rules/dnd5e.md): each hider's Stealth against each watcher's passive Perception;
2014 a lost first turn, 2024 Disadvantage on Initiative"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any, Literal

from exporter.limits import MEMBERS_A_SIDE
from exporter.rules.declared import EMPTY, Bounds, Declared, Name, option, sized
from exporter.rules.dice import Distribution, Roller, die, highest_of, lowest_of, roll_dice
from exporter.rules.records import record
from exporter.rules.shared import (
    SIDE_KEYS,
    FieldProblem,
    Inputs,
    MemberOdds,
    Odds,
    SideKey,
    check_procedure_fields,
    check_unique_names,
    indexed_members,
    option_reads,
    other,
)

if TYPE_CHECKING:
    from exporter.rules.rolls import RollProcedure

SYSTEM = "dnd5e"
UNIT = "turn"
PROCEDURES = ("stealth",)
# What the table automation shows and offers: the statuses these rules mark and the GM's rolls outside the dialog.
STATUSES = ("surprised",)
GM_ROLLS: tuple[str, ...] = ()  # the Stealth checks and the Initiative are rolled in the dialog or on the sheet
# The inputs each procedure reads, by where they live (scenario, side, member), each with the sides that must
# give it ("ab", "a", "b", or "" when optional) and, for an input only some house rules read, the option (and its
# value) that reads it; names are this module's model field names.
INPUTS: Inputs = {
    "stealth": {"member": (("hiding", "", "surprise_by=stealth"), ("stealth", "ab", "surprise_by=stealth"),
                           ("stealth_advantage", "", "surprise_by=stealth"),
                           ("stealth_disadvantage", "", "surprise_by=stealth"),
                           ("passive_perception", "ab", "surprise_by=stealth"), ("alert", "", "rules=2014"),
                           ("gm_surprised", "", "surprise_by=gm"), ("initiative", "ab", "rules=2024"))},
}
INPUT_KINDS: dict[str, str] = {}  # every input is a plain number, flag or text
# Readings the rules fix (one value, or not implemented): never offered as options, refused with this reason.
FIXED_READINGS = {
    "threat_rule": "is fixed, not an option: a creature that notices any threat is not surprised (D3)",
    "active_perception": "is not implemented: a watcher's passive Perception is compared, as the rule says (D2)",
}

D20 = 20
ROLL_DICE = {"normal": 1, "advantage": 2, "disadvantage": 2}  # D5: Advantage and Disadvantage roll 2d20
# D6: the most hiders a side may have for a group check, whose exact odds take time with the square of their number
# (100 hiders: under a second); docs/rules/dnd5e.md#d6
GROUP_CHECK_HIDERS = 100

# Every rule constant of this module as plain data, for the generated runtimes.
CONSTANTS = {"d20": D20, "roll_dice": ROLL_DICE, "group_check_hiders": GROUP_CHECK_HIDERS}

Surprise = Literal["a", "b", "none"]
RollKind = Literal["normal", "advantage", "disadvantage"]

# A d20 bonus or a passive score a GM types: far beyond any creature's, small enough to read at a glance.
Bonus = Annotated[int, Bounds(-30, 60)]


class Options(Declared):
    """The configurable readings of docs/rules/dnd5e.md#readings"""

    rules: Literal["2014", "2024"] = option(
        "2014", "Which rules surprise follows: the 2014 rules (SRD 5.1) or the 2024 rules (SRD 5.2)",
        "D12", "SRD 5.1 Combat, \"Surprise\"; SRD 5.2 Combat, \"Initiative\" (\"Surprise\")",
        {"2014": "a surprised creature cannot move or act on its first turn, nor react until that turn ends",
         "2024": "a surprised creature rolls Initiative with Disadvantage and loses no turn"})
    surprise_by: Literal["stealth", "gm"] = option(
        "stealth", "Who decides who is surprised: the Stealth checks against passive Perception, or the GM",
        "D8", "SRD 5.1: \"The GM determines who might be surprised\"; SRD 5.2: a combatant \"surprised by combat "
              "starting\"",
        {"stealth": "each hider's Stealth check against each watcher's passive Perception",
         "gm": "the GM marks who is surprised (the member field gm_surprised)"})
    ties: Literal["hider", "watcher"] = option(
        "hider", "Who a Stealth total equal to a passive Perception favours",
        "D4", "SRD 5.1 \"Contests\": on a tie \"the situation remains the same\"; a passive score works as a DC",
        {"hider": "a tie stays hidden (the check meets the passive score)",
         "watcher": "a tie is noticed (the check must beat the passive score)"})
    group_check: bool = option(
        False, "Whether a side's hiders make one group Stealth check against each watcher",
        "D6", "SRD 5.1 \"Group Checks\": \"if at least half the group succeeds, the whole group succeeds\"",
        {"false": "each hider must stay hidden from a watcher for him to be surprised",
         "true": "a watcher is surprised when at least half the hiders stay hidden from him"})


class Member(Declared):
    """One creature: hiding or not, his Stealth and passive Perception, Alert, and his Initiative bonus"""

    name: Name
    hiding: bool = False
    stealth: Bonus | None = None
    stealth_advantage: bool = False
    stealth_disadvantage: bool = False
    passive_perception: Bonus | None = None
    alert: bool = False
    gm_surprised: bool = False
    initiative: Bonus | None = None


class Side(Declared):
    """One side of the encounter"""

    name: Name | None = None
    members: list[Member] = sized(min_length=1, max_length=MEMBERS_A_SIDE)


class Sides(Declared):
    """The two sides"""

    a: Side
    b: Side

    def __getitem__(self, key: SideKey) -> Any:
        """Return side a or b by key"""
        return self.a if key == "a" else self.b


class Scenario(Declared):
    """A D&D 5e surprise scenario (docs/scenarios.md)"""

    system: Literal["dnd5e"]
    procedure: Literal["stealth"]
    sides: Sides
    options: Options = EMPTY

    def check(self) -> None:
        """Refuse repeated names, inputs the chosen rules do not read, and inputs they need but lack"""
        check_unique_names(self.sides)
        def option_value(name: str) -> Any:
            return getattr(self.options, name)

        for key, index, member in indexed_members(self.sides):
            where = f"sides.{key}.members[{index}]"
            for name, _, gate in INPUTS["stealth"]["member"]:
                if name in member.model_fields_set and not option_reads(option_value, gate):
                    option, _, value = gate.partition("=")
                    raise FieldProblem(f"{where}.{name}", f"is read only with options.{option} = {value!r}: remove it")
            if self.options.surprise_by == "stealth":
                if member.passive_perception is None:
                    raise FieldProblem(f"{where}.passive_perception", "is required: every watcher's passive "
                                                                     "Wisdom (Perception) is compared (D2)")
                if member.stealth is None:
                    raise FieldProblem(f"{where}.stealth", "is required: every member's Dexterity (Stealth) bonus, "
                                                           "for when he hides (D2)")
            if self.options.rules == "2024" and member.initiative is None:
                raise FieldProblem(f"{where}.initiative", "is required with options.rules = '2024': his Initiative "
                                                          "bonus (D9)")
            if member.alert and member.gm_surprised:
                raise FieldProblem(f"{where}.gm_surprised", "an Alert member cannot be surprised (D7): remove one")
        if self.options.group_check and self.options.surprise_by == "stealth":
            for key in SIDE_KEYS:
                hiders = sum(1 for member in self.sides[key].members if member.hiding)
                if hiders > GROUP_CHECK_HIDERS:
                    raise FieldProblem("options.group_check", f"is for at most {GROUP_CHECK_HIDERS} hiders a side; "
                                                              f"side {key} has {hiders} (D6)")
        check_procedure_fields(self, INPUTS)

    def side(self, key: SideKey) -> Any:
        """Return side a or b"""
        return self.sides[key]


DEFAULT_OPTIONS = record(Options, {})



@dataclass(frozen=True)
class Check:
    """A d20 check: the faces rolled, the one kept and the total with the bonus"""

    name: str
    rolls: tuple[int, ...]
    total: int

    def to_json(self) -> dict[str, Any]:
        """Return the vector shape of one check"""
        return {"rolls": list(self.rolls), "total": self.total}


@dataclass(frozen=True)
class MemberResult:
    """Whether a member is surprised, and the turns he loses to it"""

    name: str
    side: SideKey
    surprised: bool
    lost: int

    def to_json(self) -> dict[str, Any]:
        """Return the vector shape of one member"""
        return {"surprised": self.surprised, "lost": self.lost}


@dataclass(frozen=True)
class Outcome:
    """One played surprise: the hiders' Stealth checks, who is surprised, and in 2024 the Initiative rolls"""

    rules: str
    surprise: Surprise
    stealth: tuple[Check, ...]
    members: tuple[MemberResult, ...]
    initiative: tuple[Check, ...] | None = None
    order: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the `expected` shape of the conformance vectors"""
        out: dict[str, Any] = {
            "surprise": self.surprise,
            "stealth": {check.name: check.to_json() for check in self.stealth},
            "members": {member.name: member.to_json() for member in self.members},
        }
        if self.initiative is not None:
            out["initiative"] = {check.name: check.to_json() for check in self.initiative}
            out["order"] = list(self.order or ())
        return out

    def member(self, name: str) -> MemberResult:
        """Return one member's result by name"""
        return next(member for member in self.members if member.name == name)


def kept_face(rolls: Sequence[int], kind: str) -> int:
    """Return the face a d20 check keeps: the higher with Advantage, the lower with Disadvantage (D5)"""
    if kind == "advantage":
        return max(rolls)
    if kind == "disadvantage":
        return min(rolls)
    return rolls[0]


def stealth_kind(member: Member) -> RollKind:
    """Return how a hider rolls his Stealth check: Advantage and Disadvantage together cancel (D5)"""
    if member.stealth_advantage != member.stealth_disadvantage:
        return "advantage" if member.stealth_advantage else "disadvantage"
    return "normal"


def roll_check(roller: Roller, name: str, kind: str, bonus: int) -> Check:
    """Roll one d20 check of a kind with a bonus"""
    rolls = roll_dice(roller, ROLL_DICE[kind], D20)
    return Check(name, rolls, kept_face(rolls, kind) + bonus)


def unnoticed(total: int, passive: int, options: Options = DEFAULT_OPTIONS) -> bool:
    """Tell whether a Stealth total stays hidden from a passive Perception; a tie as options.ties says (D4)"""
    return total > passive or (total == passive and options.ties == "hider")


def hidden_count(totals: Sequence[int], passive: int, options: Options = DEFAULT_OPTIONS) -> int:
    """Count the Stealth totals, sorted, that stay hidden from a passive Perception (D4): a search, not a walk"""
    beaten = bisect_left(totals, passive) if options.ties == "hider" else bisect_right(totals, passive)
    return len(totals) - beaten


def group_hidden(totals: Sequence[int], passive: int, options: Options = DEFAULT_OPTIONS) -> bool:
    """Tell whether hiders, their totals sorted, stay hidden from one watcher: each of them, or with group_check at
    least half (D6)"""
    hidden = hidden_count(totals, passive, options)
    if options.group_check:
        return 2 * hidden >= len(totals)
    return hidden == len(totals)


def faced_totals(opponents: Sequence[Member], totals: dict[str, int]) -> list[int] | None:
    """Return the Stealth totals a side's watchers face, sorted; None when an opponent does not hide (D1)"""
    if not all(opponent.hiding for opponent in opponents):
        return None
    return sorted(totals[opponent.name] for opponent in opponents)


def surprised_without_dice(member: Member, options: Options = DEFAULT_OPTIONS) -> bool | None:
    """Tell whether a member is surprised where no Stealth check decides it (Alert, the GM's call); None elsewhere"""
    if options.rules == "2014" and member.alert:
        return False  # D7: Alert, "you can't be surprised while you are conscious"
    if options.surprise_by == "gm":
        return member.gm_surprised  # D8: the GM's call
    return None


def member_surprised(member: Member, faced: Sequence[int] | None, options: Options = DEFAULT_OPTIONS) -> bool:
    """Tell whether a member notices no threat: every opponent hides and stays hidden from him (D1-D3, D7); `faced`
    the opponents' totals, sorted, or None where one of them does not hide"""
    decided = surprised_without_dice(member, options)
    if decided is not None:
        return decided
    if faced is None:
        return False  # D1: a creature not hiding is a threat noticed
    return group_hidden(faced, member.passive_perception, options)


def surprise_side(surprised: dict[SideKey, bool]) -> Surprise:
    """Return which side gets the jump: the one none of whose members is surprised, facing a surprised member (D10)"""
    if surprised["b"] and not surprised["a"]:
        return "a"
    if surprised["a"] and not surprised["b"]:
        return "b"
    return "none"


def initiative_order(checks: Sequence[Check]) -> tuple[str, ...]:
    """Return the names by Initiative total, highest first; ties in scenario order, side a first (D9)"""
    return tuple(check.name for _, check in sorted(enumerate(checks), key=lambda pair: (-pair[1].total, pair[0])))


def resolve(scenario: Scenario, roller: Roller) -> Outcome:
    """Play one surprise: every hider's Stealth check in scenario order, then in 2024 everyone's Initiative"""
    options = scenario.options
    stealth: list[Check] = []
    if options.surprise_by == "stealth":
        stealth = [roll_check(roller, member.name, stealth_kind(member), member.stealth)
                   for _, _, member in indexed_members(scenario.sides) if member.hiding]
    totals = {check.name: check.total for check in stealth}
    faced = {key: faced_totals(scenario.sides[other(key)].members, totals) for key in SIDE_KEYS}
    members = []
    for key, _, member in indexed_members(scenario.sides):
        surprised = member_surprised(member, faced[key], options)
        members.append(MemberResult(member.name, key, surprised, int(surprised and options.rules == "2014")))
    by_side = {key: any(m.surprised for m in members if m.side == key) for key in SIDE_KEYS}
    initiative = order = None
    if options.rules == "2024":  # D9: a surprised combatant has Disadvantage on his Initiative roll
        initiative = tuple(roll_check(roller, m.name, "disadvantage" if result.surprised else "normal", m.initiative)
                           for (_, _, m), result in zip(indexed_members(scenario.sides), members, strict=True))
        order = initiative_order(initiative)
    return Outcome(options.rules, surprise_side(by_side), tuple(stealth), tuple(members), initiative, order)


def check_distribution(kind: str) -> Distribution:
    """Return the distribution of the kept d20 face of a check of a kind"""
    if kind == "advantage":
        return highest_of(2, D20)
    if kind == "disadvantage":
        return lowest_of(2, D20)
    return die(D20)


def hider_groups(opponents: Sequence[Member]) -> dict[tuple[int, str], int] | None:
    """Count the opposing hiders by how they roll (bonus, kind); None when one of them does not hide (D1)"""
    if not all(opponent.hiding for opponent in opponents):
        return None
    return dict(Counter((opponent.stealth, stealth_kind(opponent)) for opponent in opponents))


def hidden_chance(bonus: int, kind: str, passive: int, options: Options) -> Fraction:
    """Return the chance that a Stealth check of a kind with a bonus stays hidden from a passive Perception"""
    return sum((p for face, p in check_distribution(kind).items() if unnoticed(face + bonus, passive, options)),
               Fraction(0))


def surprised_chance(member: Member, groups: dict[tuple[int, str], int] | None, options: Options) -> Fraction:
    """Return the exact chance a member is surprised, over the checks of the opposing hiders, counted by groups"""
    decided = surprised_without_dice(member, options)
    if decided is not None:
        return Fraction(int(decided))
    if groups is None:
        return Fraction(0)
    chances = {group: hidden_chance(*group, member.passive_perception, options) for group in groups}
    if not options.group_check:
        product = Fraction(1)
        for group, count in groups.items():
            product *= chances[group] ** count
        return product
    hidden: dict[int, Fraction] = {0: Fraction(1)}  # how many hiders stay hidden, one hider at a time
    for chance in (chances[group] for group, count in groups.items() for _ in range(count)):
        grown: dict[int, Fraction] = {}
        for count, p in hidden.items():
            grown[count + 1] = grown.get(count + 1, Fraction(0)) + p * chance
            grown[count] = grown.get(count, Fraction(0)) + p * (1 - chance)
        hidden = grown
    return sum((p for count, p in hidden.items() if 2 * count >= sum(groups.values())), Fraction(0))


def initiative_distribution(bonus: int, surprised: Fraction) -> Distribution:
    """Return the distribution of an Initiative total: Disadvantage with the chance he is surprised (D9)"""
    out: Distribution = {}
    for kind, weight in (("disadvantage", surprised), ("normal", 1 - surprised)):
        for face, p in check_distribution(kind).items():
            if weight:
                out[face + bonus] = out.get(face + bonus, Fraction(0)) + p * weight
    return {total: out[total] for total in sorted(out)}


def odds(scenario: Scenario) -> Odds:
    """Return the exact odds: each member's chance to be surprised, each side's chance to get the jump"""
    options = scenario.options
    members: dict[str, MemberOdds] = {}
    shared: dict[tuple[Any, ...], tuple[Fraction, MemberOdds]] = {}  # members of one side with one profile
    side_chance: dict[SideKey, Fraction] = {"a": Fraction(0), "b": Fraction(0)}
    groups = {key: hider_groups(scenario.sides[other(key)].members) for key in SIDE_KEYS}  # whom each side faces
    for key, _, member in indexed_members(scenario.sides):
        profile = (key, member.passive_perception, member.alert, member.gm_surprised,
                   member.initiative if options.rules == "2024" else None)
        if profile not in shared:
            chance = surprised_chance(member, groups[key], options)
            shared[profile] = (chance, member_odds(chance, member, options))
            # D10: a side has a surprised member exactly when its most easily surprised member is (a watcher
            # surprised is surprised at any lower passive Perception too); each side's surprise hangs on the other
            # side's dice.
            side_chance[key] = max(side_chance[key], chance)
        members[member.name] = shared[profile][1]
    a_jumps = side_chance["b"] * (1 - side_chance["a"])
    b_jumps = side_chance["a"] * (1 - side_chance["b"])
    surprise = {"a": a_jumps, "b": b_jumps, "none": 1 - a_jumps - b_jumps}
    return Odds(SYSTEM, scenario.procedure, surprise, members)


def member_odds(chance: Fraction, member: Member, options: Options) -> MemberOdds:
    """Return a member's odds: 2014 the first turn lost with his chance to be surprised, 2024 his Initiative"""
    if options.rules == "2014":
        lost = {turns: p for turns, p in ((0, 1 - chance), (1, chance)) if p}
        return MemberOdds(unit=UNIT, lost=lost, expected_lost=chance, surprised=chance)
    return MemberOdds(unit=UNIT, lost={0: Fraction(1)}, expected_lost=Fraction(0), surprised=chance,
                      initiative=initiative_distribution(member.initiative, chance))

# --- roll procedures (exporter/rules/rolls.py) ----------------------------------------------------------
# The rolls a GM makes by hand, as data in no VTT's syntax. Each function imports the roll terms itself, so that
# `ambush odds` and `ambush simulate` start without them.


def roll_procedures() -> tuple[RollProcedure, ...]:
    """Describe the 5e rolls: a hider's Stealth check against a watcher's passive Perception, and the 2024
    Initiative of a surprised creature"""
    from exporter.rules.rolls import Dice, RollProcedure, Row, lowest, model_input, plus

    d20 = Dice(1, CONSTANTS["d20"])
    # docs/rules/dnd5e.md#readings, D2: d20 + Stealth, kept hidden from a passive Perception it meets (D4)
    stealth = plus(d20, model_input(Member, "stealth", selected=True))
    # D9: a surprised creature rolls Initiative with Disadvantage, the lower of two d20
    initiative = plus(lowest(d20, d20), model_input(Member, "initiative", selected=True))
    return (
        RollProcedure("surprise-stealth-check", "RollMacro.Dnd5e.Stealth",
                      (Row(("RollMacro.Total",), stealth),
                       Row(("Input.passive_perception",), text="RollMacro.Dnd5e.StealthRule"))),
        RollProcedure("surprise-initiative-disadvantage", "RollMacro.Dnd5e.Initiative",
                      (Row(("RollMacro.Total",), initiative),)),
    )
