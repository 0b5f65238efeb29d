"""Shared by the conformance tests: group vectors by rules options, build one campaign per group, run a runner"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path

from exporter.build import build_campaigns
from exporter.campaign import load_campaign
from exporter.definitions import build_definitions
from exporter.targets.roll20 import Roll20Writer, script_name
from tests.conftest import VECTORS, run_node

FOUNDRY_RUNNER = "tests/foundry/conformance.mjs"
FOUNDRY_GENERATIONS = (13, 14)  # the Foundry releases the emulation runs (tests/foundry/harness.mjs GENERATIONS)
ROLL20_RUNNER = "tests/roll20/conformance.mjs"
# The game system the emulated world runs when the module requires none: any id the module does not know.
ANY_GAME_SYSTEM = "any-game-system"


def option_groups(paths: Iterable[Path] = VECTORS) -> dict[tuple[str, str], list[Path]]:
    """Group vector files by system and rules options: one module is built for each group"""
    groups: dict[tuple[str, str], list[Path]] = defaultdict(list)
    for path in paths:
        scenario = json.loads(path.read_text(encoding="utf-8"))["scenario"]
        groups[(scenario["system"], json.dumps(scenario.get("options", {}), sort_keys=True))].append(path)
    return dict(sorted(groups.items()))


def campaign_toml(system: str, options: dict, index: int, target: str) -> str:
    lines = [f'id = "conformance-{index}"', 'title = "Conformance"', 'version = "1.0.0"', f'system = "{system}"',
             'languages = ["en"]', f'targets = ["{target}"]', "[options]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in options.items()]
    return "\n".join(lines) + "\n"


def run_groups(root: Path, target: str, runner: str, runner_args: Callable[[Path, Path], list[str]],
               vectors: Iterable[Path] = VECTORS, jobs: int = 1) -> dict[str, dict]:
    """Build one campaign per option group for a target, run the vectors through a Node runner, keyed by vector

    Each group is one Node process, however many vectors it holds; jobs of them run at a time.
    """
    runs: list[list[str]] = []
    for index, ((system, options), paths) in enumerate(option_groups(vectors).items()):
        campaign = root / f"campaign-{index}.toml"
        campaign.write_text(campaign_toml(system, json.loads(options), index, target), encoding="utf-8")
        build_campaigns([campaign], root / "dist", make_zip=False)
        runs.append([runner, *runner_args(campaign, root / "dist"), *map(str, paths)])
    runs.sort(key=len, reverse=True)  # the biggest groups first, so that parallel runs end together
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        finished = list(pool.map(lambda args: run_node(*args), runs))
    outcome: dict[str, dict] = {}
    for done in finished:
        assert done.returncode == 0, done.stderr
        for line in done.stdout.splitlines():
            if line.startswith("{"):
                record = json.loads(line)
                outcome[record["vector"]] = record
    return outcome


def game_system(module: Path) -> str:
    """Return the game system the built module requires (module.json relationships), or any other"""
    manifest = json.loads((module / "module.json").read_text(encoding="utf-8"))
    systems = manifest["relationships"]["systems"]
    return systems[0]["id"] if systems else ANY_GAME_SYSTEM


def foundry_runner_args(campaign: Path, dist: Path) -> list[str]:
    """Return what the Foundry runner needs: the built module's folder and the game system it runs in"""
    module = dist / campaign.stem.replace("campaign", "conformance") / "foundry"
    return [str(module), game_system(module)]


def roll20_runner_config(campaign_path: Path, dist: Path) -> dict:
    """What the Roll20 runner needs to know about the built script: its file, name, sheet attributes and markers"""
    campaign = load_campaign(campaign_path)
    defs = build_definitions(campaign)
    context = Roll20Writer().context(defs)
    name = script_name(campaign.id)
    return {
        "script": str(dist / campaign.id / "roll20" / f"{name}.js"),
        "scriptName": name,
        "attributes": defs.targets["roll20"].attributes,
        "markers": context["markers"],
        "procedures": {p.id: [asdict(i) for i in p.inputs] for p in defs.procedures},
    }


def roll20_runner_args(campaign: Path, dist: Path) -> list[str]:
    """Write the Roll20 runner's config file next to the campaign and return its path"""
    config = campaign.with_suffix(".json")
    config.write_text(json.dumps(roll20_runner_config(campaign, dist)), encoding="utf-8")
    return [str(config)]


def run_foundry(root: Path, vectors: Iterable[Path] = VECTORS, jobs: int = 1,
                generation: int = 13) -> dict[str, dict]:
    """Play vector files through generated Foundry modules in an emulated V13 or V14 client, a module per group"""

    def runner_args(campaign: Path, dist: Path) -> list[str]:
        """Return the Foundry runner's arguments, the generation first"""
        return ["--generation", str(generation), *foundry_runner_args(campaign, dist)]

    return run_groups(root, "foundry", FOUNDRY_RUNNER, runner_args, vectors, jobs)


def run_roll20(root: Path, vectors: Iterable[Path] = VECTORS, jobs: int = 1) -> dict[str, dict]:
    """Play vector files through generated Roll20 scripts, one script and Node process per option group"""
    return run_groups(root, "roll20", ROLL20_RUNNER, roll20_runner_args, vectors, jobs)
