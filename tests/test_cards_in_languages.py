"""Every card of every system and target in German and in Chinese, read against the glossary and the writing rules

Every conformance vector (fixtures/vectors: each system, procedure and outcome the rules know) is played in German and
in Chinese through the Roll20 script (besides the play: the config card, the odds, a combatant's card, the status and
the help), the Foundry module (its chat cards and notifications) and the web page (its cards, the GM's shown, the
tracker and what the surprise tracks). Each line a GM or a player reads, a Roll20 query's prompt included, must hold
to docs/glossary.md: no term its "never" columns rule out, no English word the language's catalogue does not use, no
placeholder or code value left, and each language's punctuation ("How each language writes").
"""

from __future__ import annotations

import html
import json
import re
from functools import cache

import pytest

from exporter.lang import bundled_language
from tests.browser import new_tab
from tests.conformance import (
    FOUNDRY_RUNNER,
    ROLL20_RUNNER,
    build_groups,
    game_system,
    option_groups,
    roll20_entry,
    run_runner,
)
from tests.conftest import VECTORS
from tests.test_glossary import ROWS, words
from tests.web_pages import page_player, speak
from tools.web_pages import build_pages, campaign_text, scenario_toml

pytestmark = pytest.mark.slow  # builds and two Node runs per language: run early (conftest.py)

LANGUAGES = ("de", "zh-CN")
TARGETS = ("roll20", "foundry", "web")
FOUNDRY_GENERATION = 14
HAN = r"[\u3400-\u9fff\uf900-\ufaff]"
FULL_WIDTH = r"[，。：；（）“”！？、]"
# What stands apart on a card or in a form: a block, a button, a field and its label
BLOCK = re.compile(r"<(?:br|/?div|/?p|/?li|/?tr|/?td|/?th|/?h\d|/?a|/?label|/?legend|/?option|/?select|input|/?button)\b[^>]*>",
                   re.I)
QUERY = re.compile(r"\?\{([^|}]*)")  # a Roll20 query's prompt: the window the GM types into
COMMAND = re.compile(r"!surprise[^“”„\n]*")  # a command stays as the GM types it


@pytest.fixture(scope="module")
def shown(tmp_path_factory, browser) -> dict[tuple[str, str], dict[str, list[str]]]:
    """Play every vector in each language and target; per (language, target) the lines each vector showed"""
    root = tmp_path_factory.mktemp("cards")
    groups = build_groups(root, VECTORS, ("en", *LANGUAGES))
    played = {}
    for language in LANGUAGES:
        roll20 = run_runner(root, ROLL20_RUNNER, [{**roll20_entry(group), "language": language} for group in groups],
                            f"-{language}")
        foundry = run_runner(root, FOUNDRY_RUNNER, [
            {"module": str(group.built / "foundry"), "gameSystem": game_system(group.built / "foundry"),
             "generation": FOUNDRY_GENERATION, "language": language, "vectors": [str(path) for path in group.vectors]}
            for group in groups], f"-{language}")
        for target, reports in (("roll20", roll20), ("foundry", foundry)):
            played[(language, target)] = {report["vector"]: lines_of(report) for report in reports}
    played.update(web_lines(browser, root))
    return played


WEB_PLAYER = page_player()
# The round, whose turn it is and the end of the surprise, each as the page showed it while the vector played
WATCH = """() => {
  window.shownLines = new Set();
  const keep = () => document.querySelectorAll("#round, #turn-of, .over").forEach((node) => window.shownLines.add(node.textContent));
  window.shownObserver?.disconnect();
  window.shownObserver = new MutationObserver(keep);
  window.shownObserver.observe(document.body, { subtree: true, childList: true, characterData: true });
}"""
# Then the cards (the GM's shown), the tracker's rows and what the surprise tracks, as the page lays them out; a
# card's GM badge apart from its title
WEB_TEXT = """() => [...window.shownLines, ...[...document.querySelectorAll("#log li.card > p, #order li, #tracked li")]
  .flatMap((node) => (node.classList.contains("card-title") ? [...node.childNodes].map((part) => part.textContent)
    : [node.innerText]))]"""


def web_lines(browser, root) -> dict[tuple[str, str], dict[str, list[str]]]:
    """Play every vector in the web page of its option group in each language; the lines each vector left shown"""
    groups = list(option_groups().items())
    (root / "web").mkdir()
    pages = build_pages(root / "web", [campaign_text(index, system, json.loads(options), ("en", *LANGUAGES))
                                       for index, ((system, options), _) in enumerate(groups)])
    played = {}
    for language in LANGUAGES:
        tab = new_tab(browser)
        shown = played[(language, "web")] = {}
        for index, (page, (_, vectors)) in enumerate(zip(pages, groups, strict=True)):
            tab.goto(page.as_uri())
            speak(tab, language)
            for path in vectors:
                vector = json.loads(path.read_text(encoding="utf-8"))
                tab.evaluate(WATCH)
                outcome = tab.evaluate(WEB_PLAYER, {"key": f"ambush:web-{index}", "dice": vector["dice"],
                                                    "toml": scenario_toml(vector["scenario"]),
                                                    "scenario": vector["scenario"]})
                assert "error" not in outcome, f"{vector['name']}: {outcome['error']}"
                tab.check("#show-gm")
                tab.locator("#log li.card.gm").first.wait_for(state="attached")
                shown[vector["name"]] = [line.strip() for text in tab.evaluate(WEB_TEXT)
                                         for line in text.split("\n") if line.strip()]
        assert tab.errors == []
        tab.context.close()
    return played


def lines_of(report: dict) -> list[str]:
    """Return the lines a vector's cards show, each button and each query prompt a line of its own"""
    error = report.get("error", "")
    # The Roll20 runner tells passed turns by an English card: in another language its outcome is not compared.
    assert "cards" in report and not re.search(r"sandbox errors|hook errors|missing translations", error), error
    lines = []
    for card in report["cards"]:
        lines += [html.unescape(prompt) for prompt in QUERY.findall(card)]
        text = html.unescape(re.sub(r"<[^>]*>", "", BLOCK.sub("\n", card)))
        lines += [line.strip() for line in text.split("\n") if line.strip()]
    return lines


@cache
def names() -> frozenset[str]:
    """The member names of every vector: data, in any language"""
    found = set()
    for path in VECTORS:
        sides = json.loads(path.read_text(encoding="utf-8"))["scenario"]["sides"]
        found |= {member["name"] for side in sides.values() for member in side["members"]}
    return frozenset(found)


def without_data(line: str) -> str:
    """Cut out what is no wording: member names, commands, quoted commands, the campaign's title"""
    for name in sorted(names(), key=len, reverse=True):
        line = re.sub(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", "\u2060", line)
    return COMMAND.sub("\u2060", line.replace("Conformance 1.0.0", "\u2060"))


@cache
def english_only(language: str) -> frozenset[str]:
    """Words of four letters or more that English strings say and the language's strings never do"""
    def of(catalogue: dict[str, str]) -> set[str]:
        return {word.lower() for text in catalogue.values() for word in re.findall(r"[A-Za-z]{4,}", words(text))}

    return frozenset(of(bundled_language("en")) - of(bundled_language(language)))


def never_terms(language: str) -> list[tuple[str, list[str]]]:
    """Each term the glossary rules out, with the longer terms of other concepts that may hold it"""
    return [(never, sorted({term for row in ROWS for term in row[language] if never in term and term != never},
                           key=len, reverse=True)) for row in ROWS for never in row[f"never-{language}"]]


def common_faults(line: str, language: str) -> list[str]:
    """What no card may show in any language: a code value, a placeholder, English, a ruled-out term"""
    faults = []
    text = without_data(line)
    if re.search(r"\b(undefined|NaN|null|true|false)\b|\[object|\{[a-z_]+\}", text):
        faults.append("a code value or a placeholder")
    if text.count("(") != text.count(")") or text.count("（") != text.count("）"):
        faults.append("a parenthesis never closed: a text cut short")
    english = sorted({word for word in re.findall(r"[A-Za-z]{4,}", text) if word.lower() in english_only(language)})
    if english:
        faults.append(f"English: {', '.join(english)}")
    for never, inside in never_terms(language):
        kept = text
        for term in inside:
            kept = kept.replace(term, " ")
        if never in kept:
            faults.append(f"the glossary rules out {never!r}")
    return faults


def german_faults(line: str) -> list[str]:
    """German: the infinitive, „…“, a space before %, an en dash in a range"""
    text = without_data(line)
    faults = []
    if re.search(r"(?i)\b(du|dich|dir|dein|deine|deinen|deinem|deiner)\b", text):
        faults.append("the du-form")
    if re.search(r"[\"“”]", re.sub(r"„[^“]*“", "", text)):
        faults.append("quotation marks other than „…“")
    if re.search(r"\d%", text):
        faults.append("a percentage without its space")
    if re.search(r"\d-\d", text):
        faults.append("a range with a hyphen")
    return faults


def chinese_faults(line: str) -> list[str]:
    """Chinese: full-width punctuation beside Chinese words, 、 and ； in lists, no space beside a Chinese character"""
    text = without_data(re.sub(r"“[^”]*”", "“”", line))
    wide = rf"(?:{HAN}|{FULL_WIDTH})"
    faults = []
    if re.search(rf"{wide}\s*[,;:()!?]|[,;:()!?]\s*{wide}", text):
        faults.append("ASCII punctuation beside Chinese")
    if re.search(r"[;]|,\s", text):
        faults.append("a list or a sequence joined as English joins it")
    if "->" in text:
        faults.append("an ASCII arrow")
    if re.search(rf"{HAN}[ \u00a0]+[A-Za-z0-9\u2060]|[A-Za-z0-9\u2060%][ \u00a0]+{HAN}", text):
        faults.append("a space beside a Chinese character")
    return faults


LANGUAGE_FAULTS = {"de": german_faults, "zh-CN": chinese_faults}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_reads_as_the_language_writes(shown, language, target):
    played = shown[(language, target)]
    assert sorted(played) == sorted(json.loads(path.read_text(encoding="utf-8"))["name"] for path in VECTORS)
    faults = {}
    for vector, lines in played.items():
        assert lines, f"{vector}: no card"
        for line in lines:
            found = common_faults(line, language) + LANGUAGE_FAULTS[language](line)
            if found:
                faults.setdefault(f"{'; '.join(found)}: {line}", vector)
    assert faults == {}


# The GURPS freeze's last second (left = 0) says so, never "0 more seconds" (docs/rules/gurps4e.md#turn-by-turn).
LAST_SECOND = {"de": ("die letzte Sekunde der Erstarrung", "noch 0 Sekunden"), "zh-CN": ("惊呆的最后一秒", "还剩0秒")}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_freezes_last_second_says_so(shown, language, target):
    last, zero = LAST_SECOND[language]
    lines = [line for vector, lines in shown[(language, target)].items() if vector.startswith("gurps") for line in lines]
    assert any(last in line for line in lines)
    assert [line for line in lines if zero in line] == []
