"""The CLDR plural category of a number in a language: the Python twin of Intl.PluralRules

A catalogue string chooses its words by the category of a count (exporter/lang/messages.py); the generated JavaScript
asks Intl.PluralRules, these rules give the same answer for the bundled languages (tests/test_plurals.py compares
them with Node's). Each language's cardinal rule is written out from CLDR's plurals.xml as a function of the
number's operands, read from the number as it is written (1 is "one" in English, 1.0 is "other"); another language
is one entry of RULES.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

from exporter.lang.numbers import Number, decimal_of

CATEGORIES = ("zero", "one", "two", "few", "many", "other")


class Operands(NamedTuple):
    """CLDR's plural operands (UTS #35, Language Plural Rules): the number as written, without its sign"""

    n: Decimal  # the absolute value
    i: int  # the integer digits
    v: int  # the number of visible fraction digits, trailing zeros included
    w: int  # the same without trailing zeros
    f: int  # the visible fraction digits as an integer, trailing zeros included
    t: int  # the same without trailing zeros


def operands(value: Number, digits: int = 0) -> Operands:
    """Read a number's operands as it is written with exactly so many decimals (rounded half away from zero)"""
    written = abs(decimal_of(value)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    whole, _, fraction = f"{written:f}".partition(".")
    trimmed = fraction.rstrip("0")
    return Operands(written, int(whole), len(fraction), len(trimmed), int(fraction or 0), int(trimmed or 0))


def one_for_a_whole_one(o: Operands) -> str:
    """English and German: "one" for 1 written without decimals, "other" for everything else"""
    return "one" if o.i == 1 and o.v == 0 else "other"


# CLDR plurals.xml, cardinal rules, by language subtag; a language whose numbers never change its words is all "other".
RULES: dict[str, Callable[[Operands], str]] = {
    "en": one_for_a_whole_one,
    "de": one_for_a_whole_one,
    "zh": lambda o: "other",
}


def plural_category(value: Number, language: str, digits: int = 0) -> str:
    """Return the CLDR plural category of a number written with so many decimals in a language (a BCP 47 tag)"""
    return RULES[language.split("-")[0]](operands(value, digits))
