"""Every conformance vector played through a generated Foundry module in the emulated Foundry client"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conformance import run_groups
from tests.conftest import VECTORS

# The game system the emulated world runs when the module requires none: any id the module does not know.
ANY_GAME_SYSTEM = "any-game-system"


def game_system(module: Path) -> str:
    """Return the game system the built module requires (module.json relationships), or any other"""
    manifest = json.loads((module / "module.json").read_text(encoding="utf-8"))
    systems = manifest["relationships"]["systems"]
    return systems[0]["id"] if systems else ANY_GAME_SYSTEM


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, dict]:
    def module_and_system(campaign: Path, dist: Path) -> list[str]:
        module = dist / campaign.stem.replace("campaign", "conformance") / "foundry"
        return [str(module), game_system(module)]

    return run_groups(tmp_path_factory.mktemp("conformance"), "foundry", "tests/foundry/conformance.mjs",
                      module_and_system)


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector_in_the_foundry_module(path, results):
    record = results.get(path.stem)
    assert record is not None, "the runner printed nothing for this vector"
    assert record["ok"], json.dumps(record, indent=2)
