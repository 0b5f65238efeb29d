"""The full fuzzing pass (issue 30): hundreds of seeded hostile files against every command, 30 s and 3 GiB each

Run from the repository root after the README's test install: .venv/bin/python benchmarks/fuzz.py [--files 600]
[--seed 30]. Prints the runs, what went wrong (nothing, when ambush holds), the slowest run and the peak memory of
the processes; tests/test_fuzz.py runs a few dozen of the same kind in the suite. Exit 1 when a run went wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fuzz import hostile_files, write_cases  # noqa: E402
from tests.test_fuzz import problems  # noqa: E402

MEMORY_MB, SECONDS, BIG, BATCH = 3072, 30, 2_000_000, 40  # BATCH: cases a process runs


def run_batch(cases: list[dict], folder: Path, index: int) -> tuple[list[dict], float]:
    """Run cases in one process held to MEMORY_MB; return what each did and the process's peak memory in MB"""

    def limits() -> None:
        size = MEMORY_MB * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    listing = folder / f"batch-{index}.json"
    listing.write_text(json.dumps(cases), encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "tests.fuzz", str(listing), str(SECONDS)], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, preexec_fn=limits)
    output = process.stdout.read() if process.stdout else ""
    _, _, usage = os.wait4(process.pid, 0)
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")], usage.ru_maxrss / 1024


def main() -> None:
    """Generate, run and report"""
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=600)
    parser.add_argument("--seed", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cases = write_cases(hostile_files(args.seed, args.files, BIG), folder)
        results, peaks = [], []
        for start in range(0, len(cases), BATCH):
            batch, peak = run_batch(cases[start:start + BATCH], folder, start)
            results += batch
            peaks.append(peak)
    wrong = {f"{r['name']}: ambush {' '.join(r['args'][:1])} ({r['file']})": problems(r)
             for r in results if problems(r)}
    lost = len(cases) - len(results)
    seconds = [r["seconds"] for r in results]
    print(f"{args.files} files (seed {args.seed}), {len(cases)} runs: {len(results)} ran, {lost} lost with their "
          f"process, {sum(r['code'] == 0 for r in results)} read, {sum(r['code'] == 2 for r in results)} refused; "
          f"median {statistics.median(seconds) * 1000:.0f} ms, slowest {max(seconds) * 1000:.0f} ms, "
          f"peak memory of a process {max(peaks):.0f} MB; limits {SECONDS} s and {MEMORY_MB} MB")
    for name, found in sorted(wrong.items()):
        print(f"- {name}: {'; '.join(found)}")
    raise SystemExit(1 if wrong or lost else 0)


if __name__ == "__main__":
    main()
