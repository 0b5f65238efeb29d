"""Shared by the web page's tests: pages built for campaigns, scenarios written as scenario files"""

from __future__ import annotations

import json
import time
from pathlib import Path

from exporter.lang import bundled_language
from exporter.rules.systems import SYSTEM_IDS
from exporter.targets.modules import bundle, module_constant, module_graph
from tools.web_pages import build_pages, campaign_text

ROOT = Path(__file__).resolve().parents[1]
PARTIAL = (ROOT / "fixtures" / "scenarios" / "gurps-partial.toml").read_text(encoding="utf-8")
# gurps-partial.toml's initiative: side A rolls 2 (total 6), side B 5 (total 7): Ava and Brom are stunned.
INITIATIVE = [2, 5]
# A translation a GM overrode with markup: the page shows it as text
HOSTILE_NEXT = "</script><script>window.injected = 1</script><b>next</b>"


def system_tail(system: str) -> str:
    """Return where a rules system's test tail lies under tests/: when its surprise has played out, shared with the
    Node runners (tests/js/outcomes.mjs)"""
    return f"js/systems/{system}.js"


def page_player() -> str:
    """Return tests/web/play_vector.js as one expression for page.evaluate, each system's test tail bundled before it
    and its playedOut chosen by the vector's system"""
    tails = [system_tail(system) for system in SYSTEM_IDS]
    shared = bundle(module_graph(tails, lambda path: (ROOT / "tests" / path).read_text(encoding="utf-8")))
    by_system = ", ".join(f"{json.dumps(system)}: {module_constant(tail)}"
                          for system, tail in zip(SYSTEM_IDS, tails, strict=True))
    player = (ROOT / "tests" / "web" / "play_vector.js").read_text(encoding="utf-8").strip()
    # A function expression itself, not an expression giving one: Playwright calls only what reads as a function.
    return (f"(given) => {{\n{shared}\n  const tails = new Map(Object.entries({{ {by_system} }}));\n"
            "  const playedOut = (system, surprise, round) =>\n"
            "    Boolean(surprise) && tails.get(system).playedOut(surprise, round);\n"
            f"  return ({player})(given);\n}}")


def gurps_pages(root: Path) -> dict[str, Path]:
    """The GURPS page in three languages (the example's options), and one whose strings a GM overrode with markup"""
    options = {"stun_roll_timing": "start", "freeze_roll_scope": "side"}
    hostile = ('id = "web-1"\ntitle = "</title><script>window.injected = 1</script>"\nversion = "1.0.0"\n'
               'system = "gurps4e"\nlanguages = ["en"]\ntargets = ["web"]\n'
               f'[strings.en]\n"Web.Next" = {json.dumps(HOSTILE_NEXT)}\n')
    built = build_pages(root, [campaign_text(0, "gurps4e", options, ("en", "de", "zh-CN")), hostile])
    return {"gurps": built[0], "hostile": built[1]}


def catalogue(language: str) -> dict[str, str]:
    """Return a bundled language's strings by their flat keys"""
    return bundled_language(language)


def stored(page, key: str = "ambush:web-0") -> dict:
    """Return the state the page keeps in the browser"""
    return page.evaluate("(key) => JSON.parse(localStorage.getItem(key))", key)


def idle(page) -> None:
    """Wait until the page has finished the action under way (its dice asked and typed in)"""
    page.locator("body:not(.busy)").wait_for(state="attached")


def type_dice(page, faces: list[int]) -> None:
    """Type faces into the dice forms the page shows, in order: each empty die, then Use these dice once the last is
    (the form's submit button, in any language)"""
    left = list(faces)
    while left:
        page.wait_for_selector("#dice:not([hidden]) input")
        inputs = page.locator("#dice input")
        values = inputs.evaluate_all("(inputs) => inputs.map((input) => input.value)")
        empty = [index for index, value in enumerate(values) if not value][:len(left)]
        for index in empty:
            inputs.nth(index).fill(str(left.pop(0)))
        if empty[-1] == len(values) - 1:
            page.click("#dice button[type=submit]")


def pasted(page, text: str = PARTIAL) -> None:
    """Paste a scenario file into the page and read it"""
    page.fill("#file-text", text)
    page.click("[data-action=read-file]")


def rolled_partial(page) -> None:
    """Paste gurps-partial.toml, type the dice in, roll: Ava and Brom are stunned"""
    pasted(page)
    page.check("input[name=dice-mode][value=typed]")
    page.click("#roll")
    type_dice(page, INITIATIVE)
    idle(page)


def reload_kept(page) -> None:
    """Reload the page, again until it starts from what it had kept

    Chromium's renderer hands a localStorage write to the browser process asynchronously, and a reload moments after
    it can race it (seen here: the page back in English right after a language was picked; once in CI, a fight gone
    after a reload); a GM never reloads within milliseconds, a test does. The page writes nothing over what it kept as
    it starts (it may set damaged text aside under a key of its own), so what it reads after a reload is what the
    browser held.
    """
    entries = "() => Object.fromEntries(Object.entries(localStorage))"
    expected = page.evaluate(entries)
    for _ in range(50):
        page.reload()
        found = page.evaluate(entries)
        if all(found.get(key) == value for key, value in expected.items()):
            return
        # The write died with the document it came from (seen in CI): put back, byte for byte, what the page kept.
        page.evaluate("(kept) => { for (const [key, text] of Object.entries(kept)) localStorage.setItem(key, text); }",
                      expected)
        time.sleep(0.1)
    raise AssertionError("what the page kept never reached the browser")


def speak(page, language: str) -> None:
    """Switch the page's language, and wait until its fonts are in: a Chinese page lays itself out again as the CJK
    font arrives, and a click in that moment can land beside its target (seen once in CI: a radio never checked)"""
    page.select_option("#language", language)
    page.evaluate("() => document.fonts.ready.then(() => true)")
