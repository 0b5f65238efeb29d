"""Lists, ranges and labels as each language writes them: the JS helpers (common/format.js) and their Python twins

The expected texts by hand follow each language's conventions (English: "A, B, and C"; German: "A, B und C", no comma
before und; Chinese: the enumeration comma 、 and 和, the full-width colon, semicolon and parentheses, a hyphen in a
range). The Python lists are also compared with Node's own Intl.ListFormat, and the catalogue's range pattern with
Intl.NumberFormat's formatRange, over many lists and ranges.
"""

from __future__ import annotations

import random

import pytest

from exporter._resources import templates_root
from exporter.lang import bundled_language
from exporter.lang.lists import list_text
from exporter.lang.messages import fill
from tests.conftest import run_node_on

FORMAT_JS = (templates_root() / "common" / "format.js").as_uri()
LANGUAGES = ("en", "de", "zh-CN")

# (items, kind, style) -> the text in en, de, zh-CN
BY_HAND = [
    ((["Ava"], "conjunction", "long"), ("Ava", "Ava", "Ava")),
    ((["Ava", "Bram"], "conjunction", "long"), ("Ava and Bram", "Ava und Bram", "Ava和Bram")),
    ((["Ava", "Bram", "Orc 1"], "conjunction", "long"),
     ("Ava, Bram, and Orc 1", "Ava, Bram und Orc 1", "Ava、Bram和Orc 1")),
    ((["A", "B", "C", "D"], "conjunction", "long"), ("A, B, C, and D", "A, B, C und D", "A、B、C和D")),
    ((["3", "5", "1"], "conjunction", "narrow"), ("3, 5, 1", "3, 5 und 1", "3、5、1")),
    ((["surprisebonus_inverted", "surprisebonus"], "disjunction", "long"),
     ("surprisebonus_inverted or surprisebonus", "surprisebonus_inverted oder surprisebonus",
      "surprisebonus_inverted或surprisebonus")),
    ((["x", "y", "z"], "disjunction", "long"), ("x, y, or z", "x, y oder z", "x、y或z")),
    (([], "conjunction", "long"), ("", "", "")),
]

JS_LISTS = f"""
import {{ readFileSync }} from "node:fs";
import {{ list }} from "{FORMAT_JS}";
const cases = JSON.parse(readFileSync(process.argv[1], "utf8"));
console.log(JSON.stringify(cases.map(([items, type, style, language]) => list(items, language, {{ type, style }}))));
"""


def test_the_js_helper_joins_each_language_as_it_joins_a_list(tmp_path):
    cases = [[items, kind, style, language] for (items, kind, style), _ in BY_HAND for language in LANGUAGES]
    assert run_node_on(JS_LISTS, cases, tmp_path) == [text for _, texts in BY_HAND for text in texts]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_python_helper_joins_each_language_as_it_joins_a_list(language):
    index = LANGUAGES.index(language)
    assert [list_text(items, language, kind, style) for (items, kind, style), _ in BY_HAND] == [
        texts[index] for _, texts in BY_HAND]


INTL_LISTS = """
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(process.argv[1], "utf8"));
console.log(JSON.stringify(cases.map(([items, type, style, language]) =>
  new Intl.ListFormat(language, { type, style }).format(items))));
"""


def test_the_python_lists_agree_with_nodes_intl(tmp_path):
    rng = random.Random(31)
    names = ["Ava", "Bram", "Orc 1", "王五", "Ünal", "{1}", "a, b", "3"]
    cases = [[rng.sample(names, rng.randint(0, len(names))), kind, style, language]
             for _ in range(60) for kind, style in [("conjunction", "long"), ("conjunction", "narrow"),
                                                    ("disjunction", "long")] for language in LANGUAGES]
    intl = run_node_on(INTL_LISTS, cases, tmp_path)
    assert [list_text(items, language, kind, style) for items, kind, style, language in cases] == intl


INTL_RANGES = """
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(process.argv[1], "utf8"));
console.log(JSON.stringify(cases.map(([low, high, language]) => new Intl.NumberFormat(language).formatRange(low, high))));
"""


def test_the_catalogues_range_is_cldrs_range_in_every_language(tmp_path):
    # The ranges the cards show are of dice and thresholds, never below 0 (ICU spaces a range that starts below 0).
    cases = [[low, high, language] for low, high in [(1, 3), (1, 6), (3, 18), (2, 12), (0, 3), (1000, 2500)]
             for language in LANGUAGES]
    expected = run_node_on(INTL_RANGES, cases, tmp_path)
    written = [fill(bundled_language(language)["Format.Range"], {"low": low, "high": high}, language)
               for low, high, language in cases]
    assert written == expected
    assert written[:3] == ["1–3", "1–3", "1-3"]


JS_FORMATS = f"""
import {{ readFileSync }} from "node:fs";
import {{ counted, fill, label, range, sequence, signed }} from "{FORMAT_JS}";
const strings = JSON.parse(readFileSync(process.argv[1], "utf8"));
console.log(JSON.stringify(Object.entries(strings).map(([language, catalogue]) => {{
  const t = (key, data) => fill(catalogue[key], data ?? {{}}, language);
  return [label(t, "IQ", 12), counted(t, "A", 3), sequence(t, ["1d6: 5", "1d6: 2"]), range(1, 3, t), range(1, 1, t),
    t("Format.Part", {{ title: "T", part: 1, parts: 2 }}), t("Format.Named", {{ label: "IQ", value: signed(1) }})];
}})));
"""


def test_labels_counts_sequences_and_ranges_take_each_languages_punctuation(tmp_path):
    strings = {language: bundled_language(language) for language in LANGUAGES}
    assert run_node_on(JS_FORMATS, strings, tmp_path) == [
        ["IQ: 12", "A (3)", "1d6: 5; 1d6: 2", "1–3", "1", "T (1/2)", "IQ +1"],
        ["IQ: 12", "A (3)", "1d6: 5; 1d6: 2", "1–3", "1", "T (1/2)", "IQ +1"],
        ["IQ：12", "A（3）", "1d6: 5；1d6: 2", "1-3", "1", "T（1/2）", "IQ+1"],
    ]
