"""GURPS 4e rules core: every rule of docs/rules/gurps4e.md, with hand-derived expectations"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from exporter.errors import DiceExhausted, InputFileError
from exporter.rules import gurps4e as g
from exporter.rules.dice import ScriptedRoller
from exporter.scenario import scenario_from_dict
from tests.procedure_fields import applicable
from tests.scenario_draws import maybe, member_name, put, side_names


def member(name: str, iq: int = 10, **extra) -> dict:
    return {"name": name, "iq": iq, **extra}


def scenario(procedure: str = "partial", a: dict | None = None, b: dict | None = None, **options) -> g.Scenario:
    data = {
        "system": "gurps4e",
        "procedure": procedure,
        "sides": {"a": a or {"members": [member("Ava")]}, "b": b or {"members": [member("Bo")]}},
    }
    if options:
        data["options"] = options
    return scenario_from_dict(applicable(data))  # type: ignore[return-value]


def three_dice(total: int) -> list[int]:
    """Return three d6 faces summing to total (3..18)"""
    faces = [1, 1, 1]
    for i in range(3):
        faces[i] += min(5, total - sum(faces))
    assert sum(faces) == total
    return faces


def dice(*totals: int) -> list[int]:
    return [face for total in totals for face in three_dice(total)]


# --- success rolls and criticals (B343-B348) ----------------------------------------------------------


@pytest.mark.parametrize(("effective", "threshold"), [(2, None), (3, 4), (4, 4), (10, 10), (16, 16), (25, 16)])
def test_success_threshold(effective, threshold):
    assert g.success_threshold(effective) == threshold


def test_three_and_four_always_succeed_seventeen_and_eighteen_always_fail():
    assert g.succeeds(3, 4) and g.succeeds(3, 3)
    assert not g.succeeds(3, 5)
    assert not g.succeeds(30, 17) and not g.succeeds(30, 18)
    assert g.succeeds(30, 16)


def test_below_three_cannot_be_rolled_and_takes_no_dice():
    roller = ScriptedRoller([])
    attempt = g.make_success_roll(roller, "X", 2)
    assert attempt.roll is None and not attempt.success and attempt.margin is None
    assert roller.used == 0


def test_success_chance_is_exact():
    assert g.success_chance(10) == Fraction(108, 216)
    assert g.success_chance(3) == Fraction(4, 216)  # 3 or 4
    assert g.success_chance(16) == Fraction(212, 216)  # only 17 and 18 fail
    assert g.success_chance(2) == 0


@pytest.mark.parametrize(
    ("effective", "roll", "expected"),
    [(10, 4, "success"), (14, 5, None), (15, 5, "success"), (15, 6, None), (16, 6, "success"),
     (16, 17, None), (15, 17, "failure"), (30, 18, "failure"), (5, 15, "failure"), (5, 14, None), (12, 12, None)],
)
def test_criticals(effective, roll, expected):
    assert g.critical(effective, roll) == expected


@pytest.mark.parametrize(
    ("first", "second", "winner"),
    [((10, 10), (15, 16), "first"),  # a success beats a failure
     ((10, 5), (14, 10), "first"),  # both succeed: margin 5 beats 4
     ((10, 12), (10, 15), "first"),  # both fail: -2 beats -5
     ((12, 9), (10, 7), "tie"),  # equal margins: a tie means nobody won
     ((12, 3), (14, 5), "tie")],  # criticals do not decide, only margins [G10]
)
def test_quick_contest(first, second, winner):
    assert g.quick_contest(g.SuccessRoll("A", *first), g.SuccessRoll("B", *second)) == winner


def test_an_unrolled_attempt_loses_to_any_rolled_failure():
    assert g.quick_contest(g.SuccessRoll("A", 2, None), g.SuccessRoll("B", 8, 18)) == "second"


# --- initiative modifiers (B393, docs/rules/gurps4e.md#initiative) -----------------------------------


def mods(a: dict, b: dict, **options) -> dict[str, int]:
    sc = scenario("partial", a, b, **options)
    return g.initiative_modifiers(sc.sides.a, sc.sides.b, sc.options)


def led(*members: dict, **side) -> dict:
    return {"leader": members[0]["name"], "members": list(members), **side}


def test_leader_combat_reflexes_gives_two_and_replaces_the_ally_bonus():
    assert mods(led(member("L", combat_reflexes=True), member("M", combat_reflexes=True)),
                led(member("O"))) == {"combat_reflexes": 2}


def test_ally_combat_reflexes_gives_one_however_many():
    assert mods(led(member("L"), member("M", combat_reflexes=True), member("N", combat_reflexes=True)),
                led(member("O"))) == {"ally_combat_reflexes": 1}


def test_higher_iq_leader_gets_one_and_equal_iq_nobody():
    assert mods(led(member("L", 12)), led(member("O", 11))) == {"higher_iq": 1}
    assert mods(led(member("L", 11)), led(member("O", 12))) == {}
    assert mods(led(member("L", 12)), led(member("O", 12))) == {}


def test_higher_iq_compares_leaders_not_members():
    assert mods(led(member("L", 10), member("Genius", 18)), led(member("O", 11))) == {}


@pytest.mark.parametrize(("tactics", "bonus"), [(0, None), (1, 1), (19, 1), (20, 2), (25, 2)])
def test_tactics(tactics, bonus):
    expected = {} if bonus is None else {"tactics": bonus}
    assert mods(led(member("L", tactics=tactics)), led(member("O"))) == expected


def test_only_the_leaders_tactics_count():
    assert mods(led(member("L"), member("Tactician", tactics=22)), led(member("O"))) == {}


def test_leaderless_side_takes_minus_two_and_gets_no_iq_bonus():
    assert mods({"members": [member("M", 14)]}, led(member("O", 9))) == {"leaderless": -2}
    assert mods(led(member("L", 14)), {"members": [member("O", 9)]}) == {}  # A7: not against leaderless either


def test_leaderless_iq_bonus_option_compares_the_highest_iq():
    assert mods({"members": [member("M", 14), member("N", 8)]}, led(member("O", 9)),
                leaderless_iq_bonus=True) == {"higher_iq": 1, "leaderless": -2}


def test_leaderless_side_with_a_combat_reflexes_member_gets_one():
    assert mods({"members": [member("M", combat_reflexes=True)]}, led(member("O"))) == {
        "ally_combat_reflexes": 1, "leaderless": -2}


def test_animals_and_low_iq_groups_skip_the_leaderless_penalty():
    assert mods({"animals": True, "members": [member("Wolf", 8)]}, led(member("O"))) == {}
    assert mods({"members": [member("Rat", 4), member("Rat2", 5)]}, led(member("O"))) == {}
    assert mods({"members": [member("Rat", 4), member("Orc", 6)]}, led(member("O"))) == {"leaderless": -2}


def test_gm_modifier():
    assert mods(led(member("L"), gm_modifier=-3), led(member("O"))) == {"gm": -3}


def test_initiative_tie_means_nobody_is_surprised():
    outcome = g.resolve(scenario("partial", led(member("L")), led(member("O"))), ScriptedRoller([4, 4]))
    assert outcome.surprise == "none" and outcome.surprise_kind is None and outcome.tracks == ()


def test_leaderless_against_leaderless_cancels():
    sc = scenario("partial", {"members": [member("M")]}, {"members": [member("O")]})
    outcome = g.resolve(sc, ScriptedRoller([3, 3]))
    assert outcome.initiative is not None
    assert outcome.initiative["a"].total == outcome.initiative["b"].total == 1
    assert outcome.surprise == "none"


def test_initiative_winner_stuns_the_losing_side():
    sc = scenario("partial", led(member("L", combat_reflexes=True)), led(member("O", 10), member("P", 11)))
    outcome = g.resolve(sc, ScriptedRoller([1, 3]))  # a: 1 + 2 = 3, b: 3: a tie
    assert outcome.surprise == "none"
    outcome = g.resolve(sc, ScriptedRoller([2, 3, *dice(10, 12, 11)]))  # a: 4 beats b: 3
    assert outcome.surprise == "a"
    assert [t.member.name for t in outcome.tracks] == ["O", "P"]


# --- partial surprise (B393, docs/rules/gurps4e.md#partial-surprise) -------------------------------------


def stun(sc: g.Scenario, faces: list[int]) -> dict:
    roller = ScriptedRoller(faces)
    outcome = g.resolve(sc, roller)
    assert roller.remaining == 0, "every scripted face must be used"
    return outcome.to_json()


def test_partial_recovery_gains_one_per_turn_from_the_second():
    sc = scenario("partial", led(member("L")), led(member("O", 9)))
    result = stun(sc, [6, 1, *dice(12, 11, 11)])  # targets 9, 10, 11: fail 12, fail 11, make 11
    turns = result["members"]["O"]["turns"]
    assert [t["target"] for t in turns] == [9, 10, 11]
    assert [t["success"] for t in turns] == [False, False, True]
    assert result["members"]["O"]["lost"] == 3


def test_combat_reflexes_on_the_losing_side_is_still_stunned_with_plus_six():
    sc = scenario("partial", led(member("L")), led(member("O", 9, combat_reflexes=True)))
    result = stun(sc, [6, 1, *dice(16, 16)])  # b: 1+2 = 3 loses to 6; targets 15 then 16 (A4 stacks)
    turns = result["members"]["O"]["turns"]
    assert [t["target"] for t in turns] == [15, 16]
    assert result["members"]["O"]["lost"] == 2


def test_targets_above_sixteen_still_fail_on_seventeen():
    sc = scenario("partial", led(member("L")), led(member("O", 14, combat_reflexes=True)))
    result = stun(sc, [6, 1, *dice(17, 18, 16)])
    assert [t["target"] for t in result["members"]["O"]["turns"]] == [20, 21, 22]
    assert result["members"]["O"]["lost"] == 3


def test_unrollable_targets_take_no_dice_until_they_reach_three():
    sc = scenario("partial", led(member("L")), led(member("Dim", 1)))
    result = stun(sc, [6, 1, *dice(4)])  # targets 1, 2 cannot be rolled; 3 rolls 4 (always succeeds)
    turns = result["members"]["Dim"]["turns"]
    assert [(t["target"], t["roll"]) for t in turns] == [(1, None), (2, None), (3, 4)]
    assert result["members"]["Dim"]["lost"] == 3


def test_members_roll_in_listed_order_each_turn():
    sc = scenario("partial", led(member("L")), led(member("O", 10), member("P", 10)))
    result = stun(sc, [6, 1, *dice(11, 10, 11)])  # turn 1: O fails 11, P makes 10; turn 2: O makes 11
    assert result["members"]["O"]["lost"] == 2
    assert result["members"]["P"]["lost"] == 1


@pytest.mark.parametrize(("timing", "defence"), [("start", 0), ("end", -4)])
def test_stun_roll_timing_decides_the_defence_on_the_success_turn(timing, defence):
    sc = scenario("partial", led(member("L")), led(member("O", 10)), stun_roll_timing=timing)
    result = stun(sc, [6, 1, *dice(12, 5)])
    turns = result["members"]["O"]["turns"]
    assert [t["defence"] for t in turns] == [-4, defence]
    assert result["members"]["O"]["lost"] == 2  # the same first normal turn either way (A1)


# --- total surprise (B393, docs/rules/gurps4e.md#total-surprise) -----------------------------------------


def test_total_surprise_freezes_then_rolls_plain_iq():
    sc = scenario("total", led(member("L")), led(member("O", 11)))
    result = stun(sc, [2, *dice(12, 12, 11)])
    track = result["members"]["O"]
    assert [t["state"] for t in track["turns"]] == ["frozen", "frozen", "stunned", "stunned", "stunned"]
    assert [t["target"] for t in track["turns"][2:]] == [11, 11, 11]  # no +1 progression
    assert track["lost"] == 5
    assert result["freeze"] == {"O": 2}


def test_total_surprise_with_combat_reflexes_is_partial_without_freeze():
    sc = scenario("total", led(member("L")), led(member("O", 9, combat_reflexes=True)))
    result = stun(sc, dice(16, 15))  # no freeze die at all: nobody freezes
    assert result["freeze"] == {}
    assert [t["target"] for t in result["members"]["O"]["turns"]] == [15, 16]
    assert result["members"]["O"]["lost"] == 2


def test_side_freeze_is_one_roll_for_everyone_without_combat_reflexes():
    sc = scenario("total", led(member("L")),
                  led(member("O", 10), member("Vet", 10, combat_reflexes=True), member("P", 10)))
    result = stun(sc, [1, *dice(17, 3, 3, 3)])  # freeze 1; turn 1: Vet fails 17; turn 2: all succeed
    assert result["freeze"] == {"O": 1, "P": 1}
    assert result["members"]["Vet"]["lost"] == 2
    assert result["members"]["O"]["lost"] == 2 and result["members"]["P"]["lost"] == 2


def test_individual_freeze_rolls_one_die_each():
    sc = scenario("total", led(member("L")), led(member("O", 10), member("P", 10)), freeze_roll_scope="individual")
    result = stun(sc, [1, 3, *dice(3, 3)])
    assert result["freeze"] == {"O": 1, "P": 3}
    assert result["members"]["O"]["lost"] == 2 and result["members"]["P"]["lost"] == 4


def test_low_iq_under_total_surprise_never_recovers_and_stops_rolling():
    sc = scenario("total", led(member("L")), led(member("Dim", 2)))
    result = stun(sc, [2])
    track = result["members"]["Dim"]
    assert track["lost"] is None
    assert [t["state"] for t in track["turns"]] == ["frozen", "frozen", "stunned"]
    assert track["turns"][-1]["roll"] is None


# --- the sneaking contest (Kromm [G2], A10, A11) -----------------------------------------------------------


def contest_scenario(expecting: bool = True, sneaks=(("S", 12),), watchers=(("W", 10),)) -> g.Scenario:
    return scenario(
        "quick-contest",
        {"members": [member(n, stealth=s) for n, s in sneaks]},
        {"expecting_trouble": expecting, "members": [member(n, per=p) for n, p in watchers]},
    )


def test_won_contest_gives_partial_surprise_against_a_ready_party():
    result = stun(contest_scenario(True), [*dice(8, 12), *dice(10)])
    assert result["surprise"] == "a" and result["surprise_kind"] == "partial"
    assert result["initiative"] is None
    assert result["contest"]["watchers"][0]["winner"] == "sneak"


def test_won_contest_gives_total_surprise_against_an_unready_party():
    result = stun(contest_scenario(False), [*dice(8, 12), 3, *dice(10)])
    assert result["surprise_kind"] == "total" and result["freeze"] == {"W": 3}
    assert result["members"]["W"]["lost"] == 4


def test_contest_tie_means_no_surprise():
    result = stun(contest_scenario(), dice(10, 8))  # margins 2 and 2
    assert result["surprise"] == "none" and result["contest"]["watchers"][0]["winner"] == "tie"


def test_the_worst_sneak_rolls_and_any_watcher_spoils_it():
    sc = contest_scenario(sneaks=(("Good", 15), ("Clumsy", 9)), watchers=(("W1", 8), ("W2", 12)))
    result = stun(sc, dice(7, 12, 9))  # Clumsy makes it by 2; W1 fails by 4; W2 makes it by 3
    assert result["contest"]["sneak"]["name"] == "Clumsy"
    assert [w["winner"] for w in result["contest"]["watchers"]] == ["sneak", "watcher"]
    assert result["surprise"] == "none"


def test_quick_contest_needs_stealth_and_per():
    with pytest.raises(InputFileError, match=r"sides\.a\.members\[0\]\.stealth: quick-contest needs stealth"):
        scenario("quick-contest", {"members": [member("S")]}, {"members": [member("W", per=10)]})


# --- validation ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "message"),
    [({"leader": "Nobody", "members": [member("Ava")]}, r"sides\.a\.leader: .Nobody. is not a member"),
     ({"members": [member("Ava", 0)]}, r"sides\.a\.members\[0\]\.iq"),
     ({"members": [{"name": "Ava"}]}, r"sides\.a\.members\[0\]\.iq: missing"),
     ({"members": [member("Ava", dex=12)]}, r"sides\.a\.members\[0\]\.dex: is a field of adnd1e, not of gurps4e"),
     ({"members": [member("Ava", wings=2)]}, r"sides\.a\.members\[0\]\.wings: unknown field"),
     ({"members": []}, r"sides\.a\.members")],
)
def test_bad_scenarios_name_the_field(a, message):
    with pytest.raises(InputFileError, match=message):
        scenario("partial", a)


def test_duplicate_member_names_are_rejected():
    with pytest.raises(InputFileError, match=r"sides\.b\.members\[0\]\.name: 'Ava' is used more than once"):
        scenario("partial", {"members": [member("Ava")]}, {"members": [member("Ava")]})


def test_a_dice_script_that_runs_out_is_an_error():
    with pytest.raises(DiceExhausted):
        g.resolve(scenario("partial", led(member("L")), led(member("O"))), ScriptedRoller([6, 1]))


# --- exact odds ---------------------------------------------------------------------------------------------


def test_even_initiative_odds():
    odds = g.odds(scenario("partial", led(member("L")), led(member("O"))))
    assert odds.surprise == {"a": Fraction(15, 36), "b": Fraction(15, 36), "none": Fraction(6, 36)}


def test_partial_loss_distribution_head():
    odds = g.odds(scenario("partial", led(member("L"), gm_modifier=6), led(member("O", 10))))
    lost = odds.members["O"].lost
    assert odds.surprise["a"] == 1
    assert lost[1] == Fraction(108, 216)  # P(3d6 <= 10)
    assert lost[2] == Fraction(108, 216) * Fraction(135, 216)  # then P(3d6 <= 11)
    assert 0 not in lost


def test_total_surprise_expected_loss_is_freeze_plus_geometric_rolls():
    odds = g.odds(scenario("total", led(member("L")), led(member("O", 10))))
    assert odds.members["O"].expected_lost == Fraction(7, 2) + 2  # E[1d6] + 1 / P(3d6 <= 10)
    assert odds.members["O"].lost[2] == Fraction(1, 6) * Fraction(1, 2)  # freeze 1, first roll made


def test_never_recovering_members_report_never_and_no_expectation():
    odds = g.odds(scenario("total", led(member("L")), led(member("Dim", 2))))
    assert odds.members["Dim"].never == 1 and odds.members["Dim"].expected_lost is None


def test_contest_odds_single_watcher():
    # Stealth 10 vs Per 10: by symmetry P(sneak wins) = P(watcher wins) = (1 - P(tie)) / 2.
    odds = g.odds(contest_scenario(sneaks=(("S", 10),), watchers=(("W", 10),)))
    p = {total: Fraction(c, 216) for total, c in
         zip(range(3, 19), [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1], strict=True)}
    tie = sum(q * q for q in p.values())  # equal skills: equal margins only on equal rolls
    assert odds.surprise["a"] == (1 - tie) / 2
    assert odds.surprise["b"] == 0


# --- properties -------------------------------------------------------------------------------------------------

iqs = st.integers(min_value=1, max_value=18)


@st.composite
def gurps_scenarios(draw) -> g.Scenario:
    procedure = draw(st.sampled_from(g.PROCEDURES))

    def side(prefix: str) -> dict:
        count = draw(st.integers(1, 3))
        members = [member(f"{prefix}{i}", draw(iqs), combat_reflexes=draw(st.booleans()),
                          tactics=draw(st.sampled_from([0, 1, 20])), stealth=draw(st.integers(5, 16)),
                          per=draw(st.integers(5, 16))) for i in range(count)]
        leader = draw(st.sampled_from([None, members[0]["name"]]))
        return {"leader": leader, "animals": draw(st.booleans()), "gm_modifier": draw(st.integers(-2, 2)),
                "expecting_trouble": draw(st.booleans()), "members": members}

    return scenario(procedure, side("A"), side("B"))


@settings(max_examples=40, deadline=None)
@given(gurps_scenarios())
def test_odds_are_probability_distributions(sc):
    odds = g.odds(sc)
    assert sum(odds.surprise.values()) == 1
    for m in odds.members.values():
        total = sum(m.lost.values()) + m.never
        assert 1 - Fraction(1, 10**11) < total <= 1
        assert all(p > 0 for p in m.lost.values())


def improved(sc: g.Scenario, name: str, **changes) -> g.Scenario:
    data = sc.model_dump(exclude_unset=True)
    for key in ("a", "b"):
        for m in data["sides"][key]["members"]:
            if m["name"] == name:
                m.update(changes)
    return scenario_from_dict(applicable(data))  # type: ignore[return-value]


@settings(max_examples=40, deadline=None)
@given(gurps_scenarios(), st.sampled_from(["iq", "combat_reflexes", "tactics"]))
def test_more_iq_combat_reflexes_or_tactics_never_hurts_a_side(sc, trait):
    # A leaderless IQ-5 group that gains IQ loses its exemption from -2 (A9): the rules themselves.
    assume(trait != "iq" or sc.sides.a.leader is not None)
    leader = sc.sides.a.leader or sc.sides.a.members[0].name
    current = next(m for m in sc.sides.a.members if m.name == leader)
    change = {"iq": {"iq": current.iq + 1}, "combat_reflexes": {"combat_reflexes": True},
              "tactics": {"tactics": 20 if current.tactics >= 1 else 1}}[trait]
    before, after = g.odds(sc), g.odds(improved(sc, leader, **change))
    assert after.surprise["a"] >= before.surprise["a"]
    assert after.surprise["b"] <= before.surprise["b"]
    mine_before, mine_after = before.members[leader], after.members[leader]
    assert mine_after.never <= mine_before.never
    if mine_before.expected_lost is not None and mine_after.expected_lost is not None:
        assert mine_after.expected_lost <= mine_before.expected_lost


# --- either side surprises (surprising) -------------------------------------------------------------------------


def mirrored(sc: g.Scenario) -> g.Scenario:
    """Swap the two sides, and the side that surprises or sneaks"""
    data = sc.model_dump(exclude_unset=True)
    data["sides"] = {"a": data["sides"]["b"], "b": data["sides"]["a"]}
    if sc.procedure in g.SURPRISING_PROCEDURES:
        data["surprising"] = "b" if sc.surprising == "a" else "a"
    return scenario_from_dict(data)  # type: ignore[return-value]


@settings(max_examples=60, deadline=None)
@given(gurps_scenarios(), st.sampled_from(["a", "b"]))
def test_swapping_the_sides_and_the_surpriser_mirrors_the_odds_exactly(sc, surprising):
    if sc.procedure in g.SURPRISING_PROCEDURES:
        sc = scenario_from_dict({**sc.model_dump(exclude_unset=True), "surprising": surprising})  # type: ignore
    odds, mirror = g.odds(sc), g.odds(mirrored(sc))
    assert (mirror.surprise["a"], mirror.surprise["b"], mirror.surprise["none"]) == (
        odds.surprise["b"], odds.surprise["a"], odds.surprise["none"])
    assert mirror.members == odds.members


@pytest.mark.parametrize("procedure", ["total", "quick-contest"])
def test_side_b_surprises_when_the_gm_says_so(procedure):
    a = {"members": [member("Ava", 12, stealth=9, per=12)], "expecting_trouble": False}
    b = {"members": [member("Rook", 10, stealth=18, per=8)]}
    sc = scenario_from_dict(applicable({"system": "gurps4e", "procedure": procedure, "surprising": "b",
                                        "sides": {"a": a, "b": b}}))
    outcome = g.resolve(sc, ScriptedRoller([3, 3, 3, 6, 6, 6, 1] + [1, 1, 1] * 3))
    assert outcome.surprise == "b"
    assert [t.member.name for t in outcome.tracks] == ["Ava"]
    assert g.odds(sc).surprise["a"] == 0
    if procedure == "quick-contest":
        assert outcome.contest is not None and outcome.contest.sneak.name == "Rook"


@pytest.mark.parametrize(("procedure", "value", "message"), [
    ("partial", "a", "applies to procedures total and quick-contest"),
    ("total", "c", "Input should be 'a' or 'b'"),
])
def test_surprising_is_refused_where_it_has_no_meaning(procedure, value, message):
    with pytest.raises(InputFileError, match=message):
        scenario_from_dict({"system": "gurps4e", "procedure": procedure, "surprising": value,
                            "sides": {"a": {"members": [member("A")]}, "b": {"members": [member("B")]}}})


def naive_tail(mass: Fraction, chance: Fraction, cut: Fraction) -> list[Fraction]:
    """Spread mass one Fraction operation at a time, as the tail's definition reads"""
    terms = []
    while mass >= cut:
        terms.append(mass * chance)
        mass *= 1 - chance
    return terms


@pytest.mark.parametrize("iq", [3, 5, 9, 12, 16])
@pytest.mark.parametrize(("weight", "exponents"), [(Fraction(1), {}), (Fraction(5, 6), {2: 1, 3: 1}),
                                                   (Fraction(7**30, 216**31), {2: 93, 3: 93})])
def test_geometric_tail_in_lowest_terms_equals_the_fraction_loop(iq, weight, exponents):
    chance = g.success_chance(iq)
    count = g.tail_length(Fraction(1, 6), chance, Fraction(1, 6 * 10**12))
    terms = g.tail_terms(Fraction(1, 6), chance, count, weight, exponents)
    naive = [weight * term for term in naive_tail(Fraction(1, 6), chance, Fraction(1, 6 * 10**12))]
    assert [(t.numerator, t.denominator) for t in terms] == [(t.numerator, t.denominator) for t in naive]


def test_total_surprise_loss_sums_the_six_freezes():
    lost = g.seconds_lost_for(7, False, "total").lost  # total surprise without CR: 1d6 freeze, then IQ rolls
    chance = g.success_chance(7)
    expected: dict[int, Fraction] = {}
    for freeze in range(1, 7):
        for index, term in enumerate(naive_tail(Fraction(1, 6), chance, Fraction(1, 6 * 10**12))):
            expected[freeze + 1 + index] = expected.get(freeze + 1 + index, Fraction(0)) + term
    assert lost == expected


def test_members_with_one_profile_share_one_result_and_match_the_contest_by_hand():
    sneak, watchers = member("s", iq=12, stealth=14), [member(f"w{i}", iq=3, per=10) for i in range(40)]
    crowd = g.odds(scenario("quick-contest", a={"members": [sneak]}, b={"expecting_trouble": False,
                                                                         "members": watchers}))
    assert len({id(m) for m in crowd.members.values()}) == 2
    dist = g.success_roll_distribution()

    def rank(skill: int, roll: int) -> tuple[int, int]:
        return (2 if roll <= min(skill, 16) else 1, skill - roll)

    by_hand = sum(p * sum(q for w, q in dist.items() if rank(14, s) > rank(10, w)) ** 40 for s, p in dist.items())
    assert crowd.surprise["a"] == by_hand
    lone = g.odds(scenario("total", a={"members": [sneak]}, b={"members": [member("w0", iq=3)]}))
    assert {k: p / by_hand for k, p in crowd.members["w39"].lost.items() if k} == lone.members["w0"].lost

# --- scenarios drawn for the differential tests (tests/scenario_draws.py) ---------------------------------

DIE_FACES = 6  # its dice's faces: die faces are drawn from 1 to this


@st.composite
def drawn_scenarios(draw, procedure: str, options: dict) -> dict:
    """Draw a GURPS scenario: partial, total or quick-contest"""
    skill = st.one_of(st.integers(6, 18), st.integers(1, 40))
    # the sneak must beat every watcher: a skilled sneak and dull watchers make that common enough
    stealth, per = st.one_of(st.integers(12, 20), skill), st.one_of(st.integers(3, 10), skill)
    sides = {}
    for key, names in zip("ab", draw(side_names()), strict=True):
        members = []
        for name in names:
            contest_skill = {"a": "stealth", "b": "per"}[key] if procedure == "quick-contest" else None
            members.append(put(
                {"name": name, "iq": draw(st.one_of(st.integers(1, 18), st.integers(1, 40)))},
                combat_reflexes=draw(maybe(st.booleans())),
                tactics=draw(maybe(st.one_of(st.sampled_from([0, 1, 19, 20]), st.integers(0, 40)))),
                stealth=draw(stealth) if contest_skill == "stealth" else draw(maybe(skill)),
                per=draw(per) if contest_skill == "per" else draw(maybe(skill)),
            ))
        sides[key] = put({}, name=draw(maybe(member_name)), leader=draw(maybe(st.sampled_from(names))),
                         animals=draw(maybe(st.booleans())),
                         gm_modifier=draw(maybe(st.one_of(st.integers(-3, 3), st.integers(-20, 20)))),
                         expecting_trouble=draw(maybe(st.booleans())))
        sides[key]["members"] = members
    # Who surprises, drawn last so that the draws before it stay as they were; side b surprising takes the sides
    # drawn for a and b the other way round, for the quick contest's sneaks (stealth) are the surprising side.
    surprising = draw(maybe(st.sampled_from(["a", "b"]))) if procedure in g.SURPRISING_PROCEDURES else None
    if surprising == "b":
        sides = {"a": sides["b"], "b": sides["a"]}
    return put({"system": "gurps4e", "procedure": procedure}, surprising=surprising) | {"sides": sides}
