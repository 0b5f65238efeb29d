"""Run the Node self-tests of the Foundry emulation harness, each case as its own test"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, node_file_tests, run_node_tests

FILE = ROOT / "tests" / "foundry" / "harness.test.mjs"


@pytest.fixture(scope="module")
def run():
    return run_node_tests(FILE)


test_foundry_harness, test_foundry_harness_file = node_file_tests(FILE)
