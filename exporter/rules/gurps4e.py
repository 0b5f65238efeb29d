"""GURPS 4th edition surprise: B393-B394, B420, B43, B348 (docs/rules/gurps4e.md)"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Literal

from exporter.rules.dice import Roller, probability, roll_dice, sum_of
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
    models_on_demand,
    other,
)

if TYPE_CHECKING:
    from exporter.rules.models.gurps4e import Member, Options, Scenario, Side

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


class SideMethods:
    """What the procedures ask of a side, read by the model (exporter/rules/models/gurps4e.py) or as a record"""

    def check(self) -> None:
        """Refuse a leader who is not a member of this side"""
        if self.leader is not None and self.leader not in {m.name for m in self.members}:
            raise FieldProblem("leader", f"{self.leader!r} is not a member of this side")

    def leading_member(self) -> Member | None:
        """Return the leader, or None for a leaderless side"""
        return next((m for m in self.members if m.name == self.leader), None)


# The procedures in which the GM names the side that surprises (total) or sneaks (quick-contest).
SURPRISING_PROCEDURES = ("total", "quick-contest")


class ScenarioMethods:
    """What the procedures ask of a scenario, read by the model or as a record"""

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


# The pydantic models Options, Member, Side, Sides and Scenario, imported on first use.
__getattr__ = models_on_demand(__name__)


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


def roll_outcomes(name: str, skill: int) -> list[tuple[SuccessRoll, Fraction]]:
    """Return every possible success roll of a skill with its chance"""
    if success_threshold(skill) is None:
        return [(SuccessRoll(name, skill, None), Fraction(1))]
    return [(SuccessRoll(name, skill, total), p) for total, p in sorted(success_roll_distribution().items())]


def sneak_win_chance(scenario: Scenario) -> Fraction:
    """Return the chance that the worst sneak beats every watcher; watchers with the same Per share the work"""
    sneak = worst_sneak(scenario.side(scenario.surprising))
    watchers = Counter(w.per or 0 for w in scenario.side(scenario.watching).members)
    chance = Fraction(0)
    for sneak_roll, p_sneak in roll_outcomes(sneak.name, sneak.stealth or 0):
        beats_all = p_sneak
        for per, count in watchers.items():
            beaten = sum((p for w, p in roll_outcomes("-", per) if watcher_result(sneak_roll, w) == "sneak"),
                         Fraction(0))
            beats_all *= beaten**count
        chance += beats_all
    return chance


def seconds_lost(member: Member, kind: str) -> MemberOdds:
    """Return the exact distribution of seconds lost by a surprised member, cut at TAIL_CUT"""
    return seconds_lost_for(member.iq, member.combat_reflexes, kind)


@cache
def seconds_lost_for(iq: int, combat_reflexes: bool, kind: str) -> MemberOdds:
    """Return the loss distribution of a stun profile; members who share one share the work"""
    member = record(SYSTEM, "Member", {"name": "-", "iq": iq, "combat_reflexes": combat_reflexes})
    if never_recovers(member, kind):
        return MemberOdds(UNIT, {}, never=Fraction(1), expected_lost=None)
    if kind == "total" and not member.combat_reflexes:
        return total_surprise_lost(member)
    lost: dict[int, Fraction] = {}
    still_stunned, expected, turn = Fraction(1), Fraction(0), 0
    while True:
        turn += 1
        target = recovery_target(member, "partial", turn)
        chance = success_chance(target)
        if success_threshold(target) == SURE_FAILURE - 1:
            # From here every turn has the same chance: a geometric tail with a closed-form mean.
            expected += still_stunned * (turn - 1 + 1 / chance)
            add_geometric_tail(lost, still_stunned, chance, turn)
            return MemberOdds(UNIT, lost, expected_lost=expected)
        lost[turn] = still_stunned * chance
        expected += turn * lost[turn]
        still_stunned *= 1 - chance


def add_geometric_tail(lost: dict[int, Fraction], mass: Fraction, chance: Fraction, first: int) -> None:
    """Spread mass over turns first, first+1, ... with a constant success chance, until less than TAIL_CUT is left"""
    numerators, denominator = geometric_tail(mass, chance, TAIL_CUT)
    for index, numerator in enumerate(numerators):
        lost[first + index] = lost.get(first + index, Fraction(0)) + Fraction(numerator, denominator)


def geometric_tail(mass: Fraction, chance: Fraction, cut: Fraction) -> tuple[list[int], int]:
    """Return mass * chance * (1 - chance)**k while mass * (1 - chance)**k >= cut (k = 0, 1, ...): one denominator"""
    # Integer numerators over mass.den * d**K: exact, without normalising thousands of ever larger fractions.
    n, d = chance.numerator, chance.denominator
    stay = d - n  # 1 - chance = stay / d
    powers = [1]  # stay**k; the loop condition mass * stay**k / d**k >= cut in integers
    left, right = mass.numerator * cut.denominator, cut.numerator * mass.denominator
    d_power = 1
    if left < right:
        return [], 1
    while stay and left * powers[-1] * stay >= right * d_power * d:
        powers.append(powers[-1] * stay)
        d_power *= d
    numerators = []
    d_rest = d_power  # d**(K - 1 - k) for term k, K the number of terms
    for power in powers:
        numerators.append(mass.numerator * n * power * d_rest)
        d_rest //= d
    return numerators, mass.denominator * d_power * d


def total_surprise_lost(member: Member) -> MemberOdds:
    """Return the seconds lost under total surprise without CR: 1d6 freeze plus plain IQ rolls"""
    chance = success_chance(member.iq)
    freezes = CONSTANTS["freeze_die"]
    # Each freeze f of 1..6 starts the same geometric tail (cut at TAIL_CUT / 6) on turn f + 1: a turn's mass is a
    # sliding window over the tail's terms.
    terms, denominator = geometric_tail(Fraction(1, freezes), chance, TAIL_CUT / freezes)
    lost: dict[int, Fraction] = {}
    window = 0
    for index in range(len(terms) + freezes - 1):
        window += terms[index] if index < len(terms) else 0
        window -= terms[index - freezes] if index >= freezes else 0
        lost[index + 2] = Fraction(window, denominator)
    return MemberOdds(UNIT, lost, expected_lost=Fraction(7, 2) + 1 / chance)


def odds(scenario: Scenario) -> Odds:
    """Return the exact distribution of who is surprised and what each member loses"""
    surprise, kind = surprise_chances(scenario)
    members: dict[str, MemberOdds] = {}
    shared: dict[tuple[SideKey, int, bool], MemberOdds] = {}  # members of one side with one stun profile
    for key in SIDE_KEYS:
        surprised = surprise[other(key)]
        for member in scenario.side(key).members:
            profile = (key, member.iq, member.combat_reflexes)
            if profile not in shared:
                shared[profile] = unconditional(seconds_lost(member, kind), surprised)
            members[member.name] = shared[profile]
    return Odds(SYSTEM, scenario.procedure, surprise, members)


def unconditional(if_surprised: MemberOdds, surprised: Fraction) -> MemberOdds:
    """Weigh a member's loss by the chance his side is surprised, adding 0 for the rest"""
    if surprised == 1:  # total surprise by GM fiat: nothing to weigh, and thousands of exact products saved
        lost = {k: p for k, p in if_surprised.lost.items() if p}
    else:
        lost = {k: p * surprised for k, p in if_surprised.lost.items() if p * surprised}
    lost = add_mass(lost, 0, 1 - surprised)
    never = if_surprised.never * surprised
    expected = None if never else (if_surprised.expected_lost or Fraction(0)) * surprised
    return MemberOdds(UNIT, lost, never, expected)
