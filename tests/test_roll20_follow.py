"""The example scripts following a real Roll20 table beside the community scripts, each case as its own test"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, assert_node_case, assert_node_file, node_cases, run_node_tests

FILE = ROOT / "tests" / "roll20" / "follow.test.mjs"


@pytest.fixture(scope="module")
def run(examples):
    return run_node_tests(FILE, {"SCRIPTS_DIR": str(examples)})


@pytest.mark.parametrize("case", node_cases(FILE))
def test_roll20_follow(case, run):
    assert_node_case(run, case)


def test_roll20_follow_file(run):
    assert_node_file(run)
