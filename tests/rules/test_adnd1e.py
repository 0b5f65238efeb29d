"""AD&D 1e surprise (docs/rules/adnd1e.md): thresholds, pips, Dexterity, the timeline, options, odds, validation"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from exporter.errors import DiceExhausted, InputFileError
from exporter.narration.adnd1e import narrate
from exporter.rules import adnd1e
from exporter.rules.adnd1e import Combatant
from exporter.rules.dice import ScriptedRoller
from exporter.scenario import scenario_from_dict
from exporter.rules.models import model_of
from tests.scenario_draws import maybe, member_name, put, side_names

F = Fraction


def side(*members: str | dict[str, Any], **fields: Any) -> dict[str, Any]:
    """Build a side dict from member names or member dicts"""
    listed = [{"name": m} if isinstance(m, str) else m for m in members]
    return {**fields, "members": listed}


def data(a: dict[str, Any], b: dict[str, Any], **options: Any) -> dict[str, Any]:
    """Build adnd1e scenario data"""
    out: dict[str, Any] = {"system": "adnd1e", "procedure": "roll", "sides": {"a": a, "b": b}}
    if options:
        out["options"] = options
    return out


def scenario(a: dict[str, Any], b: dict[str, Any], **options: Any) -> adnd1e.Scenario:
    """Validate adnd1e scenario data"""
    return model_of(adnd1e.Scenario).model_validate(data(a, b, **options))


def play(sc: adnd1e.Scenario, *dice: int) -> adnd1e.Outcome:
    """Resolve with scripted dice and check that every face was used"""
    roller = ScriptedRoller(dice)
    outcome = adnd1e.resolve(sc, roller)
    assert roller.remaining == 0, "not every scripted face was rolled"
    return outcome


def segment_lists(outcome: adnd1e.Outcome) -> list[tuple[int, str, list[str]]]:
    """Flatten the timeline for comparison"""
    return [(s.segment, s.kind, list(s.acting)) for s in outcome.timeline]


def sides_of(a: dict[str, Any], b: dict[str, Any]) -> tuple[adnd1e.Side, adnd1e.Side]:
    """Validate two bare sides"""
    return model_of(adnd1e.Side).model_validate(a), model_of(adnd1e.Side).model_validate(b)


PARTY = side("Ava", "Bo", name="Party")
MONSTERS = side("Orc", name="Monsters")


# --- module contract ---------------------------------------------------------------------------


def test_module_contract():
    assert adnd1e.SYSTEM == "adnd1e"
    assert adnd1e.UNIT == "segment"
    assert adnd1e.PROCEDURES == ("roll",)
    options = model_of(adnd1e.Options)()
    assert options.dex_unsurprised_may_act is True
    assert not (options.side_best_rating or options.dex_encumbrance_gate or options.missile_triple_rate)
    assert "percent_chances" not in model_of(adnd1e.Options).model_fields


def test_scenario_defaults():
    sc = scenario(side("Ava"), side("Orc"))
    assert sc.sides.a.surprised_on == 2
    assert sc.sides.a.surprises_on == 2
    assert sc.sides.a.aware is False
    assert sc.options == model_of(adnd1e.Options)()


# --- threshold (docs/rules/adnd1e.md#threshold) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("own", "theirs", "expected"),
    [
        ({}, {}, 2),  # the default 2 in 6
        ({}, {"surprises_on": 3}, 3),  # "surprises on 1-3" gives the side facing it 3
        ({}, {"surprises_on": 1}, 1),
        ({"surprised_on": 1}, {}, 1),  # "surprised only on 1"
        ({"surprised_on": 1}, {"surprises_on": 5}, 4),  # DMG p.62
        ({"surprised_on": 3}, {"surprises_on": 4}, 5),  # shifts add
        ({"surprised_on": 6}, {"surprises_on": 6}, 6),  # 10 clamps to 6
        ({"surprised_on": 1}, {"surprises_on": 1}, 0),  # shifted down to 0
        ({"surprised_on": 0}, {"surprises_on": 6}, 0),  # immune stays immune
        ({"aware": True}, {"surprises_on": 6}, 0),  # aware
        ({"aware": True, "surprised_on": 5}, {}, 0),
    ],
)
def test_threshold(own, theirs, expected):
    mine, opponent = sides_of(side("Ava", **own), side("Orc", **theirs))
    assert adnd1e.threshold(mine, opponent) == expected


def test_surprises_on_shifts_only_the_opponent():
    # C2: a 1-3 monster surprises others on 1-3; its own chance stays 2
    party, monster = sides_of(side("Ava"), side("Orc", surprises_on=3))
    assert adnd1e.threshold(party, monster) == 3
    assert adnd1e.threshold(monster, party) == 2


# --- the roll and the dice order ---------------------------------------------------------------


def test_side_a_rolls_first_then_side_b():
    outcome = play(scenario(PARTY, MONSTERS), 1, 5)
    assert outcome.sides["a"].roll == 1
    assert outcome.sides["b"].roll == 5


@pytest.mark.parametrize(
    ("a", "b", "dice", "rolls"),
    [
        ({"aware": True}, {}, [4], (None, 4)),
        ({}, {"aware": True}, [1], (1, None)),
        ({"surprised_on": 0}, {}, [2], (None, 2)),
        ({"surprised_on": 1}, {"surprises_on": 1}, [3], (None, 3)),  # shifted to 0
        ({"aware": True}, {"surprised_on": 0}, [], (None, None)),
    ],
)
def test_a_side_with_threshold_zero_takes_no_die(a, b, dice, rolls):
    outcome = play(scenario(side("Ava", **a), side("Orc", **b)), *dice)
    assert (outcome.sides["a"].roll, outcome.sides["b"].roll) == rolls
    for key, roll in zip("ab", rolls, strict=True):
        if roll is None:
            assert outcome.sides[key].threshold == 0
            assert outcome.sides[key].segments == 0


def test_aware_side_cannot_be_surprised():
    outcome = play(scenario(side("Ava", aware=True), side("Orc", surprises_on=6)), 6)
    assert outcome.sides["a"].segments == 0
    assert outcome.member("Ava").segments == 0


def test_resolve_rolls_no_more_than_needed():
    roller = ScriptedRoller([1, 2, 3])
    adnd1e.resolve(scenario(PARTY, MONSTERS), roller)
    assert roller.used == 2


def test_resolve_fails_when_the_dice_run_out():
    with pytest.raises(DiceExhausted):
        adnd1e.resolve(scenario(PARTY, MONSTERS), ScriptedRoller([1]))


def test_resolve_asks_for_d6_only():
    asked: list[int] = []

    class Recorder:
        def roll(self, sides: int) -> int:
            asked.append(sides)
            return 1

    adnd1e.resolve(scenario(PARTY, MONSTERS), Recorder())
    assert asked == [6, 6]


@pytest.mark.parametrize(
    ("thr", "roll", "segments"),
    [(2, 1, 1), (2, 2, 2), (2, 3, 0), (2, 6, 0), (3, 3, 3), (3, 4, 0), (4, 4, 4), (6, 6, 6), (1, 2, 0), (0, None, 0)],
)
def test_segments_are_the_pips_within_the_threshold(thr, roll, segments):
    # C1: pips, not thr + 1 - r
    assert adnd1e.surprised_segments(thr, roll) == segments


def test_seed_rolls_one_and_two():
    outcome = play(scenario(PARTY, MONSTERS), 1, 2)
    assert outcome.sides["a"].segments == 1
    assert outcome.sides["b"].segments == 2


# --- two sides (docs/rules/adnd1e.md#two-sides) ------------------------------------------------


def test_neither_surprised():
    outcome = play(scenario(PARTY, MONSTERS), 3, 6)
    assert outcome.surprise == "none"
    assert outcome.free_segments == 0
    assert outcome.timeline == ()


def test_only_one_surprised_seed_party_2_monsters_5():
    outcome = play(scenario(PARTY, MONSTERS), 2, 5)
    assert outcome.surprise == "b"
    assert outcome.free_segments == -2
    assert segment_lists(outcome) == [(1, "surprise", ["Orc"]), (2, "surprise", ["Orc"])]


def test_only_side_b_surprised_gives_side_a_the_segments():
    outcome = play(scenario(PARTY, MONSTERS), 4, 1)
    assert outcome.surprise == "a"
    assert outcome.free_segments == 1
    assert segment_lists(outcome) == [(1, "surprise", ["Ava", "Bo"])]


def test_both_unequal_seed_party_1_monsters_2():
    outcome = play(scenario(PARTY, MONSTERS), 1, 2)
    assert outcome.surprise == "a"
    assert outcome.free_segments == 1
    # both lose 1 (cancelled), then the party acts alone in segment 2
    assert segment_lists(outcome) == [(1, "cancelled", []), (2, "surprise", ["Ava", "Bo"])]


@pytest.mark.parametrize("roll", [1, 2])
def test_both_equal_cancel(roll):
    outcome = play(scenario(PARTY, MONSTERS), roll, roll)
    assert outcome.surprise == "none"
    assert outcome.free_segments == 0
    assert outcome.timeline == ()


def test_same_roll_different_thresholds_does_not_cancel():
    # docs/rules/adnd1e.md#edge-cases: party 3 and monster 3 against a 1-3 monster
    outcome = play(scenario(PARTY, side("Orc", surprises_on=3)), 3, 3)
    assert outcome.sides["a"].to_json() == {"threshold": 3, "roll": 3, "segments": 3}
    assert outcome.sides["b"].to_json() == {"threshold": 2, "roll": 3, "segments": 0}
    assert outcome.free_segments == -3
    assert outcome.surprise == "b"
    assert segment_lists(outcome) == [(n, "surprise", ["Orc"]) for n in (1, 2, 3)]


def test_seed_party_3_against_a_1_3_monster():
    outcome = play(scenario(PARTY, side("Orc", surprises_on=3)), 3, 6)
    assert outcome.free_segments == -3


def test_dmg_difference_extends_to_5():
    # docs/rules/adnd1e.md#edge-cases: 6 vs 1 gives 5
    outcome = play(scenario(side("Ava", surprised_on=6), side("Orc", surprised_on=6)), 1, 6)
    assert outcome.free_segments == 5


# --- Dexterity (docs/rules/adnd1e.md#dexterity, docs/rules/adnd1e.md#edge-cases, C3) ---------------------


@pytest.mark.parametrize(
    ("dex", "adjustment"),
    [(3, -3), (4, -2), (5, -1), *((dex, 0) for dex in range(6, 16)), (16, 1), (17, 2), (18, 3)],
)
def test_dex_table_every_row(dex, adjustment):
    assert adnd1e.DEX_ADJUSTMENT[dex] == adjustment
    assert adnd1e.member_adjustment(model_of(adnd1e.Member)(name="Ava", dex=dex)) == adjustment


def test_dex_table_covers_exactly_3_to_18():
    assert sorted(adnd1e.DEX_ADJUSTMENT) == list(range(3, 19))


def test_dex_18_uses_the_1e_value_not_the_2e_one():
    assert adnd1e.DEX_ADJUSTMENT[18] == 3


def test_explicit_adjustment_and_no_adjustment():
    assert adnd1e.member_adjustment(model_of(adnd1e.Member)(name="Ava", surprise_adjustment=-4)) == -4
    assert adnd1e.member_adjustment(model_of(adnd1e.Member)(name="Ava")) == 0


@pytest.mark.parametrize(
    ("side_segments", "adjustment", "own"),
    [(2, -3, 5), (2, 2, 0), (2, 3, 0), (2, 1, 1), (1, -1, 2), (3, 2, 1), (4, 3, 1), (0, -3, 0), (0, 3, 0)],
)
def test_member_segments(side_segments, adjustment, own):
    assert adnd1e.member_segments(side_segments, adjustment) == own


def test_dex_3_on_a_side_surprised_for_2_loses_5():
    outcome = play(scenario(side("Ava", {"name": "Cy", "dex": 3}), MONSTERS), 2, 6)
    assert outcome.member("Cy").to_json() == {"adjustment": -3, "segments": 5}
    assert outcome.member("Ava").segments == 2
    assert [s.segment for s in outcome.timeline] == [1, 2, 3, 4, 5]
    assert list(outcome.timeline[-1].acting) == ["Ava", "Orc"]


def test_dex_penalty_never_creates_surprise():
    outcome = play(scenario(side({"name": "Cy", "dex": 3}), MONSTERS), 3, 6)
    assert outcome.member("Cy").segments == 0
    assert outcome.timeline == ()


def test_dex_bonus_never_creates_surprise_in_the_opponents():
    outcome = play(scenario(side({"name": "Ava", "dex": 18}), MONSTERS), 3, 6)
    assert outcome.member("Orc").segments == 0
    assert outcome.surprise == "none"
    assert outcome.timeline == ()


def test_dex_18_immune_at_threshold_3_but_not_4():
    # docs/rules/adnd1e.md#edge-cases: +3 is immune unless thr >= 4
    at_3 = play(scenario(side({"name": "Ava", "dex": 18}), side("Orc", surprises_on=3)), 3, 6)
    at_4 = play(scenario(side({"name": "Ava", "dex": 18}), side("Orc", surprises_on=4)), 4, 6)
    assert at_3.member("Ava").segments == 0
    assert at_4.member("Ava").segments == 1


def test_seed_worked_example():
    # seed: monsters roll 1, party rolls 2, one member has +2
    sc = scenario(side({"name": "Ava", "surprise_adjustment": 2}, "Bo", name="Party"), MONSTERS)
    outcome = play(sc, 2, 1)
    assert outcome.member("Ava").segments == 0
    assert outcome.member("Bo").segments == 2
    assert outcome.member("Orc").segments == 1
    assert segment_lists(outcome) == [(1, "surprise", ["Ava"]), (2, "surprise", ["Ava", "Orc"])]


def test_seed_worked_example_to_json():
    sc = scenario(side({"name": "Ava", "dex": 17}, "Bo"), MONSTERS)
    assert play(sc, 2, 1).to_json() == {
        "surprise": "b",
        "sides": {
            "a": {"threshold": 2, "roll": 2, "segments": 2},
            "b": {"threshold": 2, "roll": 1, "segments": 1},
        },
        "free_segments": -1,
        "members": {
            "Ava": {"adjustment": 2, "segments": 0},
            "Bo": {"adjustment": 0, "segments": 2},
            "Orc": {"adjustment": 0, "segments": 1},
        },
        "timeline": [
            {"segment": 1, "kind": "surprise", "acting": ["Ava"]},
            {"segment": 2, "kind": "surprise", "acting": ["Ava", "Orc"]},
        ],
    }


def test_to_json_with_a_side_that_did_not_roll():
    assert play(scenario(side("Ava", aware=True), side("Orc")), 2).to_json() == {
        "surprise": "a",
        "sides": {
            "a": {"threshold": 0, "roll": None, "segments": 0},
            "b": {"threshold": 2, "roll": 2, "segments": 2},
        },
        "free_segments": 2,
        "members": {"Ava": {"adjustment": 0, "segments": 0}, "Orc": {"adjustment": 0, "segments": 2}},
        "timeline": [
            {"segment": 1, "kind": "surprise", "acting": ["Ava"]},
            {"segment": 2, "kind": "surprise", "acting": ["Ava"]},
        ],
    }


def test_dex_member_acts_while_the_sides_cancel():
    # equal side segments cancel, but a Dex-unsurprised member still gets the segments
    outcome = play(scenario(side({"name": "Ava", "dex": 17}, "Bo"), MONSTERS), 2, 2)
    assert outcome.surprise == "none"
    assert segment_lists(outcome) == [(1, "surprise", ["Ava"]), (2, "surprise", ["Ava"])]


# --- timeline (docs/rules/adnd1e.md#timeline, C8) -------------------------------------------------------


def test_timeline_three_sides():
    combatants = [Combatant("Ava", "a", 2), Combatant("Orc", "b", 1), Combatant("Elf", "c", 3)]
    segments = adnd1e.timeline(combatants)
    assert [(s.segment, s.kind, s.acting, s.frozen) for s in segments] == [
        (1, "cancelled", (), ("Ava", "Orc", "Elf")),
        (2, "surprise", ("Orc",), ("Ava", "Elf")),
        (3, "surprise", ("Ava", "Orc"), ("Elf",)),
    ]


def test_timeline_stops_at_the_last_surprise_segment():
    # one side alone: nobody has an opponent, so nothing is listed
    assert adnd1e.timeline([Combatant("Ava", "a", 0), Combatant("Bo", "a", 3)]) == ()
    assert adnd1e.timeline([Combatant("Ava", "a", 2), Combatant("Orc", "b", 2)]) == ()
    assert adnd1e.timeline([]) == ()


# --- C4 dex_unsurprised_may_act ----------------------------------------------------------------


SEED_SCENARIO = (side({"name": "Ava", "surprise_adjustment": 2}, "Bo", {"name": "Cy", "dex": 3}), MONSTERS)


def test_c4_default_lets_the_dex_unsurprised_member_act():
    outcome = play(scenario(*SEED_SCENARIO), 2, 1)
    assert outcome.member("Ava").segments == 0
    assert list(outcome.timeline[0].acting) == ["Ava"]


def test_c4_off_makes_him_wait_out_his_side():
    outcome = play(scenario(*SEED_SCENARIO, dex_unsurprised_may_act=False), 2, 1)
    assert outcome.member("Ava").segments == 0  # his own segments stay as Dex makes them
    assert outcome.member("Cy").segments == 5  # a penalty still adds
    assert segment_lists(outcome) == [
        (1, "cancelled", []),
        (2, "surprise", ["Orc"]),
        (3, "surprise", ["Ava", "Bo", "Orc"]),
        (4, "surprise", ["Ava", "Bo", "Orc"]),
        (5, "surprise", ["Ava", "Bo", "Orc"]),
    ]


def test_c4_off_a_lone_dex_member_is_still_surprised():
    outcome = play(scenario(side({"name": "Ava", "dex": 18}), MONSTERS, dex_unsurprised_may_act=False), 2, 6)
    assert segment_lists(outcome) == [(1, "surprise", ["Orc"]), (2, "surprise", ["Orc"])]


def test_c4_off_frozen_segments():
    off = model_of(adnd1e.Options)(dex_unsurprised_may_act=False)
    assert adnd1e.frozen_segments(2, 0, off) == 2
    assert adnd1e.frozen_segments(2, 1, off) == 2
    assert adnd1e.frozen_segments(2, 3, off) == 3
    assert adnd1e.frozen_segments(0, 0, off) == 0


def test_c4_on_frozen_segments_are_the_own_ones():
    assert adnd1e.frozen_segments(2, 0, model_of(adnd1e.Options)()) == 0
    assert adnd1e.frozen_segments(2, 5, model_of(adnd1e.Options)()) == 5


def test_c4_does_not_change_own_segments():
    assert adnd1e.member_segments(2, 2) == 0
    assert adnd1e.member_segments(2, -1) == 3


# --- C5 options --------------------------------------------------------------------------------


def test_c5a_side_best_rating_uses_the_rangers_rating():
    ranger = {"name": "Ranger", "surprised_on": 1}
    sc = scenario(side("Ava", ranger), side("Orc"), side_best_rating=True)
    assert play(sc, 2, 6).sides["a"].to_json() == {"threshold": 1, "roll": 2, "segments": 0}


def test_c5a_side_best_rating_raises_the_surprise_chance():
    sc = scenario(side("Ava", {"name": "Ranger", "surprises_on": 3}), side("Orc"), side_best_rating=True)
    assert play(sc, 6, 3).sides["b"].to_json() == {"threshold": 3, "roll": 3, "segments": 3}


def test_c5a_side_best_rating_keeps_a_better_side_rating():
    a, b = side("Ava", {"name": "X", "surprised_on": 3}, surprised_on=1), side("Orc", surprises_on=4)
    sc = scenario(a, b, side_best_rating=True)
    assert adnd1e.side_thresholds(sc) == {"a": 3, "b": 2}  # side's own 1, shifted by +2


def test_c5a_side_best_rating_combines_member_ratings_both_ways():
    a = side({"name": "Ranger", "surprised_on": 1, "surprises_on": 3}, {"name": "Thief", "surprises_on": 4})
    b = side("Orc", {"name": "Ogre", "surprised_on": 3})
    sc = scenario(a, b, side_best_rating=True)
    # a: best own 1, b's best surprises_on 2 -> 1; b: best own 2 (side) vs Ogre 3 -> 2, a's best 4 -> 4
    assert adnd1e.side_thresholds(sc) == {"a": 1, "b": 4}


def test_c5a_member_ratings_need_the_option():
    err = load_error(data(side({"name": "Ranger", "surprised_on": 1}), side("Orc")))
    assert (err.field, "side_best_rating" in err.message) == ("sides.a.members[0].surprised_on", True)
    err = load_error(data(side("Ava"), side("Orc", {"name": "Ogre", "surprises_on": 3})))
    assert (err.field, "side_best_rating" in err.message) == ("sides.b.members[1].surprises_on", True)


def test_c5b_encumbrance_gate_drops_a_bonus():
    ava = {"name": "Ava", "dex": 17, "encumbered": True}
    cy = {"name": "Cy", "dex": 4, "encumbered": True}
    a = side(ava, {"name": "Bo", "dex": 17}, cy)
    outcome = play(scenario(a, MONSTERS, dex_encumbrance_gate=True), 2, 6)
    assert outcome.member("Ava").to_json() == {"adjustment": 0, "segments": 2}
    assert outcome.member("Bo").to_json() == {"adjustment": 2, "segments": 0}
    assert outcome.member("Cy").to_json() == {"adjustment": -2, "segments": 4}  # a penalty still counts


def test_c5b_encumbered_needs_the_gate():
    err = load_error(data(side({"name": "Ava", "dex": 17, "encumbered": True}), MONSTERS))
    assert (err.field, "dex_encumbrance_gate" in err.message) == ("sides.a.members[0].encumbered", True)
    assert scenario(side({"name": "Ava", "encumbered": False}), MONSTERS).sides.a.members[0].encumbered is False


def test_c5c_missile_triple_rate_off_keeps_the_documented_shape():
    outcome = play(scenario(PARTY, MONSTERS), 2, 1)
    for entry in outcome.to_json()["timeline"]:
        assert set(entry) == {"segment", "kind", "acting"}


def test_c5c_missile_triple_rate_flags_surprise_segments_without_changing_timing():
    plain = play(scenario(PARTY, MONSTERS), 1, 2)
    triple = play(scenario(PARTY, MONSTERS, missile_triple_rate=True), 1, 2)
    assert segment_lists(triple) == segment_lists(plain)
    assert [entry["missile_triple_rate"] for entry in triple.to_json()["timeline"]] == [False, True]


def test_c5d_percent_chances_is_refused_as_not_implemented():
    err = load_error(data(PARTY, MONSTERS, percent_chances=True))
    assert err.field == "options.percent_chances"
    assert err.message.startswith("is not implemented")


# --- validation --------------------------------------------------------------------------------


def load_error(raw: dict[str, Any]) -> InputFileError:
    """Return the loader's error for bad scenario data"""
    with pytest.raises(InputFileError) as caught:
        scenario_from_dict(raw)
    return caught.value


@pytest.mark.parametrize("dex", [2, 19, 0, -1])
def test_dex_out_of_range(dex):
    err = load_error(data(side({"name": "Ava", "dex": dex}), MONSTERS))
    assert err.field == "sides.a.members[0].dex"


def test_both_dex_and_surprise_adjustment():
    err = load_error(data(side("Ava", {"name": "Bo", "dex": 12, "surprise_adjustment": 1}), MONSTERS))
    assert err.field == "sides.a.members[1].surprise_adjustment"
    assert "not both" in err.message


@pytest.mark.parametrize(
    ("field", "value"), [("surprised_on", 7), ("surprised_on", -1), ("surprises_on", 0), ("surprises_on", 7)]
)
def test_side_rating_out_of_range(field, value):
    err = load_error(data(side("Ava", **{field: value}), MONSTERS))
    assert err.field == f"sides.a.{field}"


@pytest.mark.parametrize("adjustment", [-6, 6])
def test_surprise_adjustment_out_of_range(adjustment):
    err = load_error(data(side({"name": "Ava", "surprise_adjustment": adjustment}), MONSTERS))
    assert err.field == "sides.a.members[0].surprise_adjustment"


@pytest.mark.parametrize(
    ("a", "b", "field"),
    [
        (side("Ava", "Bo"), side("Ava"), "sides.b.members[0].name"),
        (side("Ava", "Ava"), side("Orc"), "sides.a.members[1].name"),
        (side("Ava"), side("Orc", "Orc"), "sides.b.members[1].name"),
    ],
)
def test_duplicate_names(a, b, field):
    err = load_error(data(a, b))
    assert err.field == field
    assert "'Ava'" in err.message or "'Orc'" in err.message


def test_a_side_needs_members():
    err = load_error(data(side(), MONSTERS))
    assert err.field == "sides.a.members"
    assert "missing" in load_error(data({"name": "Party"}, MONSTERS)).message


@pytest.mark.parametrize(
    ("raw", "loc"),
    [
        (data(side({"name": "Ava", "iq": 12}), MONSTERS), ("sides", "a", "members", 0, "iq")),
        (data(side("Ava", leader="Ava"), MONSTERS), ("sides", "a", "leader")),
        ({**data(PARTY, MONSTERS), "dc": 15}, ("dc",)),
        (data(PARTY, MONSTERS, psionics=True), ("options", "psionics")),
    ],
)
def test_unknown_key(raw, loc):
    with pytest.raises(ValidationError) as caught:
        model_of(adnd1e.Scenario).model_validate(raw)
    first = caught.value.errors()[0]
    assert first["type"] == "extra_forbidden"
    assert first["loc"] == loc


@pytest.mark.parametrize(("field", "value"), [("system", "gurps4e"), ("procedure", "partial")])
def test_wrong_system_or_procedure(field, value):
    with pytest.raises(ValidationError):
        model_of(adnd1e.Scenario).model_validate({**data(PARTY, MONSTERS), field: value})


# --- odds (hand-computed) ----------------------------------------------------------------------


def test_odds_default_sides():
    sc = scenario(side({"name": "Ava", "dex": 17}, "Bo", {"name": "Cy", "dex": 3}), MONSTERS)
    result = adnd1e.odds(sc)
    assert (result.system, result.procedure) == ("adnd1e", "roll")
    # each side: 0 with 4/6, 1 with 1/6, 2 with 1/6; equal with (16 + 1 + 1) / 36
    assert result.surprise == {"a": F(1, 4), "b": F(1, 4), "none": F(1, 2)}
    assert result.free_segments == {-2: F(1, 9), -1: F(5, 36), 0: F(1, 2), 1: F(5, 36), 2: F(1, 9)}
    assert result.members["Ava"].lost == {0: F(1)}
    assert result.members["Ava"].expected_lost == 0
    assert result.members["Bo"].lost == {0: F(2, 3), 1: F(1, 6), 2: F(1, 6)}
    assert result.members["Bo"].expected_lost == F(1, 2)
    assert result.members["Cy"].lost == {0: F(2, 3), 4: F(1, 6), 5: F(1, 6)}
    assert result.members["Cy"].expected_lost == F(3, 2)
    for member in result.members.values():
        assert member.unit == "segment"
        assert member.never == 0


def test_odds_dmg_p62():
    result = adnd1e.odds(scenario(side("Ava", surprised_on=1), side("Orc", surprises_on=5)))
    assert result.members["Ava"].lost == {0: F(1, 3), 1: F(1, 6), 2: F(1, 6), 3: F(1, 6), 4: F(1, 6)}
    assert result.members["Ava"].expected_lost == F(10, 6)
    assert result.members["Orc"].lost == {0: F(2, 3), 1: F(1, 6), 2: F(1, 6)}  # Ava's side surprises on 1-2


def test_odds_aware_side():
    result = adnd1e.odds(scenario(side("Ava", aware=True), side("Orc")))
    assert result.members["Ava"].lost == {0: F(1)}
    # only Orc can be surprised: a gets the jump with 2/6
    assert result.surprise == {"a": F(1, 3), "b": F(0), "none": F(2, 3)}
    assert result.free_segments == {0: F(2, 3), 1: F(1, 6), 2: F(1, 6)}


def test_odds_dex_18_at_threshold_4():
    result = adnd1e.odds(scenario(side({"name": "Ava", "dex": 18}), side("Orc", surprises_on=4)))
    assert result.members["Ava"].lost == {0: F(5, 6), 1: F(1, 6)}


def test_odds_c4_off_counts_own_segments():
    sc = scenario(side({"name": "Ava", "dex": 18}, {"name": "Cy", "dex": 4}), MONSTERS, dex_unsurprised_may_act=False)
    assert adnd1e.odds(sc).members["Ava"].lost == {0: F(1)}
    assert adnd1e.odds(sc).members["Cy"].lost == {0: F(2, 3), 3: F(1, 6), 4: F(1, 6)}


# --- narration ---------------------------------------------------------------------------------


def test_narration_of_the_seed_example():
    sc = scenario(side({"name": "Ava", "dex": 17}, "Bo", name="Party"), side("Orc", "Gob", name="Monsters"))
    lines = narrate(sc, play(sc, 2, 1))
    assert lines[0] == "Party: surprised on 1-2; rolls 2: surprised for 2 segments."
    assert lines[1] == "Monsters: surprised on 1-2; rolls 1: surprised for 1 segment."
    assert "Ava: Dexterity 17 (+2) turns 2 into 0." in lines
    assert "Segment 1 (surprise): Ava acts; Bo and all of Monsters are frozen." in lines
    assert "Segment 2 (surprise): Ava, Orc, and Gob act; Bo is frozen." in lines
    assert lines[-1] == "Normal rounds begin; roll initiative."
    assert narrate(sc, play(sc, 2, 1)) == lines


def test_narration_says_in_words_whom_dexterity_lets_act_when_the_surprise_cancels():
    sc = scenario(side({"name": "Nimble", "dex": 17}, "Bo", name="Party"), side("Orc", name="Monsters"))
    lines = narrate(sc, play(sc, 2, 2))
    assert lines[2] == ("Both sides are surprised for 2 segments: the surprise cancels between the sides; "
                        "Dexterity 17 lets Nimble act alone in segments 1 and 2.")


def test_narration_says_whom_a_penalty_keeps_frozen_when_the_surprise_cancels():
    sc = scenario(side({"name": "Gorm", "surprise_adjustment": -2}, "Bo"), side("Orc"))
    lines = narrate(sc, play(sc, 1, 1))
    assert lines[2] == ("Both sides are surprised for 1 segment: the surprise cancels between the sides; "
                        "a surprise adjustment of -2 keeps Gorm frozen through segment 3 while others act.")


def test_narration_of_a_plain_cancel_names_no_exception():
    sc = scenario(side("Ava"), side("Orc"))
    assert narrate(sc, play(sc, 2, 2))[2] == (
        "Both sides are surprised for 2 segments: the surprise cancels between the sides.")


def test_narration_of_sides_that_do_not_roll():
    sc = scenario(side("Ava", aware=True), side("Orc", surprised_on=0))
    lines = narrate(sc, play(sc))
    assert lines[:2] == ["Side A: aware, does not roll.", "Side B: cannot be surprised, does not roll."]
    assert "No surprise segments." in lines


# --- properties --------------------------------------------------------------------------------


member_dicts = st.builds(
    lambda pick, dex, adj: {"dex": dex} if pick == 1 else {"surprise_adjustment": adj} if pick == 2 else {},
    st.integers(0, 2),
    st.integers(3, 18),
    st.integers(-5, 5),
)
side_fields = st.fixed_dictionaries(
    {"surprised_on": st.integers(0, 6), "surprises_on": st.integers(1, 6), "aware": st.booleans()}
)


@st.composite
def scenarios(draw: st.DrawFn) -> adnd1e.Scenario:
    """Draw a valid two-side scenario with a few members"""
    sides = {}
    for key in "ab":
        members = draw(st.lists(member_dicts, min_size=1, max_size=3))
        named = [{"name": f"{key}{i}", **m} for i, m in enumerate(members)]
        sides[key] = {**draw(side_fields), "members": named}
    return scenario(sides["a"], sides["b"], dex_unsurprised_may_act=draw(st.booleans()))


def all_dice(sc: adnd1e.Scenario) -> list[tuple[int, ...]]:
    """List every dice script the scenario can consume, each equally likely"""
    count = sum(1 for thr in adnd1e.side_thresholds(sc).values() if thr > 0)
    return list(itertools.product(range(1, 7), repeat=count))


@settings(max_examples=150, deadline=None)
@given(scenarios())
def test_odds_sum_to_one(sc):
    result = adnd1e.odds(sc)
    assert sum(result.surprise.values()) == 1
    assert sum(result.free_segments.values()) == 1
    for member in result.members.values():
        assert sum(member.lost.values()) == 1
        assert member.expected_lost == sum(k * p for k, p in member.lost.items())


@settings(max_examples=100, deadline=None)
@given(scenarios())
def test_odds_agree_with_every_played_roll(sc):
    scripts = all_dice(sc)
    weight = F(1, len(scripts))
    surprise: dict[str, Fraction] = {"a": F(0), "b": F(0), "none": F(0)}
    lost: dict[str, dict[int, Fraction]] = {}
    for dice in scripts:
        outcome = play(sc, *dice)
        surprise[outcome.surprise] += weight
        for member in outcome.members:
            per = lost.setdefault(member.name, {})
            per[member.segments] = per.get(member.segments, F(0)) + weight
    result = adnd1e.odds(sc)
    assert result.surprise == surprise
    assert {name: m.lost for name, m in result.members.items()} == {n: dict(sorted(d.items())) for n, d in lost.items()}


def without_adjustments(sc: adnd1e.Scenario, key: str) -> adnd1e.Scenario:
    """Return the scenario with every adjustment of one side removed"""
    raw = sc.model_dump()
    raw["sides"][key]["members"] = [{"name": m["name"]} for m in raw["sides"][key]["members"]]
    return model_of(adnd1e.Scenario).model_validate(raw)


@settings(max_examples=150, deadline=None)
@given(scenarios(), st.sampled_from("ab"), st.data())
def test_dex_never_creates_surprise(sc, key, draw):
    dice = draw.draw(st.sampled_from(all_dice(sc)))
    outcome = play(sc, *dice)
    plain = play(without_adjustments(sc, key), *dice)
    assert outcome.sides == plain.sides
    other = "b" if key == "a" else "a"
    for member in outcome.members:
        if outcome.sides[member.side].segments == 0:
            assert member.segments == 0
        if member.side == other:
            assert member.segments == plain.member(member.name).segments


@given(st.integers(0, 6), st.integers(-5, 5), st.integers(-5, 5), st.booleans())
def test_more_dex_never_adds_segments(side_segments, low, high, may_act):
    low, high = sorted((low, high))
    options = model_of(adnd1e.Options)(dex_unsurprised_may_act=may_act)
    own_high = adnd1e.member_segments(side_segments, high)
    own_low = adnd1e.member_segments(side_segments, low)
    assert own_high <= own_low
    assert adnd1e.frozen_segments(side_segments, own_high, options) <= adnd1e.frozen_segments(
        side_segments, own_low, options
    )


@settings(max_examples=100, deadline=None)
@given(scenarios(), st.data())
def test_c4_off_nobody_acts_while_his_side_is_surprised(sc, draw):
    dice = draw.draw(st.sampled_from(all_dice(sc)))
    raw = sc.model_dump()
    on = play(model_of(adnd1e.Scenario).model_validate({**raw, "options": {"dex_unsurprised_may_act": True}}), *dice)
    off = play(model_of(adnd1e.Scenario).model_validate({**raw, "options": {"dex_unsurprised_may_act": False}}), *dice)
    assert on.members == off.members
    for segment in off.timeline:
        for name in segment.acting:
            member = off.member(name)
            assert segment.segment > max(member.segments, off.sides[member.side].segments)


combatants = st.lists(
    st.builds(Combatant, st.just(""), st.sampled_from("abc"), st.integers(0, 8)), min_size=1, max_size=6
).map(lambda cs: [Combatant(f"c{i}", c.side, c.frozen) for i, c in enumerate(cs)])


@given(combatants)
def test_timeline_never_has_an_empty_surprise_segment(people):
    segments = adnd1e.timeline(people)
    assert [s.segment for s in segments] == list(range(1, len(segments) + 1))
    for segment in segments:
        if segment.kind == "surprise":
            assert segment.acting
        else:
            assert not segment.acting
        for person in people:
            assert (person.name in segment.acting) == (person.frozen < segment.segment)
    if segments:
        assert segments[-1].kind == "surprise"

# --- scenarios drawn for the differential tests (tests/scenario_draws.py) ---------------------------------

DIE_FACES = 6  # its dice's faces: die faces are drawn from 1 to this


@st.composite
def drawn_scenarios(draw, procedure: str, options: dict) -> dict:
    """Draw an AD&D scenario; member ratings and encumbrance only where their option allows them"""
    sides = {}
    for key, names in zip("ab", draw(side_names()), strict=True):
        members = []
        for name in names:
            source = draw(st.sampled_from(["none", "dex", "adjustment"]))
            member = put({"name": name},
                         dex=draw(st.integers(3, 18)) if source == "dex" else None,
                         surprise_adjustment=draw(st.integers(-5, 5)) if source == "adjustment" else None)
            if options.get("dex_encumbrance_gate"):
                put(member, encumbered=draw(maybe(st.booleans())))
            if options.get("side_best_rating"):
                put(member, surprised_on=draw(maybe(st.integers(0, 6))), surprises_on=draw(maybe(st.integers(1, 6))))
            members.append(member)
        sides[key] = put({}, name=draw(maybe(member_name)), surprised_on=draw(maybe(st.integers(0, 6))),
                         surprises_on=draw(maybe(st.integers(1, 6))), aware=draw(maybe(st.booleans())))
        sides[key]["members"] = members
    return {"system": "adnd1e", "procedure": procedure, "sides": sides}
