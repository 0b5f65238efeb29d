"""Numbers, percentages and yes-or-no as a language writes them: the Python twin of templates/common/format.js

The generated JavaScript writes numbers with Intl.NumberFormat; these functions give the same text for the bundled
languages (tests/test_numbers.py compares them with Node's Intl): each language's decimal and grouping signs and its
percent pattern as CLDR has them, a float read as its shortest decimal form and rounded half away from zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

# CLDR's decimal sign, grouping sign (groups of three, from four digits on) and percent pattern of each language.
SYMBOLS = {"en": (".", ",", "{}%"), "de": (",", ".", "{}\u00a0%"), "zh-CN": (".", ",", "{}%")}
YES, NO = "Dialog.Yes", "Dialog.No"

Number = int | float | Fraction


def decimal_of(value: Number) -> Decimal:
    """Read a number as Intl.NumberFormat reads a JavaScript Number: a float (or a fraction) by its shortest form"""
    if isinstance(value, bool):
        raise TypeError("a yes-or-no value is said in words (yes_no), not written as a number")
    return Decimal(value) if isinstance(value, int) else Decimal(repr(float(value)))


def written(number: Decimal, language: str, digits: int, signed: bool) -> str:
    """Write a decimal with exactly so many decimals, its sign, and the language's signs"""
    point, group, _ = SYMBOLS[language]
    whole, _, part = f"{abs(number).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP):f}".partition(".")
    text = f"{int(whole):,}".replace(",", group) + (point + part if part else "")
    return ("-" if number.is_signed() else "+" if signed else "") + text


def number_text(value: Number, language: str, digits: int = 0, *, signed: bool = False) -> str:
    """Write a number with exactly so many decimals (none by default), with its sign when `signed` (+0 included)"""
    return written(decimal_of(value), language, digits, signed)


def percent_text(value: Number, language: str, digits: int = 1) -> str:
    """Write a probability as a percentage with so many decimals"""
    return SYMBOLS[language][2].format(written(decimal_of(value) * 100, language, digits, False))


def yes_no(value: bool, strings: Mapping[str, str]) -> str:
    """Say a yes-or-no value in words, from the strings of one language"""
    return strings[YES if value else NO]
