"""Run the Node self-tests of the Roll20 Mod sandbox emulation (tests/roll20/harness.mjs)"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HARNESS_TESTS = ROOT / "tests" / "roll20" / "harness.test.mjs"
SUMMARY = re.compile(r"^# (tests|pass|fail|cancelled) (\d+)$", re.MULTILINE)


def test_roll20_harness_self_tests() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH; the Roll20 harness self-tests need Node 20+")
    result = subprocess.run(
        [node, "--test", "--test-reporter=tap", str(HARNESS_TESTS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = f"{result.stdout}\n{result.stderr}"
    counts = {name: int(value) for name, value in SUMMARY.findall(result.stdout)}
    passed = (
        result.returncode == 0
        and counts.get("tests", 0) > 0
        and counts.get("pass") == counts.get("tests")
        and counts.get("fail", 0) == 0
        and counts.get("cancelled", 0) == 0
    )
    assert passed, f"node --test failed (exit {result.returncode}, summary {counts}):\n{output}"
