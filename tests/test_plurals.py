"""Counts in every language: each string that shows a count chooses its words by the count's plural form

The CLDR rules of the Python twin (exporter/lang/plurals.py) are compared with Node's Intl.PluralRules, which the
generated JavaScript uses, over many numbers; the message syntax of both sides (templates/common/format.js `fill`,
exporter/lang/messages.py) over every string of the catalogue and over broken ones. Every placeholder of every string
is declared once (exporter/lang/placeholders.py), and a count's words in every language follow its plural form. The
expected texts of the strings with a count are written by hand, for 0, 1, 2 and 21 in each language, and checked
through the strings and the format.js the built targets ship.
"""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction

import pytest

from exporter.campaign import load_campaign
from exporter.lang import bundled_language, flatten
from exporter.lang.messages import Choice, MessageError, Placeholder, arguments, choice_counts, fill, parse, walk
from exporter.lang.placeholders import EXCEPTIONS, kind
from exporter.lang.plurals import plural_category
from tests.conftest import CAMPAIGNS, ROOT, roll20_configurations, run_node, run_node_on

LANGUAGES = ("en", "de", "zh-CN")
CATALOGUE = {language: bundled_language(language) for language in LANGUAGES}
FORMAT_JS = (ROOT / "templates" / "common" / "format.js").as_uri()
COUNTS = (0, 1, 2, 21)


# --- the rules: Python against Node's Intl.PluralRules ------------------------------------------------------------

PLURAL_RULES = """
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(process.argv[1], "utf8"));
console.log(JSON.stringify(cases.map(([value, digits, language]) =>
  new Intl.PluralRules(language, { minimumFractionDigits: digits, maximumFractionDigits: digits }).select(value))));
"""


def test_the_python_rules_agree_with_nodes_intl(tmp_path):
    generator = random.Random(27)
    values: list[float] = [*range(-25, 230), 1000, 1001, 1_000_000, 0.0, -0.0, 0.5, 0.95, 0.995, 1.004, 1.005, 1.05,
                           1.5, 2.5, 10.1, 21.0, 101.0]
    values += [generator.choice([1, -1]) * generator.random() * 10 ** generator.randint(-3, 4) for _ in range(200)]
    values += [float(Fraction(generator.randint(0, 400), generator.randint(1, 200))) for _ in range(200)]
    cases = [[value, digits, language] for value in values for digits in (0, 1, 2, 3) for language in LANGUAGES]
    intl = run_node_on(PLURAL_RULES, cases, tmp_path)
    assert {category for category in intl} == {"one", "other"}  # what en, de and zh-CN have
    python = [plural_category(value, language, digits) for value, digits, language in cases]
    assert [(case, a, b) for case, a, b in zip(cases, intl, python, strict=True) if a != b] == []


def test_the_python_rules_by_hand():
    assert [plural_category(n, "en") for n in (0, 1, 2, 21, -1)] == ["other", "one", "other", "other", "one"]
    assert [plural_category(n, "de") for n in (0, 1, 2, 21)] == ["other", "one", "other", "other"]
    assert [plural_category(n, "zh-CN") for n in (0, 1, 2, 21)] == ["other"] * 4
    assert plural_category(1, "en", 2) == "other"  # "1.00 seconds": a 1 with decimals is no "one"


# --- the syntax: JavaScript and Python read and fill alike ---------------------------------------------------------

FILL = f"""
import {{ readFileSync }} from "node:fs";
import {{ fill }} from "{FORMAT_JS}";
const cases = JSON.parse(readFileSync(process.argv[1], "utf8"));
console.log(JSON.stringify(cases.map(([text, data, language]) => {{
  try {{
    return fill(text, data, language);
  }} catch (error) {{
    return {{ error: error.message }};
  }}
}})));
"""

# Texts both sides fill alike (a brace that opens no placeholder and a # outside a choice are text), and broken
# choices both refuse.
ODD_BUT_FINE = ["{{x}} }} {a b} { n} #1 {n}#", "{n, plural, other {}}", "{n,plural,one{#}other{# #}}",
                "{n, plural, =0 {none} =1 {just one} one {# one} other {{name}: #}}",
                "{n, plural, other {{n, plural, one {inner #} other {inner # of {name}}}}}",
                "{n,\tplural,\n one {a}\r\n other {b}\n}", "{missing, plural, one {#} other {#}} {missing}"]
BROKEN = ["{n, plural, one {#}}", "{n, plural, one {#} other {#}", "{n, select, a {x} other {y}}", "{n, plural}",
          "{n, plural, one {# {x} other {y}}", "{n, plural, one {a} one {b} other {c}}", "{n, plural, few other {x}}",
          "{n, plural, =01 {x} other {y}}", "{n, plural, =-1 {x} other {y}}", "{n, plural, two {{ x }} other {y}}",
          "{n, number}", "{a,b}", "{n, plural, other {x}"]


def fill_cases() -> list[list]:
    """Every catalogue string with its numbers 0, 1, 2, 21 and 1234, and its texts a name; and the odd texts"""
    cases = []
    for language, strings in CATALOGUE.items():
        for key, text in strings.items():
            names = sorted(arguments(text))
            for count in (*COUNTS, 1234):
                cases.append([text, {name: "Ann" if kind(key, name) == "text" else count for name in names}, language])
    for text in ODD_BUT_FINE:
        cases += [[text, {"n": count, "name": "Bo"}, language] for count in COUNTS for language in LANGUAGES]
    return cases


def test_javascript_and_python_fill_every_string_alike(tmp_path):
    cases = fill_cases()
    js = run_node_on(FILL, cases, tmp_path)
    wrong = [(case, out, fill(*case)) for case, out in zip(cases, js, strict=True) if fill(*case) != out]
    assert wrong == []


def test_javascript_and_python_refuse_the_same_broken_choices(tmp_path):
    js = run_node_on(FILL, [[text, {"n": 1}, "en"] for text in BROKEN], tmp_path)
    assert [text for text, out in zip(BROKEN, js, strict=True) if not isinstance(out, dict)] == []
    for text in BROKEN:
        with pytest.raises(MessageError):
            parse(text)


def test_an_odd_text_reads_as_written_by_hand():
    assert fill(ODD_BUT_FINE[0], {"n": 3}, "en") == "{{x}} }} {a b} { n} #1 3#"
    assert fill(ODD_BUT_FINE[3], {"n": 0, "name": "Bo"}, "en") == "none"
    assert fill(ODD_BUT_FINE[3], {"n": 1, "name": "Bo"}, "en") == "just one"
    assert fill(ODD_BUT_FINE[3], {"n": 2, "name": "Bo"}, "en") == "Bo: 2"
    assert fill(ODD_BUT_FINE[4], {"n": 1, "name": "Bo"}, "de") == "inner 1"
    assert fill(ODD_BUT_FINE[6], {}, "en") == ODD_BUT_FINE[6]
    assert fill("{n, plural, one {# Segment} other {# Segmente}}", {"n": 1234}, "de") == "1.234 Segmente"


# --- the declaration: every placeholder once, every count a plural choice ------------------------------------------


def test_every_placeholder_of_every_string_is_declared():
    undeclared = []
    for language, strings in CATALOGUE.items():
        for key, text in strings.items():
            for name in arguments(text):
                try:
                    kind(key, name)
                except KeyError as err:
                    undeclared.append(f"{language} {err.args[0]}")
    assert undeclared == []


def test_every_count_in_every_language_chooses_its_words_by_its_plural_form():
    wrong = []
    for language, strings in CATALOGUE.items():
        for key, text in strings.items():
            counts = {name for name in arguments(text) if kind(key, name) == "count"}
            bare = {part.name for part in walk(parse(text)) if isinstance(part, Placeholder)}
            wrong += [f"{language} {key}: {{{name}}} in {text!r}" for name in sorted(counts)
                      if name in bare or name not in choice_counts(text)]
    assert wrong == []


def test_no_string_chooses_a_plural_form_by_a_text():
    wrong = [f"{language} {key}: {name}" for language, strings in CATALOGUE.items() for key, text in strings.items()
             for name in choice_counts(text) if kind(key, name) == "text"]
    assert wrong == []


def test_each_declared_exception_names_a_placeholder_of_its_string_and_says_why():
    for (key, name), (_, why) in EXCEPTIONS.items():
        assert name in arguments(CATALOGUE["en"][key]), (key, name)
        assert len(why) > 10


def test_chinese_chooses_by_other_alone_or_an_exact_number():
    for key, text in CATALOGUE["zh-CN"].items():
        for part in walk(parse(text)):
            if isinstance(part, Choice):
                assert {selector for selector, _ in part.branches} - {"other"} <= {"=0", "=1"}, key


# --- the texts a GM reads, by hand -----------------------------------------------------------------------------

# key -> (the count's name, the other data, {language: the texts for 0, 1, 2 and 21})
BY_HAND = {
    "Gurps.Freeze": ("seconds", {"name": "Orc"}, {
        "en": ["Orc is frozen for 0 seconds.", "Orc is frozen for 1 second.", "Orc is frozen for 2 seconds.",
               "Orc is frozen for 21 seconds."],
        "de": ["Orc ist für 0 Sekunden erstarrt.", "Orc ist für 1 Sekunde erstarrt.",
               "Orc ist für 2 Sekunden erstarrt.", "Orc ist für 21 Sekunden erstarrt."],
        "zh-CN": ["Orc惊呆0秒。", "Orc惊呆1秒。", "Orc惊呆2秒。", "Orc惊呆21秒。"]}),
    "Gurps.FrozenTurn": ("left", {"name": "Orc"}, {
        "en": ["Orc is frozen and does nothing (the freeze's last second).",
               "Orc is frozen and does nothing (1 more second).",
               "Orc is frozen and does nothing (2 more seconds).", "Orc is frozen and does nothing (21 more seconds)."],
        "de": ["Orc ist erstarrt und tut nichts (die letzte Sekunde der Erstarrung).",
               "Orc ist erstarrt und tut nichts (noch 1 Sekunde).",
               "Orc ist erstarrt und tut nichts (noch 2 Sekunden).",
               "Orc ist erstarrt und tut nichts (noch 21 Sekunden)."],
        "zh-CN": ["Orc处于惊呆状态，不做任何行动（惊呆的最后一秒）。", "Orc处于惊呆状态，不做任何行动（还剩1秒）。",
                  "Orc处于惊呆状态，不做任何行动（还剩2秒）。",
                  "Orc处于惊呆状态，不做任何行动（还剩21秒）。"]}),
    # The range is text written by Format.Range (tests/test_lists.py): the same text in every language here.
    "Adnd.SideRoll": ("segments", {"side": "Elves", "range": "1–3", "roll": 2}, {
        "en": ["Elves: surprised on 1–3, rolls 2: not surprised.",
               "Elves: surprised on 1–3, rolls 2: surprised for 1 segment.",
               "Elves: surprised on 1–3, rolls 2: surprised for 2 segments.",
               "Elves: surprised on 1–3, rolls 2: surprised for 21 segments."],
        "de": ["Elves: überrascht bei 1–3, würfelt 2: nicht überrascht.",
               "Elves: überrascht bei 1–3, würfelt 2: 1 Segment lang überrascht.",
               "Elves: überrascht bei 1–3, würfelt 2: 2 Segmente lang überrascht.",
               "Elves: überrascht bei 1–3, würfelt 2: 21 Segmente lang überrascht."],
        "zh-CN": ["Elves：掷出1–3时被突袭，掷出2：未被突袭。", "Elves：掷出1–3时被突袭，掷出2：被突袭1段。",
                  "Elves：掷出1–3时被突袭，掷出2：被突袭2段。",
                  "Elves：掷出1–3时被突袭，掷出2：被突袭21段。"]}),
    "Adnd.FirstRound": ("count", {"round": 4}, {
        "en": ["The 0 surprise segments come first, each played like a round; the first normal round after them is "
               "round 4.",
               "The surprise segment comes first, played like a round; the first normal round after it is round 4.",
               "The 2 surprise segments come first, each played like a round; the first normal round after them is "
               "round 4.",
               "The 21 surprise segments come first, each played like a round; the first normal round after them is "
               "round 4."],
        "de": ["Zuerst kommen die 0 Überraschungssegmente, jedes wie eine Runde gespielt; die erste normale Runde "
               "danach ist Runde 4.",
               "Zuerst kommt das Überraschungssegment, wie eine Runde gespielt; die erste normale Runde danach ist "
               "Runde 4.",
               "Zuerst kommen die 2 Überraschungssegmente, jedes wie eine Runde gespielt; die erste normale Runde "
               "danach ist Runde 4.",
               "Zuerst kommen die 21 Überraschungssegmente, jedes wie eine Runde gespielt; die erste normale Runde "
               "danach ist Runde 4."],
        "zh-CN": ["先进行0个突袭段，每段按一轮进行；之后的第一个正常轮是第4轮。",
                  "先进行1个突袭段，每段按一轮进行；之后的第一个正常轮是第4轮。",
                  "先进行2个突袭段，每段按一轮进行；之后的第一个正常轮是第4轮。",
                  "先进行21个突袭段，每段按一轮进行；之后的第一个正常轮是第4轮。"]}),
    "Adnd.Surprised.First": ("segments", {"name": "Ann"}, {
        "en": ["Ann: surprised in the first 0 segments", "Ann: surprised in the first segment",
               "Ann: surprised in the first 2 segments", "Ann: surprised in the first 21 segments"],
        "de": ["Ann: in den ersten 0 Segmenten überrascht", "Ann: im ersten Segment überrascht",
               "Ann: in den ersten 2 Segmenten überrascht", "Ann: in den ersten 21 Segmenten überrascht"],
        "zh-CN": ["Ann：前0段被突袭", "Ann：前1段被突袭", "Ann：前2段被突袭", "Ann：前21段被突袭"]}),
    "Adnd.Surprised.Now": ("more", {"name": "Ann"}, {
        "en": ["Ann: surprised in this segment only", "Ann: surprised in this segment and 1 more",
               "Ann: surprised in this segment and 2 more", "Ann: surprised in this segment and 21 more"],
        "de": ["Ann: nur in diesem Segment überrascht", "Ann: in diesem und 1 weiteren Segment überrascht",
               "Ann: in diesem und 2 weiteren Segmenten überrascht",
               "Ann: in diesem und 21 weiteren Segmenten überrascht"],
        "zh-CN": ["Ann：仅本段被突袭", "Ann：本段及之后1段被突袭", "Ann：本段及之后2段被突袭",
                  "Ann：本段及之后21段被突袭"]}),
    "Odds.Expected.second": ("value", {"name": "Ann"}, {
        "en": ["Ann: 0 seconds lost on average", "Ann: 1 second lost on average", "Ann: 2 seconds lost on average",
               "Ann: 21 seconds lost on average"],
        "de": ["Ann: im Mittel 0 Sekunden verloren", "Ann: im Mittel 1 Sekunde verloren",
               "Ann: im Mittel 2 Sekunden verloren", "Ann: im Mittel 21 Sekunden verloren"],
        "zh-CN": ["Ann：平均损失0秒", "Ann：平均损失1秒", "Ann：平均损失2秒", "Ann：平均损失21秒"]}),
    "Odds.Expected.segment": ("value", {"name": "Ann"}, {
        "en": ["Ann: 0 segments lost on average", "Ann: 1 segment lost on average", "Ann: 2 segments lost on average",
               "Ann: 21 segments lost on average"],
        "de": ["Ann: im Mittel 0 Segmente verloren", "Ann: im Mittel 1 Segment verloren",
               "Ann: im Mittel 2 Segmente verloren", "Ann: im Mittel 21 Segmente verloren"],
        "zh-CN": ["Ann：平均损失0段", "Ann：平均损失1段", "Ann：平均损失2段", "Ann：平均损失21段"]}),
    "Odds.Expected.round": ("value", {"name": "Ann"}, {
        "en": ["Ann: 0 rounds lost on average", "Ann: 1 round lost on average", "Ann: 2 rounds lost on average",
               "Ann: 21 rounds lost on average"],
        "de": ["Ann: im Mittel 0 Runden verloren", "Ann: im Mittel 1 Runde verloren",
               "Ann: im Mittel 2 Runden verloren", "Ann: im Mittel 21 Runden verloren"],
        "zh-CN": ["Ann：平均损失0轮", "Ann：平均损失1轮", "Ann：平均损失2轮", "Ann：平均损失21轮"]}),
    "Odds.Expected.turn": ("value", {"name": "Ann"}, {
        "en": ["Ann: 0 turns lost on average", "Ann: 1 turn lost on average", "Ann: 2 turns lost on average",
               "Ann: 21 turns lost on average"],
        "de": ["Ann: im Mittel 0 Züge verloren", "Ann: im Mittel 1 Zug verloren",
               "Ann: im Mittel 2 Züge verloren", "Ann: im Mittel 21 Züge verloren"],
        "zh-CN": ["Ann：平均损失0个回合", "Ann：平均损失1个回合", "Ann：平均损失2个回合", "Ann：平均损失21个回合"]}),
    "Tracking.Recovered": ("seconds", {"name": "Orc"}, {
        "en": ["Orc: recovered after 0 seconds", "Orc: recovered after 1 second", "Orc: recovered after 2 seconds",
               "Orc: recovered after 21 seconds"],
        "de": ["Orc: nach 0 Sekunden erholt", "Orc: nach 1 Sekunde erholt", "Orc: nach 2 Sekunden erholt",
               "Orc: nach 21 Sekunden erholt"],
        "zh-CN": ["Orc：0秒后恢复", "Orc：1秒后恢复", "Orc：2秒后恢复", "Orc：21秒后恢复"]}),
    "Tracking.Stunned": ("turns", {"name": "Orc"}, {
        "en": ["Orc: stunned, no turn yet", "Orc: stunned, 1 turn so far", "Orc: stunned, 2 turns so far",
               "Orc: stunned, 21 turns so far"],
        "de": ["Orc: betäubt, noch kein Zug", "Orc: seit 1 Zug betäubt", "Orc: seit 2 Zügen betäubt",
               "Orc: seit 21 Zügen betäubt"],
        "zh-CN": ["Orc：精神震慑中（尚未到其回合）", "Orc：精神震慑中（已过1个回合）", "Orc：精神震慑中（已过2个回合）",
                  "Orc：精神震慑中（已过21个回合）"]}),
    "Web.GMCards.Hidden": ("count", {}, {
        "en": ["(0 cards hidden)", "(1 card hidden)", "(2 cards hidden)", "(21 cards hidden)"],
        "de": ["(0 Karten ausgeblendet)", "(1 Karte ausgeblendet)", "(2 Karten ausgeblendet)",
               "(21 Karten ausgeblendet)"],
        "zh-CN": ["（已隐藏0张）", "（已隐藏1张）", "（已隐藏2张）", "（已隐藏21张）"]}),
    # The number of names a line of the Roll20 script counts: the words agree with it
    "Roll20.PassByClick": ("count", {"names": "Wolf 1, Wolf 2"}, {
        "en": ["Wolf 1, Wolf 2 may not act this turn: pass it with the turn order's Next button.",
               "Wolf 1, Wolf 2 may not act this turn: pass it with the turn order's Next button.",
               "Wolf 1, Wolf 2 may not act this turn: pass it with the turn order's Next button.",
               "Wolf 1, Wolf 2 may not act this turn: pass it with the turn order's Next button."],
        "de": ["Wolf 1, Wolf 2 dürfen in diesem Zug nicht handeln: den Zug mit dem Weiter-Knopf der "
               "Initiativeliste übergehen.",
               "Wolf 1, Wolf 2 darf in diesem Zug nicht handeln: den Zug mit dem Weiter-Knopf der "
               "Initiativeliste übergehen.",
               "Wolf 1, Wolf 2 dürfen in diesem Zug nicht handeln: den Zug mit dem Weiter-Knopf der "
               "Initiativeliste übergehen.",
               "Wolf 1, Wolf 2 dürfen in diesem Zug nicht handeln: den Zug mit dem Weiter-Knopf der "
               "Initiativeliste übergehen."],
        "zh-CN": ["Wolf 1, Wolf 2在这个回合不能行动：请用回合顺序的“下一个”按钮跳过这个回合。",
                  "Wolf 1, Wolf 2在这个回合不能行动：请用回合顺序的“下一个”按钮跳过这个回合。",
                  "Wolf 1, Wolf 2在这个回合不能行动：请用回合顺序的“下一个”按钮跳过这个回合。",
                  "Wolf 1, Wolf 2在这个回合不能行动：请用回合顺序的“下一个”按钮跳过这个回合。"],
    }),
    "Roll20.NoOwnRow": ("count", {"names": "Wolf 1, Wolf 2", "row": "Foes"}, {
        "en": ["Wolf 1, Wolf 2 have no row of their own in the turn order: their turns are played with the row "
               "“Foes”.",
               "Wolf 1, Wolf 2 has no row of their own in the turn order: their turn is played with the row "
               "“Foes”.",
               "Wolf 1, Wolf 2 have no row of their own in the turn order: their turns are played with the row "
               "“Foes”.",
               "Wolf 1, Wolf 2 have no row of their own in the turn order: their turns are played with the row "
               "“Foes”."],
        "de": ["Wolf 1, Wolf 2 haben keine eigene Zeile in der Initiativeliste: Ihre Züge werden mit der Zeile "
               "„Foes“ gespielt.",
               "Wolf 1, Wolf 2 hat keine eigene Zeile in der Initiativeliste: Der Zug wird mit der Zeile "
               "„Foes“ gespielt.",
               "Wolf 1, Wolf 2 haben keine eigene Zeile in der Initiativeliste: Ihre Züge werden mit der Zeile "
               "„Foes“ gespielt.",
               "Wolf 1, Wolf 2 haben keine eigene Zeile in der Initiativeliste: Ihre Züge werden mit der Zeile "
               "„Foes“ gespielt."],
        "zh-CN": ["Wolf 1, Wolf 2在回合顺序中没有自己的一行：其回合随“Foes”这一行进行。",
                  "Wolf 1, Wolf 2在回合顺序中没有自己的一行：其回合随“Foes”这一行进行。",
                  "Wolf 1, Wolf 2在回合顺序中没有自己的一行：其回合随“Foes”这一行进行。",
                  "Wolf 1, Wolf 2在回合顺序中没有自己的一行：其回合随“Foes”这一行进行。"],
    }),
    "Roll20.NoRow": ("count", {"names": "Wolf 1, Wolf 2", "command": "!surprise"}, {
        "en": ["Wolf 1, Wolf 2 are surprised and have no row in the turn order, so their turns are never "
               "played: add the tokens to the turn order, or select them and play the turns with !surprise "
               "turn.",
               "Wolf 1, Wolf 2 is surprised and has no row in the turn order, so their turn is never played: "
               "add the token to the turn order, or select it and play the turn with !surprise turn.",
               "Wolf 1, Wolf 2 are surprised and have no row in the turn order, so their turns are never "
               "played: add the tokens to the turn order, or select them and play the turns with !surprise "
               "turn.",
               "Wolf 1, Wolf 2 are surprised and have no row in the turn order, so their turns are never "
               "played: add the tokens to the turn order, or select them and play the turns with !surprise "
               "turn."],
        "de": ["Wolf 1, Wolf 2 sind überrascht und haben keine Zeile in der Initiativeliste, ihre Züge werden "
               "also nie gespielt: die Token in die Initiativeliste aufnehmen oder sie auswählen und die Züge "
               "mit !surprise turn spielen.",
               "Wolf 1, Wolf 2 ist überrascht und hat keine Zeile in der Initiativeliste, der Zug wird also "
               "nie gespielt: den Token in die Initiativeliste aufnehmen oder ihn auswählen und den Zug mit "
               "!surprise turn spielen.",
               "Wolf 1, Wolf 2 sind überrascht und haben keine Zeile in der Initiativeliste, ihre Züge werden "
               "also nie gespielt: die Token in die Initiativeliste aufnehmen oder sie auswählen und die Züge "
               "mit !surprise turn spielen.",
               "Wolf 1, Wolf 2 sind überrascht und haben keine Zeile in der Initiativeliste, ihre Züge werden "
               "also nie gespielt: die Token in die Initiativeliste aufnehmen oder sie auswählen und die Züge "
               "mit !surprise turn spielen."],
        "zh-CN": ["Wolf 1, Wolf 2被突袭，且在回合顺序中没有一行，因此其回合永远不会进行：请把指示物加入回合顺序，或选中后用“!surprise turn”进行其回合。",
                  "Wolf 1, Wolf 2被突袭，且在回合顺序中没有一行，因此其回合永远不会进行：请把指示物加入回合顺序，或选中后用“!surprise turn”进行其回合。",
                  "Wolf 1, Wolf 2被突袭，且在回合顺序中没有一行，因此其回合永远不会进行：请把指示物加入回合顺序，或选中后用“!surprise turn”进行其回合。",
                  "Wolf 1, Wolf 2被突袭，且在回合顺序中没有一行，因此其回合永远不会进行：请把指示物加入回合顺序，或选中后用“!surprise turn”进行其回合。"],
    }),
}


def rendered_cases() -> list[tuple[str, str, dict, str]]:
    """Every by-hand case: (key, language, data, the text a GM reads)"""
    cases = []
    for key, (count, data, texts) in BY_HAND.items():
        for language, expected in texts.items():
            cases += [(key, language, {**data, count: n}, text) for n, text in zip(COUNTS, expected, strict=True)]
    return cases


def test_every_string_with_a_count_has_its_texts_written_by_hand():
    counted = {key for key, text in CATALOGUE["en"].items() if any(kind(key, name) == "count" for name in
                                                                   arguments(text))}
    assert counted == set(BY_HAND)


@pytest.mark.parametrize("language", LANGUAGES)
def test_python_writes_each_count_as_the_language_does(language):
    wrong = [(key, fill(CATALOGUE[language][key], data, language), text)
             for key, case_language, data, text in rendered_cases()
             if case_language == language and fill(CATALOGUE[language][key], data, language) != text]
    assert wrong == []


SHIPPED = """
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(process.argv[1], "utf8"));
const out = [];
for (const [formatJs, text, data, language] of cases) out.push((await import(formatJs)).fill(text, data, language));
console.log(JSON.stringify(out));
"""


def test_the_built_targets_write_each_count_as_the_language_does(examples, tmp_path):
    """Through the strings the Foundry modules' lang files and the Roll20 scripts carry, filled by the shipped fill"""
    campaigns = [load_campaign(path) for path in CAMPAIGNS]
    configurations = roll20_configurations([examples / campaign.id for campaign in campaigns])
    shipped: dict[str, list[tuple[str, dict[str, str]]]] = {}  # language -> (where, its strings)
    for campaign, configuration in zip(campaigns, configurations, strict=True):
        foundry = examples / campaign.id / "foundry"
        for language in LANGUAGES:
            lang = json.loads((foundry / "lang" / f"{language}.json").read_text(encoding="utf-8"))
            shipped.setdefault(language, []).append((f"{campaign.id} foundry", flatten(lang[campaign.id])))
            shipped[language].append((f"{campaign.id} roll20", configuration["STRINGS"][language]))
    format_js = (examples / campaigns[0].id / "foundry" / "scripts" / "common" / "format.js").as_uri()
    cases, expected, seen = [], [], set()
    for key, language, data, text in rendered_cases():
        for where, strings in shipped[language]:
            if key in strings:
                seen.add((key, where.split()[1]))
                cases.append([format_js, strings[key], data, language])
                expected.append((where, key, text))
    # The Roll20 script's own strings ship with it alone, the web page's with neither VTT target
    shipped_by = {"Roll20.": ("roll20",), "Web.": ()}
    targets = {key: next((by for prefix, by in shipped_by.items() if key.startswith(prefix)), ("foundry", "roll20"))
               for key in BY_HAND}
    assert {(key, target) for key in BY_HAND for target in targets[key]} <= seen
    out = run_node_on(SHIPPED, cases, tmp_path)
    assert [(where, key, got) for (where, key, _), got in zip(expected, out, strict=True)] == expected


def test_a_count_with_decimals_takes_the_words_of_its_digits(tmp_path):
    # "1.00 seconds", not "1.00 second": CLDR's "one" in English and German is a 1 without decimals.
    script = f"""
import {{ decimal, fill }} from "{FORMAT_JS}";
const text = (language) => JSON.parse(process.argv[1])[language];
console.log(JSON.stringify(["en", "de"].map((language) => [1, 2].map((digits) =>
  fill(text(language), {{ name: "Ann", value: decimal(1, digits === 1 ? 0 : 2) }}, language)))));
"""
    texts = {language: CATALOGUE[language]["Odds.Expected.second"] for language in ("en", "de")}
    done = run_node("--input-type=module", "-e", script, json.dumps(texts))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [["Ann: 1 second lost on average", "Ann: 1.00 seconds lost on average"],
                                       ["Ann: im Mittel 1 Sekunde verloren", "Ann: im Mittel 1,00 Sekunden verloren"]]


# --- the command line ------------------------------------------------------------------------------------------

CLI_FILES = ["exporter/narration", "exporter/report.py", "exporter/chart.py"]
AD_HOC = re.compile(r"""['"]s['"] if|if \w+ [!=]= 1 else|if len\([^)]*\) [!=]= 1 else|\{unit\}s\b|capitalize\(\)\}s""")


def test_the_command_line_chooses_no_plural_by_hand():
    files = [path for name in CLI_FILES for path in sorted((ROOT / name).rglob("*.py")) or [ROOT / name]]
    assert len(files) > 4
    found = [f"{path.relative_to(ROOT)}: {line.strip()}" for path in files
             for line in path.read_text(encoding="utf-8").splitlines() if AD_HOC.search(line)]
    assert found == []


def test_the_command_line_writes_one_second_and_two(tmp_path):
    from click.testing import CliRunner

    from exporter.cli import main

    scenario = str(ROOT / "fixtures" / "scenarios" / "gurps-total.toml")
    told = {seed: CliRunner().invoke(main, ["simulate", scenario, "--seed", str(seed)]).output for seed in (1, 2)}
    assert "Freeze roll for the side (1d6): 1 second frozen, Combat Reflexes excepted." in told[2]
    assert "Freeze roll for the side (1d6): 2 seconds frozen, Combat Reflexes excepted." in told[1]


def test_the_command_line_counts_by_hand():
    from exporter.chart import shade_names
    from exporter.narration import counted, say
    from exporter.narration.adnd1e import chance

    assert [counted(n, "segment") for n in COUNTS] == ["0 segments", "1 segment", "2 segments", "21 segments"]
    assert [counted(n, "turn") for n in (1, 1234)] == ["1 turn", "1,234 turns"]
    assert shade_names("second") == ["0 seconds", "1 second", "2 seconds", "3 seconds", "4+ seconds"]
    assert shade_names("round") == ["0 rounds", "1 round", "2 rounds", "3 rounds", "4+ rounds"]
    assert [say("{n, plural, one {acts} other {act}}", n=n) for n in (1, 2)] == ["acts", "act"]
    assert [chance(top) for top in (1, 3)] == ["1", "1-3"]
