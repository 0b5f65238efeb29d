"""Every conformance vector played through a generated Foundry module in the emulated Foundry client"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from tests.conformance import run_groups
from tests.conftest import VECTORS

GAME_SYSTEMS = {"gurps4e": "gurps", "adnd1e": "ars", "fallout-ttrpg": "fallout-homebrew"}


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, dict]:
    def module_and_system(campaign: Path, dist: Path) -> list[str]:
        campaign_id = campaign.stem.replace("campaign", "conformance")
        system = tomllib.loads(campaign.read_text(encoding="utf-8"))["system"]
        return [str(dist / campaign_id / "foundry"), GAME_SYSTEMS[system]]

    return run_groups(tmp_path_factory.mktemp("conformance"), "foundry", "tests/foundry/conformance.mjs",
                      module_and_system)


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector_in_the_foundry_module(path, results):
    record = results.get(path.stem)
    assert record is not None, "the runner printed nothing for this vector"
    assert record["ok"], json.dumps(record, indent=2)
