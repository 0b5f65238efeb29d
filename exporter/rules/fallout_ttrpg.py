"""Fallout TTRPG homebrew surprise (docs/rules/fallout-ttrpg.md): spot checks, Sneak Attacks, the Surprise Round"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Literal

from exporter.errors import RuleError
from exporter.excerpt import excerpt
from exporter.limits import MEMBERS_A_SIDE
from exporter.rules.declared import EMPTY, Declared, Name, SafeInt, bounded, option, sized
from exporter.rules.dice import Roller, die, highest_of, roll_dice
from exporter.rules.exact import factorised, lowest
from exporter.rules.records import record
from exporter.rules.shared import (
    JS_SAFE_INTEGER,
    SIDE_KEYS,
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
    from exporter.rules.rolls import RollProcedure

SYSTEM = "fallout-ttrpg"
UNIT = "round"
PROCEDURES = ("world-map", "sneak-attack")
# What the table automation shows and offers: the statuses these rules mark and the GM's rolls outside the dialog.
STATUSES = ("surprised", "prone", "sleep")
GM_ROLLS = ("spot-test",)
# The inputs each procedure reads, by where they live (scenario, side, member), each with the sides that must
# give it ("ab", "a", "b", or "" when optional); names are this module's model field names.
INPUTS: Inputs = {
    "world-map": {"scenario": (("dc", "ab"), ("hunting", "")),
                  "member": (("per", "a"), ("survival", "a"), ("cautious_nature", ""), ("asleep", ""),
                             ("sequence", ""))},
    "sneak-attack": {"scenario": (("openers", "ab"),),
                     "member": (("cautious_nature", ""), ("asleep", ""), ("sequence", ""))},
}
# The kind of each input that is no plain number, flag or text: the list of declared opening attacks.
INPUT_KINDS = {"openers": "openers"}
# Readings the rules fix (one value, or not implemented): never offered as options, refused with this reason.
FIXED_READINGS = {"group_test": "is fixed, not an option: the leader rolls for the group (B11)"}
# Who must give an input once a house rule is on, where that is more than INPUTS says: with enemy_spot_roll side b's
# leader rolls his own PER + Survival test too (B5).
REQUIRED_WITH_OPTION = {"enemy_spot_roll": {"per": "ab", "survival": "ab"}}
# What a prompt offers for an opening attack's number before one is set: no bonus, the usual number to hit.
INPUT_PREFILLS = {"attack_bonus": 0, "target_number": 15}

TEST_DIE = 20  # docs/rules/fallout-ttrpg.md#mechanics [F1]: 1d20 + (SPECIAL - 5) + Skill >= DC
SPECIAL_BASELINE = 5  # [F1]: SPECIAL 5 gives +0, 1 gives -4, 10 gives +5
ADVANTAGE_DICE = 2  # [F2]: a Sneak Attack rolls with Advantage, 2d20 keep the higher

# Every rule constant of this module as plain data, for the generated runtimes.
CONSTANTS = {"test_die": TEST_DIE, "special_baseline": SPECIAL_BASELINE, "advantage_dice": ADVANTAGE_DICE}

TestResult = Literal["success", "failure", "poor-failure"]
Surprise = Literal["a", "b", "none"]

WORLD_MAP_FIELDS = ("dc", "hunting")
SNEAK_ATTACK_FIELDS = ("attacker", "attack_bonus", "target_number", "openers")
LONE_OPENER_FIELDS = ("attacker", "attack_bonus", "target_number")
# Inputs a scenario file may also give in another spelling: one opener of side a as three scenario fields.
INPUT_SPELLINGS = {"openers": LONE_OPENER_FIELDS}


@dataclass(frozen=True)
class Problem:
    """Where a scenario is inconsistent (a field path such as openers[1].name), and why"""

    field: str
    message: str


class Options(Declared):
    """The configurable readings of docs/rules/fallout-ttrpg.md#readings"""

    opening_attack_is_free: bool = option(
        False, "Whether the Sneak Attack that opens the fight is an extra action or the opener's Surprise Round turn",
        "B1", "Surprise page: the Sneak Attack \"resolves first\", never called extra",
        {"false": "the opening attack is his whole Surprise Round turn",
         "true": "the opening attack is extra; he takes a full turn in the Surprise Round too"})
    poor_failure_margin: int = option(
        5, "By how much the party's spot test must fail for the enemies to get the Surprise Round",
        "B3", "Surprise page: \"fail by 5 or more, e.g.\"",
        {"N": "a total of DC - N or less is a poor failure (1 or more)"}, ge=1, le=JS_SAFE_INTEGER)
    enemy_spot_roll: bool = option(
        False, "Whether side b's leader rolls a spot test of his own after a party's failure",
        "B5", "Surprise page, quick reference: \"the party (or the GM, for enemies) succeeds\"",
        {"false": "one party roll decides both directions",
         "true": "after a failure that is not poor and not against hunters, side b's leader rolls too"})
    cautious_sleeper_wakes: Literal["sr_turn_start", "sr_end"] = option(
        "sr_turn_start", "When a sleeper with Cautious Nature wakes in a Surprise Round against his side",
        "B7", "Surprise page: the sleeper rules are for sleepers \"who are surprised\"",
        {"sr_turn_start": "at the start of his Surprise Round turn, Prone with empty slots, and he may act",
         "sr_end": "at the end of the Surprise Round, with the surprised sleepers"})


class Member(Declared):
    """One combatant: PER and Survival for the spot check, perks, sleep and Sequence"""

    name: Name
    per: int | None = bounded(None, ge=1, le=10)
    survival: int | None = bounded(None, ge=0, le=20)
    cautious_nature: bool = False
    asleep: bool = False
    sequence: SafeInt = 0  # B6: an input, higher acts first


class Side(Declared):
    """One side of the encounter; a is the party"""

    name: Name | None = None
    members: list[Member] = sized(min_length=1, max_length=MEMBERS_A_SIDE)


class Sides(Declared):
    """The two sides; a is the party"""

    a: Side
    b: Side


class Opener(Declared):
    """One declared opening Sneak Attack: who attacks, his bonus and the number to reach"""

    name: Name
    attack_bonus: SafeInt
    target_number: SafeInt


class Scenario(Declared):
    """A Fallout TTRPG surprise scenario (docs/scenarios.md)"""

    system: Literal["fallout-ttrpg"]
    procedure: Literal["world-map", "sneak-attack"]
    dc: SafeInt | None = None
    hunting: bool = False
    attacker: Name | None = None
    attack_bonus: SafeInt | None = None
    target_number: SafeInt | None = None
    openers: list[Opener] | None = sized(None, max_length=2 * MEMBERS_A_SIDE)
    sides: Sides
    options: Options = EMPTY

    def check(self) -> None:
        """Refuse repeated names, and what the procedure does not take or lacks"""
        check_unique_names(self.sides)
        problem = world_map_problem(self) if self.procedure == "world-map" else sneak_attack_problem(self)
        if problem is not None:
            raise FieldProblem(problem.field, problem.message)
        check_procedure_fields(self, INPUTS, INPUT_SPELLINGS)

    def side(self, key: SideKey) -> Side:
        """Return side a or b"""
        return getattr(self.sides, key)


DEFAULT_OPTIONS = record(Options, {})


# --- validation --------------------------------------------------------------------------------------


def foreign_field_problem(scenario: Scenario, fields: tuple[str, ...], owner: str) -> Problem | None:
    """Find the first field of the other procedure that the scenario sets"""
    for name in fields:
        value = getattr(scenario, name)
        if value is not None and value is not False:
            return Problem(name, f"is a field of procedure {owner}, not of {scenario.procedure}")
    return None


def world_map_problem(scenario: Scenario) -> Problem | None:
    """Check what the World Map spot check needs: the DC, and PER and Survival of whoever may roll"""
    if (problem := foreign_field_problem(scenario, SNEAK_ATTACK_FIELDS, "sneak-attack")) is not None:
        return problem
    if scenario.dc is None:
        return Problem("dc", "missing; procedure world-map needs the DC of the PER + Survival Test")
    rolling_sides: tuple[SideKey, ...] = ("a", "b") if scenario.options.enemy_spot_roll else ("a",)
    for key in rolling_sides:
        for index, member in enumerate(scenario.side(key).members):
            for skill in ("per", "survival"):
                if getattr(member, skill) is None:
                    why = "with enemy_spot_roll side b's leader rolls too" if key == "b" else "side a's leader rolls"
                    return Problem(f"sides.{key}.members[{index}].{skill}",
                                   f"missing; procedure world-map needs {skill} for every member of side {key} ({why})")
    return None


def sneak_attack_problem(scenario: Scenario) -> Problem | None:
    """Check the openers: one attacker of side a, or a list of openers from either side, never both"""
    if (problem := foreign_field_problem(scenario, WORLD_MAP_FIELDS, "world-map")) is not None:
        return problem
    given = [name for name in LONE_OPENER_FIELDS if getattr(scenario, name) is not None]
    if scenario.openers is not None:
        if given:
            return Problem("openers", f"give either openers or attacker, attack_bonus and target_number, "
                                         f"not both ({given[0]} is set too)")
        return openers_problem(scenario)
    for name in LONE_OPENER_FIELDS:
        if getattr(scenario, name) is None:
            return Problem(name, "missing; procedure sneak-attack needs attacker, attack_bonus and "
                                    "target_number (or a list of openers)")
    if scenario.attacker not in {m.name for m in scenario.sides.a.members}:
        return Problem("attacker", f"{excerpt(scenario.attacker)} is not a member of side a "
                                   "(use openers for an attacker of side b)")
    return None


def openers_problem(scenario: Scenario) -> Problem | None:
    """Check that every opener is a member of either side and is declared once"""
    openers = scenario.openers or []
    if not openers:
        return Problem("openers", "needs at least one opener")
    members = {m.name for key in SIDE_KEYS for m in scenario.side(key).members}
    declared: set[str] = set()
    for index, opener in enumerate(openers):
        if opener.name not in members:
            return Problem(f"openers[{index}].name", f"{excerpt(opener.name)} is not a member of either side")
        if opener.name in declared:
            return Problem(f"openers[{index}].name", f"{excerpt(opener.name)} is declared as an opener more than once")
        declared.add(opener.name)
    return None


# --- members, sides and Sequence -------------------------------------------------------------------


def members_with_sides(scenario: Scenario) -> list[tuple[SideKey, Member]]:
    """List every member with its side key, in scenario order (side a as listed, then side b)"""
    return [(key, member) for key in SIDE_KEYS for member in scenario.side(key).members]


def side_of(scenario: Scenario, name: str) -> SideKey:
    """Return the side key of a member"""
    for key, member in members_with_sides(scenario):
        if member.name == name:
            return key
    raise RuleError(f"{excerpt(name)} is not a member of either side")


def member_named(scenario: Scenario, name: str) -> Member:
    """Return the member with this name"""
    return next(m for _, m in members_with_sides(scenario) if m.name == name)


def sequence_order(scenario: Scenario) -> tuple[str, ...]:
    """List every member in descending Sequence; ties: side a first, then listed order (B6)"""
    ranked = sorted(members_with_sides(scenario), key=lambda entry: -entry[1].sequence)
    return tuple(member.name for _, member in ranked)


# --- the PER + Survival Test (docs/rules/fallout-ttrpg.md#mechanics, docs/rules/fallout-ttrpg.md#world-map) ---


def spot_score(member: Member) -> int:
    """Return PER + Survival, the score that picks a Group Test leader (B11)"""
    if member.per is None or member.survival is None:
        raise RuleError(f"{excerpt(member.name)} needs per and survival for a PER + Survival Test")
    return member.per + member.survival


def test_modifier(member: Member) -> int:
    """Return what a member adds to the d20 of a PER + Survival Test: (PER - 5) + Survival"""
    return spot_score(member) - SPECIAL_BASELINE


def test_total(member: Member, roll: int) -> int:
    """Return a PER + Survival Test total: d20 + (PER - 5) + Survival, no natural 1 or 20 rule"""
    return roll + test_modifier(member)


def test_result(total: int, dc: int, hunting: bool, options: Options) -> TestResult:
    """Classify a test total: success, normal failure, or poor failure (docs/rules/fallout-ttrpg.md#world-map, B3)"""
    if total >= dc:
        return "success"
    if hunting or total <= dc - options.poor_failure_margin:
        return "poor-failure"
    return "failure"


def group_leader(side: Side) -> Member:
    """Return the member who rolls for the side: highest PER + Survival, first listed on a tie (B11)"""
    return max(side.members, key=spot_score)


def needs_enemy_test(party_result: TestResult, hunting: bool, options: Options) -> bool:
    """Tell whether side b's leader rolls his own test after the party's (B5, enemy_spot_roll)"""
    return options.enemy_spot_roll and party_result != "success" and not hunting


def world_map_surprise(party_result: TestResult, enemy_result: TestResult | None) -> Surprise:
    """Decide who gets the Surprise Round from the party's test and, when rolled, the enemies' test"""
    if party_result == "success":
        return "a"
    if enemy_result is not None:
        return "b" if enemy_result == "success" else "none"
    return "b" if party_result == "poor-failure" else "none"  # B4: a normal failure gives no SR


@dataclass(frozen=True)
class SpotTest:
    """One leader's PER + Survival Test"""

    leader: str
    roll: int
    total: int
    dc: int
    result: TestResult

    def to_json(self) -> dict:
        """Return the test as plain JSON data"""
        return {"leader": self.leader, "roll": self.roll, "total": self.total, "dc": self.dc, "result": self.result}


def roll_spot_test(side: Side, dc: int, hunting: bool, options: Options, roller: Roller) -> SpotTest:
    """Let a side's leader roll 1d20 for the PER + Survival Test"""
    leader = group_leader(side)
    roll = roller.roll(TEST_DIE)
    total = test_total(leader, roll)
    return SpotTest(leader.name, roll, total, dc, test_result(total, dc, hunting, options))


# --- the opening Sneak Attack (docs/rules/fallout-ttrpg.md#sneak-attack, B2, B10) --------------------


def scenario_openers(scenario: Scenario) -> tuple[Opener, ...]:
    """Return the declared openers, a lone attacker counting as one"""
    if scenario.openers is not None:
        return tuple(scenario.openers)
    if scenario.attacker is None or scenario.attack_bonus is None or scenario.target_number is None:
        return ()
    lone = {"name": scenario.attacker, "attack_bonus": scenario.attack_bonus, "target_number": scenario.target_number}
    return (record(Opener, lone),)


def opening_order(scenario: Scenario) -> tuple[Opener, ...]:
    """Order the openers as they attack: descending Sequence, ties side a first, then listed order"""
    rank = {name: index for index, name in enumerate(sequence_order(scenario))}
    return tuple(sorted(scenario_openers(scenario), key=lambda opener: rank[opener.name]))


def attack_hits(total: int, target_number: int) -> bool:
    """Tell whether an attack total reaches the target number"""
    return total >= target_number


@cache
def hit_chance(attack_bonus: int, target_number: int) -> Fraction:
    """Return the exact chance that 2d20 keep the higher plus the bonus reaches the target number"""
    return sum((p for face, p in highest_of(ADVANTAGE_DICE, TEST_DIE).items()
                if attack_hits(face + attack_bonus, target_number)), Fraction(0))


@dataclass(frozen=True)
class SneakAttack:
    """One opener's attack with Advantage"""

    name: str
    side: SideKey
    dice: tuple[int, int]
    attack_bonus: int
    target_number: int

    @property
    def kept(self) -> int:
        """Return the higher of the two d20 (Advantage)"""
        return max(self.dice)

    @property
    def total(self) -> int:
        """Return the kept die plus the attack bonus"""
        return self.kept + self.attack_bonus

    @property
    def hit(self) -> bool:
        """Tell whether the attack hits"""
        return attack_hits(self.total, self.target_number)

    def to_json(self) -> dict:
        """Return the attack as plain JSON data"""
        return {"name": self.name, "side": self.side, "dice": list(self.dice), "total": self.total,
                "target_number": self.target_number, "hit": self.hit}


def roll_openers(scenario: Scenario, roller: Roller) -> tuple[SneakAttack, ...]:
    """Roll the openers in order until one hits; later openers take no dice (B2, B10)"""
    attacks: list[SneakAttack] = []
    for opener in opening_order(scenario):
        first, second = roll_dice(roller, ADVANTAGE_DICE, TEST_DIE)
        attack = SneakAttack(opener.name, side_of(scenario, opener.name), (first, second), opener.attack_bonus,
                             opener.target_number)
        attacks.append(attack)
        if attack.hit:
            break
    return tuple(attacks)


def first_hit(attacks: tuple[SneakAttack, ...]) -> SneakAttack | None:
    """Return the attack that triggers the Surprise Round, if any hit"""
    return next((attack for attack in attacks if attack.hit), None)


# --- the Surprise Round (docs/rules/fallout-ttrpg.md#surprise-round) ------------------------------------------------


def acts_when_surprised(member: Member, options: Options) -> bool:
    """Tell whether a member of the surprised side still acts in the Surprise Round (B7, B9)"""
    if not member.cautious_nature:
        return False
    return not member.asleep or options.cautious_sleeper_wakes == "sr_turn_start"


@dataclass(frozen=True)
class SurpriseRound:
    """Who acts in the one Surprise Round, who is Surprised, who sleeps and when they wake"""

    side: SideKey
    opener: str | None
    order: tuple[str, ...]
    surprised: tuple[str, ...]
    prone: tuple[str, ...]
    wake_at_turn_start: tuple[str, ...]
    wake_at_end: tuple[str, ...]

    def to_json(self) -> dict:
        """Return the Surprise Round as plain JSON data"""
        return {"side": self.side, "order": list(self.order), "surprised": list(self.surprised),
                "prone": list(self.prone), "wake_at_turn_start": list(self.wake_at_turn_start),
                "wake_at_end": list(self.wake_at_end)}


def surprise_round(scenario: Scenario, side: SideKey, opener: str | None = None) -> SurpriseRound:
    """Build the Surprise Round of side, opened by opener's Sneak Attack when there is one"""
    options = scenario.options
    victims = scenario.side(other(side)).members
    surprised = tuple(m.name for m in victims if not m.cautious_nature)  # B9
    prone = tuple(m.name for m in victims if m.asleep)
    cautious_sleepers_wake_early = options.cautious_sleeper_wakes == "sr_turn_start"  # B7
    wake_at_turn_start = tuple(m.name for m in victims
                               if m.asleep and m.cautious_nature and cautious_sleepers_wake_early)
    wake_at_end = tuple(name for name in prone if name not in wake_at_turn_start)  # B8
    actors = {m.name for m in scenario.side(side).members}
    actors |= {m.name for m in victims if acts_when_surprised(m, options)}
    if opener is not None and not options.opening_attack_is_free:
        actors.discard(opener)  # B1: the Sneak Attack opens his one SR turn
    in_sequence = tuple(name for name in sequence_order(scenario) if name in actors)
    order = ((opener,) if opener is not None else ()) + in_sequence
    return SurpriseRound(side, opener, order, surprised, prone, wake_at_turn_start, wake_at_end)


def rounds_lost(scenario: Scenario, surprise: Surprise) -> dict[str, int]:
    """Return every member's lost rounds: 1 on the surprised side unless he acts in the Surprise Round"""
    lost = {}
    for key, member in members_with_sides(scenario):
        surprised_side = surprise != "none" and key == other(surprise)
        lost[member.name] = int(surprised_side and not acts_when_surprised(member, scenario.options))
    return lost


# --- one resolution -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """The result of one surprise, in the shape of the conformance vectors"""

    surprise: Surprise
    test: SpotTest | None
    enemy_test: SpotTest | None
    openers: tuple[SneakAttack, ...] | None
    surprise_round: SurpriseRound | None
    normal_order: tuple[str, ...]
    lost: dict[str, int]

    def to_json(self) -> dict:
        """Return the outcome as plain JSON data"""
        data: dict = {"surprise": self.surprise, "test": None if self.test is None else self.test.to_json()}
        if self.enemy_test is not None:
            data["enemy_test"] = self.enemy_test.to_json()
        data["openers"] = None if self.openers is None else [attack.to_json() for attack in self.openers]
        data["surprise_round"] = None if self.surprise_round is None else self.surprise_round.to_json()
        data["normal_order"] = list(self.normal_order)
        data["members"] = {name: {"lost": lost} for name, lost in self.lost.items()}
        return data


def resolve(scenario: Scenario, roller: Roller) -> Outcome:
    """Play one surprise with the roller's dice"""
    if scenario.procedure == "world-map":
        return resolve_world_map(scenario, roller)
    return resolve_sneak_attack(scenario, roller)


def resolve_world_map(scenario: Scenario, roller: Roller) -> Outcome:
    """Play the World Map spot check: the party's test, then side b's when enemy_spot_roll asks for it"""
    dc = required_dc(scenario)
    test = roll_spot_test(scenario.sides.a, dc, scenario.hunting, scenario.options, roller)
    enemy_test = None
    if needs_enemy_test(test.result, scenario.hunting, scenario.options):
        enemy_test = roll_spot_test(scenario.sides.b, dc, False, scenario.options, roller)
    surprise = world_map_surprise(test.result, None if enemy_test is None else enemy_test.result)
    return finished(scenario, surprise, None, test=test, enemy_test=enemy_test, openers=None)


def resolve_sneak_attack(scenario: Scenario, roller: Roller) -> Outcome:
    """Play the opening Sneak Attacks: the first hit gives its side the Surprise Round"""
    attacks = roll_openers(scenario, roller)
    hit = first_hit(attacks)
    surprise: Surprise = "none" if hit is None else hit.side
    return finished(scenario, surprise, None if hit is None else hit.name, test=None, enemy_test=None, openers=attacks)


def finished(scenario: Scenario, surprise: Surprise, opener: str | None, *, test: SpotTest | None,
             enemy_test: SpotTest | None, openers: tuple[SneakAttack, ...] | None) -> Outcome:
    """Assemble an outcome once the dice have decided who gets the Surprise Round"""
    round_ = None if surprise == "none" else surprise_round(scenario, surprise, opener)
    return Outcome(surprise, test, enemy_test, openers, round_, sequence_order(scenario),
                   rounds_lost(scenario, surprise))


def required_dc(scenario: Scenario) -> int:
    """Return the World Map DC, which validation guarantees"""
    if scenario.dc is None:
        raise RuleError("procedure world-map needs a dc")
    return scenario.dc


# --- exact odds --------------------------------------------------------------------------------------


def test_result_chances(member: Member, dc: int, hunting: bool, options: Options) -> dict[TestResult, Fraction]:
    """Return the exact chance of each test result for one roller"""
    chances: dict[TestResult, Fraction] = {"success": Fraction(0), "failure": Fraction(0), "poor-failure": Fraction(0)}
    for roll, p in die(TEST_DIE).items():
        chances[test_result(test_total(member, roll), dc, hunting, options)] += p
    return chances


def world_map_chances(scenario: Scenario) -> dict[str, Fraction]:
    """Return the exact chance of each Surprise Round side after the World Map spot check"""
    dc, options = required_dc(scenario), scenario.options
    chances = {"a": Fraction(0), "b": Fraction(0), "none": Fraction(0)}
    party = test_result_chances(group_leader(scenario.sides.a), dc, scenario.hunting, options)
    for party_result, p_party in party.items():
        if not needs_enemy_test(party_result, scenario.hunting, options):
            chances[world_map_surprise(party_result, None)] += p_party
            continue
        enemy = test_result_chances(group_leader(scenario.sides.b), dc, False, options)
        for enemy_result, p_enemy in enemy.items():
            chances[world_map_surprise(party_result, enemy_result)] += p_party * p_enemy
    return chances


def sneak_attack_chances(scenario: Scenario) -> dict[str, Fraction]:
    """Return the exact chance that each side's opener hits first, and that every opener misses

    Counted in integers over 400 (two d20) per opener and reduced once at the end. Each opener maps (the ways side
    a's opener hit first, the ways every one missed) to the same over one more opener: a' = 400 a + hits * missed if
    he is of side a, missed' = (400 - hits) * missed. Composing these maps halves first costs a few products of
    large integers; one opener at a time would cost one pass over ever larger integers per opener.
    """
    rolls = TEST_DIE**ADVANTAGE_DICE
    sides = {member.name: key for key, member in members_with_sides(scenario)}
    hits: dict[tuple[int, int], int] = {}  # how many of the rolls hit, by attack bonus and target number
    steps = []
    for opener in opening_order(scenario):
        attack = (opener.attack_bonus, opener.target_number)
        if attack not in hits:
            hits[attack] = int(hit_chance(*attack) * rolls)
        steps.append((hits[attack], sides[opener.name]))

    def composed(low: int, high: int) -> tuple[int, int, int]:
        """Return the map of openers low..high-1 as (p, q, r): a' = p a + q missed, missed' = r missed"""
        if high - low == 1:
            hits, side = steps[low]
            return rolls, hits if side == "a" else 0, rolls - hits
        middle = (low + high) // 2
        p1, q1, r1 = composed(low, middle)
        p2, q2, r2 = composed(middle, high)
        return p1 * p2, p2 * q1 + q2 * r1, r1 * r2

    everything, first_a, all_missed = composed(0, len(steps)) if steps else (1, 0, 1)
    exponents = [(prime, exponent * len(steps)) for prime, exponent in factorised(rolls, (2, 5)).items()]
    counts = {"a": first_a, "b": everything - first_a - all_missed, "none": all_missed}
    return {key: lowest(count, everything, exponents) for key, count in counts.items()}


def odds(scenario: Scenario) -> Odds:
    """Return the exact distribution of who gets the Surprise Round and what each member loses"""
    surprise = world_map_chances(scenario) if scenario.procedure == "world-map" else sneak_attack_chances(scenario)
    members = {}
    shared: dict[SideKey | None, MemberOdds] = {}  # by the side whose surprise costs the member his round
    for key, member in members_with_sides(scenario):
        loser = None if acts_when_surprised(member, scenario.options) else other(key)
        if loser not in shared:
            lose_round = Fraction(0) if loser is None else surprise[loser]
            lost = add_mass(add_mass({}, 0, 1 - lose_round), 1, lose_round)
            shared[loser] = MemberOdds(UNIT, lost, never=Fraction(0), expected_lost=lose_round)
        members[member.name] = shared[loser]
    return Odds(SYSTEM, scenario.procedure, surprise, members)

# --- roll procedures (exporter/rules/rolls.py) ----------------------------------------------------------
# The rolls a GM makes by hand, as data in no VTT's syntax. Each function imports the roll terms itself, so that
# `ambush odds` and `ambush simulate` start without them.


def roll_procedures() -> tuple[RollProcedure, ...]:
    """Describe the Fallout rolls: the World Map PER + Survival test and the opening Sneak Attack"""
    from exporter.rules.rolls import Dice, RollProcedure, Row, Sum, constant, model_input, plus

    c = CONSTANTS
    # docs/rules/fallout-ttrpg.md#mechanics: 1d20 + (PER - 5) + Survival
    test = Sum(((1, Dice(1, c["test_die"])), (1, model_input(Member, "per", selected=True)),
                (-1, constant(CONSTANTS, "special_baseline")),
                (1, model_input(Member, "survival", selected=True))))
    attack = plus(Dice(c["advantage_dice"], c["test_die"], keep_highest=1),
                  model_input(Opener, "attack_bonus"))
    return (
        RollProcedure("surprise-spot-test", "Procedure.world-map",
                      (Row(("RollMacro.Total",), test), Row(("Input.dc",), model_input(Scenario, "dc")))),
        RollProcedure("surprise-sneak-attack", "Procedure.sneak-attack",
                      (Row(("RollMacro.Total",), attack),
                       Row(("Input.target_number",), model_input(Opener, "target_number")))),
    )
