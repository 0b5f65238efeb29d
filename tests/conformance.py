"""Shared by the conformance tests: group the vectors by rules options, build one campaign per group, run a runner"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from exporter.build import build_campaigns
from tests.conftest import VECTORS, run_node


def option_groups() -> dict[tuple[str, str], list[Path]]:
    """Group the vectors by system and rules options: one module is built for each group"""
    groups: dict[tuple[str, str], list[Path]] = defaultdict(list)
    for path in VECTORS:
        scenario = json.loads(path.read_text(encoding="utf-8"))["scenario"]
        groups[(scenario["system"], json.dumps(scenario.get("options", {}), sort_keys=True))].append(path)
    return dict(sorted(groups.items()))


def campaign_toml(system: str, options: dict, index: int, target: str) -> str:
    lines = [f'id = "conformance-{index}"', 'title = "Conformance"', 'version = "1.0.0"', f'system = "{system}"',
             'languages = ["en"]', f'targets = ["{target}"]', "[options]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in options.items()]
    return "\n".join(lines) + "\n"


def run_groups(root: Path, target: str, runner: str, runner_args: Callable[[Path, Path], list[str]]) -> dict[str, dict]:
    """Build one campaign per option group for a target, run the vectors through a Node runner, keyed by vector"""
    outcome: dict[str, dict] = {}
    for index, ((system, options), paths) in enumerate(option_groups().items()):
        campaign = root / f"campaign-{index}.toml"
        campaign.write_text(campaign_toml(system, json.loads(options), index, target), encoding="utf-8")
        build_campaigns([campaign], root / "dist", make_zip=False)
        done = run_node(runner, *runner_args(campaign, root / "dist"), *map(str, paths))
        assert done.returncode == 0, done.stderr
        for line in done.stdout.splitlines():
            if line.startswith("{"):
                record = json.loads(line)
                outcome[record["vector"]] = record
    return outcome
