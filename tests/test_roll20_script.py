"""The generated example Roll20 scripts in the emulated sandbox: banner, macros, help, GM gating, robustness"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, node_file_tests, run_node_tests

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


test_script_behaviour, test_script_behaviour_file = node_file_tests(FILE)
