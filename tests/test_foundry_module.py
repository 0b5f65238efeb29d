"""The generated example modules in the emulated V13 and V14 clients: languages, API, dialog, GM gating, clean-up"""

from __future__ import annotations

import pytest

from tests.conformance import FOUNDRY_GENERATIONS
from tests.conftest import ROOT, node_file_tests, run_node_generation

FILE = ROOT / "tests" / "foundry" / "module.test.mjs"


@pytest.fixture(scope="module", params=FOUNDRY_GENERATIONS, ids=lambda g: f"v{g}")
def run(request, examples):
    return run_node_generation(FILE, request.param, {"MODULES_DIR": str(examples)})


test_module_behaviour, test_module_behaviour_file = node_file_tests(FILE)
