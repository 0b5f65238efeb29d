"""The real browser the web page is tested in: Debian's headless Chromium driven by Playwright for Python

One browser per test session (the `browser` fixture of tests/conftest.py). A test starts with an empty localStorage:
in a fresh context per page, or, where it does not reload or check what the browser keeps, in a tab shared by its
module, the localStorage cleared before its page is opened (the page keeps nothing else). Without Chromium or
Playwright the browser tests skip, except in CI (CI=true), where they fail: .ci/run installs both.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

# How long a step may wait for the page: generous, for a machine busy with other work
TIMEOUT_MS = 90_000


def missing(reason: str) -> None:
    """Skip a browser test for want of the browser, but fail it in CI, where .ci/run installs it"""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason}: CI must run the browser tests (.ci/run installs chromium and the test extras)")
    pytest.skip(reason)


def page_url(path: Path) -> str:
    """Return the file:// URL of a page on disk"""
    return path.resolve().as_uri()


def new_tab(browser, **context):
    """Open a tab in a fresh context (its own, empty localStorage); dialogs are accepted, errors kept"""
    page = browser.new_context(**context).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def start_empty(page, url: str) -> None:
    """Open a page with nothing kept: what an earlier page of the tab kept is cleared, again until the page starts empty

    A clear, like any localStorage write, reaches Chromium's browser process asynchronously, and the next document may
    load in another renderer that reads what the browser held a moment before (seen in CI: a page started with the dice
    mode the page before had picked). The pages write nothing as they start from an empty store.
    """
    for _ in range(50):
        if page.url.startswith("file:"):
            page.evaluate("() => localStorage.clear()")
        page.goto(url)
        if page.evaluate("() => localStorage.length") == 0:
            return
        time.sleep(0.1)
    raise AssertionError("the tab's localStorage never came back empty")


def show(page, path: Path):
    """Open a page from disk in a tab, with nothing kept, as in a fresh context: what an earlier page kept is cleared"""
    page.errors.clear()
    start_empty(page, page_url(path))
    page.wait_for_selector("#roll")
    return page


def open_page(browser, path: Path, **context):
    """Open a page from disk in a fresh context (its own, empty localStorage); dialogs are accepted, errors kept"""
    return show(new_tab(browser, **context), path)
