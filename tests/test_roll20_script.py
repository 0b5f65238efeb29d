"""The generated example Roll20 scripts in the emulated sandbox: banner, macros, help, GM gating, robustness"""

from __future__ import annotations

from exporter.build import build_campaigns
from tests.conftest import ROOT, assert_node_tests_pass


def test_script_behaviour(tmp_path):
    build_campaigns([], tmp_path, target="roll20", make_zip=False)
    assert_node_tests_pass(ROOT / "tests" / "roll20" / "script.test.mjs", {"SCRIPTS_DIR": str(tmp_path)})
