"""Fallout TTRPG rules core: every rule of docs/rules/fallout-ttrpg.md, with hand-derived expectations"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from exporter.errors import DiceExhausted, InputFileError
from exporter.narration import side_label
from exporter.narration.fallout_ttrpg import narrate
from exporter.rules import fallout_ttrpg as ft
from exporter.rules.dice import ScriptedRoller, SeededRoller
from exporter.scenario import scenario_from_dict
from exporter.rules.models import model_of
from tests.procedure_fields import applicable
from tests.scenario_draws import maybe, member_name, put, side_names


def member(name: str, **extra) -> dict:
    return {"name": name, **extra}


def spotter(name: str, per: int = 5, survival: int = 0, **extra) -> dict:
    return {"name": name, "per": per, "survival": survival, **extra}


def data(procedure: str, a: list[dict], b: list[dict], options: dict | None = None, **fields) -> dict:
    out = {"system": "fallout-ttrpg", "procedure": procedure, **fields,
           "sides": {"a": {"name": "Party", "members": a}, "b": {"name": "Raiders", "members": b}}}
    if options:
        out["options"] = options
    return out


def world_map(a: list[dict], b: list[dict] | None = None, dc: int = 15, options: dict | None = None,
              **fields) -> ft.Scenario:
    return scenario_from_dict(data("world-map", a, b or [member("Raider")], options, dc=dc, **fields))  # type: ignore


def sneak(a: list[dict], b: list[dict], options: dict | None = None, **fields) -> ft.Scenario:
    return scenario_from_dict(data("sneak-attack", a, b, options, **fields))  # type: ignore[return-value]


def lone(attacker: str = "Vex", bonus: int = 3, target: int = 15) -> dict:
    return {"attacker": attacker, "attack_bonus": bonus, "target_number": target}


def opener(name: str, bonus: int = 0, target: int = 15) -> dict:
    return {"name": name, "attack_bonus": bonus, "target_number": target}


def play(scenario: ft.Scenario, dice: list[int]) -> dict:
    """Resolve with scripted dice, insisting that every face is used"""
    roller = ScriptedRoller(dice)
    outcome = ft.resolve(scenario, roller).to_json()
    assert roller.remaining == 0
    return outcome


# --- the PER + Survival Test (docs/rules/fallout-ttrpg.md#mechanics [F1]) -----------------------------


@pytest.mark.parametrize(
    ("per", "survival", "roll", "total"),
    [(1, 0, 10, 6), (5, 3, 10, 13), (10, 12, 20, 37), (1, 2, 1, -1), (10, 0, 1, 6)],
)
def test_test_total_is_d20_plus_per_minus_five_plus_survival(per, survival, roll, total):
    assert ft.test_total(model_of(ft.Member)(name="X", per=per, survival=survival), roll) == total


@pytest.mark.parametrize(
    ("total", "margin", "hunting", "result"),
    [
        (15, 5, False, "success"),  # total = dc
        (16, 5, False, "success"),
        (14, 5, False, "failure"),  # dc - 1
        (11, 5, False, "failure"),  # dc - 4
        (10, 5, False, "poor-failure"),  # dc - 5: "fail by 5 or more"
        (-3, 5, False, "poor-failure"),
        (13, 3, False, "failure"),  # dc - 2 with margin 3
        (12, 3, False, "poor-failure"),  # dc - 3 with margin 3
        (14, 1, False, "poor-failure"),  # margin 1: every failure is poor
        (14, 5, True, "poor-failure"),  # hunting: any failure is poor
        (15, 5, True, "success"),
    ],
)
def test_test_result_boundaries(total, margin, hunting, result):
    assert ft.test_result(total, 15, hunting, model_of(ft.Options)(poor_failure_margin=margin)) == result


def test_no_natural_one_or_twenty_rule():
    weak, strong = model_of(ft.Member)(name="W", per=1, survival=0), model_of(ft.Member)(name="S", per=10, survival=9)
    assert ft.test_result(ft.test_total(weak, 20), 17, False, model_of(ft.Options)()) == "failure"  # 20 - 4 = 16
    assert ft.test_result(ft.test_total(strong, 1), 15, False, model_of(ft.Options)()) == "success"  # 1 + 5 + 9 = 15


@pytest.mark.parametrize(("roll", "surprise", "result"),
                         [(15, "a", "success"), (14, "none", "failure"), (11, "none", "failure"),
                          (10, "b", "poor-failure"), (1, "b", "poor-failure"), (20, "a", "success")])
def test_world_map_result_decides_the_surprise_round(roll, surprise, result):
    out = play(world_map([spotter("Ava", per=5, survival=0)]), [roll])
    assert out["surprise"] == surprise
    assert out["test"] == {"leader": "Ava", "roll": roll, "total": roll, "dc": 15, "result": result}
    assert out["openers"] is None
    assert "enemy_test" not in out


def test_world_map_non_default_margin():
    scenario = world_map([spotter("Ava", per=7, survival=1)], options={"poor_failure_margin": 2})  # +3
    assert play(scenario, [10])["surprise"] == "b"  # 13 = dc - 2
    assert play(scenario, [11])["surprise"] == "none"  # 14 = dc - 1
    assert play(scenario, [12])["surprise"] == "a"  # 15


def test_hunting_makes_any_failure_poor():
    scenario = world_map([spotter("Ava")], hunting=True)
    out = play(scenario, [14])
    assert out["surprise"] == "b" and out["test"]["result"] == "poor-failure"
    assert play(scenario, [15])["surprise"] == "a"


def test_group_leader_is_highest_per_plus_survival_first_listed_on_tie():
    side = model_of(ft.Side)(members=[model_of(ft.Member)(name="Ann", per=6, survival=2), model_of(ft.Member)(name="Bea", per=4, survival=5),
                            model_of(ft.Member)(name="Cy", per=7, survival=2)])
    assert ft.group_leader(side).name == "Bea"
    scenario = world_map([spotter("Ann", 6, 2), spotter("Bea", 4, 5), spotter("Cy", 7, 2)])
    out = play(scenario, [10])
    assert out["test"]["leader"] == "Bea"
    assert out["test"]["total"] == 10 - 1 + 5


def test_world_map_surprise_round_has_no_opener_and_runs_in_sequence():
    scenario = world_map([spotter("Ava", sequence=3), spotter("Bo", sequence=8)],
                         [member("Raider", sequence=9), member("Doc", cautious_nature=True, sequence=1)])
    out = play(scenario, [20])
    assert out["surprise_round"] == {"side": "a", "order": ["Bo", "Ava", "Doc"], "surprised": ["Raider"],
                                     "prone": [], "wake_at_turn_start": [], "wake_at_end": []}
    assert out["normal_order"] == ["Raider", "Bo", "Ava", "Doc"]
    assert out["members"] == {"Ava": {"lost": 0}, "Bo": {"lost": 0}, "Raider": {"lost": 1}, "Doc": {"lost": 0}}


def test_world_map_poor_failure_surprises_the_party():
    scenario = world_map([spotter("Ava", sequence=3), spotter("Bo", sequence=8, cautious_nature=True)],
                         [member("Raider", sequence=5), member("Boss", sequence=9)])
    out = play(scenario, [2])  # Ava and Bo both have PER + Survival 5: Ava, listed first, rolls 2
    assert out["test"]["leader"] == "Ava"
    assert out["surprise_round"]["order"] == ["Boss", "Bo", "Raider"]
    assert out["surprise_round"]["surprised"] == ["Ava"]
    assert out["members"] == {"Ava": {"lost": 1}, "Bo": {"lost": 0}, "Raider": {"lost": 0}, "Boss": {"lost": 0}}


# --- enemy_spot_roll (B5) -------------------------------------------------------------------


def enemy_rolls_scenario(hunting: bool = False) -> ft.Scenario:
    return world_map([spotter("Ava", per=7, survival=3)], [spotter("Raider", per=5, survival=1)],
                     options={"enemy_spot_roll": True}, hunting=hunting)


def test_enemy_spot_roll_after_a_normal_failure():
    out = play(enemy_rolls_scenario(), [9, 14])  # party 9 + 5 = 14 fails; raider 14 + 1 = 15 succeeds
    assert out["test"]["result"] == "failure"
    assert out["enemy_test"] == {"leader": "Raider", "roll": 14, "total": 15, "dc": 15, "result": "success"}
    assert out["surprise"] == "b"
    out = play(enemy_rolls_scenario(), [9, 13])
    assert out["surprise"] == "none" and out["enemy_test"]["result"] == "failure"


def test_enemy_spot_roll_replaces_the_poor_failure_rule_when_not_hunting():
    out = play(enemy_rolls_scenario(), [1, 2])  # party 6 is a poor failure, but the enemies roll 3
    assert out["test"]["result"] == "poor-failure"
    assert out["surprise"] == "none"


def test_enemy_spot_roll_takes_no_die_after_a_party_success_or_while_hunting():
    out = play(enemy_rolls_scenario(), [10])
    assert out["surprise"] == "a" and "enemy_test" not in out
    out = play(enemy_rolls_scenario(hunting=True), [9])
    assert out["surprise"] == "b" and "enemy_test" not in out


def test_world_map_without_enemy_spot_roll_takes_exactly_one_die():
    with pytest.raises(DiceExhausted):
        ft.resolve(world_map([spotter("Ava")]), ScriptedRoller([]))
    roller = ScriptedRoller([12, 20])
    ft.resolve(world_map([spotter("Ava")]), roller)
    assert roller.used == 1


# --- the opening Sneak Attack (docs/rules/fallout-ttrpg.md#sneak-attack, B2, B10) --------------------


def test_advantage_keeps_the_higher_die():
    scenario = sneak([member("Vex")], [member("Raider")], **lone(bonus=3, target=15))
    for dice in ([4, 17], [17, 4]):
        out = play(scenario, dice)
        assert out["openers"] == [{"name": "Vex", "side": "a", "dice": dice, "total": 20, "target_number": 15,
                                   "hit": True}]
    assert play(scenario, [11, 2])["openers"][0]["total"] == 14


def test_hit_exactly_at_the_target_number_and_miss_one_below():
    scenario = sneak([member("Vex")], [member("Raider")], **lone(bonus=3, target=15))
    assert play(scenario, [12, 5])["surprise"] == "a"
    out = play(scenario, [11, 2])
    assert out["surprise"] == "none" and out["surprise_round"] is None
    assert out["openers"][0]["hit"] is False
    assert out["test"] is None


def test_first_hit_triggers_and_later_openers_take_no_dice():
    scenario = sneak([member("Vex", sequence=10), member("Ann", sequence=8)], [member("Raider", sequence=5)],
                     openers=[opener("Raider", 10, 2), opener("Ann", 0, 15), opener("Vex", 0, 15)])
    roller = ScriptedRoller([1, 1, 18, 2, 20, 20])
    out = ft.resolve(scenario, roller).to_json()
    assert roller.used == 4 and roller.remaining == 2
    assert [o["name"] for o in out["openers"]] == ["Vex", "Ann"]
    assert out["surprise"] == "a"
    assert out["surprise_round"]["order"] == ["Ann", "Vex"]
    assert out["surprise_round"]["surprised"] == ["Raider"]


def test_mutual_ambush_side_b_opener_hitting_first_gives_b_the_surprise_round():
    scenario = sneak([member("Vex", sequence=4), member("Ann", sequence=2)],
                     [member("Boss", sequence=6), member("Raider", sequence=3)],
                     openers=[opener("Vex", 5, 10), opener("Boss", 2, 12)])
    out = play(scenario, [3, 10])  # Boss first (Sequence 6): 10 + 2 = 12 hits; Vex never rolls
    assert out["openers"] == [{"name": "Boss", "side": "b", "dice": [3, 10], "total": 12, "target_number": 12,
                               "hit": True}]
    assert out["surprise"] == "b"
    assert out["surprise_round"]["side"] == "b"
    assert out["surprise_round"]["order"] == ["Boss", "Raider"]
    assert out["surprise_round"]["surprised"] == ["Vex", "Ann"]
    assert out["members"] == {"Vex": {"lost": 1}, "Ann": {"lost": 1}, "Boss": {"lost": 0}, "Raider": {"lost": 0}}


def test_b10_highest_sequence_opener_misses_the_next_one_hits():
    scenario = sneak([member("Vex", sequence=4)], [member("Boss", sequence=6), member("Raider", sequence=1)],
                     openers=[opener("Boss", 0, 15), opener("Vex", 1, 15)])
    out = play(scenario, [14, 3, 2, 14])  # Boss keeps 14: miss; Vex keeps 14 + 1 = 15: hit
    assert [(o["name"], o["hit"]) for o in out["openers"]] == [("Boss", False), ("Vex", True)]
    assert out["surprise"] == "a"
    assert out["surprise_round"]["surprised"] == ["Boss", "Raider"]  # B9: the opener who missed is surprised too


def test_b10_nobody_hits_means_normal_combat():
    scenario = sneak([member("Vex", sequence=4)], [member("Boss", sequence=6)],
                     openers=[opener("Boss", 0, 15), opener("Vex", 0, 15)])
    out = play(scenario, [1, 2, 3, 4])
    assert out["surprise"] == "none" and out["surprise_round"] is None
    assert out["normal_order"] == ["Boss", "Vex"]
    assert out["members"] == {"Vex": {"lost": 0}, "Boss": {"lost": 0}}


def test_opener_ties_roll_side_a_first_then_listed_order():
    scenario = sneak([member("Ann", sequence=5), member("Vex", sequence=5)], [member("Boss", sequence=5)],
                     openers=[opener("Boss", 0, 30), opener("Vex", 0, 30), opener("Ann", 0, 30)])
    out = play(scenario, [1, 1, 1, 1, 1, 1])
    assert [o["name"] for o in out["openers"]] == ["Ann", "Vex", "Boss"]


# --- the Surprise Round (docs/rules/fallout-ttrpg.md#surprise-round, B1, B7, B8, B9) ---------------------------------


def ambush(b: list[dict], options: dict | None = None) -> ft.Scenario:
    return sneak([member("Vex", sequence=9), member("Ann", sequence=5), member("Cal", sequence=7)], b, options,
                 **lone(bonus=3, target=15))


def test_readme_style_example_worked_by_hand():
    out = play(ambush([member("Raider", asleep=True, sequence=3)]), [4, 17])
    assert out == {
        "surprise": "a",
        "test": None,
        "openers": [{"name": "Vex", "side": "a", "dice": [4, 17], "total": 20, "target_number": 15, "hit": True}],
        "surprise_round": {"side": "a", "order": ["Vex", "Cal", "Ann"], "surprised": ["Raider"], "prone": ["Raider"],
                           "wake_at_turn_start": [], "wake_at_end": ["Raider"]},
        "normal_order": ["Vex", "Cal", "Ann", "Raider"],
        "members": {"Vex": {"lost": 0}, "Ann": {"lost": 0}, "Cal": {"lost": 0}, "Raider": {"lost": 1}},
    }


def test_b1_opener_takes_his_whole_turn_first_and_does_not_act_again():
    sr = play(ambush([member("Raider", sequence=8)]), [17, 4])["surprise_round"]
    assert sr["order"] == ["Vex", "Cal", "Ann"]


def test_b1_free_opening_attack_acts_again_in_his_sequence_slot():
    scenario = sneak([member("Ann", sequence=12), member("Vex", sequence=9), member("Cal", sequence=7)],
                     [member("Raider")], {"opening_attack_is_free": True}, **lone(bonus=3, target=15))
    assert play(scenario, [17, 4])["surprise_round"]["order"] == ["Vex", "Ann", "Vex", "Cal"]


def test_cautious_nature_is_not_surprised_and_acts_in_sequence():
    out = play(ambush([member("Raider", sequence=8), member("Doc", cautious_nature=True, sequence=6)]), [20, 20])
    sr = out["surprise_round"]
    assert sr["surprised"] == ["Raider"]
    assert sr["order"] == ["Vex", "Cal", "Doc", "Ann"]
    assert out["members"]["Doc"] == {"lost": 0} and out["members"]["Raider"] == {"lost": 1}


def test_surprised_sleepers_are_prone_and_wake_at_the_end():
    out = play(ambush([member("Raider", asleep=True, sequence=8), member("Boss", sequence=2)]), [20, 1])
    sr = out["surprise_round"]
    assert sr["surprised"] == ["Raider", "Boss"]
    assert sr["prone"] == ["Raider"] and sr["wake_at_end"] == ["Raider"] and sr["wake_at_turn_start"] == []
    assert "Raider" not in sr["order"]
    assert out["members"]["Raider"] == {"lost": 1}
    assert out["normal_order"] == ["Vex", "Raider", "Cal", "Ann", "Boss"]


@pytest.mark.parametrize(("wakes", "order", "turn_start", "end", "lost"), [
    ("sr_turn_start", ["Vex", "Cal", "Doc", "Ann"], ["Doc"], [], 0),
    ("sr_end", ["Vex", "Cal", "Ann"], [], ["Doc"], 1),
])
def test_b7_cautious_sleeper(wakes, order, turn_start, end, lost):
    out = play(ambush([member("Doc", cautious_nature=True, asleep=True, sequence=6)],
                      {"cautious_sleeper_wakes": wakes}), [20, 20])
    sr = out["surprise_round"]
    assert sr["surprised"] == []
    assert sr["prone"] == ["Doc"]
    assert sr["order"] == order
    assert sr["wake_at_turn_start"] == turn_start and sr["wake_at_end"] == end
    assert out["members"]["Doc"] == {"lost": lost}


def test_sleeper_on_the_surprising_side_acts_normally():
    scenario = sneak([member("Vex", sequence=9), member("Ann", asleep=True, sequence=5)], [member("Raider")],
                     **lone(bonus=3, target=15))
    out = play(scenario, [20, 20])
    assert out["surprise_round"]["order"] == ["Vex", "Ann"]
    assert out["surprise_round"]["prone"] == [] and out["members"]["Ann"] == {"lost": 0}


def test_normal_order_ties_side_a_first_then_listed_order():
    scenario = world_map([spotter("X", sequence=5), spotter("Y", sequence=7), spotter("V", sequence=7)],
                         [member("Z", sequence=7), member("W", sequence=5), member("U", sequence=9)])
    assert ft.sequence_order(scenario) == ("U", "Y", "V", "Z", "X", "W")
    assert play(scenario, [1])["normal_order"] == ["U", "Y", "V", "Z", "X", "W"]


def test_surprise_round_order_ties_side_a_before_cautious_nature_of_side_b():
    scenario = world_map([spotter("Ava", sequence=4), spotter("Bo", sequence=4)],
                         [member("Doc", cautious_nature=True, sequence=4), member("Raider", sequence=4)])
    assert play(scenario, [20])["surprise_round"]["order"] == ["Ava", "Bo", "Doc"]


# --- validation --------------------------------------------------------------------------------------


def first_error(raw: dict) -> dict:
    with pytest.raises(ValidationError) as info:
        model_of(ft.Scenario).model_validate(raw)
    return info.value.errors(include_url=False)[0]


def loader_error(raw: dict) -> InputFileError:
    with pytest.raises(InputFileError) as info:
        scenario_from_dict(raw, "enc.toml")
    return info.value


def test_missing_dc_in_world_map():
    raw = data("world-map", [spotter("Ava")], [member("Raider")])
    err = loader_error(raw)
    assert err.field == "dc" and "world-map" in err.message


def test_world_map_needs_per_and_survival_on_side_a():
    err = loader_error(data("world-map", [spotter("Ava"), member("Bo", per=5)], [member("Raider")], dc=10))
    assert err.field == "sides.a.members[1].survival" and "missing" in err.message


def test_enemy_spot_roll_needs_per_and_survival_on_side_b():
    raw = data("world-map", [spotter("Ava")], [member("Raider")], {"enemy_spot_roll": True}, dc=10)
    assert loader_error(raw).field == "sides.b.members[0].per"


def test_world_map_rejects_sneak_attack_fields():
    err = loader_error(data("world-map", [spotter("Ava")], [member("Raider")], dc=10, attacker="Ava"))
    assert err.field == "attacker" and "sneak-attack" in err.message


def test_attacker_not_on_side_a():
    err = loader_error(data("sneak-attack", [member("Vex")], [member("Raider")], **lone(attacker="Raider")))
    assert err.field == "attacker" and "side a" in err.message


def test_attacker_who_is_nobody():
    assert loader_error(data("sneak-attack", [member("Vex")], [member("Raider")], **lone(attacker="Zed"))).field \
        == "attacker"


def test_dc_given_for_sneak_attack():
    err = loader_error(data("sneak-attack", [member("Vex")], [member("Raider")], dc=15, **lone()))
    assert err.field == "dc" and "world-map" in err.message


def test_hunting_given_for_sneak_attack():
    assert loader_error(data("sneak-attack", [member("Vex")], [member("Raider")], hunting=True, **lone())).field \
        == "hunting"


def test_both_attacker_and_openers():
    raw = data("sneak-attack", [member("Vex")], [member("Raider")], openers=[opener("Vex")], **lone())
    err = loader_error(raw)
    assert err.field == "openers" and "not both" in err.message


def test_sneak_attack_needs_an_opener():
    assert loader_error(data("sneak-attack", [member("Vex")], [member("Raider")])).field == "attacker"
    raw = data("sneak-attack", [member("Vex")], [member("Raider")], attacker="Vex", target_number=15)
    assert loader_error(raw).field == "attack_bonus"
    assert loader_error(data("sneak-attack", [member("Vex")], [member("Raider")], openers=[])).field == "openers"


def test_openers_must_be_members_and_declared_once():
    raw = data("sneak-attack", [member("Vex")], [member("Raider")], openers=[opener("Vex"), opener("Zed")])
    assert loader_error(raw).field == "openers[1].name"
    raw = data("sneak-attack", [member("Vex")], [member("Raider")], openers=[opener("Vex"), opener("Vex")])
    err = loader_error(raw)
    assert err.field == "openers[1].name" and "more than once" in err.message


def test_duplicate_member_names_across_sides():
    err = loader_error(data("sneak-attack", [member("Vex")], [member("Vex")], **lone()))
    assert err.field == "sides.b.members[0].name" and "more than once" in err.message


@pytest.mark.parametrize(("per", "ok"), [(0, False), (1, True), (10, True), (11, False)])
def test_per_range(per, ok):
    raw = data("world-map", [spotter("Ava", per=per)], [member("Raider")], dc=10)
    if ok:
        assert model_of(ft.Scenario).model_validate(raw).sides.a.members[0].per == per
    else:
        assert first_error(raw)["loc"] == ("sides", "a", "members", 0, "per")


def test_unknown_key_is_rejected():
    raw = data("world-map", [spotter("Ava", iq=10)], [member("Raider")], dc=10)
    error = first_error(raw)
    assert error["type"] == "extra_forbidden" and error["loc"] == ("sides", "a", "members", 0, "iq")
    assert first_error({**data("world-map", [spotter("Ava")], [member("Raider")], dc=10), "leader": "Ava"})["type"] \
        == "extra_forbidden"


def test_side_needs_a_member_and_margin_is_positive():
    assert first_error(data("sneak-attack", [member("Vex")], [], **lone()))["loc"] == ("sides", "b", "members")
    raw = data("sneak-attack", [member("Vex")], [member("R")], {"poor_failure_margin": 0}, **lone())
    assert first_error(raw)["loc"] == ("options", "poor_failure_margin")


# --- exact odds, derived by hand ----------------------------------------------------------------------


def test_world_map_odds():
    # Leader +2 (PER 7, Survival 0) vs DC 15: success on 13-20 (8/20), poor failure on totals <= 10, i.e. 1-8.
    result = ft.odds(world_map([spotter("Ava", per=7)], [member("Raider"), member("Doc", cautious_nature=True)]))
    assert result.surprise == {"a": Fraction(8, 20), "b": Fraction(8, 20), "none": Fraction(4, 20)}
    assert result.members["Ava"].lost == {0: Fraction(12, 20), 1: Fraction(8, 20)}
    assert result.members["Ava"].expected_lost == Fraction(8, 20) and result.members["Ava"].never == 0
    assert result.members["Raider"].lost == {0: Fraction(12, 20), 1: Fraction(8, 20)}
    assert result.members["Doc"].lost == {0: Fraction(1)}
    assert result.members["Ava"].unit == "round" and result.free_segments is None


def test_world_map_odds_hunting_and_enemy_roll():
    hunting = ft.odds(world_map([spotter("Ava", per=7)], hunting=True))
    assert hunting.surprise == {"a": Fraction(8, 20), "b": Fraction(12, 20), "none": Fraction(0)}
    # Party +5 succeeds on 10-20 (11/20); otherwise the raider (+1) succeeds on 14-20 (7/20).
    enemy = ft.odds(enemy_rolls_scenario())
    assert enemy.surprise == {"a": Fraction(11, 20), "b": Fraction(9, 20) * Fraction(7, 20),
                              "none": Fraction(9, 20) * Fraction(13, 20)}


def test_sneak_attack_odds_lone_opener():
    # Bonus 3 vs 15: the higher d20 must be 12+; both dice at 11 or less: (11/20)^2.
    result = ft.odds(sneak([member("Vex")], [member("Raider")], **lone(bonus=3, target=15)))
    assert result.surprise == {"a": 1 - Fraction(121, 400), "b": Fraction(0), "none": Fraction(121, 400)}
    assert result.members["Raider"].lost == {0: Fraction(121, 400), 1: Fraction(279, 400)}


def test_sneak_attack_odds_sure_and_impossible_hits():
    assert ft.hit_chance(5, 6) == 1
    assert ft.hit_chance(5, 26) == 0
    assert ft.hit_chance(0, 20) == Fraction(39, 400)


def test_mutual_ambush_odds():
    # Boss rolls first (Sequence 6), needs a 20: 39/400. Then Vex needs 11+: 1 - (10/20)^2 = 3/4.
    scenario = sneak([member("Vex", sequence=4)], [member("Boss", sequence=6)],
                     openers=[opener("Vex", 0, 11), opener("Boss", 0, 20)])
    result = ft.odds(scenario)
    assert result.surprise == {"a": Fraction(361, 400) * Fraction(3, 4), "b": Fraction(39, 400),
                               "none": Fraction(361, 400) * Fraction(1, 4)}
    assert result.members["Vex"].lost == {0: 1 - Fraction(39, 400), 1: Fraction(39, 400)}


def test_cautious_sleeper_odds_follow_b7():
    b = [member("Doc", cautious_nature=True, asleep=True)]
    early = ft.odds(sneak([member("Vex")], b, **lone(bonus=3, target=15)))
    late = ft.odds(sneak([member("Vex")], b, {"cautious_sleeper_wakes": "sr_end"}, **lone(bonus=3, target=15)))
    assert early.members["Doc"].lost == {0: Fraction(1)}
    assert late.members["Doc"].lost == {0: Fraction(121, 400), 1: Fraction(279, 400)}


def enumerate_outcomes(scenario: ft.Scenario) -> dict[str, Fraction]:
    """Play every possible dice sequence once and weigh each outcome by its chance"""
    found: dict[str, Fraction] = {"a": Fraction(0), "b": Fraction(0), "none": Fraction(0)}
    pending: list[list[int]] = [[]]
    while pending:
        prefix = pending.pop()
        try:
            outcome = ft.resolve(scenario, ScriptedRoller(prefix))
        except DiceExhausted:
            pending.extend([*prefix, face] for face in range(1, 21))
            continue
        found[outcome.surprise] += Fraction(1, 20 ** len(prefix))
    return found


@pytest.mark.parametrize("scenario", [
    world_map([spotter("Ava", per=3, survival=4)], [spotter("Raider", per=8, survival=2)],
              options={"enemy_spot_roll": True, "poor_failure_margin": 3}),
    sneak([member("Vex", sequence=4)], [member("Boss", sequence=6)],
          openers=[opener("Vex", 2, 16), opener("Boss", -1, 5)]),  # Boss usually hits: few second rolls
], ids=["world-map", "mutual-ambush"])
def test_odds_agree_with_every_dice_sequence(scenario):
    assert enumerate_outcomes(scenario) == ft.odds(scenario).surprise


# --- narration ---------------------------------------------------------------------------------------


def test_side_labels_default():
    raw = data("sneak-attack", [member("Vex")], [member("R")], **lone())
    del raw["sides"]["b"]["name"]
    scenario = model_of(ft.Scenario).model_validate(raw)
    assert side_label(scenario, "a") == "Party" and side_label(scenario, "b") == "Side B"


def test_narration_of_a_sneak_attack_surprise_round():
    scenario = ambush([member("Raider", asleep=True, sequence=3), member("Doc", cautious_nature=True, sequence=6)])
    lines = narrate(scenario, ft.resolve(scenario, ScriptedRoller([4, 17])))
    text = "\n".join(lines)
    assert "d20 4 and 17, keeps 17, +3 = 20 vs 15: hit" in text
    assert "Surprise Round for Party against Raiders." in lines
    assert "Surprised (no Actions, Reactions or Free Reactions): Raider." in lines
    turns = [line.strip() for line in lines if line.startswith("  ")]
    assert [t.split(" ")[1] for t in turns] == ["Vex", "Cal", "Doc", "Ann"]
    assert "Waking now: Raider." in text
    assert lines[-1] == "Round 2: everyone in Sequence order: Vex, Cal, Doc, Ann, and Raider."
    assert narrate(scenario, ft.resolve(scenario, ScriptedRoller([4, 17]))) == lines


def test_narration_without_a_surprise_round():
    scenario = world_map([spotter("Ava", per=7, survival=3, asleep=True)])
    lines = narrate(scenario, ft.resolve(scenario, ScriptedRoller([9])))
    assert "d20 9, PER 7 (+2), Survival +3, total 14 vs DC 15: normal failure." in lines[1]
    assert any("no Surprise Round" in line for line in lines)
    assert any(line.startswith("Asleep but not Surprised: Ava. There is no Surprise Round") for line in lines)
    assert lines[-1] == "Round 1: everyone in Sequence order: Ava and Raider."


def test_narration_of_a_missed_opener_says_what_becomes_of_the_sleepers():
    scenario = ambush([member("Raider", asleep=True, sequence=3)])
    lines = narrate(scenario, ft.resolve(scenario, ScriptedRoller([2, 3])))
    assert "No opening Sneak Attack hit: the targets are alerted and there is no Surprise Round." in lines
    sleepers = next(line for line in lines if line.startswith("Asleep but not Surprised"))
    assert sleepers.startswith("Asleep but not Surprised: Raider. The attack missed, so there is no Surprise Round")
    assert "every sleeper takes a normal turn in Sequence order from round 1" in sleepers


def test_narration_names_the_cautious_sleeper_wake_up():
    doc = member("Doc", cautious_nature=True, asleep=True, sequence=6)
    scenario = ambush([doc], {"cautious_sleeper_wakes": "sr_end"})
    text = "\n".join(narrate(scenario, ft.resolve(scenario, ScriptedRoller([20, 20]))))
    assert "sleeps through the Surprise Round" in text and "Waking now: Doc." in text


# --- properties ----------------------------------------------------------------------------------------


@st.composite
def members_of(draw, prefix: str) -> list[dict]:
    count = draw(st.integers(1, 3))
    return [{"name": f"{prefix}{i}", "per": draw(st.integers(1, 10)), "survival": draw(st.integers(0, 20)),
             "cautious_nature": draw(st.booleans()), "asleep": draw(st.booleans()),
             "sequence": draw(st.integers(0, 4))} for i in range(count)]


option_sets = st.fixed_dictionaries({
    "opening_attack_is_free": st.booleans(),
    "poor_failure_margin": st.integers(1, 12),
    "enemy_spot_roll": st.booleans(),
    "cautious_sleeper_wakes": st.sampled_from(["sr_turn_start", "sr_end"]),
})


@st.composite
def world_maps(draw) -> dict:
    return applicable(data("world-map", draw(members_of("a")), draw(members_of("b")), draw(option_sets),
                           dc=draw(st.integers(-5, 45)), hunting=draw(st.booleans())))


@st.composite
def sneak_attacks(draw) -> dict:
    a, b = draw(members_of("a")), draw(members_of("b"))
    names = [m["name"] for m in a + b]
    chosen = draw(st.lists(st.sampled_from(names), min_size=1, max_size=4, unique=True))
    openers = [opener(name, draw(st.integers(-5, 15)), draw(st.integers(0, 40))) for name in chosen]
    return applicable(data("sneak-attack", a, b, draw(option_sets), openers=openers))


scenarios = st.one_of(world_maps(), sneak_attacks())


@settings(max_examples=150, deadline=None)
@given(scenarios)
def test_odds_are_distributions(raw):
    result = ft.odds(model_of(ft.Scenario).model_validate(raw))
    assert set(result.surprise) == {"a", "b", "none"}
    assert sum(result.surprise.values()) == 1 and min(result.surprise.values()) >= 0
    assert set(result.members) == {m["name"] for key in "ab" for m in raw["sides"][key]["members"]}
    for odds in result.members.values():
        assert sum(odds.lost.values()) == 1 and set(odds.lost) <= {0, 1}
        assert odds.never == 0 and odds.expected_lost == odds.lost.get(1, 0)


@settings(max_examples=150, deadline=None)
@given(scenarios, st.integers(0, 2**32))
def test_resolve_uses_the_canonical_dice_and_agrees_with_itself(raw, seed):
    scenario = model_of(ft.Scenario).model_validate(raw)
    seeded = SeededRoller(seed)
    roller = ScriptedRoller([seeded.roll(20) for _ in range(10)])
    out = ft.resolve(scenario, roller).to_json()
    if scenario.procedure == "world-map":
        assert roller.used == (2 if "enemy_test" in out else 1)
    else:
        assert roller.used == 2 * len(out["openers"])
        hits = [o for o in out["openers"] if o["hit"]]
        assert len(hits) <= 1 and (not hits or out["openers"][-1]["hit"])
        assert out["surprise"] == (hits[0]["side"] if hits else "none")
    wakes_early = raw["options"]["cautious_sleeper_wakes"] == "sr_turn_start"
    for key in "ab":
        for m in raw["sides"][key]["members"]:
            surprised_side = out["surprise"] not in ("none", key)
            acts = m["cautious_nature"] and (not m["asleep"] or wakes_early)
            assert out["members"][m["name"]]["lost"] == int(surprised_side and not acts)


@settings(max_examples=150, deadline=None)
@given(world_maps(), st.data())
def test_more_per_or_survival_never_hurts_the_party(raw, extra):
    members = raw["sides"]["a"]["members"]
    index = extra.draw(st.integers(0, len(members) - 1))
    skill = extra.draw(st.sampled_from(["per", "survival"]))
    ceiling = 10 if skill == "per" else 20
    if members[index][skill] == ceiling:
        return
    better = {**raw, "sides": {**raw["sides"], "a": {**raw["sides"]["a"], "members": [
        {**m, skill: m[skill] + 1} if i == index else m for i, m in enumerate(members)]}}}
    before, after = ft.odds(model_of(ft.Scenario).model_validate(raw)), ft.odds(model_of(ft.Scenario).model_validate(better))
    assert after.surprise["a"] >= before.surprise["a"]
    assert after.surprise["b"] <= before.surprise["b"]


@settings(max_examples=150, deadline=None)
@given(st.integers(-10, 25), st.integers(-5, 45))
def test_higher_attack_bonus_never_lowers_the_chance_of_a_surprise_round(bonus, target):
    def chance(b: int) -> Fraction:
        return ft.odds(sneak([member("Vex")], [member("Raider")], **lone(bonus=b, target=target))).surprise["a"]

    assert chance(bonus + 1) >= chance(bonus)


@settings(max_examples=150, deadline=None)
@given(scenarios)
def test_cautious_nature_members_lose_nothing_unless_they_sleep_through_the_round(raw):
    scenario = model_of(ft.Scenario).model_validate(raw)
    result = ft.odds(scenario)
    for key in "ab":
        for m in raw["sides"][key]["members"]:
            if m["cautious_nature"] and not (m["asleep"] and raw["options"]["cautious_sleeper_wakes"] == "sr_end"):
                assert result.members[m["name"]].lost == {0: 1}

# --- scenarios drawn for the differential tests (tests/scenario_draws.py) ---------------------------------

DIE_FACES = 20  # its dice's faces: die faces are drawn from 1 to this


@st.composite
def drawn_scenarios(draw, procedure: str, options: dict) -> dict:
    """Draw a Fallout scenario: a World Map check or opening Sneak Attacks, lone or declared openers"""
    rolling = {"a", "b"} if options.get("enemy_spot_roll") else {"a"}
    names_a, names_b = draw(side_names())
    sides = {}
    for key, names in (("a", names_a), ("b", names_b)):
        members = []
        for name in names:
            needs_test = procedure == "world-map" and key in rolling
            per, survival = st.integers(1, 10), st.integers(0, 20)
            members.append(put(
                {"name": name},
                per=draw(per) if needs_test else draw(maybe(per)),
                survival=draw(survival) if needs_test else draw(maybe(survival)),
                cautious_nature=draw(maybe(st.booleans())), asleep=draw(maybe(st.booleans())),
                sequence=draw(maybe(st.one_of(st.integers(0, 4), st.integers(-5, 20)))),
            ))
        sides[key] = put({}, name=draw(maybe(member_name)))
        sides[key]["members"] = members
    scenario: dict[str, Any] = {"system": "fallout-ttrpg", "procedure": procedure}
    bonus, number = st.integers(-5, 15), st.integers(1, 30)
    if procedure == "world-map":
        put(scenario, dc=draw(st.integers(0, 30)), hunting=draw(maybe(st.booleans())))
    elif draw(st.booleans()):
        scenario.update(attacker=draw(st.sampled_from(names_a)), attack_bonus=draw(bonus), target_number=draw(number))
    else:
        openers = draw(st.lists(st.sampled_from(names_a + names_b), min_size=1, max_size=4, unique=True))
        scenario["openers"] = [{"name": name, "attack_bonus": draw(bonus), "target_number": draw(number)}
                               for name in openers]
    scenario["sides"] = sides
    return scenario
