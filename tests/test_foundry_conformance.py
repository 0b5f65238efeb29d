"""Every conformance vector played through a generated Foundry module in the emulated V13 and V14 clients"""

from __future__ import annotations

import json

import pytest

from tests.conformance import FOUNDRY_GENERATIONS, run_foundry
from tests.conftest import VECTORS


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[int, dict[str, dict]]:
    return {generation: run_foundry(tmp_path_factory.mktemp(f"conformance-v{generation}"), generation=generation)
            for generation in FOUNDRY_GENERATIONS}


@pytest.mark.parametrize("generation", FOUNDRY_GENERATIONS, ids=lambda g: f"v{g}")
@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector_in_the_foundry_module(path, generation, results):
    record = results[generation].get(path.stem)
    assert record is not None, "the runner printed nothing for this vector"
    assert record["ok"], json.dumps(record, indent=2)
