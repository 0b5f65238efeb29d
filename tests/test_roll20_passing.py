"""How the example scripts pass a turn beside the scripts that follow the turn order, each case as its own test"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, assert_node_case, assert_node_file, node_cases, run_node_tests

FILE = ROOT / "tests" / "roll20" / "passing.test.mjs"


@pytest.fixture(scope="module")
def run(examples):
    return run_node_tests(FILE, {"SCRIPTS_DIR": str(examples)})


@pytest.mark.parametrize("case", node_cases(FILE))
def test_roll20_passing(case, run):
    assert_node_case(run, case)


def test_roll20_passing_file(run):
    assert_node_file(run)
