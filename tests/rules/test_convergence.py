"""Seeded simulations converge to the exact odds, for every example scenario"""

from __future__ import annotations

import math
from collections import Counter

import pytest

from exporter.rules.dice import SeededRoller
from exporter.rules.systems import system_module
from exporter.scenario import load_scenario
from tests.conftest import SCENARIOS

RUNS = 2000


def lost_by_member(system: str, data: dict, names: list[str]) -> dict[str, int | None]:
    """Read each member's loss out of an outcome's JSON, in the odds' unit"""
    if system == "gurps4e":
        return {n: data["members"][n]["lost"] if n in data["members"] else 0 for n in names}
    if system == "adnd1e":
        return {n: data["members"][n]["segments"] for n in names}
    return {n: data["members"][n]["lost"] for n in names}


def tolerance(p: float) -> float:
    """Allow five standard errors of a frequency, plus a floor for p near 0 or 1"""
    return 5 * math.sqrt(p * (1 - p) / RUNS) + 2 / RUNS


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_simulation_frequencies_match_exact_odds(path):
    scenario = load_scenario(path)
    rules = system_module(scenario.system)
    odds = rules.odds(scenario)
    names = list(odds.members)
    surprise: Counter[str] = Counter()
    losses: dict[str, Counter] = {n: Counter() for n in names}
    for seed in range(RUNS):
        data = rules.resolve(scenario, SeededRoller(seed)).to_json()
        surprise[data["surprise"]] += 1
        for name, lost in lost_by_member(scenario.system, data, names).items():
            losses[name][lost] += 1
    for key in ("a", "b", "none"):
        p = float(odds.surprise[key])
        assert abs(surprise[key] / RUNS - p) <= tolerance(p), key
    for name in names:
        member = odds.members[name]
        for value in (0, 1, 2):
            p = float(member.lost.get(value, 0))
            assert abs(losses[name][value] / RUNS - p) <= tolerance(p), (name, value)
        assert abs(losses[name][None] / RUNS - float(member.never)) <= tolerance(float(member.never)), name
