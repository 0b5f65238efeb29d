"""Runtime robustness of the generated example module and script: vanished documents and tokens, several clients,
old or damaged saved state, a damaged turn order, a restart or reload mid-surprise"""

from __future__ import annotations

import pytest

from tests.conformance import FOUNDRY_GENERATIONS
from tests.conftest import ROOT, node_file_tests, run_node_generation, run_node_tests

FOUNDRY = ROOT / "tests" / "foundry" / "robustness.test.mjs"
ROLL20 = ROOT / "tests" / "roll20" / "robustness.test.mjs"


@pytest.fixture(scope="module", params=FOUNDRY_GENERATIONS, ids=lambda g: f"v{g}")
def foundry_run(request, examples):
    return run_node_generation(FOUNDRY, request.param, {"MODULES_DIR": str(examples)})


@pytest.fixture(scope="module")
def roll20_run(examples):
    return run_node_tests(ROLL20, {"SCRIPTS_DIR": str(examples)})


test_foundry_module_robustness, test_foundry_module_robustness_file = node_file_tests(FOUNDRY, "foundry_run")


test_roll20_script_robustness, test_roll20_script_robustness_file = node_file_tests(ROLL20, "roll20_run")
