"""Bad input (fixtures/bad): exit 2, one line naming the file and the field, no traceback, nothing written"""

from __future__ import annotations

import errno
import os
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from exporter.cli import main
from tests.conftest import FIXTURES

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

BAD = FIXTURES / "bad"
EXPECTED: dict[str, dict[str, Any]] = tomllib.loads((BAD / "expected.toml").read_text(encoding="utf-8"))
CASES = sorted(EXPECTED)
COMMANDS = {"build", "validate", "odds", "simulate"}
GOOD_CAMPAIGN = FIXTURES / "campaigns" / "gurps4e.toml"
MIN_CASES = 28


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def tree_state(root: Path) -> dict[str, bytes | None]:
    """Map every file (to its bytes) and folder (to None) under root, hidden ones included"""
    return {p.relative_to(root).as_posix(): (p.read_bytes() if p.is_file() else None)
            for p in sorted(root.rglob("*"))}


def staging_leftovers(root: Path) -> list[str]:
    return [p.relative_to(root).as_posix() for p in root.rglob(".ambush-*")]


def case_args(case: str) -> list[str]:
    """Return the input paths a case passes to its command"""
    return [str(BAD / name) for name in EXPECTED[case].get("files", [case])]


def assert_one_line_error(result: Result, named: str, case: str) -> None:
    """Check exit 2, a single 'Error: <named>: [<field>: ]...' line with the expected text, and no traceback"""
    entry = EXPECTED[case]
    output = result.output
    assert result.exit_code == 2, f"{case}: exit {result.exit_code}\n{output}\n{result.exception!r}"
    assert isinstance(result.exception, SystemExit), f"{case}: uncaught {result.exception!r}"
    assert "Traceback" not in output
    lines = output.splitlines()
    assert len(lines) == 1, f"{case}: expected one line, got:\n{output}"
    line = lines[0]
    prefix = f"Error: {named}: "
    assert line.startswith(prefix), f"{case}: {line!r} does not start with {prefix!r}"
    rest = line.removeprefix(prefix)
    if entry["field"]:
        assert rest.startswith(f"{entry['field']}: "), f"{case}: {line!r} does not name field {entry['field']!r}"
    assert entry["message"] in rest, f"{case}: {line!r} lacks {entry['message']!r}"


def run_bad_build(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Result, str]:
    """Build a good campaign into an out folder, then the bad case into the same place; return its result"""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    dist = tmp_path / "dist"
    good = invoke("build", str(GOOD_CAMPAIGN), "--out", str(dist))
    assert good.exit_code == 0, good.output
    assert (dist / "ambush-gurps-example" / "foundry" / "module.json").is_file()
    out = dist
    named = str(BAD / case)
    breakage = EXPECTED[case].get("out")
    if breakage is not None:
        occupied = dist / "occupied.txt"
        occupied.write_text("a regular file, not a folder\n", encoding="utf-8")
        out = {"is-a-file": occupied, "under-a-file": occupied / "dist"}[breakage]
        named = str(out)
    before = tree_state(tmp_path)
    result = invoke("build", *case_args(case), "--out", str(out))
    assert staging_leftovers(tmp_path) == [], "a staging folder was left behind"
    after = tree_state(tmp_path)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k, b"?") != after.get(k, b"?"))
    assert changed == [], f"{case}: a failed build changed {changed}"
    return result, named


@pytest.mark.parametrize("case", CASES)
def test_bad_input_exits_2_with_one_line_naming_file_and_field(case, tmp_path, monkeypatch):
    command = EXPECTED[case]["command"]
    if command == "build":
        result, named = run_bad_build(case, tmp_path, monkeypatch)
    else:
        monkeypatch.chdir(tmp_path)
        result = invoke(command, *case_args(case))
        named = str(BAD / case)
        assert list(tmp_path.iterdir()) == [], "a failed command wrote files"
    assert_one_line_error(result, named, case)


CAMPAIGN_VALIDATE_CASES = [c for c in CASES if EXPECTED[c]["command"] == "validate"]
SCENARIO_CASES = [c for c in CASES if EXPECTED[c]["command"] in ("odds", "simulate")]


@pytest.mark.parametrize("case", CAMPAIGN_VALIDATE_CASES)
def test_a_campaign_that_fails_validate_fails_build_the_same_way_and_writes_nothing(case, tmp_path, monkeypatch):
    result, named = run_bad_build(case, tmp_path, monkeypatch)
    assert_one_line_error(result, named, case)
    assert result.output == invoke("validate", *case_args(case)).output


@pytest.mark.parametrize("case", SCENARIO_CASES)
def test_a_bad_scenario_fails_odds_and_simulate_alike(case, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    other = "simulate" if EXPECTED[case]["command"] == "odds" else "odds"
    for extra in ([], ["--json"]):
        result = invoke(other, *case_args(case), *extra)
        assert_one_line_error(result, str(BAD / case), case)
    assert list(tmp_path.iterdir()) == []


def test_a_build_that_fails_moving_its_second_campaign_into_place_leaves_the_first_untouched(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    dist = tmp_path / "dist"
    adnd = FIXTURES / "campaigns" / "adnd1e.toml"
    assert invoke("build", str(GOOD_CAMPAIGN), str(adnd), "--out", str(dist)).exit_code == 0
    text = GOOD_CAMPAIGN.read_text(encoding="utf-8")
    version = tomllib.loads(text)["version"]
    assert f'version = "{version}"' in text
    changed = tmp_path / "gurps4e.toml"  # builds different bytes into the first campaign's folder
    changed.write_text(text.replace(f'version = "{version}"', f'version = "{version}-changed"'), encoding="utf-8")
    before = tree_state(dist)
    real_rename = os.rename

    def failing_rename(src, dst, *args, **kwargs):
        if Path(src).parent.name.startswith(".ambush-staging-") and Path(dst).name == "ambush-adnd-example":
            raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))
        return real_rename(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "rename", failing_rename)
    result = invoke("build", str(changed), str(adnd), "--out", str(dist))
    monkeypatch.setattr(os, "rename", real_rename)
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert result.output.splitlines() == [f"Error: {dist / 'ambush-adnd-example'}: cannot be replaced "
                                          f"({os.strerror(errno.EXDEV)})"]
    assert staging_leftovers(tmp_path) == []
    assert tree_state(dist) == before, "the first campaign was replaced although the build failed"


def test_there_are_enough_cases_and_every_entry_is_complete():
    assert len(EXPECTED) >= MIN_CASES
    for case, entry in EXPECTED.items():
        assert entry.get("command") in COMMANDS, case
        assert isinstance(entry.get("field"), str) and isinstance(entry.get("message"), str), case
        assert entry["message"], f"{case}: an empty message would match anything"
        assert set(entry) <= {"command", "field", "message", "files", "out"}, f"{case}: unknown keys"
        if "files" in entry or "out" in entry:
            assert entry["command"] == "build", f"{case}: files and out are for build cases"
        for name in entry.get("files", []):
            assert (BAD / name).is_file(), f"{case}: {name} does not exist"
        if "files" in entry:
            assert case in entry["files"], f"{case}: the file the message names must be among the files"
        assert entry.get("out", "is-a-file") in ("is-a-file", "under-a-file"), case
    kinds = {case.split("/")[0] for case in EXPECTED}
    assert kinds == {"campaigns", "scenarios"}


def test_every_file_in_fixtures_bad_is_a_case():
    listed = {name for case, entry in EXPECTED.items() for name in [case, *entry.get("files", [])]}
    files = {p.relative_to(BAD).as_posix() for p in BAD.rglob("*") if p.is_file()} - {"expected.toml"}
    assert files - listed == set(), "files in fixtures/bad that expected.toml does not list"
    missing = {case for case in EXPECTED if not (BAD / case).exists()}
    assert all(EXPECTED[case]["message"] == "no such file" for case in missing), missing
