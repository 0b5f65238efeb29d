"""Run the Node self-tests of the Roll20 Mod sandbox emulation"""

from __future__ import annotations

from tests.conftest import ROOT, assert_node_tests_pass


def test_roll20_harness_self_tests():
    assert_node_tests_pass(ROOT / "tests" / "roll20" / "harness.test.mjs")
