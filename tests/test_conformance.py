"""Every conformance vector played through the table session on a fake host, through a generated Foundry module in the
emulated V13 and V14 clients, and through a generated Roll20 Mod script in the emulated Mod sandbox"""

from __future__ import annotations

import json

import pytest

from tests.conformance import run_everywhere
from tests.conftest import VECTORS

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

TARGETS = ("session", "foundry-v13", "foundry-v14", "roll20")


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, dict[str, dict]]:
    return run_everywhere(tmp_path_factory.mktemp("conformance"))


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector(path, target, results):
    record = results[target].get(path.stem)
    assert record is not None, "the runner printed nothing for this vector"
    assert record["ok"], json.dumps(record, indent=2)
