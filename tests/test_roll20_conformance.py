"""Every conformance vector played through a generated Roll20 Mod script in the emulated Mod sandbox"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from exporter.campaign import load_campaign
from exporter.definitions import build_definitions
from exporter.targets.roll20 import Roll20Writer, script_name
from tests.conformance import run_groups
from tests.conftest import VECTORS


def runner_config(campaign_path: Path, dist: Path) -> dict:
    """What the runner needs to know about the built script: its file, name, sheet attributes and markers"""
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


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, dict]:
    def config_file(campaign: Path, dist: Path) -> list[str]:
        config = campaign.with_suffix(".json")
        config.write_text(json.dumps(runner_config(campaign, dist)), encoding="utf-8")
        return [str(config)]

    return run_groups(tmp_path_factory.mktemp("roll20-conformance"), "roll20", "tests/roll20/conformance.mjs",
                      config_file)


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector_in_the_roll20_script(path, results):
    record = results.get(path.stem)
    assert record is not None, "the runner printed nothing for this vector"
    assert record["ok"], json.dumps(record, indent=2)
