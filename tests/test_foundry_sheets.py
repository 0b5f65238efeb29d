"""The example modules against GURPS Game Aid and ARS shaped actors and trackers in the emulated Foundry client"""

from __future__ import annotations

import pytest

from exporter.build import build_campaigns
from tests.conftest import ROOT, assert_node_case, assert_node_file, node_cases, run_node_tests

FILE = ROOT / "tests" / "foundry" / "sheets.test.mjs"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    modules = tmp_path_factory.mktemp("foundry-modules")
    build_campaigns([], modules, target="foundry", make_zip=False)
    return run_node_tests(FILE, {"MODULES_DIR": str(modules)})


@pytest.mark.parametrize("case", node_cases(FILE))
def test_sheet_behaviour(case, run):
    assert_node_case(run, case)


def test_sheet_behaviour_file(run):
    assert_node_file(run)
