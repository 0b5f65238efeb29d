"""The example Roll20 scripts against characters shaped like the GURPS and AD&D 1e sheets, in the emulated sandbox"""

from __future__ import annotations

import json

import pytest

from exporter.sheets import roll20_reader, roll20_sheet
from tests.conftest import ROOT, assert_node_case, assert_node_file, node_cases, run_node_tests

FILE = ROOT / "tests" / "roll20" / "sheets.test.mjs"


@pytest.fixture(scope="module")
def run(examples):
    sheets = {system: {key: roll20_reader(reader) for key, reader in roll20_sheet(system).items()}
              for system in ("gurps4e", "adnd1e")}
    return run_node_tests(FILE, {"SCRIPTS_DIR": str(examples), "SHEETS": json.dumps(sheets)})


@pytest.mark.parametrize("case", node_cases(FILE))
def test_sheet_behaviour(case, run):
    assert_node_case(run, case)


def test_sheet_behaviour_file(run):
    assert_node_file(run)
