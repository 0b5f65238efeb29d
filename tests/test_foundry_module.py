"""The generated example modules in the emulated Foundry client: languages, API, dialog, GM gating, clean-up"""

from __future__ import annotations

import os

from exporter.build import build_campaigns
from tests.conftest import NODE, ROOT


def test_module_behaviour(tmp_path):
    import subprocess

    build_campaigns([], tmp_path, make_zip=False)
    done = subprocess.run([NODE, "--test", "--test-reporter=spec", "tests/foundry/module.test.mjs"], cwd=ROOT,
                          env={**os.environ, "MODULES_DIR": str(tmp_path)}, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
