"""The web page's edits at 200 combatants, timed in the page: one value typed into a field, the page patched and its
odds recomputed, then laid out (performance.now() around the input event and a forced layout), in headless Chromium

Run from the repository root after the README's test install: .venv/bin/python benchmarks/web_edit.py [--edits N]
benchmarks/run.py adds its row to the README's table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.browser import chromium_path  # noqa: E402
from tools.web_pages import build_pages, campaign_text  # noqa: E402

COMBATANTS = 200
TARGET_MS = 50
# Type into a field, let the page do all it does for the input event, then make it lay out what changed.
TIMED_EDITS = """(count) => {
    const input = document.querySelector("[data-path='members.c7.iq']");
    input.focus();
    const times = [];
    for (let index = 0; index < count; index += 1) {
        const started = performance.now();
        input.value = String(8 + (index % 9));
        input.dispatchEvent(new Event("input", { bubbles: true }));
        document.body.getBoundingClientRect();
        times.push(performance.now() - started);
    }
    return { times, odds: Number(document.getElementById("odds").dataset.ms) };
}"""


def fight_file(size: int = COMBATANTS) -> str:
    """Return a GURPS partial surprise with `size` combatants, half a side, of IQ 8 to 14, some with Combat Reflexes"""
    members = "\n".join(f'[[sides.{"a" if index < size // 2 else "b"}.members]]\nname = "M{index}"\n'
                        f'iq = {8 + index % 7}\ncombat_reflexes = {"true" if index % 5 == 0 else "false"}\n'
                        for index in range(size))
    return f'system = "gurps4e"\nprocedure = "partial"\n{members}'


def edit_times(work: Path, edits: int) -> dict[str, float]:
    """Time `edits` edits of one IQ in the page of a 200-combatant fight; the median, the max and the odds' share"""
    from playwright.sync_api import sync_playwright

    page_path = build_pages(work, [campaign_text(0, "gurps4e", {})])[0]
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(page_path.as_uri())
        page.fill("#file-text", fight_file())
        page.click("[data-action=read-file]")
        page.evaluate(TIMED_EDITS, 5)  # warm up: the code compiled, the boxes described once
        result = page.evaluate(TIMED_EDITS, edits)
        browser.close()
    return {"median": statistics.median(result["times"]), "max": max(result["times"]), "odds": result["odds"]}


def edit_rows(work: Path, edits: int = 41) -> list[tuple[str, str, str]]:
    """The README table's row: an edit of a 200-combatant fight"""
    times = edit_times(work, edits)
    met = times["median"] < TARGET_MS
    return [(f"web page, one edit with {COMBATANTS} combatants (patch, odds, layout)",
             f"{times['median']:.1f} ms median, {times['max']:.1f} ms max (odds {times['odds']:.1f} ms)",
             f"< {TARGET_MS} ms: {'met' if met else '**not met**'}")]


def main() -> None:
    """Print the edit times"""
    parser = argparse.ArgumentParser()
    parser.add_argument("--edits", type=int, default=41)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for row in edit_rows(Path(tmp), args.edits):
            print(" | ".join(row))


if __name__ == "__main__":
    main()
