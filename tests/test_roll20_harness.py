"""Run the Node self-tests of the Roll20 Mod sandbox emulation, each case as its own test"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, node_file_tests, run_node_tests

FILE = ROOT / "tests" / "roll20" / "harness.test.mjs"


@pytest.fixture(scope="module")
def run():
    return run_node_tests(FILE)


test_roll20_harness, test_roll20_harness_file = node_file_tests(FILE)
