"""Differential test: generated scenarios and dice through the Python core, the JS core, the table session and both VTTs

Hypothesis draws (tests/scenario_draws.py), for every system, a few sets of rules options and a batch of
valid scenarios (every procedure, awkward member names) with a list of die faces each. The Python core plays
each scenario with those faces, padded with 1s so that every play-out ends; the faces it consumed and its
outcome become a temporary conformance vector. The conformance runners then play every vector, one Node process each: the JS
rules core in both forms, the table session on a fake host, the Foundry module in the emulated V13 and V14
clients and the Roll20 script, and compare turn by turn with the Python outcome.

AMBUSH_DIFF_SCENARIOS sets the scenarios per system (default 100); AMBUSH_DIFF_SEED draws another batch
than the fixed default one.
"""

from __future__ import annotations

import json
import os
import re
from collections import defaultdict
from dataclasses import dataclass
from itertools import product
from pathlib import Path

import pytest
from hypothesis import strategies as st

from exporter.definitions import procedure_defs
from exporter.rules.shared import input_entries
from exporter.rules.systems import SYSTEM_IDS, system_module
from tests.conformance import run_everywhere
from tests.scenario_draws import cases, collect, option_sets, system_draws, vector_for
from tests.test_js_rules import FORMS, run_runner, runnable

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

SCENARIOS_PER_SYSTEM = int(os.environ.get("AMBUSH_DIFF_SCENARIOS", "100"))
DRAWN_OPTION_SETS = 3  # besides the defaults; each set is one module build and one Node process per VTT target
SHOWN_PER_FAILURE = 3
VTT_TARGETS = ("foundry-v13", "foundry-v14", "roll20")
TARGETS = (*(f"js-core-{form}" for form in FORMS), "session", *VTT_TARGETS)


# --- the batch --------------------------------------------------------------------------------------


def write_batch(root: Path) -> dict[str, dict]:
    """Write every generated vector under root, keyed by name"""
    vectors: dict[str, dict] = {}
    salt = iter(range(1000))
    for system in SYSTEM_IDS:
        drawn = st.lists(option_sets(system).filter(bool), min_size=DRAWN_OPTION_SETS, max_size=DRAWN_OPTION_SETS,
                         unique_by=lambda options: json.dumps(options, sort_keys=True))
        kinds = list(product([{}, *collect(drawn, 1, next(salt))[0]], system_module(system).PROCEDURES))
        examples = []
        for index, (options, procedure) in enumerate(kinds):
            count = SCENARIOS_PER_SYSTEM // len(kinds) + (index < SCENARIOS_PER_SYSTEM % len(kinds))
            examples += collect(cases(system, procedure, options), count, next(salt))
        for index, (scenario, faces) in enumerate(examples):
            vector = vector_for(f"diff-{system}-{index:03d}", scenario, faces, "tests/test_differential.py")
            (root / f"{vector['name']}.json").write_text(json.dumps(vector, ensure_ascii=False), encoding="utf-8")
            vectors[vector["name"]] = vector
    return vectors


def run_js_core(root: Path, paths: list[Path], vectors: dict[str, dict]) -> dict[str, dict[str, dict]]:
    """Play the vectors through the JS rules core in each form, every system and form in one Node process"""
    keys = [(system, form) for form in FORMS for system in SYSTEM_IDS]
    of = {system: [p for p in paths if vectors[p.stem]["scenario"]["system"] == system] for system in SYSTEM_IDS}
    groups = [(runnable(root / form, system, form), of[system]) for system, form in keys]
    reports: dict[str, dict[str, dict]] = {f"js-core-{form}": {} for form in FORMS}
    for (_, form), found in zip(keys, run_runner(groups, root), strict=True):
        reports[f"js-core-{form}"] |= found
    return reports


@dataclass
class Batch:
    """The generated vectors, where their files are, and each target's report on each of them"""

    vectors: dict[str, dict]
    folder: Path
    reports: dict[str, dict[str, dict]]


@pytest.fixture(scope="module")
def batch(tmp_path_factory) -> Batch:
    """Generate the batch, then play it on every target"""
    root = tmp_path_factory.mktemp("differential")
    (root / "vectors").mkdir()
    vectors = write_batch(root / "vectors")
    paths = sorted((root / "vectors").glob("*.json"))
    reports = run_js_core(root, paths, vectors) | run_everywhere(root, paths)
    return Batch(vectors, root / "vectors", reports)


# --- reporting --------------------------------------------------------------------------------------


def signature(vector: dict, report: dict) -> str:
    """Describe a failure without its names and numbers, so that one bug is counted once"""
    names = sorted({m["name"] for key in "ab" for m in vector["scenario"]["sides"][key]["members"]}, key=len,
                   reverse=True)
    if "diff" in report:
        what = report["diff"]["path"]
        for name in names:  # members and freeze are keyed by name, and a name may hold dots or digits
            what = re.sub(rf"\.(members|freeze)\.{re.escape(name)}(?=\.|\[|$)", r".\1.<name>", what)
    else:
        what = str(report.get("error", "no report")).splitlines()[0]
        for name in (n for n in names if len(n) >= 3):  # not "a" in "a d6"
            what = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", "<name>", what)
    what = re.sub(r"\d+", "#", what)
    return f"{vector['scenario']['system']} {vector['scenario']['procedure']}: {what}"


# Keys that are no input of their own: they name things, hold them, or are the lone opener's parts.
STRUCTURE = {"scenario": {"system", "procedure", "sides", "options", "attacker", "attack_bonus", "target_number"},
             "side": {"name", "members"}, "member": {"name"}}


def not_offered(scenario: dict) -> list[str]:
    """List the scenario's fields that the VTT targets' input for its procedure leaves out, a hint for diagnosis"""
    procedure = next(p for p in procedure_defs(scenario["system"], scenario.get("options", {}))
                     if p.id == scenario["procedure"])
    offered = {level: {i.key for i in procedure.inputs if i.level == level} | STRUCTURE[level] for level in STRUCTURE}
    fields = [key for key in scenario if key not in offered["scenario"]]
    for side_key, side in scenario["sides"].items():
        fields += [f"sides.{side_key}.{key}" for key in side if key not in offered["side"]]
        fields += [f"sides.{side_key}.members[{index}].{key}" for index, member in enumerate(side["members"])
                   for key in member if key not in offered["member"]]
    return fields


def size(vector: dict) -> tuple[int, int]:
    """Order failing vectors smallest first: members, then dice"""
    return (sum(len(vector["scenario"]["sides"][key]["members"]) for key in "ab"), len(vector["dice"]))


def failure_report(target: str, batch: Batch) -> str:
    """List a target's failures by distinct signature, each with its smallest scenarios, dice and diff"""
    failing: dict[str, list[tuple[dict, dict]]] = defaultdict(list)
    for name, vector in batch.vectors.items():
        report = batch.reports[target].get(name, {"ok": False, "error": "the runner printed nothing for this vector"})
        if not report["ok"]:
            failing[signature(vector, report)].append((vector, report))
    if not failing:
        return ""
    lines = [f"{target}: {sum(map(len, failing.values()))} of {len(batch.vectors)} generated vectors differ from "
             f"the Python core, {len(failing)} distinct failures; the vector files are in {batch.folder}"]
    for name, found in sorted(failing.items()):
        lines.append(f"\n== {name} ({len(found)} vectors)")
        for vector, report in sorted(found, key=lambda pair: size(pair[0]))[:SHOWN_PER_FAILURE]:
            shown = report.get("diff") or report.get("error")
            lines += [f"-- {vector['name']}",
                      f"scenario: {json.dumps(vector['scenario'], ensure_ascii=False)}",
                      *([f"no VTT input for: {', '.join(missing)}"] if target in VTT_TARGETS and
                        (missing := not_offered(vector["scenario"])) else []),
                      f"dice: {json.dumps(vector['dice'])}",
                      f"diff: {json.dumps(shown, ensure_ascii=False)[:2000]}",
                      f"expected: {json.dumps(vector['expected'], ensure_ascii=False)}"]
    return "\n".join(lines)


def test_the_batch_covers_every_procedure_option_set_and_awkward_names(batch):
    scenarios = [vector["scenario"] for vector in batch.vectors.values()]
    assert len(scenarios) == SCENARIOS_PER_SYSTEM * len(SYSTEM_IDS)
    procedures = {(s["system"], s["procedure"]) for s in scenarios}
    assert procedures == {(system, p) for system in SYSTEM_IDS for p in system_module(system).PROCEDURES}
    option_sets = {(s["system"], json.dumps(s.get("options", {}), sort_keys=True)) for s in scenarios}
    assert len(option_sets) == len(SYSTEM_IDS) * (1 + DRAWN_OPTION_SETS)
    names = {m["name"] for s in scenarios for key in "ab" for m in s["sides"][key]["members"]}
    assert {"constructor", "__proto__", "toString"} <= names


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_the_generator_draws_every_input_the_rules_declare(system):
    """Each procedure's inputs (the rules module's INPUTS) appear in its drawn scenarios, an option's under it"""
    module = system_module(system)
    for salt, procedure in enumerate(module.PROCEDURES):
        entries = input_entries(module.INPUTS[procedure])
        # Each input under the house rule that reads it: an option on ("name"), or set to a value ("name=value")
        for gate in sorted({entry.option for entry in entries if entry.option}, key=str) or [None]:
            name, _, value = (gate or "").partition("=")
            options = {name: value or True} if gate else {}
            seen: dict[str, set[str]] = defaultdict(set)
            for scenario, _ in collect(cases(system, procedure, options), 60, 700 + salt):
                seen["scenario"] |= set(scenario)
                for side in scenario["sides"].values():
                    seen["side"] |= set(side)
                    seen["member"] |= {key for member in side["members"] for key in member}
            missing = [f"{entry.level} {entry.key}" for entry in entries
                       if entry.option in (None, gate) and entry.key not in seen[entry.level]]
            where = system_draws(system).__file__
            assert not missing, f"{system} {procedure} ({gate}): its drawn_scenarios ({where}) never draws {missing}"


@pytest.mark.parametrize("target", TARGETS)
def test_target_agrees_with_the_python_core(target, batch):
    problems = failure_report(target, batch)
    assert not problems, problems
