"""Runtime robustness of the generated example module and script: vanished documents and tokens, several clients,
old or damaged saved state, a damaged turn order, a restart or reload mid-surprise"""

from __future__ import annotations

from exporter.build import build_campaigns
from tests.conftest import ROOT, assert_node_tests_pass


def test_foundry_module_robustness(tmp_path):
    build_campaigns([], tmp_path, target="foundry", make_zip=False)
    assert_node_tests_pass(ROOT / "tests" / "foundry" / "robustness.test.mjs", {"MODULES_DIR": str(tmp_path)})


def test_roll20_script_robustness(tmp_path):
    build_campaigns([], tmp_path, target="roll20", make_zip=False)
    assert_node_tests_pass(ROOT / "tests" / "roll20" / "robustness.test.mjs", {"SCRIPTS_DIR": str(tmp_path)})
