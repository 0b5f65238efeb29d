"""Benchmarks of ambush: medians of several runs, written as a Markdown table (and into the README with --write)

Run from the repository root after the README's test install: .venv/bin/python benchmarks/run.py [--write]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START, END = "<!-- benchmarks:start -->", "<!-- benchmarks:end -->"
SYSTEMS = ("gurps4e", "adnd1e", "fallout-ttrpg")


def wall(command: list[str], runs: int, cwd: Path = ROOT) -> list[float]:
    """Time a command several times, in milliseconds"""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=cwd, check=True, capture_output=True)
        times.append((time.perf_counter() - start) * 1000)
    return times


def ambush(*args: str) -> list[str]:
    """The ambush console script next to this interpreter, or python -m exporter"""
    script = Path(sys.executable).with_name("ambush")
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "exporter", *args]


def many_campaigns(folder: Path, count: int) -> list[Path]:
    """Write count small campaigns, cycling through the systems"""
    paths = []
    for index in range(count):
        path = folder / f"c{index:03d}.toml"
        path.write_text(f'id = "bench-{index:03d}"\ntitle = "Bench {index}"\nversion = "1.0.0"\n'
                        f'system = "{SYSTEMS[index % 3]}"\n', encoding="utf-8")
        paths.append(path)
    return paths


def large_scenario(folder: Path, name: str, system: str, procedure: str, member: str, side_extra: str = "") -> Path:
    """Write a scenario with 20 members a side"""
    lines = [f'system = "{system}"', f'procedure = "{procedure}"']
    for side in ("a", "b"):
        lines += [f"[sides.{side}]", side_extra]
        for index in range(20):
            lines += [f"[[sides.{side}.members]]", f'name = "{side}{index}"', member]
    path = folder / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def pack_benchmark(folder: Path, runs: int) -> tuple[list[float], list[float]]:
    """Write the same Macro pack with ambush (plyvel) and with the official CLI, in one run"""
    from exporter.build import build_campaigns
    from exporter.targets.foundry.packs import write_leveldb

    build_campaigns([], folder / "dist", target="foundry", make_zip=False)
    sources = next((folder / "dist").glob("*/foundry/packs/_source/surprise-macros"))
    documents = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(sources.glob("*.json"))]
    ours = []
    for _ in range(runs):
        target = folder / "ours"
        start = time.perf_counter()
        write_leveldb(documents, target)
        ours.append((time.perf_counter() - start) * 1000)
    done = subprocess.run(["node", str(ROOT / "benchmarks" / "compile_pack.mjs"), str(sources), str(folder / "cli"),
                           str(runs)], cwd=ROOT, check=True, capture_output=True, text=True)
    return ours, json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    """Run every benchmark and print (or write) the table"""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--write", action="store_true", help="replace the table in README.md")
    args = parser.parse_args()
    runs = args.runs
    rows: list[tuple[str, float, str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        rows.append(("cold `ambush --help`", statistics.median(wall(ambush("--help"), runs)), "< 150 ms", "ms"))
        rows.append(("`ambush build` (3 example campaigns)",
                     statistics.median(wall(ambush("build", "--out", str(work / "ex")), runs)), "< 1000 ms", "ms"))
        campaigns = many_campaigns(work, 100)
        rows.append(("`ambush build` (100 campaigns)",
                     statistics.median(wall(ambush("build", *map(str, campaigns), "--out", str(work / "many")),
                                            max(3, runs // 2))), "< 10000 ms", "ms"))
        scenarios = {
            "odds, GURPS partial, 20 a side": large_scenario(work, "gp", "gurps4e", "partial", "iq = 9",
                                                             'leader = "{side}0"'),
            "odds, GURPS total, IQ 3, 20 a side": large_scenario(work, "gt", "gurps4e", "total", "iq = 3"),
            "odds, AD&D, 20 a side": large_scenario(work, "ad", "adnd1e", "roll", "dex = 17"),
        }
        for label, path in scenarios.items():
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace('leader = "{side}0"', 'leader = "a0"', 1).replace(
                'leader = "{side}0"', 'leader = "b0"', 1), encoding="utf-8")
            rows.append((f"`ambush {label.split(',')[0]}`{label[len(label.split(',')[0]):]}",
                         statistics.median(wall(ambush("odds", str(path)), runs)), "< 200 ms", "ms"))
        for example in sorted((ROOT / "fixtures" / "scenarios").glob("*.toml")):
            rows.append((f"`ambush odds` {example.stem}", statistics.median(wall(ambush("odds", str(example)), runs)),
                         "< 200 ms", "ms"))
        ours, cli = pack_benchmark(work, runs)
        rows.append(("pack writing, ambush (plyvel)", statistics.median(ours), "≤ official CLI", "ms"))
        rows.append(("pack compile, official CLI 3.0.3", statistics.median(cli), "", "ms"))
        ratio = statistics.median(cli) / statistics.median(ours)
    table = [f"Medians of {runs} runs on {os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}.", "",
             "| benchmark | median | target |", "|---|---:|---|"]
    table += [f"| {label} | {value:.0f} {unit} | {target} |" for label, value, target, unit in rows]
    table += ["", f"Pack writing: the official CLI takes {ratio:.1f}× as long as ambush on the same documents."]
    text = "\n".join(table)
    print(text)
    if args.write:
        readme = ROOT / "README.md"
        content = readme.read_text(encoding="utf-8")
        before, _, rest = content.partition(START)
        _, _, after = rest.partition(END)
        readme.write_text(f"{before}{START}\n{text}\n{END}{after}", encoding="utf-8")
    shutil.rmtree(ROOT / "benchmarks" / "__pycache__", ignore_errors=True)


if __name__ == "__main__":
    main()
