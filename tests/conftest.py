"""Shared test fixtures: paths to the bundled fixtures, readable file snapshots, Node helpers"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
SCENARIOS = sorted((FIXTURES / "scenarios").glob("*.toml"))
VECTORS = sorted((FIXTURES / "vectors").glob("*.json"))
CAMPAIGNS = sorted((FIXTURES / "campaigns").glob("*.toml"))
NODE = shutil.which("node")

LEVELDB_FILES = {"CURRENT", "LOCK", "LOG", "LOG.old"}
BINARY_SUFFIXES = {".zip", ".ldb", ".log"}


class TextSnapshot(SingleFileSnapshotExtension):
    """Keep each generated file as a readable text snapshot"""

    _write_mode = WriteMode.TEXT
    file_extension = "txt"


@pytest.fixture
def file_snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.with_defaults(extension_class=TextSnapshot)


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
    return subprocess.run([NODE, *args], capture_output=True, text=True, cwd=cwd, timeout=timeout, check=False)


NODE_SUMMARY = re.compile(r"^# (tests|pass|fail|cancelled) (\d+)$", re.MULTILINE)


def assert_node_tests_pass(test_file: Path, env: dict[str, str] | None = None) -> None:
    """Run a node:test file and fail with its output unless every one of its tests passed"""
    assert NODE, "node is not on PATH; the Node tests need Node 18+"
    done = subprocess.run([NODE, "--test", "--test-reporter=tap", str(test_file)], cwd=ROOT,
                          env={**os.environ, **(env or {})}, capture_output=True, text=True, timeout=600, check=False)
    counts = {name: int(value) for name, value in NODE_SUMMARY.findall(done.stdout)}
    passed = (done.returncode == 0 and counts.get("tests", 0) > 0 and counts.get("pass") == counts.get("tests")
              and not counts.get("fail") and not counts.get("cancelled"))
    output = f"{done.stdout[-8000:]}\n{done.stderr[-3000:]}"
    assert passed, f"node --test {test_file.name}: exit {done.returncode}, {counts}\n{output}"
