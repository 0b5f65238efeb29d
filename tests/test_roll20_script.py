"""The generated example Roll20 scripts in the emulated sandbox: banner, macros, help, GM gating, robustness"""

from __future__ import annotations

import os
import subprocess

from exporter.build import build_campaigns
from tests.conftest import NODE, ROOT


def test_script_behaviour(tmp_path):
    build_campaigns([], tmp_path, target="roll20", make_zip=False)
    done = subprocess.run([NODE, "--test", "--test-reporter=spec", "tests/roll20/script.test.mjs"], cwd=ROOT,
                          env={**os.environ, "SCRIPTS_DIR": str(tmp_path)}, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
