"""The example modules' GM dialog in a real DOM: live odds against the CLI's, edits, problems, export, hostile names"""

from __future__ import annotations

import sys

import pytest

from tests.conformance import FOUNDRY_GENERATIONS
from tests.conftest import ROOT, assert_node_case, assert_node_file, node_cases, run_node_tests

FILE = ROOT / "tests" / "foundry" / "dialog.test.mjs"


@pytest.fixture(scope="module", params=FOUNDRY_GENERATIONS, ids=lambda g: f"v{g}")
def run(request, examples):
    env = {"MODULES_DIR": str(examples), "FOUNDRY_GENERATION": str(request.param), "AMBUSH_PYTHON": sys.executable}
    return run_node_tests(FILE, env)


@pytest.mark.parametrize("case", node_cases(FILE))
def test_dialog_behaviour(case, run):
    assert_node_case(run, case)


def test_dialog_behaviour_file(run):
    assert_node_file(run)
