"""The generated example modules in the emulated V13 and V14 clients: languages, API, dialog, GM gating, clean-up"""

from __future__ import annotations

import pytest

from tests.conformance import FOUNDRY_GENERATIONS
from tests.conftest import ROOT, assert_node_case, assert_node_file, node_cases, run_node_generation

FILE = ROOT / "tests" / "foundry" / "module.test.mjs"


@pytest.fixture(scope="module", params=FOUNDRY_GENERATIONS, ids=lambda g: f"v{g}")
def run(request, examples):
    return run_node_generation(FILE, request.param, {"MODULES_DIR": str(examples)})


@pytest.mark.parametrize("case", node_cases(FILE))
def test_module_behaviour(case, run):
    assert_node_case(run, case)


def test_module_behaviour_file(run):
    assert_node_file(run)
