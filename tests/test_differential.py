"""Differential test: generated scenarios and dice through the Python core, the JS core, the table session and both VTTs

Hypothesis draws, for every system, a few sets of rules options and a batch of valid scenarios (every
procedure, awkward member names) with a list of die faces each. The Python core plays each scenario with
those faces, padded with 1s so that every play-out ends; the faces it consumed and its outcome become a
temporary conformance vector. The conformance runners then play every vector, one Node process each: the JS
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
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from exporter.definitions import procedure_defs
from exporter.rules.dice import ScriptedRoller
from exporter.rules.systems import SYSTEM_IDS, system_module
from exporter.scenario import scenario_from_dict
from tests.conformance import run_everywhere
from tests.procedure_fields import applicable
from tests.test_js_rules import FORMS, run_runner, runnable

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

SCENARIOS_PER_SYSTEM = int(os.environ.get("AMBUSH_DIFF_SCENARIOS", "100"))
DRAWN_OPTION_SETS = 3  # besides the defaults; each set is one module build and one Node process per VTT target
SEED = int(os.environ.get("AMBUSH_DIFF_SEED", "0"))
EDGE_FACES = 6  # drawn first, freely: Hypothesis likes extreme faces
MAX_DRAWN_FACES = 45  # at most 15 failed 3d6 recovery rolls: a GURPS stun ends well inside the runners' rounds
PAD_FACE = 1  # after the drawn faces: 3d6 = 3 recovers whenever a roll can be attempted
DIE = {"gurps4e": 6, "adnd1e": 6, "fallout-ttrpg": 20}
SHOWN_PER_FAILURE = 3
VTT_TARGETS = ("foundry-v13", "foundry-v14", "roll20")
TARGETS = (*(f"js-core-{form}" for form in FORMS), "session", *VTT_TARGETS)

# Names that are also JS property names, look like numbers or keywords, or carry quotes and spaces.
AWKWARD_NAMES = (
    "constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "prototype", "length", "then",
    "0", "12", "-1", "NaN", "null", "undefined", "true", "a", "b", "none",
    "Jean Luc", "Émile  Zola", "Zoë", "李 小龙", "Ωmega-7", "😲 Boo", "O'Neil", 'Say "hi"', "Tom & Jerry",
    "back\\slash",
)
visible_text = (st.text(st.characters(categories=("L", "M", "N", "P", "S", "Zs")), min_size=1, max_size=16)
                .map(str.strip).filter(bool))
member_name = st.one_of(st.sampled_from(AWKWARD_NAMES), visible_text)


def maybe(strategy: st.SearchStrategy) -> st.SearchStrategy:
    """Draw a value or None, None meaning that the key is left out"""
    return st.one_of(st.none(), strategy)


def put(target: dict, **values: Any) -> dict:
    """Set the keys whose value is not None"""
    target.update({key: value for key, value in values.items() if value is not None})
    return target


# --- options --------------------------------------------------------------------------------------


def non_default(options: dict, system: str) -> dict:
    """Keep the options that differ from the defaults, as the vectors write them"""
    defaults = system_module(system).Options().model_dump()
    return {key: value for key, value in options.items() if value != defaults[key]}


@st.composite
def option_sets(draw, system: str) -> dict:
    """Draw the rules options of a system (its Options model), every choice but the unimplemented ones"""
    if system == "gurps4e":
        options = {"stun_roll_timing": draw(st.sampled_from(["start", "end"])),
                   "freeze_roll_scope": draw(st.sampled_from(["side", "individual"])),
                   "leaderless_iq_bonus": draw(st.booleans())}
    elif system == "adnd1e":
        options = {key: draw(st.booleans()) for key in
                   ("dex_unsurprised_may_act", "side_best_rating", "dex_encumbrance_gate", "missile_triple_rate")}
    else:
        options = {"opening_attack_is_free": draw(st.booleans()),
                   "poor_failure_margin": draw(st.one_of(st.just(5), st.integers(1, 12))),
                   "enemy_spot_roll": draw(st.booleans()),
                   "cautious_sleeper_wakes": draw(st.sampled_from(["sr_turn_start", "sr_end"]))}
    return non_default(options, system)


# --- scenarios ------------------------------------------------------------------------------------


@st.composite
def side_names(draw) -> tuple[list[str], list[str]]:
    """Draw the member names of both sides, unique across the two"""
    count_a, count_b = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    names = draw(st.lists(member_name, min_size=count_a + count_b, max_size=count_a + count_b, unique=True))
    return names[:count_a], names[count_a:]


@st.composite
def gurps_scenarios(draw, procedure: str, options: dict) -> dict:
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
    return {"system": "gurps4e", "procedure": procedure, "sides": sides}


@st.composite
def adnd_scenarios(draw, procedure: str, options: dict) -> dict:
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


@st.composite
def fallout_scenarios(draw, procedure: str, options: dict) -> dict:
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


SCENARIOS = {"gurps4e": gurps_scenarios, "adnd1e": adnd_scenarios, "fallout-ttrpg": fallout_scenarios}


@st.composite
def cases(draw, system: str, procedure: str, options: dict) -> tuple[dict, list[int]]:
    """Draw one scenario of a procedure under a set of rules options, and die faces for it"""
    scenario = applicable(draw(SCENARIOS[system](procedure, options)))
    if options:
        scenario["options"] = options
    edge = draw(st.lists(st.integers(1, DIE[system]), max_size=EDGE_FACES))
    faces = draw(st.randoms(use_true_random=False))  # fair faces after them, so that stuns and contests vary
    return scenario, edge + [faces.randint(1, DIE[system]) for _ in range(MAX_DRAWN_FACES - len(edge))]


# --- the batch --------------------------------------------------------------------------------------


def collect(strategy: st.SearchStrategy, count: int, salt: int) -> list:
    """Draw count examples of a strategy with Hypothesis, the same ones for the same seed and salt"""
    found: list = []

    # Collecting, not testing: nothing to shrink or replay, and big or slow examples are the point.
    @seed(SEED * 1000 + salt)
    @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def draw(example):
        found.append(example)

    draw()
    return found


def vector_for(name: str, scenario: dict, faces: list[int]) -> dict:
    """Play a scenario in the Python core and return the vector: the faces it used and its outcome"""
    model = scenario_from_dict(scenario, name)  # a generator bug, not a finding, when this refuses
    roller = ScriptedRoller(faces + [PAD_FACE] * 400)
    outcome = system_module(scenario["system"]).resolve(model, roller)
    return {"name": name, "description": "Generated by tests/test_differential.py; expected from the Python core",
            "rules": [], "scenario": scenario, "dice": roller.faces[:roller.used], "expected": outcome.to_json()}


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
            vector = vector_for(f"diff-{system}-{index:03d}", scenario, faces)
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


@pytest.mark.parametrize("target", TARGETS)
def test_target_agrees_with_the_python_core(target, batch):
    problems = failure_report(target, batch)
    assert not problems, problems
