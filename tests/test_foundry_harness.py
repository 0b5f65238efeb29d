"""Run the Node self-tests of the Foundry emulation harness"""

from __future__ import annotations

from tests.conftest import ROOT, assert_node_tests_pass


def test_foundry_harness_self_tests():
    assert_node_tests_pass(ROOT / "tests" / "foundry" / "harness.test.mjs")
