"""Work that grows with the fight, not with its square: simulate and the table runtime, counted, not timed

simulate: the same play is told at two sizes and the Python lines it runs are counted (sys.settrace). Narration that
looks each member up by a search a turn runs about sixteen times the lines at four times the members; one that looks
them up by key about four times. The table (tests/js/lookups.mjs): the array elements its searches visit in two
rounds, for the runtime alone (about four times at four times the members, sixteen with a search a turn) and for the
session, which looks at the whole turn order every turn (about sixteen times; sixty-four with a search per row).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from exporter.narration import narrate
from exporter.rules.dice import SeededRoller
from exporter.rules.systems import system_module
from exporter.scenario import scenario_from_dict
from tests.conftest import ROOT, run_node
from tests.js_tree import write_common_tree

SMALL, LARGE = 40, 160  # members a side
LINEAR = 6  # at most this many times the lines for four times the members (a search a turn gives about 16)


def members(key: str, count: int, profile: Any) -> list[dict]:
    """count members of a side named key0, key1, ..., cycling through a few profiles"""
    return [{"name": f"{key}{index}", **profile(index)} for index in range(count)]


def fight(case: str, count: int) -> dict:
    """A scenario of count members a side for each procedure, members of three to five profiles"""
    if case.startswith("gurps"):
        procedure = case.removeprefix("gurps-")
        sides = {key: {"members": members(key, count, lambda i: {"iq": 8 + i % 3})} for key in "ab"}
        if procedure == "partial":
            sides["a"]["leader"], sides["b"]["leader"] = "a0", "b0"
        if procedure == "quick-contest":
            sides = {"a": {"members": members("a", count, lambda i: {"iq": 12, "stealth": 15 + i % 3})},
                     "b": {"expecting_trouble": False, "members": members("b", count, lambda i: {"iq": 8, "per": 4})}}
        return {"system": "gurps4e", "procedure": procedure, "sides": sides}
    if case == "adnd":
        return {"system": "adnd1e", "procedure": "roll",
                "sides": {key: {"members": members(key, count, lambda i: {"dex": 14 + i % 5})} for key in "ab"}}
    if case == "adnd-aware-foes":  # only side a can be surprised; its Dexterity spreads it over several segments
        return {"system": "adnd1e", "procedure": "roll",
                "sides": {"a": {"surprised_on": 6, "members": members("a", count, lambda i: {"dex": 3 + i % 16})},
                          "b": {"aware": True, "members": members("b", count, lambda i: {})}}}
    sleepy = {"a": {"members": members("a", count, lambda i: {"sequence": 8 + i % 3})},
              "b": {"members": members("b", count, lambda i: {"sequence": 9 + i % 3, "asleep": i % 4 == 1,
                                                              "cautious_nature": i % 5 == 2})}}
    if case == "fallout-world-map":
        for member in sleepy["a"]["members"]:
            member.update(per=6, survival=2)
        return {"system": "fallout-ttrpg", "procedure": "world-map", "dc": 12, "sides": sleepy}
    return {"system": "fallout-ttrpg", "procedure": "sneak-attack", "sides": sleepy,
            "openers": [{"name": "a0", "attack_bonus": 2, "target_number": 25},
                        {"name": "b3", "attack_bonus": 2, "target_number": 25},
                        {"name": "a1", "attack_bonus": 9, "target_number": 10}]}


def narrated_lines(scenario: Any, outcome: Any) -> tuple[list[str], int]:
    """Narrate an outcome, counting the Python lines that run meanwhile"""
    return counted_lines(narrate, scenario, outcome)


def counted_lines(function: Any, *args: Any) -> tuple[Any, int]:
    """Call a function, counting the Python lines that run meanwhile"""
    executed = 0

    def trace(frame, event, arg):
        nonlocal executed
        if event == "line":
            executed += 1
        return trace

    sys.settrace(trace)
    try:
        result = function(*args)
    finally:
        sys.settrace(None)
    return result, executed


def played(case: str, count: int, seed: int) -> tuple[Any, Any]:
    """Play the case's fight of count a side with seeded dice"""
    scenario = scenario_from_dict(fight(case, count))
    return scenario, system_module(scenario.system).resolve(scenario, SeededRoller(seed))


CASES = ["gurps-partial", "gurps-total", "gurps-quick-contest", "adnd", "adnd-aware-foes", "fallout-world-map",
         "fallout-sneak-attack"]


def told_member_by_member(case: str, seed: int) -> bool:
    """Whether both sizes of the case's fight, played with seed, are surprises told member by member"""
    plays = [played(case, count, seed) for count in (SMALL, LARGE)]
    return all(outcome.surprise != "none" and len(narrate(scenario, outcome)) > count // 4
               for (scenario, outcome), count in zip(plays, (SMALL, LARGE), strict=True))


def assert_linear(case: str) -> None:
    """Narrate the case's fight at both sizes (the first seed that surprises both) and compare the lines run"""
    seed = next(s for s in range(200) if told_member_by_member(case, s))
    small_lines, small = narrated_lines(*played(case, SMALL, seed))
    large_lines, large = narrated_lines(*played(case, LARGE, seed))
    assert sum(map(len, large_lines)) > 3 * sum(map(len, small_lines))  # the story grew with the fight
    assert large <= LINEAR * small, f"{case}: {small} lines run for {SMALL} a side, {large} for {LARGE}"


@pytest.mark.parametrize("case", ["adnd", "adnd-aware-foes", "fallout-world-map", "fallout-sneak-attack"])
def test_simulate_narrates_at_the_cost_of_the_members(case):
    assert_linear(case)


@pytest.mark.parametrize("case", ["gurps-partial", "gurps-total", "gurps-quick-contest"])
def test_gurps_narration_stays_at_the_cost_of_the_members(case):
    """A guard: GURPS told each turn by scanning every track, which grows with the longest stun, not the fight"""
    assert_linear(case)


@pytest.mark.parametrize("case", CASES)
def test_simulate_plays_at_the_cost_of_the_members(case):
    """The rules core's play (what simulate --json prints) grows with the fight, not with its square"""
    seed = next(s for s in range(200) if told_member_by_member(case, s))
    counts = []
    for count in (SMALL, LARGE):
        scenario = scenario_from_dict(fight(case, count))
        counts.append(counted_lines(system_module(scenario.system).resolve, scenario, SeededRoller(seed))[1])
    assert counts[1] <= LINEAR * counts[0], f"{case}: {counts[0]} lines run for {SMALL} a side, {counts[1]} for {LARGE}"


SESSION_AT_MOST = 24  # times the elements visited for four times the members: a look per turn at the whole order


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lookups")
    return {system: write_common_tree(folder / system, system) for system in ("gurps4e", "adnd1e", "fallout-ttrpg")}


@pytest.mark.parametrize("case", ["gurps-total", "gurps-quick-contest", "adnd-aware-foes", "fallout-world-map",
                                  "fallout-sneak-attack"])
def test_the_table_looks_members_up_by_key(case, trees, tmp_path):
    visited = []
    for count in (SMALL, LARGE):
        scenario = fight(case, count)
        path = tmp_path / f"{count}.json"
        path.write_text(json.dumps(scenario), encoding="utf-8")
        done = run_node(str(ROOT / "tests" / "js" / "lookups.mjs"), str(trees[scenario["system"]]), scenario["system"],
                        str(path), "2")
        assert done.returncode == 0, done.stderr
        visited.append(json.loads(done.stdout))
    small, large = visited
    assert small["surprise"] != "none" and large["surprise"] != "none"  # the runtime had members to follow
    assert large["runtime"] <= LINEAR * max(small["runtime"], 1), f"{case}: {small} for {SMALL}, {large} for {LARGE}"
    assert large["session"] <= SESSION_AT_MOST * small["session"], f"{case}: {small} for {SMALL}, {large} for {LARGE}"
