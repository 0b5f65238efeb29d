"""The generated example modules in the emulated Foundry client: languages, API, dialog, GM gating, clean-up"""

from __future__ import annotations

from exporter.build import build_campaigns
from tests.conftest import ROOT, assert_node_tests_pass


def test_module_behaviour(tmp_path):
    build_campaigns([], tmp_path, target="foundry", make_zip=False)
    assert_node_tests_pass(ROOT / "tests" / "foundry" / "module.test.mjs", {"MODULES_DIR": str(tmp_path)})
