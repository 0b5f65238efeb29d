"""The example Roll20 scripts against characters shaped like the GURPS and AD&D 1e sheets, in the emulated sandbox"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, assert_node_case, assert_node_file, node_cases, run_node_tests

FILE = ROOT / "tests" / "roll20" / "sheets.test.mjs"


@pytest.fixture(scope="module")
def run(examples):
    # The characters come from fixtures/sheets/roll20/; the scripts read them with exporter/sheets.py's default readers.
    return run_node_tests(FILE, {"SCRIPTS_DIR": str(examples)})


@pytest.mark.parametrize("case", node_cases(FILE))
def test_sheet_behaviour(case, run):
    assert_node_case(run, case)


def test_sheet_behaviour_file(run):
    assert_node_file(run)
