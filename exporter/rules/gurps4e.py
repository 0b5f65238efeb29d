"""GURPS 4th edition surprise: B393-B394, B420, B43, B348 (docs/rules/gurps4e.md)"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from math import floor, log
from typing import TYPE_CHECKING, Literal

from exporter.excerpt import excerpt
from exporter.limits import MEMBERS_A_SIDE
from exporter.rules.declared import EMPTY, Declared, Name, bounded, option, sized
from exporter.rules.dice import Roller, probability, roll_dice, sum_of
from exporter.rules.exact import Exponents, factorised, lowest
from exporter.rules.exact import plus as exact_plus
from exporter.rules.records import record
from exporter.rules.shared import (
    SIDE_KEYS,
    TAIL_CUT,
    FieldProblem,
    Inputs,
    MemberOdds,
    Odds,
    SideKey,
    add_mass,
    check_procedure_fields,
    check_unique_names,
    other,
)

if TYPE_CHECKING:
    from exporter.rules.rolls import RollProcedure, Row, Term

SYSTEM = "gurps4e"
UNIT = "second"
PROCEDURES = ("partial", "total", "quick-contest")
# What the table automation shows and offers: the statuses these rules mark and the GM's rolls outside the dialog.
STATUSES = ("surprised", "unaware")  # docs/rules/gurps4e.md#turn-by-turn: stunned and unaware
GM_ROLLS = ("recovery",)
# The inputs each procedure reads, by where they live (scenario, side, member), each with the sides that must
# give it ("ab", "a", "b", "surprising" or "watching" for the side the scenario's `surprising` names or the other
# one, or "" when optional); names are this module's model field names.
INPUTS: Inputs = {
    "partial": {"side": (("leader", ""), ("animals", ""), ("gm_modifier", "")),
                "member": (("iq", "ab"), ("combat_reflexes", ""), ("tactics", ""))},
    "total": {"scenario": (("surprising", ""),), "member": (("iq", "ab"), ("combat_reflexes", ""))},
    "quick-contest": {"scenario": (("surprising", ""),), "side": (("expecting_trouble", ""),),
                      "member": (("iq", "ab"), ("combat_reflexes", ""), ("stealth", "surprising"),
                                 ("per", "watching"))},
}
# The kind of each input that is no plain number, flag or text: the member who leads a side, the side that surprises.
INPUT_KINDS = {"leader": "member", "surprising": "side"}
# Readings the rules fix (one value, or not implemented): never offered as options, refused with this reason.
FIXED_READINGS = {"contest_aggregation": "is fixed, not an option: each watcher rolls against the worst sneak (A10)"}

STUN_DEFENCE = -4  # B420: mentally stunned, active defences at -4 and no retreat
COMBAT_REFLEXES_RECOVERY = 6  # B43: +6 on IQ rolls to recover from surprise
SURE_SUCCESS, SURE_FAILURE = 4, 17  # B348: 3-4 always succeed, 17-18 always fail
LOWEST_ROLLABLE = 3  # below 3 a success roll cannot be attempted [G7]

# B394 visibility (docs/rules/gurps4e.md#visibility): situation -> attack and defence effects, for the definitions.
VISIBILITY = (
    {"id": "attacker-blind", "attack": -10, "attack_if_used_to_blindness": -6, "hearing_roll": -2,
     "random_hit_location": True},
    {"id": "foe-invisible", "attack": -6, "hearing_roll": -2, "random_hit_location": True},
    {"id": "foe-location-known", "attack": -4, "hearing_roll": None, "random_hit_location": True},
    {"id": "defender-cannot-see", "dodge": -4, "parry_block_after_hearing": -4, "hearing_roll": -2},
    {"id": "defender-unaware", "defence": None},
    {"id": "attacker-in-darkness-only", "defence": 0},
)

# What a mentally stunned (or frozen) character may do: B420, docs/rules/gurps4e.md#mental-stun,
# docs/rules/gurps4e.md#turn-by-turn.
MENTAL_STUN = {"maneuver": "do-nothing", "active_defence": STUN_DEFENCE, "retreat": False, "recovery": "IQ"}
UNAWARE = {"active_defence": None}  # A13: no defence against an undetected sneak's opening attack

# B393 initiative modifiers (docs/rules/gurps4e.md#initiative); the keys are the ones the outcome JSON shows.
INITIATIVE_BONUS = {"combat_reflexes": 2, "ally_combat_reflexes": 1, "higher_iq": 1, "tactics": 1,
                    "tactics_master": 2, "leaderless": -2}
TACTICS_MASTER_LEVEL = 20  # Tactics 20+ gives +2 instead of +1
LOW_IQ_GROUP = 5  # A5, A9: a leaderless group whose highest IQ is 5 or less takes no -2
INITIATIVE_MODIFIERS = ("combat_reflexes", "ally_combat_reflexes", "higher_iq", "tactics", "leaderless", "gm")

# Every rule constant of this module as plain data, for the generated runtimes.
CONSTANTS = {
    "stun_defence": STUN_DEFENCE,
    "combat_reflexes_recovery": COMBAT_REFLEXES_RECOVERY,
    "sure_success": SURE_SUCCESS,
    "sure_failure": SURE_FAILURE,
    "lowest_rollable": LOWEST_ROLLABLE,
    "initiative_bonus": INITIATIVE_BONUS,
    "tactics_master_level": TACTICS_MASTER_LEVEL,
    "low_iq_group": LOW_IQ_GROUP,
    "initiative_die": 6,
    "freeze_die": 6,
    "success_dice": 3,
    "success_die": 6,
}


# The procedures in which the GM names the side that surprises (total) or sneaks (quick-contest).
SURPRISING_PROCEDURES = ("total", "quick-contest")


class Options(Declared):
    """The configurable readings of docs/rules/gurps4e.md#readings"""

    stun_roll_timing: Literal["start", "end"] = option(
        "start", "When a mentally stunned character rolls IQ to snap out: at the start or at the end of his turn",
        "A1", "B393 \"at the start of his turn\"; B420 rolls physical stun at the end",
        {"start": "roll first; a success lifts the -4 defence at once, the turn is still Do Nothing",
         "end": "roll last, as for physical stun; the -4 defence lasts through the turn of the success"})
    freeze_roll_scope: Literal["side", "individual"] = option(
        "side", "Total surprise: one 1d6 freeze roll for the whole surprised side, or one per defender",
        "A2", "B393 \"the GM rolls 1d before the defenders can react\"",
        {"side": "the GM rolls once; every defender without Combat Reflexes freezes that many seconds",
         "individual": "each defender without Combat Reflexes rolls his own freeze"})
    leaderless_iq_bonus: bool = option(
        False, "Initiative roll: whether the higher-IQ +1 applies when a side is leaderless",
        "A7", "B393 is silent; a leaderless side already takes -2",
        {"false": "no IQ bonus to either side when one of them is leaderless",
         "true": "a leaderless side compares its highest IQ with the other side's leader or highest IQ"})


class Member(Declared):
    """One character: IQ and Combat Reflexes for recovery, Tactics, Stealth and Per for the contest"""

    name: Name
    iq: int = bounded(ge=1, le=40)
    combat_reflexes: bool = False
    tactics: int = bounded(0, ge=0, le=40)
    stealth: int | None = bounded(None, ge=1, le=40)
    per: int | None = bounded(None, ge=1, le=40)


class Side(Declared):
    """One side: its leader (None = leaderless) and the initiative inputs"""

    name: Name | None = None
    leader: Name | None = None
    animals: bool = False
    gm_modifier: int = bounded(0, ge=-20, le=20)
    expecting_trouble: bool = True
    members: list[Member] = sized(min_length=1, max_length=MEMBERS_A_SIDE)

    def check(self) -> None:
        """Refuse a leader who is not a member of this side"""
        if self.leader is not None and self.leader not in {m.name for m in self.members}:
                raise FieldProblem("leader", f"{excerpt(self.leader)} is not a member of this side")

    def leading_member(self) -> Member | None:
        """Return the leader, or None for a leaderless side"""
        return next((m for m in self.members if m.name == self.leader), None)


class Sides(Declared):
    """The two sides; a is the party"""

    a: Side
    b: Side


class Scenario(Declared):
    """A GURPS surprise scenario (docs/scenarios.md)"""

    system: Literal["gurps4e"]
    procedure: Literal["partial", "total", "quick-contest"]
    # total: the side that surprises the other by the GM's call; quick-contest: the side that sneaks.
    surprising: SideKey = "a"
    sides: Sides
    options: Options = EMPTY

    def check(self) -> None:
        """Refuse repeated names, a contest without its skills, and a field the procedure ignores (surprising first)"""
        check_unique_names(self.sides)
        if "surprising" in self.model_fields_set and self.procedure not in SURPRISING_PROCEDURES:
            raise FieldProblem("surprising", f"applies to procedures {' and '.join(SURPRISING_PROCEDURES)}, "
                                             f"not to {self.procedure}: the initiative roll decides who surprises")
        if self.procedure == "quick-contest":
            for key, skill, role in ((self.surprising, "stealth", "sneaking"), (self.watching, "per", "watching")):
                for index, m in enumerate(self.side(key).members):
                    if getattr(m, skill) is None:
                        raise FieldProblem(f"sides.{key}.members[{index}].{skill}",
                                           f"quick-contest needs {skill} for every member of side {key} "
                                           f"(the {role} side)")
        check_procedure_fields(self, INPUTS)

    @property
    def watching(self) -> SideKey:
        """Return the side that is surprised by GM fiat or watches for the sneaks"""
        return other(self.surprising)

    def side(self, key: SideKey) -> Side:
        """Return side a or b"""
        return getattr(self.sides, key)


DEFAULT_OPTIONS = record(Options, {})


# --- primitives (B343-B348) -------------------------------------------------------------------------


def success_roll_distribution() -> dict[int, Fraction]:
    """Return the exact distribution of a success roll's 3d6"""
    return sum_of(CONSTANTS["success_dice"], CONSTANTS["success_die"])


def success_threshold(effective: int) -> int | None:
    """Return the highest 3d6 roll that succeeds, or None when the roll cannot be attempted"""
    if effective < LOWEST_ROLLABLE:
        return None
    return max(SURE_SUCCESS, min(effective, SURE_FAILURE - 1))


def succeeds(effective: int, roll: int) -> bool:
    """Tell whether a 3d6 roll succeeds against an effective skill"""
    threshold = success_threshold(effective)
    return threshold is not None and roll <= threshold


@cache
def success_chance(effective: int) -> Fraction:
    """Return the exact chance of a success roll"""
    threshold = success_threshold(effective)
    return Fraction(0) if threshold is None else probability(success_roll_distribution(), at_most=threshold)


def critical(effective: int, roll: int) -> Literal["success", "failure"] | None:
    """Classify a roll as a critical success or failure (B347-B348)"""
    if roll <= 4 or (roll == 5 and effective >= 15) or (roll == 6 and effective >= 16):
        return "success"
    if roll == 18 or (roll == 17 and effective <= 15) or roll >= effective + 10:
        return "failure"
    return None


@dataclass(frozen=True)
class SuccessRoll:
    """One 3d6 roll against an effective skill; roll is None when it cannot be attempted"""

    name: str
    skill: int
    roll: int | None

    @property
    def success(self) -> bool:
        """Tell whether the roll succeeded"""
        return self.roll is not None and succeeds(self.skill, self.roll)

    @property
    def margin(self) -> int | None:
        """Return skill minus roll, or None when nothing was rolled"""
        return None if self.roll is None else self.skill - self.roll

    def to_json(self) -> dict:
        """Return the roll as plain JSON data"""
        return {"name": self.name, "skill": self.skill, "roll": self.roll, "margin": self.margin,
                "success": self.success}


def make_success_roll(roller: Roller, name: str, skill: int) -> SuccessRoll:
    """Roll 3d6 against a skill, taking no dice when the roll cannot be attempted"""
    if success_threshold(skill) is None:
        return SuccessRoll(name, skill, None)
    return SuccessRoll(name, skill, sum(roll_dice(roller, CONSTANTS["success_dice"], CONSTANTS["success_die"])))


def contest_rank(attempt: SuccessRoll) -> tuple[int, int]:
    """Rank a roll for a Quick Contest: successes above failures, then by margin (B348)"""
    if attempt.roll is None:
        return (0, 0)  # not attempted: below every rolled failure
    return (2 if attempt.success else 1, attempt.skill - attempt.roll)


def quick_contest(first: SuccessRoll, second: SuccessRoll) -> Literal["first", "second", "tie"]:
    """Decide a Quick Contest; criticals do not matter, only success and margin [G10]"""
    a, b = contest_rank(first), contest_rank(second)
    return "first" if a > b else "second" if b > a else "tie"


# --- initiative (B393, partial surprise) --------------------------------------------------------------


def exempt_from_leaderless_penalty(side: Side) -> bool:
    """Tell whether a leaderless side escapes the -2: animals, or highest IQ 5 or less (A5, A9)"""
    return side.animals or max(m.iq for m in side.members) <= LOW_IQ_GROUP


def comparison_iq(side: Side, options: Options) -> int | None:
    """Return the IQ a side's initiative compares: its leader's, or none when leaderless (A7)"""
    leader = side.leading_member()
    if leader is not None:
        return leader.iq
    return max(m.iq for m in side.members) if options.leaderless_iq_bonus else None


def initiative_modifiers(side: Side, opponent: Side, options: Options) -> dict[str, int]:
    """Return the non-zero initiative modifiers of one side, in a fixed order (docs/rules/gurps4e.md#initiative)"""
    leader = side.leading_member()
    mods: dict[str, int] = {}
    if leader is not None and leader.combat_reflexes:
        mods["combat_reflexes"] = INITIATIVE_BONUS["combat_reflexes"]
    elif any(m.combat_reflexes for m in side.members):
        mods["ally_combat_reflexes"] = INITIATIVE_BONUS["ally_combat_reflexes"]  # A8: leaderless sides too
    own_iq, their_iq = comparison_iq(side, options), comparison_iq(opponent, options)
    if own_iq is not None and their_iq is not None and own_iq > their_iq:
        mods["higher_iq"] = INITIATIVE_BONUS["higher_iq"]
    if leader is not None and leader.tactics >= 1:  # A6: the leader's Tactics
        master = leader.tactics >= TACTICS_MASTER_LEVEL
        mods["tactics"] = INITIATIVE_BONUS["tactics_master" if master else "tactics"]
    if leader is None and not exempt_from_leaderless_penalty(side):
        mods["leaderless"] = INITIATIVE_BONUS["leaderless"]
    if side.gm_modifier:
        mods["gm"] = side.gm_modifier
    return mods


@dataclass(frozen=True)
class InitiativeRoll:
    """One side's initiative: 1d6 plus modifiers"""

    roll: int
    modifiers: dict[str, int]

    @property
    def total(self) -> int:
        """Return the die plus every modifier"""
        return self.roll + sum(self.modifiers.values())

    def to_json(self) -> dict:
        """Return the roll as plain JSON data"""
        return {"roll": self.roll, "modifiers": dict(self.modifiers), "total": self.total}


def initiative_winner(totals: dict[SideKey, int]) -> SideKey | None:
    """Return the side with the higher total, or None on a tie (nobody surprised)"""
    if totals["a"] == totals["b"]:
        return None
    return "a" if totals["a"] > totals["b"] else "b"


# --- the contest that replaces initiative when sneaking (Kromm [G2]) ---------------------------------------


def worst_sneak(side: Side) -> Member:
    """Return the sneak with the lowest Stealth, the first listed on a tie (A10)"""
    return min(side.members, key=lambda m: m.stealth or 0)


def watcher_result(sneak: SuccessRoll, watcher: SuccessRoll) -> Literal["sneak", "watcher", "tie"]:
    """Decide one watcher's contest against the sneak's roll"""
    return {"first": "sneak", "second": "watcher", "tie": "tie"}[quick_contest(sneak, watcher)]


@dataclass(frozen=True)
class ContestResult:
    """The sneak's roll and every watcher's roll against it"""

    sneak: SuccessRoll
    watchers: tuple[SuccessRoll, ...]

    @property
    def results(self) -> tuple[str, ...]:
        """Return each watcher's result against the sneak"""
        return tuple(watcher_result(self.sneak, w) for w in self.watchers)

    @property
    def sneaks_win(self) -> bool:
        """Tell whether the sneak beat every watcher: one tie or loss spoils it (A10, A11)"""
        return all(r == "sneak" for r in self.results)

    def to_json(self) -> dict:
        """Return the contest as plain JSON data"""
        return {"sneak": self.sneak.to_json(),
                "watchers": [{**w.to_json(), "winner": r} for w, r in zip(self.watchers, self.results, strict=True)]}


# --- the stun, turn by turn (docs/rules/gurps4e.md#turn-by-turn) --------------------------------------------------


def recovery_target(member: Member, kind: str, turn: int) -> int:
    """Return the IQ roll's target on a member's own turn (A3, A4, A12)"""
    if kind == "partial" or member.combat_reflexes:
        return member.iq + (COMBAT_REFLEXES_RECOVERY if member.combat_reflexes else 0) + (turn - 1)
    return member.iq  # total surprise after the freeze: basic IQ, no progression


def never_recovers(member: Member, kind: str) -> bool:
    """Tell whether a member can never roll his way out (total surprise, no CR, IQ below 3)"""
    return kind == "total" and not member.combat_reflexes and member.iq < LOWEST_ROLLABLE


@dataclass(frozen=True)
class StunTurn:
    """What one stunned member does on one of his own turns"""

    turn: int
    state: Literal["frozen", "stunned"]
    target: int | None = None
    roll: int | None = None
    success: bool = False
    defence: int = STUN_DEFENCE

    def to_json(self) -> dict:
        """Return the turn as plain JSON data"""
        if self.state == "frozen":
            return {"turn": self.turn, "state": "frozen", "defence": self.defence}
        return {"turn": self.turn, "state": "stunned", "target": self.target, "roll": self.roll,
                "success": self.success, "defence": self.defence}


@dataclass
class StunTrack:
    """One surprised member's stun from the first turn until he recovers"""

    member: Member
    freeze: int
    turns: list[StunTurn] = field(default_factory=list)
    lost: int | None = None
    never: bool = False

    @property
    def done(self) -> bool:
        """Tell whether the member has recovered or can never recover"""
        return self.lost is not None or self.never

    def to_json(self) -> dict:
        """Return the track as plain JSON data"""
        return {"lost": self.lost, "turns": [t.to_json() for t in self.turns]}


def freeze_rolls(members: list[Member], roller: Roller, options: Options) -> dict[str, int]:
    """Roll the total-surprise freeze: once for the side or once each (A2); CR never freezes"""
    freezers = [m for m in members if not m.combat_reflexes]
    if not freezers:
        return {}
    if options.freeze_roll_scope == "side":
        shared = roller.roll(CONSTANTS["freeze_die"])
        return {m.name: shared for m in freezers}
    return {m.name: roller.roll(CONSTANTS["freeze_die"]) for m in freezers}


def take_stun_turn(track: StunTrack, kind: str, turn: int, roller: Roller, options: Options) -> None:
    """Play one of a stunned member's own turns (the state machine of docs/rules/gurps4e.md#turn-by-turn)"""
    member = track.member
    if turn <= track.freeze:
        track.turns.append(StunTurn(turn, "frozen"))
        return
    target = recovery_target(member, kind, turn)
    attempt = make_success_roll(roller, member.name, target)
    recovered = attempt.success
    defence = 0 if recovered and options.stun_roll_timing == "start" else STUN_DEFENCE  # A1
    track.turns.append(StunTurn(turn, "stunned", target, attempt.roll, recovered, defence))
    if recovered:
        track.lost = turn
    elif never_recovers(member, kind):
        track.never = True


def play_stun(side: Side, kind: str, roller: Roller, options: Options) -> tuple[dict[str, int], list[StunTrack]]:
    """Play a surprised side's stun turn by turn, members in listed order each turn"""
    freeze = freeze_rolls(side.members, roller, options) if kind == "total" else {}
    tracks = [StunTrack(m, freeze.get(m.name, 0)) for m in side.members]
    turn = 0
    while not all(t.done for t in tracks):
        turn += 1
        for track in tracks:
            if not track.done:
                take_stun_turn(track, kind, turn, roller, options)
    return freeze, tracks


# --- one resolution -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """The result of one surprise, in the shape of the conformance vectors"""

    surprise: Literal["a", "b", "none"]
    surprise_kind: Literal["partial", "total"] | None
    initiative: dict[SideKey, InitiativeRoll] | None
    contest: ContestResult | None
    freeze: dict[str, int]
    tracks: tuple[StunTrack, ...]

    def to_json(self) -> dict:
        """Return the outcome as plain JSON data"""
        return {
            "surprise": self.surprise,
            "surprise_kind": self.surprise_kind,
            "initiative": None if self.initiative is None else {k: r.to_json() for k, r in self.initiative.items()},
            "contest": None if self.contest is None else self.contest.to_json(),
            "freeze": dict(self.freeze),
            "members": {t.member.name: t.to_json() for t in self.tracks},
        }


def contest_kind(watchers: Side) -> Literal["partial", "total"]:
    """Return what a won sneak does to the watchers: partial if they expected trouble, else total"""
    return "partial" if watchers.expecting_trouble else "total"


def roll_contest(scenario: Scenario, roller: Roller) -> ContestResult:
    """Roll the worst sneak's Stealth, then each watcher's Per, in listed order"""
    sneak = worst_sneak(scenario.side(scenario.surprising))
    sneak_roll = make_success_roll(roller, sneak.name, sneak.stealth or 0)
    watchers = tuple(make_success_roll(roller, w.name, w.per or 0) for w in scenario.side(scenario.watching).members)
    return ContestResult(sneak_roll, watchers)


def resolve(scenario: Scenario, roller: Roller) -> Outcome:
    """Play one surprise with the roller's dice"""
    initiative: dict[SideKey, InitiativeRoll] | None = None
    contest: ContestResult | None = None
    winner: SideKey | None
    if scenario.procedure == "partial":
        initiative = {key: InitiativeRoll(roller.roll(CONSTANTS["initiative_die"]), initiative_modifiers(
            scenario.side(key), scenario.side(other(key)), scenario.options)) for key in SIDE_KEYS}
        winner = initiative_winner({k: r.total for k, r in initiative.items()})
        kind: Literal["partial", "total"] | None = "partial"
    elif scenario.procedure == "quick-contest":
        contest = roll_contest(scenario, roller)
        winner = scenario.surprising if contest.sneaks_win else None
        kind = contest_kind(scenario.side(scenario.watching))
    else:
        winner, kind = scenario.surprising, "total"  # GM fiat (docs/rules/gurps4e.md#procedures)
    if winner is None:
        return Outcome("none", None, initiative, contest, {}, ())
    assert kind is not None
    freeze, tracks = play_stun(scenario.side(other(winner)), kind, roller, scenario.options)
    return Outcome(winner, kind, initiative, contest, freeze, tuple(tracks))


# --- exact odds --------------------------------------------------------------------------------------


def surprise_chances(scenario: Scenario) -> tuple[dict[str, Fraction], Literal["partial", "total"]]:
    """Return the exact chance that each side gets the jump, and what the loser suffers"""
    if scenario.procedure in SURPRISING_PROCEDURES:
        win = Fraction(1) if scenario.procedure == "total" else sneak_win_chance(scenario)
        chances = {"a": Fraction(0), "b": Fraction(0), "none": 1 - win}
        chances[scenario.surprising] = win
        kind = "total" if scenario.procedure == "total" else contest_kind(scenario.side(scenario.watching))
        return chances, kind
    mods = {k: sum(initiative_modifiers(scenario.side(k), scenario.side(other(k)), scenario.options).values())
            for k in SIDE_KEYS}
    chances = {"a": Fraction(0), "b": Fraction(0), "none": Fraction(0)}
    for roll_a in range(1, 7):
        for roll_b in range(1, 7):
            winner = initiative_winner({"a": roll_a + mods["a"], "b": roll_b + mods["b"]})
            chances[winner or "none"] += Fraction(1, 36)
    return chances, "partial"


def roll_outcomes(name: str, skill: int) -> list[tuple[SuccessRoll, int]]:
    """Return every possible success roll of a skill with how many of the 216 rolls give it"""
    if success_threshold(skill) is None:
        return [(SuccessRoll(name, skill, None), ROLLS)]
    distribution = sorted(success_roll_distribution().items())
    return [(SuccessRoll(name, skill, total), int(p * ROLLS)) for total, p in distribution]


ROLLS = CONSTANTS["success_die"] ** CONSTANTS["success_dice"]  # 216 equally likely 3d6 rolls
DIE_PRIMES = (2, 3)  # every chance of these rules is a count over a power of 216 (or 6, or 36)


def sneak_win_chance(scenario: Scenario) -> Fraction:
    """Return the chance that the worst sneak beats every watcher, counted in integers over 216 per roller

    Watchers with the same Per share the work; the count is reduced once at the end, where Fraction arithmetic
    would reduce a fraction as large as all the watchers' rolls after every watcher (the cost of the whole crowd).
    """
    sneak = worst_sneak(scenario.side(scenario.surprising))
    watchers = Counter(w.per or 0 for w in scenario.side(scenario.watching).members)
    ranks = {per: [(contest_rank(w), n) for w, n in roll_outcomes("-", per)] for per in watchers}
    beaten_all = 0
    for sneak_roll, n in roll_outcomes(sneak.name, sneak.stealth or 0):
        rank, count = contest_rank(sneak_roll), n
        for per, watching in watchers.items():
            count *= sum(m for watcher, m in ranks[per] if rank > watcher) ** watching  # B348: the sneak wins
        beaten_all += count
    rollers = 1 + sum(watchers.values())
    return lowest(beaten_all, ROLLS**rollers, [(prime, exponent * rollers)
                                               for prime, exponent in factorised(ROLLS, DIE_PRIMES).items()])


@dataclass(frozen=True)
class LossShape:
    """What a surprised member of one stun profile loses: the exact head turns, then a geometric tail or freezes

    head: turn -> chance of recovering on it (partial stun, before every roll has the same chance);
    tail: (mass still stunned, constant chance, its first turn, its number of turns) or None;
    freezes: (chance, number of turns of each freeze's tail) for total surprise without CR, or None.
    """

    head: dict[int, Fraction]
    tail: tuple[Fraction, Fraction, int, int] | None
    freezes: tuple[Fraction, int] | None
    never: Fraction
    expected: Fraction | None


SHAPES: dict[tuple, LossShape] = {}  # one LossShape for profiles that lose alike


@cache
def loss_shape(iq: int, combat_reflexes: bool, kind: str) -> LossShape:
    """Return the loss of a stun profile as exact pieces, one object for profiles that lose alike (IQ 3 and 4, 16+)"""
    shape = stun_loss(iq, combat_reflexes, kind)
    return SHAPES.setdefault((tuple(shape.head.items()), shape.tail, shape.freezes, shape.never, shape.expected),
                             shape)


def stun_loss(iq: int, combat_reflexes: bool, kind: str) -> LossShape:
    """Compute what loss_shape returns"""
    member = record(Member, {"name": "-", "iq": iq, "combat_reflexes": combat_reflexes})
    if never_recovers(member, kind):
        return LossShape({}, None, None, Fraction(1), None)
    if kind == "total" and not member.combat_reflexes:
        chance, freezes = success_chance(member.iq), CONSTANTS["freeze_die"]
        # Each freeze f of 1..6 starts the same geometric tail (cut at TAIL_CUT / 6) on turn f + 1.
        terms = tail_length(Fraction(1, freezes), chance, TAIL_CUT / freezes)
        return LossShape({}, None, (chance, terms), Fraction(0), Fraction(freezes + 1, 2) + 1 / chance)
    head: dict[int, Fraction] = {}
    still_stunned, expected, turn = Fraction(1), Fraction(0), 0
    while True:
        turn += 1
        target = recovery_target(member, "partial", turn)
        chance = success_chance(target)
        if success_threshold(target) == SURE_FAILURE - 1:
            # From here every turn has the same chance: a geometric tail with a closed-form mean.
            expected += still_stunned * (turn - 1 + 1 / chance)
            tail = (still_stunned, chance, turn, tail_length(still_stunned, chance, TAIL_CUT))
            return LossShape(head, tail, None, Fraction(0), expected)
        head[turn] = still_stunned * chance
        expected += turn * head[turn]
        still_stunned *= 1 - chance


@cache
def seconds_lost_for(iq: int, combat_reflexes: bool, kind: str) -> MemberOdds:
    """Return the exact distribution of seconds lost by a surprised member of a stun profile, cut at TAIL_CUT"""
    shape = loss_shape(iq, combat_reflexes, kind)
    lost = dict(shape.head)
    lost.update(loss_terms(shape, Fraction(1), {}))
    return MemberOdds(UNIT, lost, never=shape.never, expected_lost=shape.expected)


def tail_length(mass: Fraction, chance: Fraction, cut: Fraction) -> int:
    """Count the turns k = 0, 1, ... of a constant-chance tail whose mass still to come, mass * (1 - chance)**k,
    is at least cut: estimated by logarithms, then settled by exact integer comparisons"""
    if mass < cut:
        return 0
    stay = 1 - chance
    if not stay:
        return 1

    def holds(k: int) -> bool:
        return (mass.numerator * stay.numerator**k * cut.denominator
                >= cut.numerator * mass.denominator * stay.denominator**k)

    log_ratio = log(cut.numerator) - log(cut.denominator) - log(mass.numerator) + log(mass.denominator)
    length = max(1, floor(log_ratio / (log(stay.numerator) - log(stay.denominator))) + 1)
    while length > 1 and not holds(length - 1):
        length -= 1
    while holds(length):
        length += 1
    return length


def loss_terms(shape: LossShape, weight: Fraction, weight_exponents: Exponents) -> dict[int, Fraction]:
    """Return the tail or freeze turns of a loss times weight (the chance the side is surprised), in lowest terms

    Terms are built as integers over known powers of the dice (exporter/rules/exact.py): a tail of thousands of
    turns, weighted by a contest's chance over every watcher's roll, costs what its integers' sizes cost.
    """
    if shape.tail is not None:
        mass, chance, first, count = shape.tail
        return {first + k: p for k, p in enumerate(tail_terms(mass, chance, count, weight, weight_exponents))}
    if shape.freezes is not None:
        chance, count = shape.freezes
        return freeze_terms(chance, count, weight, weight_exponents)
    return {}


def tail_terms(mass: Fraction, chance: Fraction, count: int, weight: Fraction,
               weight_exponents: Exponents) -> list[Fraction]:
    """Return weight * mass * chance * (1 - chance)**k for k < count"""
    n, d = chance.numerator, chance.denominator
    constant, denominator = weight.numerator * mass.numerator * n, weight.denominator * mass.denominator * d
    base, per_turn = dice_exponents(weight_exponents, mass.denominator), factorised(d, DIE_PRIMES)
    terms, power = [], 1
    for k in range(count):
        terms.append(reduced(constant, power, denominator, base, per_turn, k + 1))
        power *= d - n
        denominator *= d
    return terms


def freeze_terms(chance: Fraction, count: int, weight: Fraction, weight_exponents: Exponents) -> dict[int, Fraction]:
    """Return the weighted total-surprise loss: freeze f of 1..6, then the tail of count turns from turn f + 1"""
    freezes, n, d = CONSTANTS["freeze_die"], chance.numerator, chance.denominator
    # Turn i + 2 gathers tail term i - f + 1 of each freeze f: n * window / (6 * d**(i + 1)) with
    # window = sum of (d - n)**k * d**(i - k) over the tail terms k of the freezes that reach it.
    constant, denominator = weight.numerator * n, weight.denominator * freezes * d
    base, per_turn = dice_exponents(weight_exponents, freezes), factorised(d, DIE_PRIMES)
    lost: dict[int, Fraction] = {}
    powers: list[int] = []
    window, power, leaving = 0, 1, d**freezes
    for i in range(count + freezes - 1):
        window *= d
        if i < count:
            window += power
            powers.append(power)
            power *= d - n
        if freezes <= i < count + freezes:
            window -= powers[i - freezes] * leaving
        lost[i + 2] = reduced(constant, window, denominator, base, per_turn, i + 1)
        denominator *= d
    return lost


def dice_exponents(weight_exponents: Exponents, denominator: int) -> Exponents | None:
    """Return the factorisation of a weight's denominator times another, or None when one is not known"""
    own = factorised(denominator, DIE_PRIMES)
    return None if own is None or weight_exponents is None else exact_plus(weight_exponents, own)


def reduced(constant: int, varying: int, denominator: int, base: Exponents | None, per_turn: Exponents | None,
            turns: int) -> Fraction:
    """Return constant * varying / denominator in lowest terms; denominator = base * per_turn**turns"""
    if base is None or per_turn is None:
        return Fraction(constant * varying, denominator)  # not a power of the dice: Fraction's gcd, slower
    return lowest(constant * varying, denominator, [(prime, base.get(prime, 0) + per_turn.get(prime, 0) * turns)
                                                    for prime in DIE_PRIMES])


def odds(scenario: Scenario) -> Odds:
    """Return the exact distribution of who is surprised and what each member loses"""
    surprise, kind = surprise_chances(scenario)
    members: dict[str, MemberOdds] = {}
    shared: dict[tuple[SideKey, int], MemberOdds] = {}  # members of one side who lose alike
    for key in SIDE_KEYS:
        surprised = surprise[other(key)]
        exponents = factorised(surprised.denominator, DIE_PRIMES)
        for member in scenario.side(key).members:
            shape = loss_shape(member.iq, member.combat_reflexes, kind)
            if (key, id(shape)) not in shared:
                shared[key, id(shape)] = unconditional(shape, surprised, exponents)
            members[member.name] = shared[key, id(shape)]
    return Odds(SYSTEM, scenario.procedure, surprise, members)


def unconditional(shape: LossShape, surprised: Fraction, exponents: Exponents | None) -> MemberOdds:
    """Weigh a member's loss by the chance his side is surprised, adding 0 for the rest"""
    lost = {}
    if surprised:
        lost = {turn: p * surprised for turn, p in shape.head.items() if p}
        lost.update(loss_terms(shape, surprised, exponents))
    lost = add_mass(lost, 0, 1 - surprised)
    never = shape.never * surprised
    expected = None if never else (shape.expected or Fraction(0)) * surprised
    return MemberOdds(UNIT, lost, never, expected)

# --- roll procedures (exporter/rules/rolls.py) ----------------------------------------------------------
# The rolls a GM makes by hand, as data in no VTT's syntax. Each function imports the roll terms itself, so that
# `ambush odds` and `ambush simulate` start without them.


FIRST_TURN = 1  # docs/rules/gurps4e.md#partial-surprise: a stunned character's own turns count k = 1, 2, 3, ...


def success_rule_values() -> dict[str, int]:
    """Return the numbers of the B348 success rule: the 3d6 range, the sure results, the lowest rollable target"""
    c = CONSTANTS
    return {"lowest_roll": c["success_dice"], "highest_roll": c["success_dice"] * c["success_die"],
            "sure_success": c["sure_success"], "sure_failure": c["sure_failure"],
            "lowest_rollable": c["lowest_rollable"]}


def success_rule_row() -> Row:
    """Describe the row that states B348's success rule"""
    from exporter.rules.rolls import Row

    return Row(("RollMacro.Gurps.SuccessRoll",), text="RollMacro.Gurps.SuccessRule")


def roll_procedures() -> tuple[RollProcedure, ...]:
    """Describe the GURPS rolls: initiative, the sneaking contest, the freeze and the recovery roll"""
    from exporter.rules.rolls import Dice, RollProcedure, Row, model_input

    success = Dice(CONSTANTS["success_dice"], CONSTANTS["success_die"])
    contest = []
    for key in ("stealth", "per"):
        skill = model_input(Member, key)
        contest += [Row((f"Input.{key}",), success), Row((f"Input.{key}", "RollMacro.Skill"), skill)]
    return (
        initiative_procedure(),
        RollProcedure("surprise-contest", "RollMacro.Gurps.Contest", (*contest, success_rule_row()),
                      success_rule_values()),
        RollProcedure("surprise-freeze", "RollMacro.Gurps.Freeze",
                      (Row(("RollMacro.Seconds",), Dice(1, CONSTANTS["freeze_die"])),)),
        RollProcedure("surprise-recovery", "RollMacro.Gurps.Recovery",
                      (Row(("RollMacro.Roll",), success), Row(("RollMacro.Target",), recovery_target_term()),
                       success_rule_row()),
                      success_rule_values()),
    )


def initiative_procedure() -> RollProcedure:
    """Describe B393's initiative: each side's 1d6 plus the sum of its modifiers, which the prompt lists"""
    from exporter.rules.rolls import Dice, Prompt, RollProcedure, Row, plus, side_label

    die = Dice(1, CONSTANTS["initiative_die"])
    rows = tuple(Row((side_label(key),), plus(die, Prompt("RollMacro.Gurps.SideModifiers", 0, key)))
                 for key in SIDE_KEYS)
    return RollProcedure("surprise-initiative", "RollMacro.Gurps.Initiative", rows,
                         CONSTANTS["initiative_bonus"])


def recovery_target_term() -> Term:
    """Describe the recovery target: IQ + CR bonus, + (turn - 1) under partial surprise or with CR (A3, A4, A12)"""
    from exporter.rules.rolls import Choice, Number, Product, Prompt, constant, highest, minus, model_input, plus

    cr = model_input(Member, "combat_reflexes")
    turn = Prompt("RollMacro.Gurps.Turn", FIRST_TURN)
    kind = Choice("RollMacro.Gurps.Kind", (("Procedure.partial", Number(1)), ("Procedure.total", Number(0))))
    # docs/rules/gurps4e.md#total-surprise: Combat Reflexes treats total surprise as partial, so the progression
    # applies when either does.
    progression = Product((minus(turn, Number(FIRST_TURN)), highest(kind, cr)))
    return plus(model_input(Member, "iq", selected=True),
                Product((constant(CONSTANTS, "combat_reflexes_recovery"), cr)), progression)
