"""Every conformance vector played through a generated Roll20 Mod script in the emulated Mod sandbox"""

from __future__ import annotations

import json

import pytest

from tests.conformance import run_roll20
from tests.conftest import VECTORS


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, dict]:
    return run_roll20(tmp_path_factory.mktemp("roll20-conformance"))


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector_in_the_roll20_script(path, results):
    record = results.get(path.stem)
    assert record is not None, "the runner printed nothing for this vector"
    assert record["ok"], json.dumps(record, indent=2)
