"""Benchmarks of ambush: medians of several runs, written as a Markdown table (and into the README with --write)

Run from the repository root after the README's test install: .venv/bin/python benchmarks/run.py [--write]
Commands compared with each other run interleaved, side by side in one run, so that a busy machine slows both.
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
import tomllib
from pathlib import Path

from exporter._resources import example_campaigns
from exporter.rules.systems import SYSTEM_IDS
from web_edit import edit_rows  # benchmarks/web_edit.py, beside this file (run as a script)
from web_state import rows as web_state_rows  # benchmarks/web_state.py, beside this file (run as a script)

ROOT = Path(__file__).resolve().parents[1]
START, END = "<!-- benchmarks:start -->", "<!-- benchmarks:end -->"
EXAMPLES = sorted((ROOT / "fixtures" / "scenarios").glob("*.toml"))
BASELINE = [sys.executable, "-c", "import click, pydantic"]
BUILD_BASELINE = [sys.executable, "-c", "import click, jinja2, pydantic"]  # what a build imports before any work
BUILD_RATIO, EACH_CAMPAIGN_MS = 4.0, 40  # the examples within 4x of it; 100 campaigns, this much each after one
# What a build imports before it reads a campaign: the command line, the build and every platform's writer.
BUILD_IMPORTS = [sys.executable, "-c", "from exporter import cli, build\nfrom exporter.platforms import PLATFORMS, named\n"
                 "for entry in PLATFORMS.values(): named(entry.writer)"]


def byte_compile() -> None:
    """Compile ambush's modules as an install does, so that no command compiles them again on every run

    click and pydantic were compiled when pip installed them; a checkout's modules are compiled on first use, and
    never kept where PYTHONDONTWRITEBYTECODE is set, which would charge ambush alone for compiling at each start.
    """
    import compileall

    compileall.compile_dir(ROOT / "exporter", quiet=1)


def run_once(command: list[str], cwd: Path = ROOT) -> tuple[float, float, float, float]:
    """Run a command once; return its wall time in ms, its peak memory (max RSS) in MB, its user and system CPU in ms"""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = (time.perf_counter() - start) * 1000
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} failed with exit code {process.returncode}")
    return elapsed, usage.ru_maxrss / 1024, usage.ru_utime * 1000, usage.ru_stime * 1000


def measured_side_by_side(commands: dict[str, list[str]], runs: int) -> dict[str, dict[str, float]]:
    """Run commands interleaved, runs times each; return each one's medians of wall, user and system time (ms) and
    its peak memory (MB)"""
    figures: dict[str, dict[str, list[float]]] = {name: {"wall": [], "user": [], "sys": []} for name in commands}
    memory: dict[str, float] = dict.fromkeys(commands, 0.0)
    for _ in range(runs):
        for name, command in commands.items():
            elapsed, rss, user, system = run_once(command)
            for key, value in (("wall", elapsed), ("user", user), ("sys", system)):
                figures[name][key].append(value)
            memory[name] = max(memory[name], rss)
    return {name: {**{key: statistics.median(values) for key, values in figures[name].items()}, "mb": memory[name]}
            for name in commands}


def side_by_side(commands: dict[str, list[str]], runs: int) -> dict[str, tuple[float, float]]:
    """Run commands interleaved, runs times each; return each one's median time (ms) and peak memory (MB)"""
    return {name: (figures["wall"], figures["mb"]) for name, figures in measured_side_by_side(commands, runs).items()}


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
                        f'system = "{SYSTEM_IDS[index % len(SYSTEM_IDS)]}"\n', encoding="utf-8")
        paths.append(path)
    return paths


def build_layout(dist: Path) -> list[list]:
    """List a built dist's folders and files (with their sizes), each folder before what it holds, for fs_floor.py"""
    layout: list[list] = []
    for folder, folders, files in os.walk(dist):
        folders.sort()
        base = Path(folder).relative_to(dist)
        layout += [["folder", (base / name).as_posix()] for name in folders]
        layout += [["file", (base / name).as_posix(), (Path(folder) / name).stat().st_size] for name in sorted(files)]
    return layout


def build_rows(work: Path, runs: int) -> list[Row]:
    """`ambush build`: the examples against the imports a build needs, and 100 campaigns against one (issue 30)

    A build reads each template once per process, so a campaign beyond the first costs only its own rendering and its
    files. What a build costs is shown split: the CPU time of the build (user and system), its own imports, and the
    file-system floor (benchmarks/fs_floor.py: the same folders and files made with the same calls and no rendering);
    the targets are judged on the wall time.
    """
    work.mkdir()
    campaigns = many_campaigns(work, 100)
    floors = {"floor": floor_command(work, "many-layout", campaigns),
              "examples floor": floor_command(work, "examples-layout", example_campaigns())}
    commands = {"baseline": BUILD_BASELINE, "imports": BUILD_IMPORTS,
                "examples": ambush("build", "--out", str(work / "ex")),
                "one": ambush("build", str(campaigns[0]), "--out", str(work / "one")),
                "many": ambush("build", *map(str, campaigns), "--out", str(work / "many")),
                "python": [sys.executable, "-c", "pass"], **floors}
    measured = measured_side_by_side(commands, runs)
    baseline, examples = measured["baseline"]["wall"], measured["examples"]["wall"]
    one, many = measured["one"], measured["many"]
    beyond = len(campaigns) - 1

    def each(key: str) -> float:
        return (many[key] - one[key]) / beyond

    def beyond_python(name: str, key: str = "wall") -> float:
        return measured[name][key] - measured["python"][key]

    imports = measured["imports"]["wall"]
    examples_floor = beyond_python("examples floor")
    before_rendering = imports + examples_floor
    count = len(example_campaigns())
    return [("`python -c \"import click, jinja2, pydantic\"` (baseline of the builds)", f"{baseline:.0f} ms", ""),
            (f"`ambush build` ({count} example campaigns)", f"{examples:.0f} ms = {examples / baseline:.2f}× baseline",
             f"≤ {BUILD_RATIO:g}× baseline: {verdict(examples <= BUILD_RATIO * baseline)}"),
            ("a build's imports: the command line, the build and every platform's writer, no campaign read",
             f"{imports:.0f} ms = {imports / baseline:.2f}× baseline", ""),
            (f"file-system floor of the {count} examples: their folders and files made with no rendering",
             f"{examples_floor:.0f} ms", ""),
            (f"the {count} examples before any rendering: a build's imports and the file-system floor",
             f"{before_rendering:.0f} ms = {before_rendering / baseline:.2f}× baseline", ""),
            ("`ambush build` (1 campaign)", f"{one['wall']:.0f} ms", ""),
            ("`ambush build` (100 campaigns)", f"{many['wall']:.0f} ms = {each('wall'):.1f} ms a campaign beyond the "
             "first", f"≤ {EACH_CAMPAIGN_MS} ms a campaign: {verdict(each('wall') <= EACH_CAMPAIGN_MS)}"),
            ("`ambush build` (100 campaigns), CPU time a campaign beyond the first",
             f"{each('user'):.1f} ms user + {each('sys'):.1f} ms system", ""),
            ("file-system floor: the folders and files of 100 campaigns made with no rendering (benchmarks/fs_floor.py)",
             f"{beyond_python('floor') / len(campaigns):.1f} ms a campaign "
             f"({beyond_python('floor', 'sys') / len(campaigns):.1f} ms system)", "")]


def floor_command(work: Path, name: str, campaigns: list[Path]) -> list[str]:
    """Build campaigns once and return the command that makes their folders and files again with no rendering"""
    subprocess.run(ambush("build", *map(str, campaigns), "--out", str(work / name)), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    layout = work / f"{name}.json"
    layout.write_text(json.dumps(build_layout(work / name)), encoding="utf-8")
    shutil.rmtree(work / name)
    return [sys.executable, str(ROOT / "benchmarks" / "fs_floor.py"), str(layout), str(work / f"{name}-floor")]


def large_scenario(folder: Path, name: str, head: str, sides: dict[str, tuple[str, int, str]]) -> Path:
    """Write a scenario: head lines, then per side its table lines and count members of one profile"""
    lines = [head]
    for side, (extra, count, member) in sides.items():
        lines += [f"[sides.{side}]", extra]
        for index in range(count):
            lines += [f"[[sides.{side}.members]]", f'name = "{side}{index}"', member]
    path = folder / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def large_scenarios(folder: Path) -> dict[str, Path]:
    """The large odds cases: 20 a side and 200 a side, and the contest against 200 unwary IQ 3 watchers"""
    gurps, adnd = 'system = "gurps4e"\n', 'system = "adnd1e"\nprocedure = "roll"'
    cases = {}
    for size in (20, 200):
        cases[f"GURPS partial, {size} a side"] = large_scenario(
            folder, f"gp{size}", gurps + 'procedure = "partial"',
            {"a": ('leader = "a0"', size, "iq = 9"), "b": ('leader = "b0"', size, "iq = 9")})
        cases[f"GURPS total, IQ 3, {size} a side"] = large_scenario(
            folder, f"gt{size}", gurps + 'procedure = "total"', {"a": ("", size, "iq = 3"), "b": ("", size, "iq = 3")})
        cases[f"AD&D, {size} a side"] = large_scenario(
            folder, f"ad{size}", adnd, {"a": ("", size, "dex = 17"), "b": ("", size, "dex = 17")})
    cases["GURPS quick contest, 200 IQ 3 watchers"] = large_scenario(
        folder, "qc200", gurps + 'procedure = "quick-contest"',
        {"a": ("", 1, "iq = 12\nstealth = 14"), "b": ("expecting_trouble = false", 200, "iq = 3\nper = 10")})
    return cases


def pack_benchmark(folder: Path, runs: int) -> tuple[list[float], list[float]]:
    """Write the same Macro pack with ambush and with the official CLI, in one run"""
    from exporter.build import build_campaigns
    from exporter.dist import OutputTree
    from exporter.targets.foundry.packs import write_leveldb

    build_campaigns([], folder / "dist", target="foundry", make_zip=False)
    sources = next((folder / "dist").glob("*/foundry/packs/_source/surprise-macros"))
    documents = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(sources.glob("*.json"))]
    ours = []
    for run in range(runs):
        start = time.perf_counter()
        tree = OutputTree(folder / f"ours-{run}")  # a new pack folder, as a build writes it
        write_leveldb(documents, tree.root / "surprise-macros", tree)
        ours.append((time.perf_counter() - start) * 1000)
    done = subprocess.run(["node", str(ROOT / "benchmarks" / "compile_pack.mjs"), str(sources), str(folder / "cli"),
                           str(runs)], cwd=ROOT, check=True, capture_output=True, text=True)
    return ours, json.loads(done.stdout.strip().splitlines()[-1])


def js_odds_benchmark(folder: Path, scenarios: dict[str, Path], runs: int) -> dict[str, dict[str, float]]:
    """Time the generated JS odds (the rules modules' odds) in Node on scenarios, as the Foundry dialog calls them on
    every edit"""
    from exporter.build import build_campaigns

    build_campaigns([], folder, target="foundry", make_zip=False)
    modules = {}
    for system in SYSTEM_IDS:
        [module] = folder.glob(f"*/foundry/scripts/common/rules/{system}.js")
        modules[system] = str(module)
    cases = []
    for name, path in scenarios.items():
        scenario = tomllib.loads(path.read_text(encoding="utf-8"))
        cases.append({"name": name, "module": modules[scenario["system"]], "scenario": scenario})
    (folder / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    done = subprocess.run(["node", str(ROOT / "benchmarks" / "js_odds.mjs"), str(folder / "cases.json"), str(runs)],
                          cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- fights of thousands: every output at the cost of its distinct profiles (issue 21, point 3) ---------------------

SCALE_SIZE, RUNTIME_SIZE, RUNTIME_ROUNDS = 10_000, 1_000, 60  # members a side; the runtime's fight and its rounds
SCALE_MS, SCALE_MB = 3000, 200  # "within a few seconds and under 200 MB"


def profiles_scenario(folder: Path, name: str, head: str, sides: dict[str, tuple[str, int, list[str]]]) -> Path:
    """Write a scenario: head lines, then per side its table lines and count members cycling through profiles"""
    lines = [head]
    for side, (extra, count, profiles) in sides.items():
        lines += [f"[sides.{side}]", extra]
        for index in range(count):
            lines += [f"[[sides.{side}.members]]", f'name = "{side}{index}"', profiles[index % len(profiles)]]
    path = folder / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def scale_scenarios(folder: Path, size: int) -> dict[str, Path]:
    """Fights of size a side, members of three to five profiles: each system, its procedures cheap and rich to tell"""
    iqs, dexes = [f"iq = {iq}" for iq in (9, 10, 11)], [f"dex = {dex}" for dex in range(14, 19)]
    sequences = [f"sequence = {sequence}" for sequence in (9, 10, 11)]
    sleepers = [*sequences, "sequence = 8\nasleep = true", "sequence = 12\ncautious_nature = true"]
    return {
        "GURPS partial": profiles_scenario(folder, "scale-gp", 'system = "gurps4e"\nprocedure = "partial"',
                                           {"a": ('leader = "a0"', size, iqs), "b": ('leader = "b0"', size, iqs)}),
        "GURPS total": profiles_scenario(folder, "scale-gt", 'system = "gurps4e"\nprocedure = "total"',
                                         {"a": ("", size, iqs), "b": ("", size, iqs)}),
        "AD&D": profiles_scenario(folder, "scale-ad", 'system = "adnd1e"\nprocedure = "roll"',
                                  {"a": ("", size, dexes), "b": ("", size, dexes)}),
        "Fallout world map": profiles_scenario(
            folder, "scale-fw", 'system = "fallout-ttrpg"\nprocedure = "world-map"\ndc = 15',
            {"a": ("", size, [f"per = 6\nsurvival = 2\n{s}" for s in sequences]), "b": ("", size, sleepers)}),
        "Fallout sneak attack": profiles_scenario(
            folder, "scale-fs", 'system = "fallout-ttrpg"\nprocedure = "sneak-attack"\nattacker = "a0"\n'
            "attack_bonus = 5\ntarget_number = 12", {"a": ("", size, sequences), "b": ("", size, sleepers)}),
    }


def scale_rows(folder: Path, runs: int) -> list[Row]:
    """odds --svg and simulate (text and JSON) of 10,000 a side, and the table runtime stepping 1,000 a side in Node"""
    from exporter.build import build_campaigns

    folder.mkdir()
    fights = scale_scenarios(folder, SCALE_SIZE)
    # The odds of these procedures are cheap at this size; GURPS total and quick contest with many distinct profiles
    # and Fallout's declared openers are the odds rewrite's (benchmarked with the odds above), not the outputs'.
    charted = ("GURPS partial", "AD&D", "Fallout world map", "Fallout sneak attack")
    commands = {f"`ambush odds --svg`, {name}": ambush("odds", str(fights[name]), "--svg", str(folder / "c.svg"))
                for name in charted}
    for name in ("GURPS total", "AD&D", "Fallout sneak attack"):
        commands[f"`ambush simulate`, {name}"] = ambush("simulate", str(fights[name]), "--seed", "7")
        commands[f"`ambush simulate --json`, {name}"] = ambush("simulate", str(fights[name]), "--seed", "7", "--json")
    scripts, fight = runtime_fight(folder)
    runtime = f"table runtime in Node, GURPS total, {RUNTIME_SIZE:,} a side, {RUNTIME_ROUNDS} rounds"
    commands[runtime] = ["node", str(ROOT / "benchmarks" / "js_runtime.mjs"), str(scripts / "common"), "gurps4e",
                         str(fight), str(RUNTIME_ROUNDS)]
    rows = store_rows(scripts, fight, max(3, runs // 2))
    for label, (ms, mb) in side_by_side(commands, max(3, runs // 2)).items():
        size = f"{RUNTIME_SIZE:,}" if label == runtime else f"{SCALE_SIZE:,} a side"
        shown = label if label == runtime else f"{label}, {size}"
        rows.append((shown, f"{ms:.0f} ms, {mb:.0f} MB",
                     f"< {SCALE_MS} ms and < {SCALE_MB} MB: {verdict(ms < SCALE_MS and mb < SCALE_MB)}"))
    return rows


def runtime_fight(folder: Path) -> tuple[Path, Path]:
    """Build the example GURPS module and write the runtime's fight: GURPS total, RUNTIME_SIZE a side, each member
    named by an id as long as a Foundry document's (16 characters); return its scripts folder and the fight"""
    from exporter.build import build_campaigns

    folder.mkdir(exist_ok=True)
    build_campaigns([], folder / "dist", target="foundry", make_zip=False)
    [gurps] = (folder / "dist").glob("*/foundry/scripts/common/systems/gurps4e.js")
    fight = folder / "runtime.json"
    sides = {key: {"members": [{"name": f"{key}{index:015d}", "iq": 8 + index % 3} for index in range(RUNTIME_SIZE)]}
             for key in "ab"}
    fight.write_text(json.dumps({"system": "gurps4e", "procedure": "total", "sides": sides}), encoding="utf-8")
    return gurps.parents[2], fight


def runtime_store_rows(folder: Path, runs: int) -> list[Row]:
    """The Foundry host's store against the runtime's own work alone (--only store)"""
    return store_rows(*runtime_fight(folder), runs)


def store_rows(scripts: Path, fight: Path, runs: int) -> list[Row]:
    """The Foundry host's store against the runtime's own work: a turn of GURPS total at 1,000 a side (issue 30)

    Both ways run interleaved in Node on the same seeded fight (benchmarks/js_runtime.mjs): the surprise kept as an
    object (the runtime's own work) and kept as the Foundry host keeps it (its working copy, and the update stored.js
    writes sent as JSON), the server's reading and merging of it timed apart and left out of the module's time.
    """
    command = ["node", str(ROOT / "benchmarks" / "js_runtime.mjs"), str(scripts / "common"), "gurps4e", str(fight),
               str(RUNTIME_ROUNDS)]
    measured: dict[str, list[dict]] = {"object": [], "foundry": []}
    for _ in range(runs):
        for store in measured:
            done = subprocess.run([*command, store], capture_output=True, text=True, check=True)
            measured[store].append(json.loads(done.stdout))
    turns = measured["object"][0]["turns"]
    own = statistics.median(run["ms"] for run in measured["object"]) / turns
    host = statistics.median(run["ms"] - run["server_ms"] for run in measured["foundry"]) / turns
    chars = measured["foundry"][0]["stored_chars"] / turns
    label = f"a turn of GURPS total, {RUNTIME_SIZE:,} a side, {RUNTIME_ROUNDS} rounds"
    return [(f"{label}: the runtime's own work", f"{own * 1000:.0f} µs", ""),
            (f"{label}: with the Foundry host storing what changed", f"{host * 1000:.0f} µs = {host / own:.2f}× its own work, "
             f"{chars:,.0f} characters written a turn", f"≤ 2× the runtime's own work: {verdict(host <= 2 * own)}")]


# Every procedure, for fights whose members all differ (issue 21): distinct profiles, every Fallout member an opener.
DISTINCT = (("gurps4e", "partial"), ("gurps4e", "total"), ("gurps4e", "quick-contest"), ("adnd1e", "roll"),
            ("fallout-ttrpg", "world-map"), ("fallout-ttrpg", "sneak-attack"))


def distinct_member(system: str, procedure: str, side: str, index: int) -> list[str]:
    """The fields of member index of a side, spread over each field's whole range so that no two are alike"""
    i, shift = index, 17 if side == "b" else 0
    if system == "gurps4e":
        lines = [f"iq = {1 + (7 * i + shift) % 40}", f"combat_reflexes = {str(i % 3 == side.count('b')).lower()}"]
        if procedure == "partial":
            lines.append(f"tactics = {i % 5}")
        if procedure == "quick-contest":
            lines.append(f"stealth = {1 + (11 * i + 5) % 40}" if side == "a" else f"per = {1 + (13 * i + 3) % 40}")
        return lines
    if system == "adnd1e":
        return [f"dex = {3 + (5 * i + shift) % 16}"] if i % 2 else [f"surprise_adjustment = {(3 * i + shift) % 11 - 5}"]
    lines = [f"sequence = {(7 * i + shift) % 31}", f"cautious_nature = {str(i % 4 == 1).lower()}",
             f"asleep = {str(i % 5 == 2).lower()}"]
    if procedure == "world-map":
        lines += [f"per = {1 + (3 * i + shift) % 10}", f"survival = {(7 * i + shift) % 21}"]
    return lines


def distinct_scenario(folder: Path, system: str, procedure: str, size: int) -> Path:
    """Write a fight of size members a side, all different; in a Fallout Sneak Attack every member opens"""
    head = [f'system = "{system}"', f'procedure = "{procedure}"']
    if procedure in ("total", "quick-contest"):
        head.append('surprising = "a"')
    if procedure == "world-map":
        head.append("dc = 15")
    lines = []
    for side in "ab":
        lines.append(f"[sides.{side}]")
        if procedure == "partial":
            lines.append(f'leader = "{side}0"')
        if procedure == "quick-contest" and side == "b":
            lines.append("expecting_trouble = false")
        for index in range(size):
            lines += [f"[[sides.{side}.members]]", f'name = "{side}{index}"',
                      *distinct_member(system, procedure, side, index)]
    if procedure == "sneak-attack":
        lines += [line for side in "ab" for i in range(size)
                  for line in ("[[openers]]", f'name = "{side}{i}"', f"attack_bonus = {(3 * i + (side == 'b')) % 12}",
                               f"target_number = {10 + (5 * i) % 25}")]
    path = folder / f"distinct-{system}-{procedure}-{size}.toml"
    path.write_text("\n".join(head + lines) + "\n", encoding="utf-8")
    return path


def distinct_label(system: str, procedure: str) -> str:
    """Name a procedure in the table"""
    openers = ", every member an opener" if procedure == "sneak-attack" else ""
    return f"{system} {procedure}{openers}"


def distinct_odds_rows(work: Path, runs: int) -> list[Row]:
    """`ambush odds` on fights of distinct members: against the baseline up to 50 a side, then 1,000 and 10,000"""
    folder = work / "distinct"
    folder.mkdir()
    rows: list[Row] = []
    for size in (10, 50):  # one interleaved run per size: short rounds, so a load that drifts skews them less
        small = {f"{distinct_label(*case)}, {size} a side": ambush("odds", str(distinct_scenario(folder, *case, size)))
                 for case in DISTINCT}
        measured = side_by_side({"baseline": BASELINE, **small}, max(runs, 11))
        baseline = measured.pop("baseline")[0]
        rows.append((f"`python -c \"import click, pydantic\"` (baseline, run with the {size}-a-side rows below)",
                     f"{baseline:.0f} ms", ""))
        for label, (ms, _) in measured.items():
            ratio = ms / baseline
            rows.append((f"`ambush odds`, {label}", f"{ms:.0f} ms = {ratio:.2f}× baseline",
                         f"≤ 1.5× baseline: {verdict(ratio <= 1.5)}"))
    large = {f"{distinct_label(*case)}, 1,000 a side": ambush("odds", str(distinct_scenario(folder, *case, 1000)))
             for case in DISTINCT}
    for label, (ms, mb) in side_by_side(large, runs).items():
        rows.append((f"`ambush odds`, {label}", f"{ms:.0f} ms, {mb:.0f} MB",
                     f"< 1000 ms and < 100 MB: {verdict(ms < 1000 and mb < 100)}"))
    huge = {}
    for case in DISTINCT:
        path = str(distinct_scenario(folder, *case, 10_000))
        huge[f"{distinct_label(*case)}, 10,000 a side"] = ambush("odds", path)
        huge[f"{distinct_label(*case)}, 10,000 a side, `--json`"] = ambush("odds", "--json", path)
    for label, (ms, mb) in side_by_side(huge, max(3, runs // 3)).items():
        rows.append((f"`ambush odds`, {label}", f"{ms:.0f} ms, {mb:.0f} MB",
                     f"< 5000 ms and < 200 MB: {verdict(ms < 5000 and mb < 200)}"))
    return rows


def distinct_js_rows(work: Path, runs: int) -> list[Row]:
    """The JS odds in Node on fights of distinct members: 40 combatants, then 1,000 a side"""
    folder = work / "distinct-js"
    folder.mkdir()
    sizes = {20: "20 a side (40 combatants)", 1000: "1,000 a side"}
    scenarios = {f"{distinct_label(*case)}, {label}": distinct_scenario(folder, *case, size)
                 for size, label in sizes.items() for case in DISTINCT}
    rows: list[Row] = []
    for name, times in js_odds_benchmark(folder / "build", scenarios, max(runs, 21)).items():
        goal = 20 if name.endswith(sizes[20]) else 200
        rows.append((f"JS odds in Node, {name}", f"{times['median']:.2f} ms (first call {times['first']:.1f} ms)",
                     f"< {goal} ms: {verdict(times['median'] < goal)}"))
    return rows


Row = tuple[str, str, str]  # benchmark, measured, target (met or not)


def verdict(met: bool) -> str:
    """Say whether a target is met"""
    return "met" if met else "**not met**"


def main() -> None:
    """Run every benchmark and print (or write) the table"""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--write", action="store_true", help="replace the table in README.md")
    parser.add_argument("--only", choices=["build", "store"], help="run only these benchmarks (print, never --write)")
    args = parser.parse_args()
    if args.only and args.write:
        parser.error("--write needs every benchmark")
    runs = args.runs
    load = os.getloadavg()[0]  # a busy machine slows every absolute figure; the ratios ran interleaved
    byte_compile()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if args.only == "store":
            print_rows(runtime_store_rows(work / "store", runs), runs, load, args.write)
            return
        help_ms, _ = side_by_side({"help": ambush("--help")}, runs)["help"]
        rows.append(("cold `ambush --help`", f"{help_ms:.0f} ms", f"< 150 ms: {verdict(help_ms < 150)}"))
        rows += build_rows(work / "build", runs)
        if args.only == "build":
            print_rows(rows, runs, load, args.write)
            return
        large = large_scenarios(work)
        measured = side_by_side({label: ambush("odds", str(path)) for label, path in large.items()}, runs)
        for label, (ms, mb) in measured.items():
            watchers = "watchers" in label
            goal, met = ("< 1000 ms and < 100 MB", ms < 1000 and mb < 100) if watchers else ("< 1000 ms", ms < 1000)
            rows.append((f"`ambush odds`, {label}", f"{ms:.0f} ms, {mb:.0f} MB", f"{goal}: {verdict(met)}"))
        examples = side_by_side({"baseline": BASELINE, **{p.stem: ambush("odds", str(p)) for p in EXAMPLES}}, runs)
        baseline = examples.pop("baseline")[0]
        rows.append(("`python -c \"import click, pydantic\"` (baseline)", f"{baseline:.0f} ms", ""))
        for name, (ms, _) in examples.items():
            ratio = ms / baseline
            rows.append((f"`ambush odds` {name}", f"{ms:.0f} ms = {ratio:.2f}× baseline",
                         f"≤ 1.5× baseline: {verdict(ratio <= 1.5)}"))
        js = js_odds_benchmark(work / "js", {**{p.stem: p for p in EXAMPLES}, **large}, max(runs, 21))
        for name, times in js.items():
            rows.append((f"JS odds in Node, {name}", f"{times['median']:.2f} ms (first call {times['first']:.1f} ms)",
                         f"< 16 ms (a frame): {verdict(times['median'] < 16)}"))
        rows += distinct_odds_rows(work, runs)
        rows += distinct_js_rows(work, runs)
        ours, cli = pack_benchmark(work, runs)
        ratio = statistics.median(cli) / statistics.median(ours)
        rows.append(("pack writing, ambush", f"{statistics.median(ours):.1f} ms", ""))
        rows.append(("pack compile, official CLI 3.0.3", f"{statistics.median(cli):.1f} ms = {ratio:.1f}× ambush",
                     f"≥ 3× ambush: {verdict(ratio >= 3)}"))
        rows += scale_rows(work / "scale", runs)
        (work / "web-edit").mkdir()
        rows += edit_rows(work / "web-edit")  # 41 edits of one field of a 200-combatant draft in Chromium
        rows += web_state_rows(work)  # once: 50 rounds of a 200-combatant fight in Chromium
    print_rows(rows, runs, load, args.write)


def print_rows(rows: list[Row], runs: int, load: float, write: bool) -> None:
    """Print the table of measured rows, and write it into the README when asked"""
    table = [f"Medians of {runs} runs on {os.cpu_count()} cores (load average {load:.1f} at the start), "
             f"{time.strftime('%Y-%m-%d')}, ambush's modules "
             "byte-compiled as an install compiles them; the odds commands and their baseline ran interleaved in one "
             "run.", "",
             "| benchmark | measured | target |", "|---|---:|---|"]
    table += [f"| {label} | {value} | {target} |" for label, value, target in rows]
    text = "\n".join(table)
    print(text)
    if write:
        readme = ROOT / "README.md"
        content = readme.read_text(encoding="utf-8")
        before, _, rest = content.partition(START)
        _, _, after = rest.partition(END)
        readme.write_text(f"{before}{START}\n{text}\n{END}{after}", encoding="utf-8")
    shutil.rmtree(ROOT / "benchmarks" / "__pycache__", ignore_errors=True)


if __name__ == "__main__":
    main()
