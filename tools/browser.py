"""The Chromium the web page runs in for the tests and benchmarks: Debian's package, or the one AMBUSH_CHROMIUM names"""

from __future__ import annotations

import os
import shutil

# The Debian package's binary, or another Chromium named by AMBUSH_CHROMIUM
CHROMIUM_NAMES = ("chromium", "chromium-browser")


def chromium_path() -> str | None:
    """Return the Chromium to drive, or None"""
    given = os.environ.get("AMBUSH_CHROMIUM")
    if given:
        return given
    return next((found for name in CHROMIUM_NAMES if (found := shutil.which(name))), None)
