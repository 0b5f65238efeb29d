"""The web page in a long fight (issue 27, point 9): what it keeps in the browser and how long Next takes

A GURPS partial surprise of 200 combatants, 100 a side, IQ 3 to 8 so that the stunned recover one by one over many
rounds (turns passed on, statuses changing), played for 50 rounds in headless Chromium: once through the page (each
Next timed in the page from the click to the end of its action, the render included), once through the session, the
tracker and the store alone (benchmarks/web_next.js bundled as a page's entry: Next as main.js calls it, less the
render). Reports the kept state's size after every 10 rounds and the median and maximum Next.

Run from the repository root after the README's test install: .venv/bin/python benchmarks/web_state.py [--rounds N]
(benchmarks/run.py runs it with the others).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SIDE, ROUNDS, EVERY = 100, 50, 10  # members a side, rounds played, rounds between two sizes
INITIATIVE = [2, 5]  # the initiative dice typed in, side a's then side b's: side a is stunned
LIMIT = 5_200_000  # about what Chromium's localStorage holds for one origin, in characters
KEY = "ambush:bench-web"
PLAYER = ROOT / "benchmarks" / "web_fight.js"
ALONE = ROOT / "benchmarks" / "web_next.js"
ALONE_ENTRY = "web/bench-next.js"

Row = tuple[str, str, str]  # benchmark, measured, target (run.py)


def fight_scenario() -> str:
    """The scenario file of the fight: GURPS partial, 100 a side, IQ 3 to 8 (with INITIATIVE, side a is stunned)"""
    lines = ['system = "gurps4e"', 'procedure = "partial"']
    for side in "ab":
        lines += [f"[sides.{side}]", f'leader = "{side}0"']
        for index in range(SIDE):
            lines += [f"[[sides.{side}.members]]", f'name = "{side}{index}"', f"iq = {3 + index % 6}"]
    return "\n".join(lines) + "\n"


def build(folder: Path) -> tuple[Path, Path]:
    """Build the campaign's page, and a page whose entry is web_next.js instead of main.js; their paths"""
    from exporter.build import build_campaigns
    from exporter.campaign import load_campaign
    from exporter.definitions import build_definitions
    from exporter.targets.strings import bundled_modules
    from exporter.targets.web.writer import PAGE, WebWriter
    from exporter.targets.web.page import page_html

    campaign = folder / "campaign.toml"
    campaign.write_text(f'id = "{KEY.split(":")[1]}"\ntitle = "Bench"\nversion = "1.0.0"\nsystem = "gurps4e"\n'
                        'targets = ["web"]\n', encoding="utf-8")
    build_campaigns([campaign], folder / "dist", make_zip=False)
    defs = build_definitions(load_campaign(campaign))
    writer = WebWriter()
    templates = folder / "templates"
    shutil.copytree(writer.root, templates)
    shutil.copyfile(ALONE, templates / ALONE_ENTRY)
    modules = bundled_modules(defs, [f"common/systems/{defs.system}.js", ALONE_ENTRY], templates,
                              lambda strings: writer.render_config(defs, strings))
    style = (templates / "web" / "style.css").read_text(encoding="utf-8")
    alone = folder / "alone.html"
    alone.write_text(page_html(writer.env.get_template(PAGE), defs, modules, style, ALONE_ENTRY), encoding="utf-8")
    return folder / "dist" / KEY.split(":")[1] / "web" / PAGE, alone


def play(page_path: Path, alone_path: Path, rounds: int) -> dict[str, dict]:
    """Play the fight through the page and through its parts alone, each in a fresh browser context"""
    from playwright.sync_api import sync_playwright

    from tools.browser import chromium_path

    toml = fight_scenario()
    played = {}
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        context = browser.new_context()
        page = context.new_page()
        page.set_default_timeout(0)
        page.goto(page_path.as_uri())
        page.fill("#file-text", toml)
        page.click("[data-action=read-file]")
        page.check("input[name=dice-mode][value=typed]")
        page.click("#roll")
        for face in INITIATIVE:
            page.fill("#die-0", str(face))
            page.click("#dice button[type=submit]")
        page.wait_for_selector("#next")
        page.click("#prepare-box > summary")  # the settings are in the draft, folded away during the fight
        page.check("input[name=dice-mode][value=page]")
        played["page"] = page.evaluate(PLAYER.read_text(encoding="utf-8"),
                                       {"key": KEY, "rounds": rounds, "every": EVERY})
        context.close()
        context = browser.new_context()
        page = context.new_page()
        page.set_default_timeout(0)
        page.goto(alone_path.as_uri())
        played["alone"] = page.evaluate("(given) => window.playFight(given)",
                                        {"key": KEY, "toml": toml, "initiative": INITIATIVE, "rounds": rounds,
                                         "every": EVERY})
        context.close()
        browser.close()
    return played


def rows(work: Path, rounds: int = ROUNDS) -> list[Row]:
    """The benchmark's rows: the kept state's size every EVERY rounds, then Next with and without the page"""
    folder = work / "web-state"
    folder.mkdir()
    played = play(*build(folder), rounds)
    fight = f"web page, GURPS partial, {2 * SIDE} combatants"
    table: list[Row] = []
    for size in played["page"]["sizes"]:
        table.append((f"{fight}: kept state after round {size['round']} ({size['presses']:,} Next)",
                      f"{size['chars']:,} characters", f"< {LIMIT:,} (Chromium's localStorage): "
                      f"{'met' if size['chars'] < LIMIT else '**not met**'}"))
    for name, label in (("page", "Next, the page's action and render"), ("alone", "Next, session + tracker + store")):
        times, refused = played[name]["times"], played[name]["refused"]
        if refused:
            table.append((f"{fight}: {label}", f"the browser refused the state in round {refused['round']} "
                          f"({refused['presses']:,} Next)", f"kept for {rounds} rounds: **not met**"))
        table.append((f"{fight}, {refused['round'] if refused else rounds} rounds: {label} ({len(times):,} presses)",
                      f"median {statistics.median(times):.1f} ms, max {max(times):.0f} ms", ""))
    return table


def main() -> None:
    """Run the benchmark and print its rows"""
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        table = rows(Path(tmp), args.rounds)
    print("| benchmark | measured | target |\n|---|---:|---|")
    for label, value, target in table:
        print(f"| {label} | {value} | {target} |")


if __name__ == "__main__":
    main()
