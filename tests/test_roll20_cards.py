"""Cards that fit: the example Roll20 scripts' chat messages stay within the budget, and the paged draft stays usable"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, node_file_tests, run_node_tests

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

FILE = ROOT / "tests" / "roll20" / "cards.test.mjs"


@pytest.fixture(scope="module")
def run(examples):
    return run_node_tests(FILE, {"SCRIPTS_DIR": str(examples)})


test_cards_fit, test_cards_fit_file = node_file_tests(FILE)
