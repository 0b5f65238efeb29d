"""The JS rules core against every conformance vector, in Node with the dice scripted: as Foundry loads its modules,
and as the Roll20 bundle holds them, every vector and form in one Node process"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest

from exporter._resources import templates_root
from exporter.rules.dice import ScriptedRoller
from exporter.rules.systems import SYSTEM_IDS, system_module
from exporter.scenario import scenario_from_dict
from exporter.targets.config_js import CONFIG_MODULE
from exporter.targets.modules import bundle, module_constant, module_graph, read_module
from tests.conftest import ROOT, VECTORS, run_node
from tests.js_tree import write_common_tree
from tests.procedure_fields import applicable

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
    scenario = applicable(draw(rng))
    faces = [rng.randint(1, die_size) for _ in range(5000)]
    roller = ScriptedRoller(faces)
    outcome = system_module(system).resolve(scenario_from_dict(scenario), roller)
    return {"name": f"random-{system}-{index}", "scenario": scenario, "dice": faces[: roller.used],
            "expected": outcome.to_json()}


def test_random_scenarios_agree_with_python(tmp_path):
    groups = []
    for system in SYSTEM_IDS:
        paths = []
        for index in range(RANDOM_CASES):
            paths.append(tmp_path / f"random-{system}-{index}.json")
            paths[-1].write_text(json.dumps(python_vector(system, index)), encoding="utf-8")
        groups.append((runnable(tmp_path, system, "module"), paths))
    failed = {name: report for found in run_runner(groups, tmp_path) for name, report in found.items()
              if not report["ok"]}
    assert failed == {}
