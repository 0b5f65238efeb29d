"""The table session and the draft form on a plain fake host (tests/js/session.test.mjs), and a draft's combatants and
their edits (tests/js/draft_combatants.test.mjs), case by case"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, assert_node_case, assert_node_file, node_cases, run_node_tests
from tests.js_tree import write_common_tree

FILE = ROOT / "tests" / "js" / "session.test.mjs"
EDITS = ROOT / "tests" / "js" / "draft_combatants.test.mjs"


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    folder = tmp_path_factory.mktemp("session")
    gurps = write_common_tree(folder / "gurps", "gurps4e")
    fallout = write_common_tree(folder / "fallout", "fallout-ttrpg")
    adnd = write_common_tree(folder / "adnd", "adnd1e")
    return {"GURPS_TREE": str(gurps), "FALLOUT_TREE": str(fallout), "ADND_TREE": str(adnd)}


@pytest.fixture(scope="module")
def run(trees):
    return run_node_tests(FILE, trees)


@pytest.fixture(scope="module")
def edits_run(trees):
    return run_node_tests(EDITS, trees)


@pytest.mark.parametrize("case", node_cases(FILE))
def test_session_behaviour(case, run):
    assert_node_case(run, case)


def test_session_behaviour_file(run):
    assert_node_file(run)


@pytest.mark.parametrize("case", node_cases(EDITS))
def test_draft_combatants(case, edits_run):
    assert_node_case(edits_run, case)


def test_draft_combatants_file(edits_run):
    assert_node_file(edits_run)
