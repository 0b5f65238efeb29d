"""Cards that fit: the example Roll20 scripts' chat messages stay within the budget, and the paged draft stays usable"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, assert_node_case, assert_node_file, node_cases, run_node_tests

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

FILE = ROOT / "tests" / "roll20" / "cards.test.mjs"


@pytest.fixture(scope="module")
def run(examples):
    return run_node_tests(FILE, {"SCRIPTS_DIR": str(examples)})


@pytest.mark.parametrize("case", node_cases(FILE))
def test_cards_fit(case, run):
    assert_node_case(run, case)


def test_cards_fit_file(run):
    assert_node_file(run)
