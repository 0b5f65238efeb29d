"""The rendered JavaScript rules cores against every conformance vector, run in Node with the dice scripted"""

from __future__ import annotations

import copy
import json
import random
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from exporter._resources import templates_root
from exporter.rules.dice import ScriptedRoller
from exporter.rules.systems import SYSTEM_IDS, system_module
from exporter.scenario import scenario_from_dict
from exporter.targets.environment import make_environment
from exporter.targets.rules_js import render_rules_js, rules_context
from tests.conftest import ROOT, VECTORS

RUNNER = ROOT / "tests" / "js" / "run_vectors.mjs"
FORMS = ("module", "function-body")
NODE_TIMEOUT = 120

# The export block that ends a module rendering: `export {`, one name per line, `};`.
EXPORT_BLOCK = re.compile(r"^export \{\n((?:  [A-Za-z_$][\w$]*,\n)+)\};\n\Z", re.M)
# What the table runtimes read from the rules core: `rules.x` in Foundry, `Rules.x` in Roll20.
RUNTIME_USE = re.compile(r"(?<![\w$./])[Rr]ules\.([A-Za-z_$][\w$]*)")  # not the file ./rules.js

# Comments and string literals, matched in one left-to-right pass so quotes in comments don't confuse it.
COMMENT_OR_STRING = re.compile(
    r"""//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`""", re.S
)
NUMBER = re.compile(r"(?<![\w$.])\d+(?:\.\d+)?(?![\w$])")
DATA_LINES = ("const RULES = ", "const DEFAULT_OPTIONS = ")
PLAIN_NUMBERS = {"0", "1"}  # counting and "nothing": every rule number comes from RULES or DEFAULT_OPTIONS


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def vectors_of(system: str) -> list[Path]:
    """Return the vector files whose scenario is of this system"""
    return [path for path in VECTORS if load(path)["scenario"]["system"] == system]


def node() -> str:
    """Return the node executable from PATH; the JS tests cannot run without it"""
    found = shutil.which("node")
    if found is None:
        pytest.fail("node is not on PATH; the generated JS must be checked in Node")
    return found


def render(system: str, *, as_module: bool) -> str:
    """Render a system's rules core as the Foundry target does"""
    return render_rules_js(make_environment("foundry"), system, as_module=as_module)


def declared_exports(system: str) -> set[str]:
    """Return the names the rules template lists for export, read from its module rendering"""
    block = EXPORT_BLOCK.search(render(system, as_module=True))
    assert block, "the module rendering does not end with its export block"
    return {line.strip().rstrip(",") for line in block.group(1).splitlines()}


def runtime_texts(system: str) -> dict[str, str]:
    """Return the table runtime templates of a system, wherever they live, by path"""
    root = templates_root()
    paths = [root / "common" / "runtime" / f"{system}.js", root / "foundry" / "scripts" / "runtime" / f"{system}.js",
             root / "roll20" / "runtime" / f"{system}.js"]
    return {str(path.relative_to(root)): path.read_text(encoding="utf-8") for path in paths if path.is_file()}


def wrapped(body: str) -> str:
    """Wrap a function-body rendering the way the Roll20 writer does"""
    return f"const SurpriseRules = (() => {{\n{body}\n}})();\n"


def runnable_module(system: str, form: str) -> str:
    """Return an ES module the runner can import: the module rendering, or the wrapped body re-exported"""
    if form == "module":
        return render(system, as_module=True)
    return wrapped(render(system, as_module=False)) + "export const { resolve } = SurpriseRules;\n"


def run_runner(module: Path, vectors: list[Path]) -> dict[str, dict]:
    """Run the Node runner and return its report lines by vector name"""
    done = subprocess.run([node(), str(RUNNER), str(module), *map(str, vectors)], capture_output=True, text=True,
                          encoding="utf-8", timeout=NODE_TIMEOUT, check=False)
    assert done.returncode == 0, f"the runner crashed:\n{done.stderr}"
    reports = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(reports) == len(vectors), done.stdout
    return {report["vector"]: report for report in reports}


def run_node_module(tmp_path: Path, module_text: str, script: str) -> object:
    """Write a rendered module, import it in an inline Node script and return what the script prints as JSON"""
    module = tmp_path / "rules.mjs"
    module.write_text(module_text, encoding="utf-8")
    source = f"import * as rules from {json.dumps(module.as_uri())};\n{script}\n"
    done = subprocess.run([node(), "--input-type=module", "-e", source], capture_output=True, text=True,
                          encoding="utf-8", timeout=NODE_TIMEOUT, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, str], dict[str, dict]]:
    """Return the runner's reports for one system and form, running it once per pair"""
    cache: dict[tuple[str, str], dict[str, dict]] = {}

    def get(system: str, form: str) -> dict[str, dict]:
        if (system, form) not in cache:
            module = tmp_path_factory.mktemp(f"{system}-{form}") / "rules.mjs"
            module.write_text(runnable_module(system, form), encoding="utf-8")
            cache[system, form] = run_runner(module, vectors_of(system))
        return cache[system, form]

    return get


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector(path, form, reports):
    vector = load(path)
    report = reports(vector["scenario"]["system"], form).get(vector["name"])
    assert report is not None, f"the runner did not report {vector['name']}"
    assert report["ok"], f"{vector['name']}: {json.dumps(report.get('diff') or report.get('error'))}"


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_every_system_has_vectors(system):
    assert len(vectors_of(system)) >= 8


@pytest.mark.parametrize("as_module", [True, False], ids=["module", "function-body"])
@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_rendered_rules_parse(system, as_module, tmp_path):
    text = render(system, as_module=as_module)
    if as_module:
        target = tmp_path / "rules.mjs"
        target.write_text(text, encoding="utf-8")
    else:
        assert not re.search(r"^\s*(import|export)\b", text, re.M), "a function body cannot import or export"
        target = tmp_path / "rules.js"
        target.write_text(wrapped(text), encoding="utf-8")
    done = subprocess.run([node(), "--check", str(target)], capture_output=True, text=True, timeout=NODE_TIMEOUT,
                          check=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_exported_names(system, tmp_path):
    script = "console.log(JSON.stringify(Object.keys(rules)));"
    names = run_node_module(tmp_path, render(system, as_module=True), script)
    assert set(names) == declared_exports(system)


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_function_body_returns_the_module_names(system, tmp_path):
    text = wrapped(render(system, as_module=False)) + "export const names = Object.keys(SurpriseRules);\n"
    names = run_node_module(tmp_path, text, "console.log(JSON.stringify(rules.names));")
    assert set(names) == declared_exports(system)


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_the_runtimes_use_only_exported_names(system):
    texts = runtime_texts(system)
    assert texts, f"{system} has no table runtime template"
    for path, text in texts.items():
        assert set(RUNTIME_USE.findall(text)) <= declared_exports(system), path


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_no_rule_numbers_in_code(system):
    text = render(system, as_module=True)
    code = "\n".join(line for line in text.splitlines() if not line.startswith(DATA_LINES))
    numbers = sorted(set(NUMBER.findall(COMMENT_OR_STRING.sub(" ", code))) - PLAIN_NUMBERS)
    assert numbers == [], f"numeric literals that belong in RULES: {numbers}"


def patched(system: str, path: tuple[str, ...], value: object) -> dict:
    """Return a copy of a system's constants with one (nested) entry replaced"""
    constants = copy.deepcopy(rules_context(system)["constants"])
    target = constants
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return constants


CONSTANT_CASES = [
    ("gurps4e", ("initiative_bonus", "combat_reflexes"), 3,
     "rules.initiativeModifiers({leader: 'Ava', members: [{name: 'Ava', iq: 10, combat_reflexes: true}]},"
     " {leader: 'Bo', members: [{name: 'Bo', iq: 10}]}, rules.DEFAULT_OPTIONS)",
     {"combat_reflexes": 3}),
    ("gurps4e", ("combat_reflexes_recovery",), 7,
     "rules.recoveryTarget({name: 'Ava', iq: 10, combat_reflexes: true}, 'total', 2)", 18),
    ("gurps4e", ("sure_failure",), 19, "rules.successThreshold(18)", 18),
    ("gurps4e", ("stun_defence",), -3,
     "(await rules.resolve({system: 'gurps4e', procedure: 'total', sides: {a: {members: [{name: 'Ava', iq: 10}]},"
     " b: {members: [{name: 'Bo', iq: 10}]}}}, async (count, sides) => Array(count).fill(1))).members.Bo.turns[0]",
     {"turn": 1, "state": "frozen", "defence": -3}),
    ("adnd1e", ("dex_adjustment", "18"), 4, "rules.memberAdjustment({name: 'Ava', dex: 18})", 4),
    ("adnd1e", ("default_rating",), 3, "rules.threshold({members: [{name: 'Ava'}]}, {members: [{name: 'Orc'}]})", 3),
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
    module = render(system, as_module=True)
    result = run_node_module(tmp_path, module, f"console.log(JSON.stringify({expression}));")
    assert result == expected, f"{expression} with {'.'.join(path)} = {value}"


def test_runner_reports_failures(tmp_path):
    """The runner itself must catch a wrong outcome, unused dice and a dice script that runs out"""
    module = tmp_path / "rules.mjs"
    module.write_text(render("adnd1e", as_module=True), encoding="utf-8")
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
    found = run_runner(module, paths)
    assert not any(report["ok"] for report in found.values())
    assert found["wrong-outcome"]["diff"]["path"] == "$.free_segments"
    assert "never rolled" in found["unused-dice"]["error"]
    assert "ran out" in found["too-few-dice"]["error"]
    assert "cannot show" in found["face-too-big"]["error"]


# --- differential check: random scenarios, Python's outcome as the expectation -------------------------------

NAMES = ["Ava", "__proto__", "constructor", "Bo </script>", "toString", "Cy \"q\"", "Dee", "hasOwnProperty", "Eli"]
RANDOM_CASES = 120


def gurps_scenario(rng: random.Random) -> dict:
    """Draw a random GURPS scenario: any procedure, leaders or none, CR, low IQs, options"""
    procedure = rng.choice(["partial", "total", "quick-contest"])
    names = iter(rng.sample(NAMES, len(NAMES)))
    sides = {}
    for key in ("a", "b"):
        members = []
        for _ in range(rng.randint(1, 3)):
            member = {"name": next(names), "iq": rng.choice([1, 2, 3, 5, 8, 10, 12, 14])}
            if rng.random() < 0.4:
                member["combat_reflexes"] = True
            if rng.random() < 0.4:
                member["tactics"] = rng.choice([0, 1, 5, 19, 20, 25])
            if procedure == "quick-contest":
                member["stealth" if key == "a" else "per"] = rng.randint(1, 18)
            members.append(member)
        side: dict = {"members": members}
        if rng.random() < 0.6:
            side["leader"] = rng.choice(members)["name"]
        if rng.random() < 0.2:
            side["animals"] = True
        if rng.random() < 0.3:
            side["gm_modifier"] = rng.randint(-3, 3)
        if rng.random() < 0.4:
            side["expecting_trouble"] = rng.random() < 0.5
        sides[key] = side
    options = {"stun_roll_timing": rng.choice(["start", "end"]),
               "freeze_roll_scope": rng.choice(["side", "individual"]),
               "leaderless_iq_bonus": rng.random() < 0.5}
    return {"system": "gurps4e", "procedure": procedure, "sides": sides, "options": options}


def adnd_scenario(rng: random.Random) -> dict:
    """Draw a random AD&D scenario: ratings, awareness, Dex or explicit adjustments, every option"""
    options = {"dex_unsurprised_may_act": rng.random() < 0.5, "side_best_rating": rng.random() < 0.3,
               "dex_encumbrance_gate": rng.random() < 0.3, "missile_triple_rate": rng.random() < 0.3}
    names = iter(rng.sample(NAMES, len(NAMES)))
    sides = {}
    for key in ("a", "b"):
        members = []
        for _ in range(rng.randint(1, 3)):
            member: dict = {"name": next(names)}
            draw = rng.random()
            if draw < 0.5:
                member["dex"] = rng.randint(3, 18)
            elif draw < 0.7:
                member["surprise_adjustment"] = rng.randint(-5, 5)
            if options["side_best_rating"] and rng.random() < 0.3:
                member["surprised_on"] = rng.randint(0, 3)
            if options["side_best_rating"] and rng.random() < 0.3:
                member["surprises_on"] = rng.randint(1, 5)
            if options["dex_encumbrance_gate"] and rng.random() < 0.5:
                member["encumbered"] = True
            members.append(member)
        side: dict = {"members": members}
        if rng.random() < 0.4:
            side["surprised_on"] = rng.randint(0, 4)
        if rng.random() < 0.4:
            side["surprises_on"] = rng.randint(1, 6)
        if rng.random() < 0.15:
            side["aware"] = True
        sides[key] = side
    return {"system": "adnd1e", "procedure": "roll", "sides": sides, "options": options}


def fallout_scenario(rng: random.Random) -> dict:
    """Draw a random Fallout scenario: a World Map check or opening Sneak Attacks, sleepers, Cautious Nature"""
    procedure = rng.choice(["world-map", "sneak-attack"])
    names = iter(rng.sample(NAMES, len(NAMES)))
    sides = {}
    for key in ("a", "b"):
        members = []
        for _ in range(rng.randint(1, 3)):
            member: dict = {"name": next(names), "sequence": rng.randint(0, 4)}
            if procedure == "world-map":
                member |= {"per": rng.randint(1, 10), "survival": rng.randint(0, 8)}
            if rng.random() < 0.3:
                member["cautious_nature"] = True
            if rng.random() < 0.3:
                member["asleep"] = True
            members.append(member)
        sides[key] = {"members": members}
    options = {"opening_attack_is_free": rng.random() < 0.5, "poor_failure_margin": rng.randint(1, 8),
               "enemy_spot_roll": rng.random() < 0.5,
               "cautious_sleeper_wakes": rng.choice(["sr_turn_start", "sr_end"])}
    scenario: dict = {"system": "fallout-ttrpg", "procedure": procedure, "sides": sides, "options": options}
    if procedure == "world-map":
        scenario |= {"dc": rng.randint(5, 30), "hunting": rng.random() < 0.3}
    elif rng.random() < 0.5:
        scenario |= {"attacker": rng.choice(sides["a"]["members"])["name"], "attack_bonus": rng.randint(-2, 6),
                     "target_number": rng.randint(8, 26)}
    else:
        everyone = sides["a"]["members"] + sides["b"]["members"]
        openers = rng.sample(everyone, rng.randint(1, len(everyone)))
        scenario["openers"] = [{"name": m["name"], "attack_bonus": rng.randint(-2, 6),
                                "target_number": rng.randint(8, 26)} for m in openers]
    return scenario


# Each system's scenario generator and the largest die it rolls (every face drawn must fit every die it rolls).
RANDOM_SCENARIOS = {"gurps4e": (gurps_scenario, 6), "adnd1e": (adnd_scenario, 6),
                    "fallout-ttrpg": (fallout_scenario, 20)}


def python_vector(system: str, index: int) -> dict:
    """Draw one random scenario and dice, and let the Python core give the expected outcome"""
    draw, die_size = RANDOM_SCENARIOS[system]
    rng = random.Random(f"{system}-{index}")
    scenario = draw(rng)
    faces = [rng.randint(1, die_size) for _ in range(5000)]
    roller = ScriptedRoller(faces)
    outcome = system_module(system).resolve(scenario_from_dict(scenario), roller)
    return {"name": f"random-{system}-{index}", "scenario": scenario, "dice": faces[: roller.used],
            "expected": outcome.to_json()}


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_random_scenarios_agree_with_python(system, tmp_path):
    module = tmp_path / "rules.mjs"
    module.write_text(render(system, as_module=True), encoding="utf-8")
    paths = []
    for index in range(RANDOM_CASES):
        paths.append(tmp_path / f"random-{index}.json")
        paths[-1].write_text(json.dumps(python_vector(system, index)), encoding="utf-8")
    failed = {name: report for name, report in run_runner(module, paths).items() if not report["ok"]}
    assert failed == {}
