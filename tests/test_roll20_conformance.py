"""Every conformance vector played through a generated Roll20 Mod script in the emulated Mod sandbox"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from exporter.build import build_campaigns
from exporter.campaign import load_campaign
from exporter.definitions import build_definitions
from exporter.targets.roll20 import Roll20Writer, script_name
from tests.conftest import VECTORS, run_node
from tests.test_foundry_conformance import campaign_toml, option_groups


def runner_config(campaign_path: Path, dist: Path) -> dict:
    """What the runner needs to know about the built script: its file, name, sheet attributes and markers"""
    campaign = load_campaign(campaign_path)
    defs = build_definitions(campaign)
    context = Roll20Writer().context(defs)
    name = script_name(campaign.id)
    return {
        "script": str(dist / campaign.id / "roll20" / f"{name}.js"),
        "scriptName": name,
        "attributes": campaign.roll20_attributes,
        "markers": context["markers"],
        "procedures": {p.id: [asdict(i) for i in p.inputs] for p in defs.procedures},
    }


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, dict]:
    root = tmp_path_factory.mktemp("roll20-conformance")
    outcome: dict[str, dict] = {}
    for index, ((system, options), paths) in enumerate(option_groups().items()):
        campaign = root / f"campaign-{index}.toml"
        campaign.write_text(campaign_toml(system, json.loads(options), index).replace(
            'targets = ["foundry"]', 'targets = ["roll20"]'), encoding="utf-8")
        build_campaigns([campaign], root / "dist", make_zip=False)
        config = root / f"config-{index}.json"
        config.write_text(json.dumps(runner_config(campaign, root / "dist")), encoding="utf-8")
        done = run_node("tests/roll20/conformance.mjs", str(config), *map(str, paths))
        assert done.returncode == 0, done.stderr
        for line in done.stdout.splitlines():
            if line.startswith("{"):
                record = json.loads(line)
                outcome[record["vector"]] = record
    return outcome


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector_in_the_roll20_script(path, results):
    record = results.get(path.stem)
    assert record is not None, "the runner printed nothing for this vector"
    assert record["ok"], json.dumps(record, indent=2)
