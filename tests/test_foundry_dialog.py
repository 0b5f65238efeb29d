"""The example modules' GM dialog in a real DOM: live odds against the CLI's, edits, problems, export, hostile names"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.conformance import FOUNDRY_GENERATIONS
from tests.conftest import ROOT, node_file_tests, run_node_tests

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

FILE = ROOT / "tests" / "foundry" / "dialog.test.mjs"


@pytest.fixture(scope="module")
def odds_cache(tmp_path_factory) -> Path:
    """A folder for the CLI's odds, shared by both generations' runs: they ask the same scenario files"""
    return tmp_path_factory.mktemp("dialog-odds")


@pytest.fixture(scope="module", params=FOUNDRY_GENERATIONS, ids=lambda g: f"v{g}")
def run(request, examples, odds_cache):
    env = {"MODULES_DIR": str(examples), "FOUNDRY_GENERATION": str(request.param), "AMBUSH_PYTHON": sys.executable,
           "AMBUSH_ODDS_CACHE": str(odds_cache)}
    return run_node_tests(FILE, env)


test_dialog_behaviour, test_dialog_behaviour_file = node_file_tests(FILE)
