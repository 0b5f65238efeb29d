"""The models of community Mod scripts that move the turn order, in the emulated sandbox, each case as its own test"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, node_file_tests, run_node_tests

FILE = ROOT / "tests" / "roll20" / "community.test.mjs"


@pytest.fixture(scope="module")
def run(examples):
    return run_node_tests(FILE, {"SCRIPTS_DIR": str(examples)})


test_roll20_community, test_roll20_community_file = node_file_tests(FILE)
