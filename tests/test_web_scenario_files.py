"""Scenario files opened in the web page (templates/web/file.js) and given to `ambush odds`: the page takes a file
exactly when the CLI does, stricter only where the file asks for house rules other than the campaign's, and names a
field as the CLI names it (sides.a.members[0].iq)"""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from exporter._resources import templates_root
from exporter.errors import InputFileError
from exporter.limits import file_limits
from exporter.rules.systems import SYSTEM_IDS
from exporter.scenario import load_scenario
from exporter.targets.config_js import ConfigEntry
from tests.conftest import FIXTURES, run_node
from tests.js_tree import write_common_tree
from tools.web_pages import scenario_toml

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

DRIVER = "tests/js/scenario_files.mjs"
GOOD = sorted((FIXTURES / "scenarios").glob("*.toml"))
BAD = sorted((FIXTURES / "bad" / "scenarios").glob("*.toml"))
VECTORS = sorted((FIXTURES / "vectors").glob("*.json"))
PARTIAL = (FIXTURES / "scenarios" / "gurps-partial.toml").read_text(encoding="utf-8")
SMALL = 'system = "gurps4e"\nprocedure = "partial"\n[[sides.a.members]]\nname = "Ava"\niq = 12\n{a}[[sides.b.members]]\nname = "Bo"\n{b}'
# Files of our own: the faults of a hand-written file at the page's edges, and one as Notepad saves it
OWN = {
    "notepad.toml": b"\xef\xbb\xbf" + PARTIAL.replace("\n", "\r\n").encode("utf-8"),
    "iq-float.toml": PARTIAL.replace("iq = 12", "iq = 12.0").encode("utf-8"),
    "iq-huge.toml": PARTIAL.replace("iq = 12", "iq = 99999999999999999999").encode("utf-8"),
    "second-member-unknown-key.toml": PARTIAL.replace("iq = 10", "iqq = 10").encode("utf-8"),
    "table-twice.toml": (PARTIAL + '\n[sides.a]\nname = "Again"\n').encode("utf-8"),
    "bad-utf8.toml": PARTIAL.replace('name = "Dog"', 'name = "D\xf6g"').encode("latin-1"),
    "multi-line-name.toml": PARTIAL.replace('name = "Dog"', 'name = """\nDog"""').encode("utf-8"),
    "member-sub-table.toml": SMALL.format(a="", b='[sides.b.members.gear]\nknife = true\n').encode("utf-8"),
    "member-not-a-table.toml": SMALL.format(a="", b='').replace('[[sides.a.members]]\nname = "Ava"\niq = 12\n',
                                                                 '[sides.a]\nmembers = [{ name = "Ava", iq = 12 }, "Cy"]\n')
    .encode("utf-8"),
}


def system_of(path: Path) -> str | None:
    """The system a file names, or None when it names none the CLI knows (or is no TOML)"""
    try:
        system = tomllib.loads(path.read_bytes().decode("utf-8-sig")).get("system")
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return system if system in SYSTEM_IDS else None


def cli_problem(path: Path) -> str | None:
    """The CLI's one line for a file (field: message), or None when `ambush odds` takes it"""
    try:
        load_scenario(path)
    except InputFileError as err:
        return f"{err.field}: {err.message}" if err.field else err.message
    return None


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> list[Path]:
    """Every file to open: the examples, the bad-input fixtures, the vectors' scenarios and our own"""
    folder = tmp_path_factory.mktemp("scenario-files")
    own = []
    for vector in VECTORS:
        path = folder / f"vector-{vector.stem}.toml"
        path.write_text(scenario_toml(json.loads(vector.read_text(encoding="utf-8"))["scenario"]), encoding="utf-8")
        own.append(path)
    for name, data in OWN.items():
        (folder / name).write_bytes(data)
        own.append(folder / name)
    return GOOD + BAD + own


@pytest.fixture(scope="module")
def opened(files, tmp_path_factory) -> dict[str, dict[Path, dict]]:
    """Each file opened in the page of each system, its campaign of the default house rules, in one Node process"""
    folder = tmp_path_factory.mktemp("scenario-pages")
    trees = {}
    for system in SYSTEM_IDS:
        tree = write_common_tree(folder / system, system, entries=[ConfigEntry("FILE_LIMITS", "", file_limits())])
        shutil.copytree(templates_root() / "web", tree / "web")
        trees[system] = tree
    listing = folder / "files.json"
    listing.write_text(json.dumps([str(path) for path in files]), encoding="utf-8")
    done = run_node(DRIVER, str(listing), *(str(tree) for tree in trees.values()))
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    return {system: {Path(path): result for path, result in found[str(tree)].items()} for system, tree in trees.items()}


def test_the_page_takes_a_file_exactly_when_the_cli_does(files, opened):
    counts = {"both take": 0, "both refuse": 0, "the page refuses other house rules": 0}
    wrong = []
    for path in files:
        system, problem = system_of(path), cli_problem(path)
        for page_system, results in opened.items():
            page = results[path]
            if page_system != system:
                if "draft" in page:
                    wrong.append(f"{path.name}: the {page_system} page takes a file of {system}")
                continue
            if problem is None and "draft" in page:
                counts["both take"] += 1
            elif problem is not None and "problem" in page:
                counts["both refuse"] += 1
            elif problem is None and "Web.File.Option" in page["problem"]:
                counts["the page refuses other house rules"] += 1
            else:
                wrong.append(f"{path.name}: ambush odds says {problem!r}, the page {page}")
        if system is None and all("problem" in opened[s][path] for s in opened):
            counts["both refuse"] += 1
    print("scenario files, the page against ambush odds:", json.dumps(counts))
    assert wrong == []
    assert counts["both take"] >= len(GOOD) and counts["both refuse"] >= len(BAD)


@pytest.mark.parametrize("name, field", [
    ("unknown-member-key.toml", "sides.a.members[0].iqq"),
    ("second-member-unknown-key.toml", "sides.a.members[1].iqq"),
    ("member-sub-table.toml", "sides.b.members[0].gear"),
    ("member-not-a-table.toml", "sides.a.members[1]"),
    ("attacker-not-on-side-a.toml", "attacker"),
])
def test_the_page_names_a_field_as_the_cli_does(files, opened, name, field):
    path = next(path for path in files if path.name == name)
    assert cli_problem(path).startswith(f"{field}: ")
    assert opened[system_of(path)][path]["problem"].startswith(f'Web.File.Field {{"file":"{name}","field":"{field}"')
