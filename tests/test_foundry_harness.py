"""Run the Node self-tests of the Foundry emulation harness, each case as its own test"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, assert_node_case, assert_node_file, node_cases, run_node_tests

FILE = ROOT / "tests" / "foundry" / "harness.test.mjs"


@pytest.fixture(scope="module")
def run():
    return run_node_tests(FILE)


@pytest.mark.parametrize("case", node_cases(FILE))
def test_foundry_harness(case, run):
    assert_node_case(run, case)


def test_foundry_harness_file(run):
    assert_node_file(run)
