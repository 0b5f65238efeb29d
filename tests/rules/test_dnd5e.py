"""D&D 5e surprise (docs/rules/dnd5e.md): Stealth against passive Perception, 2014 and 2024 rules"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from exporter.errors import DiceExhausted, InputFileError
from exporter.narration.dnd5e import narrate
from exporter.rules import dnd5e
from exporter.rules.dice import ScriptedRoller
from exporter.scenario import scenario_from_dict
from exporter.rules.models import model_of
from tests.scenario_draws import maybe, member_name, put, side_names

F = Fraction


def member(name: str, **fields: Any) -> dict[str, Any]:
    """Build a member dict"""
    return {"name": name, **fields}


def hider(name: str, stealth: int, passive: int = 10, **fields: Any) -> dict[str, Any]:
    """Build a hiding member"""
    return member(name, hiding=True, stealth=stealth, passive_perception=passive, **fields)


def watcher(name: str, passive: int, **fields: Any) -> dict[str, Any]:
    """Build a member who does not hide, Stealth +0"""
    return member(name, passive_perception=passive, stealth=fields.pop("stealth", 0), **fields)


def data(a: list[dict[str, Any]], b: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    """Build dnd5e scenario data"""
    out: dict[str, Any] = {"system": "dnd5e", "procedure": "stealth",
                           "sides": {"a": {"name": "Party", "members": a}, "b": {"name": "Foes", "members": b}}}
    if options:
        out["options"] = options
    return out


def scenario(a: list[dict[str, Any]], b: list[dict[str, Any]], **options: Any) -> Any:
    """Validate dnd5e scenario data"""
    return model_of(dnd5e.Scenario).model_validate(data(a, b, **options))


def play(sc: Any, *dice: int) -> dnd5e.Outcome:
    """Resolve with scripted dice and check that every face was used"""
    roller = ScriptedRoller(dice)
    outcome = dnd5e.resolve(sc, roller)
    assert roller.remaining == 0, "not every scripted face was rolled"
    return outcome


def surprised(outcome: dnd5e.Outcome) -> list[str]:
    """Return the surprised members' names"""
    return [m.name for m in outcome.members if m.surprised]


# The SRD-style example: three hiders against a cyclops (8), a dire wolf (13) and a giant owl (15).
PARTY = [hider("Thief", 4), hider("Champion", 4), hider("Evoker", -1)]
MONSTERS = [watcher("Cyclops", 8), watcher("Dire wolf", 13), watcher("Owl", 15)]


def test_module_contract():
    assert dnd5e.SYSTEM == "dnd5e" and dnd5e.PROCEDURES == ("stealth",) and dnd5e.UNIT == "turn"
    assert dnd5e.STATUSES == ("surprised",)
    assert dnd5e.CONSTANTS == {"d20": 20, "roll_dice": {"normal": 1, "advantage": 2, "disadvantage": 2},
                               "group_check_hiders": 100}


def test_defaults_are_the_2014_rules_by_stealth_ties_to_the_hider():
    options = model_of(dnd5e.Options)()
    assert (options.rules, options.surprise_by, options.ties, options.group_check) == ("2014", "stealth", "hider", False)


def test_each_hider_rolls_once_in_scenario_order_and_each_watcher_compares_every_check():
    # Thief 10+4 = 14, Champion 10+4 = 14, Evoker 10-1 = 9: the wolf (13) notices the evoker only, the owl everyone
    outcome = play(scenario(PARTY, MONSTERS), 10, 10, 10)
    assert [(c.name, c.rolls, c.total) for c in outcome.stealth] == [
        ("Thief", (10,), 14), ("Champion", (10,), 14), ("Evoker", (10,), 9)]
    assert surprised(outcome) == ["Cyclops"]  # D3: the wolf noticed one threat, so it is not surprised
    assert outcome.surprise == "a"
    assert outcome.member("Cyclops").lost == 1 and outcome.member("Dire wolf").lost == 0


def test_a_member_of_a_group_can_be_surprised_while_the_others_are_not():
    outcome = play(scenario(PARTY, MONSTERS), 20, 20, 14)  # 24, 24, 13: only the owl (15) notices the evoker
    assert surprised(outcome) == ["Cyclops", "Dire wolf"]


def test_a_tie_stays_hidden_by_default_and_is_noticed_with_ties_watcher():
    party, monsters = [hider("Rogue", 3)], [watcher("Guard", 13)]
    assert surprised(play(scenario(party, monsters), 10)) == ["Guard"]  # 13 meets 13
    assert surprised(play(scenario(party, monsters, ties="watcher"), 10)) == []
    assert surprised(play(scenario(party, monsters, ties="watcher"), 11)) == ["Guard"]


def test_one_member_not_hiding_is_a_threat_every_watcher_notices():
    party = [hider("Rogue", 10), watcher("Paladin", 10)]
    outcome = play(scenario(party, [watcher("Guard", 5)]), 20)  # the Rogue's 30 does not hide the paladin
    assert surprised(outcome) == [] and outcome.surprise == "none"


def test_nobody_hiding_rolls_nothing_and_nobody_is_surprised():
    outcome = play(scenario([watcher("Ann", 10)], [watcher("Orc", 10)]))
    assert outcome.stealth == () and surprised(outcome) == [] and outcome.surprise == "none"


def test_both_sides_hiding_can_surprise_members_of_both_and_then_neither_gets_the_jump():
    outcome = play(scenario([hider("Ann", 0, 5)], [hider("Orc", 0, 5)]), 10, 10)
    assert surprised(outcome) == ["Ann", "Orc"] and outcome.surprise == "none"


def test_advantage_keeps_the_higher_disadvantage_the_lower_and_both_cancel():
    monsters = [watcher("Guard", 12)]
    adv = play(scenario([hider("Rogue", 2, stealth_advantage=True)], monsters), 3, 15)
    assert adv.stealth[0].rolls == (3, 15) and adv.stealth[0].total == 17
    dis = play(scenario([hider("Rogue", 2, stealth_disadvantage=True)], monsters), 3, 15)
    assert dis.stealth[0].total == 5 and surprised(dis) == []
    both = play(scenario([hider("Rogue", 2, stealth_advantage=True, stealth_disadvantage=True)], monsters), 3)
    assert both.stealth[0].rolls == (3,)


def test_group_check_surprises_a_watcher_when_at_least_half_the_hiders_stay_hidden():
    party = [hider("A1", 0), hider("A2", 0), hider("A3", 0), hider("A4", 0)]
    guard = [watcher("Guard", 10)]
    assert surprised(play(scenario(party, guard, group_check=True), 10, 10, 1, 1)) == ["Guard"]  # 2 of 4
    assert surprised(play(scenario(party, guard, group_check=True), 10, 1, 1, 1)) == []  # 1 of 4
    assert surprised(play(scenario(party, guard), 10, 10, 10, 1)) == []  # without it, every hider must stay hidden


def test_alert_is_never_surprised_in_2014():
    outcome = play(scenario([hider("Rogue", 10)], [watcher("Guard", 5, alert=True), watcher("Dog", 5)]), 20)
    assert surprised(outcome) == ["Dog"]


def test_the_gm_decides_without_dice():
    outcome = play(scenario([member("Ann", gm_surprised=True)], [member("Orc")], surprise_by="gm"))
    assert surprised(outcome) == ["Ann"] and outcome.surprise == "b" and outcome.stealth == ()


def test_2024_rolls_initiative_for_everyone_the_surprised_with_disadvantage_and_nobody_loses_a_turn():
    party = [hider("Rogue", 5, initiative=3)]
    monsters = [watcher("Guard", 12, initiative=1), watcher("Dog", 20, initiative=1)]
    # Stealth 10+5 = 15: the guard is surprised, the dog not. Initiative: Rogue 8+3 = 11, Guard min(18, 4)+1 = 5,
    # Dog 10+1 = 11: the tie with the rogue goes by scenario order.
    outcome = play(scenario(party, monsters, rules="2024"), 10, 8, 18, 4, 10)
    assert surprised(outcome) == ["Guard"] and all(m.lost == 0 for m in outcome.members)
    assert [(c.name, c.rolls, c.total) for c in outcome.initiative or ()] == [
        ("Rogue", (8,), 11), ("Guard", (18, 4), 5), ("Dog", (10,), 11)]
    assert outcome.order == ("Rogue", "Dog", "Guard")
    assert outcome.to_json()["order"] == ["Rogue", "Dog", "Guard"]


def test_2014_outcome_has_no_initiative():
    assert "initiative" not in play(scenario([hider("Rogue", 0)], [watcher("Orc", 10)]), 10).to_json()


def test_dice_run_out():
    with pytest.raises(DiceExhausted):
        dnd5e.resolve(scenario(PARTY, MONSTERS), ScriptedRoller([10, 10]))


@pytest.mark.parametrize(("a", "b", "options", "where", "says"), [
    ([member("Ann")], [watcher("Orc", 10)], {}, "sides.a.members[0].passive_perception", "required"),
    ([member("Ann", passive_perception=10)], [watcher("Orc", 10)], {}, "sides.a.members[0].stealth", "required"),
    ([hider(f"A{i}", 0) for i in range(101)], [watcher("Orc", 10)], {"group_check": True}, "options.group_check",
     "at most 100"),
    ([watcher("Ann", 10, alert=True, initiative=1)], [watcher("Orc", 10, initiative=1)], {"rules": "2024"},
     "sides.a.members[0].alert", "rules = '2014'"),
    ([watcher("Ann", 10, initiative=1)], [watcher("Orc", 10)], {}, "sides.a.members[0].initiative", "rules = '2024'"),
    ([watcher("Ann", 10)], [watcher("Orc", 10)], {"rules": "2024"}, "sides.a.members[0].initiative", "required"),
    ([watcher("Ann", 10, gm_surprised=True)], [watcher("Orc", 10)], {}, "sides.a.members[0].gm_surprised", "surprise_by"),
    ([member("Ann", gm_surprised=True, alert=True)], [member("Orc")], {"surprise_by": "gm"},
     "sides.a.members[0].gm_surprised", "Alert"),
    ([member("Ann", stealth=1)], [member("Orc")], {"surprise_by": "gm"}, "sides.a.members[0].stealth",
     "surprise_by = 'stealth'"),
])
def test_inputs_the_rules_do_not_read_or_need_are_refused(a, b, options, where, says):
    with pytest.raises(ValidationError):
        scenario(a, b, **options)
    with pytest.raises(InputFileError) as error:
        scenario_from_dict(data(a, b, **options))
    assert error.value.field == where and says in str(error.value)


def test_a_name_used_twice_is_refused():
    with pytest.raises(ValidationError):
        scenario([watcher("Ann", 10)], [watcher("Ann", 10)])


def test_narration_tells_the_checks_the_surprised_and_the_jump():
    lines = narrate(scenario(PARTY, MONSTERS), play(scenario(PARTY, MONSTERS), 10, 10, 10))
    text = "\n".join(lines)
    assert "Evoker hides: d20 10 -1 = 9." in text
    assert "Surprised on Foes" in text and "Cyclops" in text and "Party gets the jump on Foes." in text


# --- exact odds against an independent count of every roll ----------------------------------------


def counted_odds(sc: Any) -> tuple[dict[str, Fraction], dict[str, Fraction], dict[str, dict[int, Fraction]]]:
    """Count every way the dice can fall through resolve: the jump, each member's surprise and Initiative"""
    jump: dict[str, Fraction] = {"a": F(0), "b": F(0), "none": F(0)}
    hit: dict[str, Fraction] = {}
    initiative: dict[str, dict[int, Fraction]] = {}

    def explore(faces: list[int], weight: Fraction) -> None:
        """Play with these faces; where the dice run out, every next face in turn"""
        try:
            outcome = dnd5e.resolve(sc, ScriptedRoller(faces))
        except DiceExhausted:
            for face in range(1, 21):
                explore([*faces, face], weight / 20)
            return
        jump[outcome.surprise] += weight
        for m in outcome.members:
            hit[m.name] = hit.get(m.name, F(0)) + weight * m.surprised
        for check in outcome.initiative or ():
            per = initiative.setdefault(check.name, {})
            per[check.total] = per.get(check.total, F(0)) + weight

    explore([], F(1))
    return jump, hit, {name: dict(sorted(dist.items())) for name, dist in initiative.items()}


@st.composite
def small_scenarios(draw) -> Any:
    """Draw a scenario that rolls at most three d20"""
    options = put({}, rules=draw(maybe(st.sampled_from(["2014", "2024"]))), ties=draw(maybe(st.sampled_from(
        ["hider", "watcher"]))), group_check=draw(maybe(st.booleans())))
    rules_2024 = options.get("rules") == "2024"
    sides: dict[str, list[dict[str, Any]]] = {"a": [], "b": []}
    names = iter(["P", "Q", "R", "S"])
    for key in "ab":
        for _ in range(draw(st.integers(1, 2))):
            m = watcher(next(names), draw(st.integers(2, 24)))
            if draw(st.booleans()):
                put(m, hiding=True, stealth=draw(st.integers(-2, 8)), stealth_advantage=draw(maybe(st.booleans())),
                    stealth_disadvantage=draw(maybe(st.booleans())))
            if rules_2024:
                m["initiative"] = draw(st.integers(-1, 3))
            elif draw(st.booleans()):
                m["alert"] = True
            sides[key].append(m)
    sc = scenario(sides["a"], sides["b"], **options)
    roll_count = sum(dnd5e.ROLL_DICE[dnd5e.stealth_kind(m)] for side in (sc.sides.a, sc.sides.b)
                     for m in side.members if m.hiding)
    roll_count += (len(sc.sides.a.members) + len(sc.sides.b.members)) * 2 if rules_2024 else 0
    if roll_count > 3:
        return draw(st.nothing())
    return sc


@settings(max_examples=40, deadline=None)
@given(small_scenarios())
def test_exact_odds_match_a_count_of_every_roll(sc):
    odds = dnd5e.odds(sc)
    jump, hit, initiative = counted_odds(sc)
    assert odds.surprise == jump
    for name, member_odds in odds.members.items():
        assert member_odds.surprised == hit[name]
        if sc.options.rules == "2014":
            assert member_odds.lost.get(1, F(0)) == hit[name] and sum(member_odds.lost.values()) == 1
        else:
            assert member_odds.lost == {0: F(1)} and member_odds.initiative == initiative[name]


def test_odds_of_the_srd_example_by_hand():
    # The cyclops (8) is surprised unless a check shows 1-7 total: thief and champion d20+4 always >= 5... by face:
    # thief >= 4 (17/20), champion >= 4 (17/20), evoker d20-1 >= 8 -> face >= 9 (12/20).
    odds = dnd5e.odds(scenario(PARTY, MONSTERS))
    assert odds.members["Cyclops"].surprised == F(17, 20) * F(17, 20) * F(12, 20)
    # The wolf (13): faces >= 9, >= 9, >= 14: 12/20 * 12/20 * 7/20; the owl (15): >= 11, >= 11, >= 16
    assert odds.members["Dire wolf"].surprised == F(12, 20) ** 2 * F(7, 20)
    assert odds.members["Owl"].surprised == F(10, 20) ** 2 * F(5, 20)
    # Side b has a surprised member exactly when the cyclops is; side a never (nobody of b hides)
    assert odds.surprise == {"a": odds.members["Cyclops"].surprised, "b": F(0),
                             "none": 1 - odds.members["Cyclops"].surprised}


# --- scenarios drawn for the differential tests (tests/scenario_draws.py) ---------------------------------

DIE_FACES = 20  # its dice's faces: die faces are drawn from 1 to this


@st.composite
def drawn_scenarios(draw, procedure: str, options: dict) -> dict:
    """Draw a 5e scenario with the fields its rules options read: Stealth and passive Perception, Alert in 2014,
    the GM's call, Initiative in 2024"""
    by_stealth = options.get("surprise_by", "stealth") == "stealth"
    rules_2024 = options.get("rules") == "2024"
    sides = {}
    for key, names in zip("ab", draw(side_names()), strict=True):
        members = []
        for name in names:
            m = {"name": name}
            if by_stealth:
                m.update(passive_perception=draw(st.integers(0, 25)), stealth=draw(st.integers(-3, 12)))
                if draw(st.booleans()):
                    put(m, hiding=True,
                        stealth_advantage=draw(maybe(st.booleans())), stealth_disadvantage=draw(maybe(st.booleans())))
            alert = not rules_2024 and draw(st.booleans()) and draw(st.booleans())
            if alert:
                m["alert"] = True
            elif not by_stealth:
                put(m, gm_surprised=draw(maybe(st.booleans())))
            if rules_2024:
                m["initiative"] = draw(st.integers(-2, 8))
            members.append(m)
        sides[key] = put({}, name=draw(maybe(member_name)))
        sides[key]["members"] = members
    return {"system": "dnd5e", "procedure": procedure, "sides": sides}
