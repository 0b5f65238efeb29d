"""Following a real table: random sequences of table events (next, a step back, skips and sorts by other scripts, a
turn another script passes through its own command, combatants leaving and rows joining, initiative re-rolled as a
round begins) through the table session on a fake table, linear (Foundry) and rotating (Roll20), some of its rows
standing for several members (a group's row), and the invariants checked after each (tests/js/follow_cases.mjs)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from exporter.rules.systems import SYSTEM_IDS, system_module
from tests.conftest import VECTORS, run_node
from tests.js_tree import write_common_tree

CASES_PER_SYSTEM = 60
EVENTS = st.one_of(
    st.just(("next", 1)), st.just(("next", 1)), st.just(("next", 1)), st.just(("back", 1)), st.just(("back", 0)),
    st.tuples(st.just("reroll"), st.integers(1, 4)),
    st.tuples(st.just("skip"), st.integers(2, 4)), st.tuples(st.just("sort"), st.integers(1, 6)),
    st.just(("remove", 1)), st.just(("add", 1)), st.just(("command", 1)),
)


def default_vectors(system: str) -> list[dict]:
    """Return the vectors of a system that keep to its default rules options"""
    found = [json.loads(path.read_text(encoding="utf-8")) for path in VECTORS]
    return [v for v in found if v["scenario"]["system"] == system and not v["scenario"].get("options")]


def draft_of(scenario: dict) -> dict:
    """Return a scenario as the draft a table makes of it: each member with the id of his row"""
    draft = json.loads(json.dumps(scenario))
    for key in "ab":
        for index, member in enumerate(draft["sides"][key]["members"]):
            member["id"] = f"{key}{index}"
    if "attacker" in draft:
        lone = {field: draft.pop(field) for field in ("attacker", "attack_bonus", "target_number")}
        draft["openers"] = [{"name": lone["attacker"], "attack_bonus": lone["attack_bonus"],
                             "target_number": lone["target_number"]}]
    draft["out"] = []
    return draft


def collect(system: str) -> list[dict]:
    """Draw the cases of a system: a vector's scenario and dice, a table, some statuses it had, and events"""
    vectors = default_vectors(system)
    statuses = list(system_module(system).STATUSES)
    cases: list[dict] = []

    @seed(1700 + SYSTEM_IDS.index(system))
    @settings(max_examples=CASES_PER_SYSTEM, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(vectors), st.booleans(), st.lists(EVENTS, min_size=3, max_size=40), st.data())
    def draw(vector, rotating, events, data):
        draft = draft_of(vector["scenario"])
        ids = [m["id"] for key in "ab" for m in draft["sides"][key]["members"]]
        premarked = data.draw(st.dictionaries(st.sampled_from(ids), st.lists(st.sampled_from(statuses), max_size=1,
                                                                             unique=True), max_size=2))
        # One row may stand for several members of a side (InitMaster's "Foes"): the first `size` of it
        grouped = data.draw(st.sampled_from(["", "a", "b"]))
        side = [m["id"] for m in draft["sides"][grouped]["members"]] if grouped else []
        size = data.draw(st.integers(2, len(side))) if len(side) >= 2 else 0
        groups = {f"g{grouped}": side[:size]} if size else {}
        # A member who never recovers (GURPS, lost null) keeps the surprise from ever ending
        endless = any(member.get("lost", 0) is None for member in vector["expected"].get("members", {}).values())
        cases.append({"name": f"{system}-{len(cases)}", "rotating": rotating, "draft": draft, "dice": vector["dice"],
                      "premarked": premarked, "groups": groups, "endless": endless,
                      "events": [list(event) for event in events]})

    draw()
    return cases


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for system in SYSTEM_IDS:
        folder = tmp_path_factory.mktemp(system)
        tree = write_common_tree(folder, system)
        listing: Path = folder / "cases.json"
        cases = {"tree": str(tree), "system": system, "cases": collect(system)}
        listing.write_text(json.dumps(cases), encoding="utf-8")
        done = run_node("tests/js/follow_cases.mjs", str(listing))
        assert done.returncode == 0, done.stderr
        for line in done.stdout.splitlines():
            record = json.loads(line)
            out[record["name"]] = record
    return out


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_random_table_events_keep_the_rules_of_following_the_table(results, system):
    ours = {name: r for name, r in results.items() if name.startswith(f"{system}-")}
    assert len(ours) == CASES_PER_SYSTEM
    failed = {name: r["problems"][:3] for name, r in ours.items() if not r["ok"]}
    assert not failed, json.dumps(dict(list(failed.items())[:5]), indent=2)
