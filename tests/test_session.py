"""The table session and the draft form on a plain fake host (tests/js/session.test.mjs), case by case"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, assert_node_case, assert_node_file, node_cases, run_node_tests
from tests.js_tree import write_common_tree

FILE = ROOT / "tests" / "js" / "session.test.mjs"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("session")
    gurps = write_common_tree(folder / "gurps", "gurps4e")
    fallout = write_common_tree(folder / "fallout", "fallout-ttrpg")
    adnd = write_common_tree(folder / "adnd", "adnd1e")
    return run_node_tests(FILE, {"GURPS_TREE": str(gurps), "FALLOUT_TREE": str(fallout), "ADND_TREE": str(adnd)})


@pytest.mark.parametrize("case", node_cases(FILE))
def test_session_behaviour(case, run):
    assert_node_case(run, case)


def test_session_behaviour_file(run):
    assert_node_file(run)
