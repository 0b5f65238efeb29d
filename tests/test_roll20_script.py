"""The generated example Roll20 scripts in the emulated sandbox: banner, macros, help, GM gating, robustness"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, assert_node_case, assert_node_file, node_cases, run_node_tests

FILE = ROOT / "tests" / "roll20" / "script.test.mjs"
SPLIT = """id = "split-sides"
title = "Split"
version = "1.0.0"
system = "gurps4e"
[roll20]
side_rule = "turn-order-split"
"""


@pytest.fixture(scope="module")
def run(built_text, examples):
    script = built_text(SPLIT, target="roll20") / "split-sides" / "roll20" / "SplitSides.js"
    assert script.is_file()
    return run_node_tests(FILE, {"SCRIPTS_DIR": str(examples), "SPLIT_SCRIPT": str(script)})


@pytest.mark.parametrize("case", node_cases(FILE))
def test_script_behaviour(case, run):
    assert_node_case(run, case)


def test_script_behaviour_file(run):
    assert_node_file(run)
