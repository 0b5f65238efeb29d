"""The example modules following a real table in the emulated V13 and V14 clients: rewinds, ARS's re-roll, re-sorts"""

from __future__ import annotations

import pytest

from tests.conformance import FOUNDRY_GENERATIONS
from tests.conftest import ROOT, node_file_tests, run_node_generation

FILE = ROOT / "tests" / "foundry" / "follow.test.mjs"


@pytest.fixture(scope="module", params=FOUNDRY_GENERATIONS, ids=lambda g: f"v{g}")
def run(request, examples):
    return run_node_generation(FILE, request.param, {"MODULES_DIR": str(examples)})


test_follow_behaviour, test_follow_behaviour_file = node_file_tests(FILE)
