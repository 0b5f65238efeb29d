"""Every conformance vector played through a generated Foundry module in the emulated Foundry client"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from exporter.build import build_campaigns
from tests.conftest import VECTORS, run_node

GAME_SYSTEMS = {"gurps4e": "gurps", "adnd1e": "ars", "fallout-ttrpg": "fallout-homebrew"}


def option_groups() -> dict[tuple[str, str], list[Path]]:
    """Group the vectors by system and rules options: one module is built for each group"""
    groups: dict[tuple[str, str], list[Path]] = defaultdict(list)
    for path in VECTORS:
        scenario = json.loads(path.read_text(encoding="utf-8"))["scenario"]
        groups[(scenario["system"], json.dumps(scenario.get("options", {}), sort_keys=True))].append(path)
    return dict(sorted(groups.items()))


def campaign_toml(system: str, options: dict, index: int) -> str:
    lines = [f'id = "conformance-{index}"', 'title = "Conformance"', 'version = "1.0.0"', f'system = "{system}"',
             'languages = ["en"]', 'targets = ["foundry"]', "[options]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in options.items()]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, dict]:
    root = tmp_path_factory.mktemp("conformance")
    outcome: dict[str, dict] = {}
    for index, ((system, options), paths) in enumerate(option_groups().items()):
        campaign = root / f"campaign-{index}.toml"
        campaign.write_text(campaign_toml(system, json.loads(options), index), encoding="utf-8")
        build_campaigns([campaign], root / "dist", make_zip=False)
        module = root / "dist" / f"conformance-{index}" / "foundry"
        done = run_node("tests/foundry/conformance.mjs", str(module), GAME_SYSTEMS[system], *map(str, paths))
        assert done.returncode == 0, done.stderr
        for line in done.stdout.splitlines():
            if line.startswith("{"):
                record = json.loads(line)
                outcome[record["vector"]] = record
    return outcome


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector_in_the_foundry_module(path, results):
    record = results.get(path.stem)
    assert record is not None, "the runner printed nothing for this vector"
    assert record["ok"], json.dumps(record, indent=2)
