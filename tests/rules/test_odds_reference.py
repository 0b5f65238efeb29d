"""The exact odds against the brute-force reference (tests/rules/odds_reference.py): equal, not merely close"""

from __future__ import annotations

import json
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exporter.report import odds_data
from exporter.rules import fallout_ttrpg as f
from exporter.rules import gurps4e as g
from exporter.scenario import scenario_from_dict
from tests.conftest import SCENARIOS, VECTORS
from tests.procedure_fields import applicable
from tests.rules import odds_reference
from tests.scenario_draws import collect, option_sets, scenarios

REFERENCE = {"gurps4e": (g, odds_reference.gurps_odds), "fallout-ttrpg": (f, odds_reference.fallout_odds)}


def assert_equal_odds(scenario) -> None:
    """Hold the rules core's odds to the reference: every Fraction equal, and so the JSON"""
    module, reference = REFERENCE[scenario.system]
    ours, theirs = module.odds(scenario), reference(scenario)
    assert ours.surprise == theirs.surprise
    assert set(ours.members) == set(theirs.members)
    for name, member in theirs.members.items():
        assert ours.members[name] == member, name
    assert odds_data(ours) == odds_data(theirs)


def fixture_scenarios() -> list[tuple[str, dict]]:
    """Every example scenario and every vector's scenario of the systems whose odds changed"""
    found = [(f"example {p.stem}", tomllib.loads(p.read_text(encoding="utf-8"))) for p in SCENARIOS]
    found += [(f"vector {p.stem}", json.loads(p.read_text(encoding="utf-8"))["scenario"]) for p in VECTORS]
    return [(name, data) for name, data in found if data["system"] in REFERENCE]


@pytest.mark.parametrize(("name", "data"), fixture_scenarios(), ids=[name for name, _ in fixture_scenarios()])
def test_examples_and_vectors_equal_the_reference(name, data):
    assert_equal_odds(scenario_from_dict(data, name))


@pytest.mark.parametrize("system", sorted(REFERENCE))
def test_generated_scenarios_of_every_procedure_and_option_set_equal_the_reference(system):
    drawn = collect(option_sets(system).filter(bool), 1, 700)[0]
    for salt, procedure in enumerate(REFERENCE[system][0].PROCEDURES):
        for options in ({}, drawn):
            for data in collect(scenarios(system, procedure, options), 6, 710 + salt):
                kept = applicable(data)
                assert_equal_odds(scenario_from_dict({**kept, "options": options} if options else kept, "generated"))


@st.composite
def distinct_gurps(draw) -> dict:
    """A GURPS fight whose members differ: every IQ, Combat Reflexes, Per and Stealth drawn on its own"""
    procedure = draw(st.sampled_from(g.PROCEDURES))

    def member(name: str) -> dict:
        return {"name": name, "iq": draw(st.integers(1, 40)), "combat_reflexes": draw(st.booleans()),
                "stealth": draw(st.integers(1, 40)), "per": draw(st.integers(1, 40))}

    sides = {key: {"members": [member(f"{key}{i}") for i in range(draw(st.integers(1, 6)))]} for key in "ab"}
    sides["b"]["expecting_trouble"] = draw(st.booleans())
    data = {"system": "gurps4e", "procedure": procedure, "sides": sides}
    if procedure != "partial":
        data["surprising"] = draw(st.sampled_from(["a", "b"]))
        sides["a"]["expecting_trouble"] = draw(st.booleans())
    return applicable(data)


@settings(max_examples=60, deadline=None)
@given(distinct_gurps())
def test_gurps_fights_of_distinct_members_equal_the_reference(data):
    assert_equal_odds(scenario_from_dict(data, "distinct"))


@st.composite
def opener_fights(draw) -> dict:
    """A Fallout Sneak Attack where every member of both sides is a declared opener, in any Sequence"""
    sides, openers = {}, []
    for key in "ab":
        members = []
        for index in range(draw(st.integers(1, 12))):
            members.append({"name": f"{key}{index}", "sequence": draw(st.integers(0, 30)),
                            "cautious_nature": draw(st.booleans()), "asleep": draw(st.booleans())})
            openers.append({"name": f"{key}{index}", "attack_bonus": draw(st.integers(-5, 15)),
                            "target_number": draw(st.integers(1, 45))})
        sides[key] = {"members": members}
    return {"system": "fallout-ttrpg", "procedure": "sneak-attack", "openers": openers, "sides": sides}


@settings(max_examples=60, deadline=None)
@given(opener_fights())
def test_fallout_fights_where_everyone_opens_equal_the_reference(data):
    assert_equal_odds(scenario_from_dict(data, "openers"))


def test_a_crowd_of_distinct_watchers_equals_the_reference():
    watchers = [{"name": f"w{i}", "iq": 3 + i % 20, "per": 1 + (7 * i) % 40} for i in range(30)]
    data = {"system": "gurps4e", "procedure": "quick-contest",
            "sides": {"a": {"members": [{"name": "s", "iq": 12, "stealth": 30}]},
                      "b": {"expecting_trouble": False, "members": watchers}}}
    assert_equal_odds(scenario_from_dict(data, "crowd"))
