"""How the example scripts pass a turn beside the scripts that follow the turn order, each case as its own test"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, node_file_tests, run_node_tests

FILE = ROOT / "tests" / "roll20" / "passing.test.mjs"


@pytest.fixture(scope="module")
def run(examples):
    return run_node_tests(FILE, {"SCRIPTS_DIR": str(examples)})


test_roll20_passing, test_roll20_passing_file = node_file_tests(FILE)
