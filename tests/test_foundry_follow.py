"""The example modules following a real table in the emulated V13 and V14 clients: rewinds, ARS's re-roll, re-sorts"""

from __future__ import annotations

import pytest

from tests.conformance import FOUNDRY_GENERATIONS
from tests.conftest import ROOT, assert_node_case, assert_node_file, node_cases, run_node_generation

FILE = ROOT / "tests" / "foundry" / "follow.test.mjs"


@pytest.fixture(scope="module", params=FOUNDRY_GENERATIONS, ids=lambda g: f"v{g}")
def run(request, examples):
    return run_node_generation(FILE, request.param, {"MODULES_DIR": str(examples)})


@pytest.mark.parametrize("case", node_cases(FILE))
def test_follow_behaviour(case, run):
    assert_node_case(run, case)


def test_follow_behaviour_file(run):
    assert_node_file(run)
