"""Release builds: byte-identical across folders, times and umasks; concurrent builds never mix; the wheel works"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from exporter.lock import LOCK_FILE
from tests.conftest import ROOT, relative_files

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

GOOD = '''id = "release-check"
title = "{title}"
version = "2.0.0"
system = "adnd1e"
'''


def build(out: Path, *campaigns: Path, umask: int = 0o022, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ambush build in a fresh process with its own umask"""
    return subprocess.run([sys.executable, "-m", "exporter", "build", *map(str, campaigns), "--out", str(out)],
                          cwd=ROOT, env={**os.environ, **(env or {})}, capture_output=True, text=True, check=False,
                          preexec_fn=lambda: os.umask(umask), timeout=300)


def tree(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under root with its bytes and permission bits"""
    return {rel: ((root / rel).read_bytes(), stat.S_IMODE((root / rel).stat().st_mode)) for rel in relative_files(root)
            if not rel.startswith(".")}


def test_two_builds_in_different_folders_times_and_umasks_are_byte_identical(tmp_path):
    first = build(tmp_path / "one", umask=0o022)
    time.sleep(1.1)
    second = build(tmp_path / "two" / "nested", umask=0o077)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    one, two = tree(tmp_path / "one"), tree(tmp_path / "two" / "nested")
    assert list(one) == list(two)
    for rel in one:
        assert one[rel] == two[rel], rel
    assert {mode for _, mode in one.values()} == {0o644}
    assert any(rel.endswith(".zip") for rel in one) and any("/packs/surprise-macros/" in rel for rel in one)


def test_source_date_epoch_sets_the_zip_times_and_nothing_else(tmp_path):
    import zipfile

    assert build(tmp_path / "a", env={"SOURCE_DATE_EPOCH": "1700000000"}).returncode == 0
    assert build(tmp_path / "b").returncode == 0
    archive = next((tmp_path / "a").rglob("*.zip"))
    with zipfile.ZipFile(archive) as zipped:
        assert {info.date_time for info in zipped.infolist()} == {time.gmtime(1700000000)[:6]}
    with zipfile.ZipFile(next((tmp_path / "b").rglob("*.zip"))) as zipped:
        assert {info.date_time for info in zipped.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    differing = {rel for rel, value in tree(tmp_path / "a").items() if tree(tmp_path / "b")[rel] != value}
    assert all(rel.endswith(".zip") or rel.endswith(".js") for rel in differing), differing


def test_the_shipped_pack_still_extracts_after_volatile_files_are_left_out(tmp_path):
    assert build(tmp_path).returncode == 0
    packs = list(tmp_path.glob("*/foundry/packs/surprise-macros"))
    assert packs
    for pack in packs:
        assert not {"LOG", "LOG.old", "LOCK"} & {p.name for p in pack.iterdir()}


def test_concurrent_builds_into_one_folder_leave_one_whole_tree(tmp_path):
    campaigns = []
    for name in ("first", "second"):
        path = tmp_path / f"{name}.toml"
        path.write_text(GOOD.format(title=name * 20), encoding="utf-8")
        campaigns.append(path)
    references = []
    for index, campaign in enumerate(campaigns):
        assert build(tmp_path / f"ref{index}", campaign).returncode == 0
        references.append(tree(tmp_path / f"ref{index}" / "release-check"))
    out = tmp_path / "shared"
    for _ in range(3):
        runs = [subprocess.Popen([sys.executable, "-m", "exporter", "build", str(c), "--out", str(out)], cwd=ROOT,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE) for c in campaigns]
        assert [run.wait(timeout=300) for run in runs] == [0, 0]
        assert tree(out / "release-check") in references
        assert not [p for p in out.iterdir() if p.name.startswith(".ambush-staging") or p.name.endswith(".old")]
        assert not [p for p in out.iterdir() if p.name.startswith(LOCK_FILE)], "the lock file was left behind"


def test_the_wheel_installs_into_a_fresh_environment_and_builds(installed_ambush, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run([str(installed_ambush), "build", "--out", "dist"], cwd=elsewhere,
                          capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    examples = sorted(tomllib.loads(path.read_text(encoding="utf-8"))["id"]
                      for path in (ROOT / "fixtures" / "campaigns").glob("*.toml"))
    assert sorted(p.name for p in (elsewhere / "dist").iterdir() if not p.name.startswith(".")) == examples
    reference = tmp_path / "reference"
    assert build(reference).returncode == 0
    assert tree(elsewhere / "dist" / "ambush-gurps-example") == tree(reference / "ambush-gurps-example")
    done = subprocess.run([str(installed_ambush), "init", "--system", "adnd1e", "--workflow"], cwd=elsewhere,
                          capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirement = f'pip install "ambush @ git+{project["urls"]["Repository"]}@v{project["version"]}"'
    assert requirement in (elsewhere / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
