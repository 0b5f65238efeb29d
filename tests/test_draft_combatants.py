"""A draft's combatants and the edits of them every host can offer (tests/js/draft_combatants.test.mjs), case by case"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, assert_node_case, assert_node_file, node_cases, run_node_tests
from tests.js_tree import write_common_tree

FILE = ROOT / "tests" / "js" / "draft_combatants.test.mjs"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("draft-combatants")
    gurps = write_common_tree(folder / "gurps", "gurps4e")
    fallout = write_common_tree(folder / "fallout", "fallout-ttrpg")
    return run_node_tests(FILE, {"GURPS_TREE": str(gurps), "FALLOUT_TREE": str(fallout)})


@pytest.mark.parametrize("case", node_cases(FILE))
def test_draft_combatants(case, run):
    assert_node_case(run, case)


def test_draft_combatants_file(run):
    assert_node_file(run)
