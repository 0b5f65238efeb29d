"""Shared test fixtures: paths to the bundled fixtures, readable file snapshots, Node helpers"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from tools.node_flags import NODE_FLAGS

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
SCENARIOS = sorted((FIXTURES / "scenarios").glob("*.toml"))
VECTORS = sorted((FIXTURES / "vectors").glob("*.json"))
CAMPAIGNS = sorted((FIXTURES / "campaigns").glob("*.toml"))
NODE = shutil.which("node")
# How a text for a GM names each target (exporter.campaign.TARGETS) where it tells what ambush builds
TARGET_NAMES = {"foundry": "Foundry", "roll20": "Roll20", "web": "web page"}

LEVELDB_FILES = {"CURRENT", "LOCK", "LOG", "LOG.old"}
BINARY_SUFFIXES = {".zip", ".ldb", ".log"}


class TextSnapshot(SingleFileSnapshotExtension):
    """Keep each generated file as a readable text snapshot"""

    _write_mode = WriteMode.TEXT
    file_extension = "txt"


@pytest.fixture
def file_snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.with_defaults(extension_class=TextSnapshot)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the files that hold a slow test first, each file's tests together and in their order: under xdist a long
    file started last would keep one worker busy while the others have nothing left to do"""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)
    for item in items:
        if item.path.name.startswith("test_web_"):
            # A page test that timed out waiting in Chromium runs once more, and fails if it times out again: on a
            # shared, loaded machine a 90 s wait is lost now and then (three different ones in three full runs, each
            # passing alone and in 40 runs of its file). Any other failure fails at once; the rerun is reported.
            item.add_marker(pytest.mark.flaky(reruns=1, only_rerun=["TimeoutError"]))


def shared_by_workers(tmp_path_factory) -> Path:
    """Return the folder every xdist worker of this run shares (the run's base folder when not distributed)"""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def made_once(folder: Path, make: Callable[[Path], object]) -> Path:
    """Return folder, made by make(folder) unless a worker of this run made it whole already; the others wait meanwhile
    (under a lock beside it: whatever make runs may lock the folder itself, as a build does)"""
    from exporter.lock import folder_lock

    lock = folder.with_name(f"{folder.name}.lock")
    lock.mkdir(exist_ok=True)
    with folder_lock(lock, stale_after=900):
        if not (lock / "done").exists():
            shutil.rmtree(folder, ignore_errors=True)
            make(folder)
            (lock / "done").touch()
    return folder


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Callable[..., Path]:
    """Return build(paths=(), target="all", make_zip=False): the output folder of a build of those campaigns (the
    examples when none is named), made once per run for the same campaign files' bytes and options, whichever xdist
    worker asks first; read only"""
    from exporter.build import build_campaigns

    shared = shared_by_workers(tmp_path_factory) / "built"
    shared.mkdir(exist_ok=True)
    made: dict[str, Path] = {}

    def build(paths: Iterable[Path] = (), target: str = "all", make_zip: bool = False) -> Path:
        paths = [Path(path) for path in paths]
        key = repr((tuple((str(path), path.read_bytes()) for path in paths), target, make_zip))
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]
        if digest not in made:
            made[digest] = made_once(shared / digest, lambda out: build_campaigns(paths, out, target=target,
                                                                                  make_zip=make_zip))
        return made[digest]

    return build


@pytest.fixture(scope="session")
def built_text(built, tmp_path_factory) -> Callable[..., Path]:
    """Return build(text, target="all", make_zip=False): the output folder of a campaign given as its TOML text, made
    once per run for the same text and options; read only"""
    folder = shared_by_workers(tmp_path_factory) / "campaign-texts"
    folder.mkdir(exist_ok=True)

    def build(text: str, target: str = "all", make_zip: bool = False) -> Path:
        path = folder / f"{hashlib.sha256(text.encode('utf-8')).hexdigest()[:16]}.toml"
        if not path.exists():  # written whole, then renamed: another worker never reads half of it
            part = path.with_name(f"{path.name}.{os.getpid()}")
            part.write_text(text, encoding="utf-8")
            os.replace(part, path)
        return built([path], target, make_zip)

    return build


# D&D 5e under the 2024 rules, which read each member's Initiative bonus, on every target with the default readers
DND_2024 = """id = "dnd-2024"
title = "Dnd 2024"
version = "1.0.0"
system = "dnd5e"
targets = ["foundry", "roll20", "web"]
[options]
rules = "2024"
"""


@pytest.fixture(scope="session")
def examples(built) -> Path:
    """Build the example campaigns for both targets once (no zips): <id>/foundry and <id>/roll20, read only"""
    return built()


@pytest.fixture(scope="session")
def installed_ambush(tmp_path_factory) -> Path:
    """Build a wheel of this checkout (as `pip install .` would), install it into a fresh venv; its `ambush`

    Made once per run, by the first xdist worker that needs it.
    """
    base = made_once(shared_by_workers(tmp_path_factory) / "installed-wheel", make_installed_wheel)
    return base / "venv" / "bin" / "ambush"


def make_installed_wheel(base: Path) -> None:
    """Build the wheel into base/wheels and install it into the fresh venv base/venv"""
    import venv

    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(base / "wheels"),
                           str(ROOT)], capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stderr
    wheel = next((base / "wheels").glob("ambush-*.whl"))
    env_dir = base / "venv"
    venv.create(env_dir)  # no pip of its own: this pip installs into it (--python), as it would from inside
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(env_dir / "bin" / "python"), "install", "-q",
                           str(wheel)], capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stderr


def is_binary_output(path: Path) -> bool:
    """Tell LevelDB files and archives apart from text output"""
    return (path.suffix in BINARY_SUFFIXES or path.name in LEVELDB_FILES
            or path.name.startswith("MANIFEST-"))


def relative_files(root: Path) -> list[str]:
    """List every file under root as sorted POSIX paths"""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def text_files(root: Path) -> dict[str, str]:
    """Read every generated text file under root, keyed by POSIX path in sorted order"""
    return {rel: (root / rel).read_text(encoding="utf-8") for rel in relative_files(root)
            if not is_binary_output(root / rel)}


def modules_imported(code: str) -> set[str]:
    """Run Python code in one fresh interpreter; return every module imported by its end"""
    code += "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def node_check(path: Path, *, module: bool = True) -> subprocess.CompletedProcess:
    """Check a JS file's syntax; ES modules go through stdin, since `node --check x.js` skips them (Node 20)"""
    assert NODE, "node is required"
    if module:
        return subprocess.run([NODE, "--input-type=module", "--check"], input=path.read_text(encoding="utf-8"),
                              capture_output=True, text=True, check=False)
    return subprocess.run([NODE, "--check", str(path)], capture_output=True, text=True, check=False)


def run_node(*args: str, cwd: Path = ROOT, timeout: int = 300) -> subprocess.CompletedProcess:
    """Run a Node script from the repository root"""
    assert NODE, "node is required"
    return subprocess.run([NODE, *NODE_FLAGS, *args], capture_output=True, text=True, cwd=cwd, timeout=timeout,
                          check=False)


def run_node_on(script: str, data: object, folder: Path) -> Any:
    """Run an inline Node module on data (its first argument names the JSON file of it), and read the JSON it prints"""
    file = folder / "cases.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    done = run_node("--input-type=module", "-e", script, str(file))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


NODE_REPORTER = ROOT / "tests" / "js" / "jsonl_reporter.mjs"
NO_TEST_MATCHES = "^(?!)"  # a name pattern no test matches: node:test then lists every case as skipped
NODE_TIMEOUT = 600


@dataclass
class NodeRun:
    """What one `node --test` run of a file reported: its top-level cases by name, and everything else"""

    file: Path
    returncode: int
    cases: dict[str, dict] = field(default_factory=dict)
    nested: list[dict] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    output: str = ""
    stderr: str = ""

    def tail(self) -> str:
        """Return the end of what the file printed, for failure messages"""
        return f"--- output ---\n{self.output[-4000:]}\n--- stderr ---\n{self.stderr[-2000:]}"


def _node_test(test_files: list[Path], args: list[str], env: dict[str, str] | None) -> dict[Path, NodeRun]:
    """Run node:test files in one `node --test` with the JSON-lines reporter and collect each file's records"""
    assert NODE, "node is not on PATH; the Node tests need Node 20+"
    command = [NODE, *NODE_FLAGS, "--test", f"--test-reporter={NODE_REPORTER.as_uri()}", *args, *map(str, test_files)]
    done = subprocess.run(command, cwd=ROOT, env={**os.environ, **(env or {})}, capture_output=True, text=True,
                          encoding="utf-8", timeout=NODE_TIMEOUT, check=False)
    runs = {path: NodeRun(path, done.returncode, stderr=done.stderr) for path in test_files}
    output: dict[Path, list[str]] = {path: [] for path in test_files}
    for line in done.stdout.splitlines():
        try:
            record = json.loads(line)
            run = runs[Path(record["file"])]
        except (json.JSONDecodeError, KeyError, TypeError):
            for path in test_files:
                output[path].append(line + "\n")
            continue
        if "output" in record:
            output[run.file].append(record["output"])
        elif record.get("nesting", 0) > 0:
            run.nested.append(record)
        elif record["name"] in run.cases:
            run.duplicates.append(record["name"])
        else:
            run.cases[record["name"]] = record
    for path, run in runs.items():
        run.output = "".join(output[path])
    return runs


# Every node:test file a pytest module reports case by case: collection lists them all in one Node process.
NODE_TEST_FILES = [ROOT / "tests" / folder / name for folder, name in [
    ("foundry", "harness.test.mjs"), ("roll20", "harness.test.mjs"), ("foundry", "module.test.mjs"),
    ("roll20", "script.test.mjs"), ("foundry", "robustness.test.mjs"), ("roll20", "robustness.test.mjs"),
    ("foundry", "sheets.test.mjs"), ("roll20", "sheets.test.mjs"), ("foundry", "dialog.test.mjs"),
    ("js", "session.test.mjs"), ("js", "draft_combatants.test.mjs"), ("roll20", "community.test.mjs"),
    ("roll20", "passing.test.mjs")]]
_LISTED: dict[Path, NodeRun] = {}


def node_cases(test_file: Path) -> list:
    """List a node:test file's top-level cases as pytest params, without running them (once per session)

    A listing that crashed, found no case or found a name twice gives one param whose test fails with the reason.
    """
    if test_file not in _LISTED:
        files = [path for path in dict.fromkeys([*NODE_TEST_FILES, test_file]) if path not in _LISTED]
        # Listing only imports each file: two at a time (node:test's default is one less than the cores)
        _LISTED.update(_node_test(files, [f"--test-name-pattern={NO_TEST_MATCHES}", "--test-concurrency=2"], None))
    listed = _LISTED[test_file]
    unmatched = "test name does not match pattern"
    names = [name for name, record in listed.cases.items() if record.get("reason") == unmatched]
    if not names or len(names) != len(listed.cases) or listed.duplicates:
        return [pytest.param(None, id="listing-failed")]
    return [pytest.param(name, id=name) for name in names]


def _listing_problem(test_file: Path) -> str:
    """Explain why a file's cases could not be listed"""
    listed = _LISTED[test_file]
    return (f"node --test {test_file.name} could not list its cases: exit {listed.returncode}, "
            f"cases {list(listed.cases)}, names given twice {listed.duplicates}\n{listed.tail()}")


def run_node_tests(test_file: Path, env: dict[str, str] | None = None) -> NodeRun:
    """Run every case of a node:test file once (call it from a module-scoped fixture)"""
    return _node_test([test_file], [], env)[test_file]


_GENERATION_RUNS: dict[tuple, dict[int, NodeRun]] = {}


def run_node_generation(test_file: Path, generation: int, env: dict[str, str] | None = None) -> NodeRun:
    """Run a node:test file in the emulated Foundry client of one generation (call it from a module-scoped fixture)

    The first call runs the file for every generation side by side, each in its own process as before; the calls for
    the other generations take their run from it.
    """
    from tests.conformance import FOUNDRY_GENERATIONS

    key = (test_file, tuple(sorted((env or {}).items())))
    if key not in _GENERATION_RUNS:
        with ThreadPoolExecutor(max_workers=len(FOUNDRY_GENERATIONS)) as pool:
            started = {g: pool.submit(_node_test, [test_file], [], {**(env or {}), "FOUNDRY_GENERATION": str(g)})
                       for g in FOUNDRY_GENERATIONS}
            _GENERATION_RUNS[key] = {g: future.result()[test_file] for g, future in started.items()}
    runs = _GENERATION_RUNS[key]
    run = runs.pop(generation)
    if not runs:
        del _GENERATION_RUNS[key]
    return run


def assert_node_case(run: NodeRun, name: str | None) -> None:
    """Fail with the case's own error unless Node reported it as passed; skip it if Node skipped it"""
    if name is None:
        pytest.fail(_listing_problem(run.file))
    record = run.cases.get(name)
    assert record is not None, f"node --test {run.file.name} did not report this case (exit {run.returncode}; " \
                               f"did the file crash?)\n{run.tail()}"
    if record["status"] in ("skip", "todo"):
        pytest.skip(f"skipped in Node: {record.get('reason') or record['status']}")
    if record["status"] != "pass":
        error = record.get("error", {})
        compared = f"\nactual:   {error['actual']}\nexpected: {error['expected']}" if "actual" in error else ""
        nested = [f"  {r['name']}: {r.get('error', {}).get('message', '')}" for r in run.nested
                  if r["status"] == "fail"]
        pytest.fail(f"{error.get('message', 'failed')}{compared}\n{error.get('stack', '')}\n" + "\n".join(nested),
                    pytrace=False)


def assert_node_file(run: NodeRun) -> None:
    """Fail if the run reported a case the listing did not, a name twice, or exited badly with every case passed"""
    expected = {param.values[0] for param in node_cases(run.file)}
    unexpected = [name for name in run.cases if name not in expected]
    assert not unexpected, f"node --test {run.file.name} reported cases pytest did not collect: {unexpected}\n" \
                           f"{[run.cases[name].get('error') for name in unexpected]}\n{run.tail()}"
    assert not run.duplicates, f"node --test {run.file.name} reported these names twice: {run.duplicates}"
    failed = [name for name, record in run.cases.items() if record["status"] == "fail"]
    assert run.returncode == 0 or failed, f"node --test {run.file.name} exited {run.returncode}\n{run.tail()}"



def node_file_tests(test_file: Path, run: str = "run") -> tuple[Callable[..., None], Callable[..., None]]:
    """Return a node:test file's two pytest tests: one per case, and the file's own; `run` names the fixture running it

    Bind them to two names beginning with `test_`: pytest names the tests by those names.
    """
    def case_test(case: str | None, **fixtures: NodeRun) -> None:
        assert_node_case(fixtures[run], case)

    def file_test(**fixtures: NodeRun) -> None:
        assert_node_file(fixtures[run])

    # pytest reads a test's fixtures from its signature: each test names the run's fixture as the module calls it.
    fixture = inspect.Parameter(run, inspect.Parameter.KEYWORD_ONLY)
    case_test.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("case", inspect.Parameter.POSITIONAL_OR_KEYWORD), fixture])
    file_test.__signature__ = inspect.Signature([fixture])  # type: ignore[attr-defined]
    return pytest.mark.parametrize("case", node_cases(test_file))(case_test), file_test

# Each macro in a fresh realm of its own, with no module active and the client's language: what it shows the user.
MACRO_RUNS = """
import vm from "node:vm";
const shown = [];
for (const [command, lang] of JSON.parse(process.argv[1])) {
  const notified = [];
  const realm = vm.createContext({ command, game: { modules: { get: () => undefined }, i18n: { lang } },
    ui: { notifications: { error: (text) => notified.push(text) } } });
  await vm.runInContext("new (Object.getPrototypeOf(async function () {}).constructor)(command)()", realm);
  shown.push(notified);
}
console.log(JSON.stringify(shown));
"""


def macro_notifications(runs: list[tuple[str, str]]) -> list[list[str]]:
    """Run Foundry macro commands, each as (command, client language) with the module not active, in one Node process;
    return the notifications each showed"""
    done = run_node("--input-type=module", "-e", MACRO_RUNS, json.dumps(runs))
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert len(shown) == len(runs), done.stdout
    return shown


def module_exports(path: Path) -> dict:
    """Import an ES module in Node and return its exports as JSON (a built configuration module, say)"""
    done = run_node("--input-type=module", "-e",
                    f"import * as m from {json.dumps(path.as_uri())}; console.log(JSON.stringify({{ ...m }}));")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


_CONFIGURATIONS: dict[tuple[str, str], dict] = {}


def _scripts_digest(campaign_dir: Path) -> str:
    """Hash the JavaScript files check_output.mjs reads in a built campaign's folder"""
    digest = hashlib.sha256()
    scripts = [*(campaign_dir / "foundry" / "scripts").rglob("*.js"), *(campaign_dir / "roll20").glob("*.js")]
    for path in sorted(scripts):
        digest.update(f"{path}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def roll20_configurations(campaign_dirs: list[Path]) -> list[dict]:
    """Check built campaigns' scripts and return the configuration each Roll20 script holds, as it evaluates
    (tests/js/check_output.mjs): the folders not checked yet with these files in one Node process"""
    keys = [(str(folder), _scripts_digest(folder)) for folder in campaign_dirs]
    missing = list(dict.fromkeys(key for key in keys if key not in _CONFIGURATIONS))
    if missing:
        done = run_node("tests/js/check_output.mjs",
                        *(folder for folder, _ in missing))
        assert done.returncode == 0, done.stderr
        reports = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(reports) == len(missing), done.stdout
        for key, report in zip(missing, reports, strict=True):
            assert report["problems"] == [], f"{key[0]}: {report['problems']}"
            _CONFIGURATIONS[key] = report["roll20"]
    return [_CONFIGURATIONS[key] for key in keys]


def roll20_configuration(campaign_dir: Path) -> dict:
    """Return the configuration a built Roll20 script holds, as it evaluates (tests/js/check_output.mjs)"""
    return roll20_configurations([campaign_dir])[0]


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium for the whole test session (tests/browser.py)"""
    from tests.browser import missing
    from tools.browser import chromium_path

    path = chromium_path()
    if path is None:
        missing("no chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("no playwright (pip install -e '.[test]')")
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The GURPS web pages of tests/web_pages.py, built once per test module"""
    from tests.web_pages import gurps_pages

    return gurps_pages(tmp_path_factory.mktemp("web-pages"))


@pytest.fixture(scope="module")
def tab(browser):
    """One tab for the tests that neither reload nor check what the browser keeps: each opens its page in it anew"""
    from tests.browser import new_tab

    page = new_tab(browser)
    yield page
    page.context.close()


@pytest.fixture
def fresh(browser):
    """Open a page in a fresh context (its own, empty localStorage), closed when the test ends"""
    from tests.browser import open_page

    opened = []

    def open_fresh(path, **context):
        opened.append(open_page(browser, path, **context))
        return opened[-1]
    yield open_fresh
    for page in opened:
        page.context.close()


def ambush_commands() -> dict:
    """Return every command of `ambush` by name, the platforms' own among them (exporter/platforms.py)"""
    import click

    from exporter.cli import main

    context = click.Context(main)
    return {name: main.get_command(context, name) for name in main.list_commands(context)}
