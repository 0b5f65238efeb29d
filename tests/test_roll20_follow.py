"""The example scripts following a real Roll20 table beside the community scripts, each case as its own test"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, node_file_tests, run_node_tests

FILE = ROOT / "tests" / "roll20" / "follow.test.mjs"
OWN_COMMAND = """id = "own-command"
title = "Own command"
version = "1.0.0"
system = "gurps4e"
[roll20]
command = "!ambush-gurps"
"""


@pytest.fixture(scope="module")
def run(built_text, examples):
    script = built_text(OWN_COMMAND, target="roll20") / "own-command" / "roll20" / "OwnCommand.js"
    assert script.is_file()
    return run_node_tests(FILE, {"SCRIPTS_DIR": str(examples), "OWN_COMMAND_SCRIPT": str(script)})


test_roll20_follow, test_roll20_follow_file = node_file_tests(FILE)
