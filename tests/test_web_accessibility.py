"""The web page held to an outside accessibility checker: axe-core (npm, pinned in package.json) in headless Chromium
finds no serious or critical violation on any system's page, in any language, in any state a GM meets (empty,
filled, a problem shown, the dice asked, rolled with the form open, the players' view), on a laptop or a phone"""

from __future__ import annotations

import pytest

from tests.browser import TIMEOUT_MS, page_url, start_empty
from tests.conftest import FIXTURES, ROOT
from tests.web_pages import idle, pasted, speak
from tools.web_pages import build_pages, campaign_text

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
LANGUAGES = ("en", "de", "zh-CN")
VIEWPORTS = {"laptop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
SYSTEMS = {"gurps4e": "gurps-partial.toml", "adnd1e": "adnd-seed-example.toml", "fallout-ttrpg": "fallout-sneak-attack.toml"}
# What each system's number field to type a typo into is called in its example scenario
NUMBER_FIELD = {"gurps4e": "iq", "adnd1e": "dex", "fallout-ttrpg": "sequence"}


def empty(page, system):
    """A fresh page"""


def filled(page, system):
    """The system's example scenario pasted in"""
    pasted(page, (FIXTURES / "scenarios" / SYSTEMS[system]).read_text(encoding="utf-8"))


def problem(page, system):
    """A typo in a number field, Roll refused, and a bad scenario file said"""
    filled(page, system)
    page.fill(f"[data-path$='.{NUMBER_FIELD[system]}'] >> nth=0", "1O")
    page.click("#roll")
    page.fill("#file-text", "system = ")
    page.click("[data-action=read-file]")


def dice(page, system):
    """The dice typed in: the page asks for the first roll"""
    filled(page, system)
    page.check("input[name=dice-mode][value=typed]")
    page.click("#roll")
    page.wait_for_selector("#dice:not([hidden]) input")


def rolled(page, system):
    """Rolled with the page's dice, two turns played, the GM's cards shown and the form opened again"""
    filled(page, system)
    page.click("#roll")
    idle(page)
    for _ in range(2):
        page.click("#next")
        idle(page)
    page.check("#show-gm")
    page.click("#prepare-box summary")


def players(page, system):
    """The players' view of a fight"""
    rolled(page, system)
    page.click("#players-view")


STATES = [empty, filled, problem, dice, rolled, players]


@pytest.fixture(scope="module")
def system_pages(tmp_path_factory) -> dict[str, str]:
    """Each system's page in three languages"""
    built = build_pages(tmp_path_factory.mktemp("web-a11y"), [campaign_text(index, system, {}, LANGUAGES)
                                                             for index, system in enumerate(SYSTEMS)])
    return {system: page_url(path) for system, path in zip(SYSTEMS, built, strict=True)}


@pytest.fixture(scope="module")
def viewport_tabs(browser):
    """One tab per viewport; the page's policy is bypassed only to let axe-core in"""
    tabs = {}
    for name, size in VIEWPORTS.items():
        context = browser.new_context(viewport=size, has_touch=name == "phone", bypass_csp=True)
        tabs[name] = context.new_page()
        tabs[name].set_default_timeout(TIMEOUT_MS)
        tabs[name].on("dialog", lambda dialog: dialog.accept())
    yield tabs
    for tab in tabs.values():
        tab.context.close()


def scan(page) -> list[str]:
    """Run axe-core on the page; return its serious and critical violations, one line each"""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
        const results = await axe.run(document, { resultTypes: ["violations"] });
        return results.violations.filter((v) => ["serious", "critical"].includes(v.impact))
            .map((v) => `${v.impact} ${v.id}: ${v.nodes.length} (${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")})`);
    }""")
    return found


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("system", SYSTEMS)
def test_axe_finds_nothing_serious(system_pages, viewport_tabs, system, language, viewport):
    page = viewport_tabs[viewport]
    failures = {}
    for state in STATES:
        start_empty(page, system_pages[system])
        page.wait_for_selector("#language")
        speak(page, language)
        state(page, system)
        found = scan(page)
        twice = page.evaluate("""() => { const ids = [...document.querySelectorAll("[id]")].map((e) => e.id);
            return [...new Set(ids.filter((id, index) => ids.indexOf(id) !== index))]; }""")
        if found or twice:
            failures[state.__name__] = found + [f"id given twice: {id_}" for id_ in twice]
    assert failures == {}
