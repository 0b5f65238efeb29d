"""Hostile files against every command (tests/fuzz.py): no traceback, no hang, no gigabyte; a refusal is one line

A few dozen seeded files in the suite; benchmarks/fuzz.py runs hundreds. Each command runs in one process held to
MEMORY_MB of address space, each case to SECONDS by an alarm.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.fuzz import hostile_files, write_cases

pytestmark = pytest.mark.slow  # a few hundred commands in processes of their own

MEMORY_MB, SECONDS = 600, 20
SEED, FILES, BIG = 30, 24, 100_000  # BIG: the longest value and the largest crowd, in characters
LONGEST_ERROR = 600  # characters after the file's path


def run_fuzz(cases: list[dict], folder: Path, memory_mb: int, seconds: int) -> list[dict]:
    """Run the cases in one process held to memory_mb; return what each did"""

    def limits() -> None:
        size = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    listing = folder / "cases.json"
    listing.write_text(json.dumps(cases), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "tests.fuzz", str(listing), str(seconds)], cwd=ROOT,
                          capture_output=True, text=True, preexec_fn=limits, timeout=seconds * len(cases) + 60,
                          check=False)
    results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(results) == len(cases), (done.returncode, done.stderr[-2000:])
    return results


def problems(result: dict) -> list[str]:
    """What a case did wrong: a traceback, no end in time, a code but 0 and 2, a refusal of more than a line"""
    found = []
    if result["escaped"]:
        found.append(f"raised {result['escaped']}")
    if result["code"] not in (0, 2):
        found.append(f"exit code {result['code']}")
    if result["code"] == 2:
        lines = result["output"].splitlines()
        errors = [line for line in lines if line.startswith("Error: ")]
        if len(errors) != 1 or not errors[0].startswith(f"Error: {result['file']}: "):
            found.append(f"refused with {result['output'][:300]!r}")
        elif len(errors[0]) > LONGEST_ERROR + len(result["file"]) or result["output_length"] > 2 * LONGEST_ERROR + 500:
            found.append(f"a refusal of {result['output_length']} characters")
        if result["args"][0] == "build" and Path(result["out"]).exists():
            found.append("a refused build wrote its output folder")
    return found


def test_hostile_files_are_refused_in_a_line_or_read(tmp_path):
    cases = write_cases(hostile_files(SEED, FILES, BIG), tmp_path)
    results = run_fuzz(cases, tmp_path, MEMORY_MB, SECONDS)
    failed = {f"{r['name']}: ambush {' '.join(r['args'][:1])}": problems(r) for r in results if problems(r)}
    assert failed == {}
    assert {r["code"] for r in results} == {0, 2}  # some files are still good ones, most are not


def test_the_generator_is_seeded_and_bends_every_way():
    first, again = hostile_files(SEED, 60, BIG), hostile_files(SEED, 60, BIG)
    assert first == again
    ways = {name.split(" (")[0] for hostile in first for name in hostile.name.split(": ", 1)[1].split(", ")}
    assert len(ways) >= 10, ways
