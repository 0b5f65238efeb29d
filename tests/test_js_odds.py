"""The JS odds (each rules module's odds()) against the Python odds, within 1e-9: examples, vector scenarios and
generated ones"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path
from typing import Any

import pytest

from exporter.report import odds_data
from exporter.rules.systems import SYSTEM_IDS, system_module
from exporter.scenario import scenario_from_dict
from tests.conftest import ROOT, SCENARIOS, VECTORS, run_node
from tests.js_tree import write_common_tree
from tests.procedure_fields import applicable
from tests.scenario_draws import collect, option_sets, scenarios

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

RUNNER = ROOT / "tests" / "js" / "run_odds.mjs"
GENERATED_PER_PROCEDURE = 40
TOLERANCE = 1e-9


def render_odds(folder: Path, system: str) -> Path:
    """Write a build's common modules and return the system's rules module among them, as the Foundry module has it"""
    return write_common_tree(folder, system) / "common" / "rules" / f"{system}.js"


def run_odds(module: Path, cases: list[dict]) -> tuple[dict[str, dict], float]:
    """Compute every case's odds in one Node process; return them by name and the milliseconds spent"""
    path = module.parents[2] / "cases.json"
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    done = run_node(str(RUNNER), str(module), str(path))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return {line["name"]: line for line in lines[:-1]}, lines[-1]["ms"]


def generated(system: str) -> list[dict]:
    """Draw scenarios of every procedure, under the default options and one drawn set"""
    drawn = collect(option_sets(system).filter(bool), 1, 500 + SYSTEM_IDS.index(system))[0]
    found = []
    for salt, procedure in enumerate(system_module(system).PROCEDURES):
        for options in ({}, drawn):
            for scenario in collect(scenarios(system, procedure, options), GENERATED_PER_PROCEDURE,
                                    600 + 10 * SYSTEM_IDS.index(system) + salt + (5 if options else 0)):
                kept = applicable(scenario)
                found.append({**kept, "options": options} if options else kept)
    return found


def crowd(size: int) -> dict:
    """A sneak against a crowd of unwary IQ 3 watchers: long exact tails"""
    watchers = [{"name": f"w{index}", "iq": 3, "per": 10} for index in range(size)]
    return {"system": "gurps4e", "procedure": "quick-contest",
            "sides": {"a": {"members": [{"name": "sneak", "iq": 12, "stealth": 14}]},
                      "b": {"expecting_trouble": False, "members": watchers}}}


def distinct(procedure: str, size: int) -> dict:
    """A GURPS fight of size a side whose members all differ: IQ 1-40, Combat Reflexes, Per and Stealth"""
    sides = {key: {"members": [{"name": f"{key}{i}", "iq": 1 + (7 * i + 17 * (key == "b")) % 40,
                                "combat_reflexes": i % 3 == 0, "stealth": 1 + (11 * i + 5) % 40,
                                "per": 1 + (13 * i + 3) % 40} for i in range(size)]} for key in "ab"}
    sides["b"]["expecting_trouble"] = False
    return applicable({"system": "gurps4e", "procedure": procedure, "surprising": "a", "sides": sides})


def everyone_opens(size: int) -> dict:
    """A Fallout Sneak Attack of size a side where every member is a declared opener"""
    sides = {key: {"members": [{"name": f"{key}{i}", "sequence": (7 * i + 3 * (key == "b")) % 31,
                                "cautious_nature": i % 4 == 1} for i in range(size)]} for key in "ab"}
    openers = [{"name": f"{key}{i}", "attack_bonus": (3 * i + (key == "b")) % 12, "target_number": 10 + (5 * i) % 25}
               for key in "ab" for i in range(size)]
    return {"system": "fallout-ttrpg", "procedure": "sneak-attack", "openers": openers, "sides": sides}


def all_cases() -> dict[str, list[dict]]:
    """Every scenario to compare, by system"""
    cases: dict[str, list[dict]] = {system: [] for system in SYSTEM_IDS}
    for path in SCENARIOS:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        cases[data["system"]].append({"name": f"example {path.stem}", "scenario": data})
    for path in VECTORS:
        data = json.loads(path.read_text(encoding="utf-8"))["scenario"]
        cases[data["system"]].append({"name": f"vector {path.stem}", "scenario": data})
    for system in SYSTEM_IDS:
        cases[system] += [{"name": f"generated {system} {i}", "scenario": s} for i, s in enumerate(generated(system))]
    cases["gurps4e"].append({"name": "crowd of 200", "scenario": crowd(200)})
    cases["gurps4e"] += [{"name": f"distinct {procedure}", "scenario": distinct(procedure, 40)}
                         for procedure in ("partial", "total", "quick-contest")]
    cases["fallout-ttrpg"].append({"name": "everyone opens", "scenario": everyone_opens(150)})
    cases["gurps4e"].append({"name": "integer-like names", "scenario": {
        "system": "gurps4e", "procedure": "total",
        "sides": {"a": {"members": [{"name": "Zed", "iq": 10}, {"name": "10", "iq": 11}]},
                  "b": {"members": [{"name": "2", "iq": 9}, {"name": "Abe", "iq": 12}, {"name": "1", "iq": 8}]}}}})
    return cases


def close(python: Any, js: Any, where: str) -> list[str]:
    """List where two odds JSON values differ by more than the tolerance (floats) or at all (the rest)"""
    if isinstance(python, dict) and isinstance(js, dict):
        problems = [f"{where}: keys {sorted(python)} != {sorted(js)}"] if set(python) != set(js) else []
        return problems + [p for key in python if key in js for p in close(python[key], js[key], f"{where}.{key}")]
    if isinstance(python, float) and isinstance(js, int | float) and not isinstance(js, bool):
        return [] if math.isclose(python, js, rel_tol=0, abs_tol=TOLERANCE) else [f"{where}: {python} != {js}"]
    return [] if python == js else [f"{where}: {python!r} != {js!r}"]


@pytest.fixture(scope="module")
def compared(tmp_path_factory) -> dict[str, tuple[dict, dict]]:
    """Every case's Python and JS odds, by name; one Node process per system"""
    out: dict[str, tuple[dict, dict]] = {}
    for system, cases in all_cases().items():
        module = render_odds(tmp_path_factory.mktemp(system), system)
        results, _ = run_odds(module, cases)
        for case in cases:
            python = odds_data(system_module(system).odds(scenario_from_dict(case["scenario"], case["name"])))
            out[case["name"]] = (json.loads(json.dumps(python)), results[case["name"]])
    return out


def test_the_comparison_covers_examples_vectors_and_a_few_hundred_generated(compared):
    assert sum(name.startswith("generated") for name in compared) >= 300
    assert sum(name.startswith("example") for name in compared) == len(SCENARIOS)
    assert sum(name.startswith("vector") for name in compared) == len(VECTORS)


def test_js_odds_equal_the_python_odds(compared):
    problems = []
    for name, (python, js) in compared.items():
        if "error" in js:
            problems.append(f"{name}: {js['error']}")
            continue
        problems += [f"{name}: {p}" for p in close(python, js["odds"], "odds")]
    assert not problems, f"{len(problems)} differences, first ones:\n" + "\n".join(problems[:20])


def test_the_odds_lines_list_members_in_the_scenario_order(compared):
    """The GM reads the members as listed, side a first, also when names look like integers ("2" before "Abe")"""
    problems = []
    for name, (python, js) in compared.items():
        if "error" not in js and js["shown"] != list(python["members"]):
            problems.append(f"{name}: {js['shown']} != {list(python['members'])}")
    assert not problems, "\n".join(problems[:10])
    assert compared["integer-like names"][1]["shown"] == ["Zed", "10", "2", "Abe", "1"]


def test_a_tolerance_this_close_notices_a_changed_chance():
    python = {"surprise": {"a": 0.5}, "members": {"x": {"lost": {"1": 0.25}}}}
    assert close(python, {"surprise": {"a": 0.5 + 1e-8}, "members": {"x": {"lost": {"1": 0.25}}}}, "odds")
    assert close(python, {"surprise": {"a": 0.5}, "members": {"x": {"lost": {"1": 0.25, "2": 0.0}}}}, "odds")
    assert not close(python, {"surprise": {"a": 0.5 + 1e-12}, "members": {"x": {"lost": {"1": 0.25}}}}, "odds")
