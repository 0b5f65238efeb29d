"""The table session and the draft form on a plain fake host (tests/js/session.test.mjs), and a draft's combatants and
their edits (tests/js/draft_combatants.test.mjs), case by case"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, assert_node_case, assert_node_file, node_cases, run_node_tests
from tests.js_tree import write_common_tree

FILE = ROOT / "tests" / "js" / "session.test.mjs"
EDITS = ROOT / "tests" / "js" / "draft_combatants.test.mjs"


# The environment variable of each system's common tree, as the node:test files read it
TREES = {"GURPS_TREE": "gurps4e", "FALLOUT_TREE": "fallout-ttrpg", "ADND_TREE": "adnd1e"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Run each node:test file once on the three systems' common trees"""
    folder = tmp_path_factory.mktemp("session")
    trees = {name: str(write_common_tree(folder / system, system)) for name, system in TREES.items()}
    return {path: run_node_tests(path, trees) for path in (FILE, EDITS)}


@pytest.mark.parametrize("case", node_cases(FILE))
def test_session_behaviour(case, runs):
    assert_node_case(runs[FILE], case)


def test_session_behaviour_file(runs):
    assert_node_file(runs[FILE])


@pytest.mark.parametrize("case", node_cases(EDITS))
def test_draft_combatants(case, runs):
    assert_node_case(runs[EDITS], case)


def test_draft_combatants_file(runs):
    assert_node_file(runs[EDITS])
