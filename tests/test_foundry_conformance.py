"""Every conformance vector played through a generated Foundry module in the emulated Foundry client"""

from __future__ import annotations

import json

import pytest

from tests.conformance import run_foundry
from tests.conftest import VECTORS


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, dict]:
    return run_foundry(tmp_path_factory.mktemp("conformance"))


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector_in_the_foundry_module(path, results):
    record = results.get(path.stem)
    assert record is not None, "the runner printed nothing for this vector"
    assert record["ok"], json.dumps(record, indent=2)
