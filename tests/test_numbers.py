"""Numbers, percentages and yes-or-no as each language writes them: the JS helper (common/format.js) and its Python twin

The expected texts below are written by hand from the languages' conventions (German: decimal comma, grouping dot, a
no-break space before %; Chinese and English: decimal point, grouping comma). The Python twin is also compared with
Node's own Intl.NumberFormat, which the generated JavaScript uses, over many values.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from exporter._resources import templates_root
from exporter.lang import bundled_language
from exporter.lang.numbers import number_text, percent_text, yes_no
from tests.conftest import run_node_on

NBSP = "\u00a0"
FORMAT_JS = (templates_root() / "common" / "format.js").as_uri()

# (what, value, digits) -> the text in en, de, zh-CN
BY_HAND = [
    (("percent", 0.7222, 1), ("72.2%", f"72,2{NBSP}%", "72.2%")),
    (("percent", 1, 1), ("100.0%", f"100,0{NBSP}%", "100.0%")),
    (("percent", 0.0005, 1), ("0.1%", f"0,1{NBSP}%", "0.1%")),
    (("percent", 0.123456, 2), ("12.35%", f"12,35{NBSP}%", "12.35%")),
    (("decimal", 0.16981, 2), ("0.17", "0,17", "0.17")),
    (("decimal", 1234.5, 2), ("1,234.50", "1.234,50", "1,234.50")),
    (("decimal", 1.005, 2), ("1.01", "1,01", "1.01")),  # as written, not as the float's binary value (1.00499...)
    (("number", 1234, 0), ("1,234", "1.234", "1,234")),
    (("number", 987, 0), ("987", "987", "987")),
    (("number", -2, 0), ("-2", "-2", "-2")),
    (("signed", 2, 0), ("+2", "+2", "+2")),
    (("signed", 0, 0), ("+0", "+0", "+0")),
    (("signed", -4, 0), ("-4", "-4", "-4")),
]
LANGUAGES = ("en", "de", "zh-CN")

JS_BY_HAND = f"""
import {{ readFileSync }} from "node:fs";
import {{ decimal, fill, formatNumber, percent, signed, yesNo }} from "{FORMAT_JS}";
const styled = {{ percent: (v, d) => percent(v, d), decimal: (v, d) => decimal(v, d), number: (v) => v, signed }};
const cases = JSON.parse(readFileSync(process.argv[1], "utf8"));
const out = cases.map(([what, value, digits, language]) => formatNumber(styled[what](value, digits), language));
out.push(fill("{{n}} of {{p}}: {{name}} {{missing}}", {{ n: 1234, p: percent(0.5), name: 7 + "" }}, "de"));
out.push(yesNo(true, (key) => `<${{key}}>`), yesNo(false, (key) => `<${{key}}>`));
console.log(JSON.stringify(out));
"""


def test_the_js_helper_writes_each_language_as_it_writes_numbers(tmp_path):
    cases = [[what, value, digits, language] for (what, value, digits), _ in BY_HAND for language in LANGUAGES]
    out = run_node_on(JS_BY_HAND, cases, tmp_path)
    assert out[:len(cases)] == [text for _, texts in BY_HAND for text in texts]
    assert out[len(cases):] == ["1.234 of 50,0\u00a0%: 7 {missing}", "<Dialog.Yes>", "<Dialog.No>"]


def python_text(what: str, value: float, digits: int, language: str) -> str:
    if what == "percent":
        return percent_text(value, language, digits)
    return number_text(value, language, digits, signed=what == "signed")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_python_helper_writes_each_language_as_it_writes_numbers(language):
    index = LANGUAGES.index(language)
    assert [python_text(*case, language) for case, _ in BY_HAND] == [texts[index] for _, texts in BY_HAND]


def test_the_python_helper_reads_a_fraction_as_the_float_the_javascript_gets():
    assert percent_text(Fraction(13, 18), "de") == f"72,2{NBSP}%"
    assert number_text(Fraction(1, 6), "zh-CN", 3) == "0.167"


def test_the_python_helper_says_yes_and_no_in_words_and_refuses_them_as_numbers():
    assert [yes_no(flag, bundled_language("de")) for flag in (True, False)] == ["Ja", "Nein"]
    assert [yes_no(flag, bundled_language("zh-CN")) for flag in (True, False)] == ["是", "否"]
    with pytest.raises(TypeError):
        number_text(True, "en")


INTL = """
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(process.argv[1], "utf8"));
const options = {
  percent: (d) => ({ style: "percent", minimumFractionDigits: d, maximumFractionDigits: d }),
  number: (d) => ({ minimumFractionDigits: d, maximumFractionDigits: d }),
  signed: (d) => ({ minimumFractionDigits: d, maximumFractionDigits: d, signDisplay: "always" }),
};
console.log(JSON.stringify(cases.map(([what, value, digits, language]) =>
  new Intl.NumberFormat(language, options[what](digits)).format(value))));
"""


def test_the_python_helper_agrees_with_nodes_intl(tmp_path):
    generator = random.Random(20)
    values = [0.0, -0.0, 0.5, 0.125, 0.0625, 1.005, 2.675, 999.9995, 1e6, -1234.5678, 1 / 3, 2 / 3, 5e-7]
    values += [generator.choice([1, -1]) * generator.random() * 10 ** generator.randint(-4, 7) for _ in range(150)]
    values += [float(Fraction(generator.randint(0, 1000), generator.randint(1, 1000))) for _ in range(150)]
    cases = [[what, value, digits, language] for value in values for what in ("percent", "number", "signed")
             for digits in (0, 1, 2, 3) for language in LANGUAGES]
    cases += [["number", value, 0, language] for value in (7, -12, 1000, 123456789, 10**15) for language in LANGUAGES]
    intl = run_node_on(INTL, cases, tmp_path)
    wrong = [(case, text, python_text(*case)) for case, text in zip(cases, intl, strict=True)
             if python_text(*case) != text]
    assert wrong == []
