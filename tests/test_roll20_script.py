"""The generated example Roll20 scripts in the emulated sandbox: banner, macros, help, GM gating, robustness"""

from __future__ import annotations

from exporter.build import build_campaigns
from tests.conftest import ROOT, assert_node_tests_pass

SPLIT = """id = "split-sides"
title = "Split"
version = "1.0.0"
system = "gurps4e"
[roll20]
side_rule = "turn-order-split"
"""


def test_script_behaviour(tmp_path):
    build_campaigns([], tmp_path, target="roll20", make_zip=False)
    split = tmp_path / "split.toml"
    split.write_text(SPLIT, encoding="utf-8")
    build_campaigns([split], tmp_path / "split", target="roll20", make_zip=False)
    split_script = tmp_path / "split" / "split-sides" / "roll20" / "SplitSides.js"
    assert split_script.is_file()
    assert_node_tests_pass(ROOT / "tests" / "roll20" / "script.test.mjs",
                           {"SCRIPTS_DIR": str(tmp_path), "SPLIT_SCRIPT": str(split_script)})
