"""The JS rules core against every conformance vector, in Node with the dice scripted: as Foundry loads its modules,
and as the Roll20 bundle holds them, every vector and form in one Node process"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from exporter._resources import templates_root
from exporter.rules.systems import SYSTEM_IDS, system_module
from exporter.targets.config_js import CONFIG_MODULE
from exporter.targets.modules import bundle, module_constant, module_graph, read_module
from tests.conftest import ROOT, VECTORS, run_node
from tests.js_tree import write_common_tree
from tests.scenario_draws import any_case, collect, vector_for

RUNNER = ROOT / "tests" / "js" / "run_vectors.mjs"
FORMS = ("module", "bundle")

# Comments and string literals, matched in one left-to-right pass so quotes in comments don't confuse it.
COMMENT_OR_STRING = re.compile(
    r"""//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`""", re.S
)
NUMBER = re.compile(r"(?<![\w$.])\d+(?:\.\d+)?(?![\w$])")
PLAIN_NUMBERS = {"0", "1"}  # counting and "nothing": every rule number comes from RULES or DEFAULT_OPTIONS
# What the table runtimes read from the rules core: `Rules.x`.
RUNTIME_USE = re.compile(r"(?<![\w$./])Rules\.([A-Za-z_$][\w$]*)")


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def vectors_of(system: str) -> list[Path]:
    """Return the vector files whose scenario is of this system"""
    return [path for path in VECTORS if load(path)["scenario"]["system"] == system]


def rules_path(system: str) -> str:
    """Return the path under templates/ of a system's rules core"""
    return f"common/rules/{system}.js"


def template_text(path: str) -> str:
    """Return the text of a module under templates/"""
    return (templates_root() / path).read_text(encoding="utf-8")


def declared_exports(system: str) -> set[str]:
    """Return the names a system's rules core exports"""
    return {name for name, _ in read_module(rules_path(system), template_text(rules_path(system))).exports}


def runnable(folder: Path, system: str, form: str, options: dict | None = None) -> Path:
    """Return an ES module exporting the rules core's resolve: the module in a build's tree, or the Roll20 bundle"""
    tree = write_common_tree(folder / f"{system}-tree", system, options)
    if form == "module":
        return tree / rules_path(system)

    def source(path: str) -> str:
        return (tree / path).read_text(encoding="utf-8")

    modules = module_graph([rules_path(system)], source)
    bundled = folder / f"{system}-bundle.mjs"
    bundled.write_text(f"{bundle(modules, 0)}\nexport const {{ resolve }} = {module_constant(rules_path(system))};\n",
                       encoding="utf-8")
    return bundled


def run_runner(groups: list[tuple[Path, list[Path]]], folder: Path) -> list[dict[str, dict]]:
    """Run the Node runner once over groups of (module, vectors); return each group's reports by vector name"""
    listing = folder / "groups.json"
    listing.write_text(json.dumps([{"module": str(module), "vectors": [str(path) for path in paths]}
                                   for module, paths in groups]), encoding="utf-8")
    done = run_node(str(RUNNER), str(listing))
    assert done.returncode == 0, f"the runner crashed:\n{done.stderr}"
    reports: list[dict[str, dict]] = [{} for _ in groups]
    for line in done.stdout.splitlines():
        report = json.loads(line)
        reports[report.pop("group")][report["vector"]] = report
    assert [len(found) for found in reports] == [len(paths) for _, paths in groups], done.stdout
    return reports


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], dict[str, dict]]:
    """Return the runner's reports for every system and form, from one Node process"""
    folder = tmp_path_factory.mktemp("js-rules")
    keys = [(system, form) for system in SYSTEM_IDS for form in FORMS]
    groups = [(runnable(folder / form, system, form), vectors_of(system)) for system, form in keys]
    return dict(zip(keys, run_runner(groups, folder), strict=True))


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector(path, form, reports):
    vector = load(path)
    report = reports[vector["scenario"]["system"], form].get(vector["name"])
    assert report is not None, f"the runner did not report {vector['name']}"
    assert report["ok"], f"{vector['name']}: {json.dumps(report.get('diff') or report.get('error'))}"


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_every_system_has_vectors(system):
    assert len(vectors_of(system)) >= 8


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_the_runtimes_use_only_exported_names(system):
    text = template_text(f"common/runtime/{system}.js")
    assert set(RUNTIME_USE.findall(text)) <= declared_exports(system)
    assert RUNTIME_USE.findall(text), "the runtime reads the rules core as Rules"


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_no_rule_numbers_in_code(system):
    code = COMMENT_OR_STRING.sub(" ", template_text(rules_path(system)))
    numbers = sorted(set(NUMBER.findall(code)) - PLAIN_NUMBERS)
    assert numbers == [], f"numeric literals that belong in RULES: {numbers}"


def patched(system: str, path: tuple[str, ...], value: object) -> dict:
    """Return a copy of a system's constants with one (nested) entry replaced"""
    constants = copy.deepcopy(system_module(system).CONSTANTS)
    target = constants
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return constants


CONSTANT_CASES = [
    ("gurps4e", ("initiative_bonus", "combat_reflexes"), 3,
     "rules.initiativeModifiers({leader: 'Ava', members: [{name: 'Ava', iq: 10, combat_reflexes: true}]},"
     " {leader: 'Bo', members: [{name: 'Bo', iq: 10}]}, config.DEFAULT_OPTIONS)",
     {"combat_reflexes": 3}),
    ("gurps4e", ("combat_reflexes_recovery",), 7,
     "rules.recoveryTarget({name: 'Ava', iq: 10, combat_reflexes: true}, 'total', 2)", 18),
    ("gurps4e", ("sure_failure",), 19, "rules.successThreshold(18)", 18),
    ("gurps4e", ("stun_defence",), -3,
     "(await rules.resolve({system: 'gurps4e', procedure: 'total', sides: {a: {members: [{name: 'Ava', iq: 10}]},"
     " b: {members: [{name: 'Bo', iq: 10}]}}}, async (count, sides) => Array(count).fill(1))).members.Bo.turns[0]",
     {"turn": 1, "state": "frozen", "defence": -3}),
    ("adnd1e", ("dex_adjustment", "18"), 4,
     "rules.memberAdjustment({name: 'Ava', dex: 18}, config.DEFAULT_OPTIONS)", 4),
    ("adnd1e", ("default_rating",), 3, "rules.threshold({members: [{name: 'Ava'}]}, {members: [{name: 'Orc'}]},"
     " config.DEFAULT_OPTIONS)", 3),
    ("fallout-ttrpg", ("special_baseline",), 4, "rules.testTotal({name: 'Ann', per: 5, survival: 2}, 10)", 13),
    ("fallout-ttrpg", ("advantage_dice",), 3,
     "await (async () => { const asked = []; await rules.resolve({system: 'fallout-ttrpg', procedure: 'sneak-attack',"
     " attacker: 'Ann', attack_bonus: 0, target_number: 1, sides: {a: {members: [{name: 'Ann'}]},"
     " b: {members: [{name: 'Bo'}]}}}, async (count, sides) => { asked.push([count, sides]);"
     " return Array(count).fill(1); }); return asked; })()",
     [[3, 20]]),
]


@pytest.mark.parametrize(("system", "path", "value", "expression", "expected"), CONSTANT_CASES,
                         ids=[f"{case[0]}-{'.'.join(case[1])}" for case in CONSTANT_CASES])
def test_rules_read_constants(system, path, value, expression, expected, tmp_path, monkeypatch):
    monkeypatch.setattr(system_module(system), "CONSTANTS", patched(system, path, value))
    tree = write_common_tree(tmp_path, system)
    imports = (f"import * as rules from {json.dumps((tree / rules_path(system)).as_uri())};\n"
               f"import * as config from {json.dumps((tree / CONFIG_MODULE).as_uri())};\n")
    done = run_node("--input-type=module", "-e", f"{imports}console.log(JSON.stringify({expression}));")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected, f"{expression} with {'.'.join(path)} = {value}"


def test_runner_reports_failures(tmp_path):
    """The runner itself must catch a wrong outcome, unused dice and a dice script that runs out"""
    vector = load(vectors_of("adnd1e")[0])
    wrong = copy.deepcopy(vector) | {"name": "wrong-outcome"}
    wrong["expected"]["free_segments"] += 1
    extra = copy.deepcopy(vector) | {"name": "unused-dice", "dice": [*vector["dice"], 1]}
    short = copy.deepcopy(vector) | {"name": "too-few-dice", "dice": vector["dice"][:-1]}
    big = copy.deepcopy(vector) | {"name": "face-too-big", "dice": [7, *vector["dice"][1:]]}
    paths = []
    for case in (wrong, extra, short, big):
        paths.append(tmp_path / f"{case['name']}.json")
        paths[-1].write_text(json.dumps(case), encoding="utf-8")
    [found] = run_runner([(runnable(tmp_path, "adnd1e", "module"), paths)], tmp_path)
    assert not any(report["ok"] for report in found.values())
    assert found["wrong-outcome"]["diff"]["path"] == "$.free_segments"
    assert "never rolled" in found["unused-dice"]["error"]
    assert "ran out" in found["too-few-dice"]["error"]
    assert "cannot show" in found["face-too-big"]["error"]


# --- differential check: random scenarios, Python's outcome as the expectation -------------------------------

RANDOM_CASES = 120


def python_vectors(system: str) -> list[dict]:
    """Draw random scenarios and dice (tests/scenario_draws.py), and let the Python core give the expected outcomes"""
    drawn = collect(any_case(system), RANDOM_CASES, 900 + SYSTEM_IDS.index(system))
    assert len(drawn) == RANDOM_CASES
    return [vector_for(f"random-{system}-{index}", scenario, faces, "tests/test_js_rules.py")
            for index, (scenario, faces) in enumerate(drawn)]


def test_random_scenarios_agree_with_python(tmp_path):
    groups = []
    for system in SYSTEM_IDS:
        paths = []
        for vector in python_vectors(system):
            paths.append(tmp_path / f"{vector['name']}.json")
            paths[-1].write_text(json.dumps(vector), encoding="utf-8")
        groups.append((runnable(tmp_path, system, "module"), paths))
    failed = {name: report for found in run_runner(groups, tmp_path) for name, report in found.items()
              if not report["ok"]}
    assert failed == {}
