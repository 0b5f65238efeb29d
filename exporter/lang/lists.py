"""Lists as a language joins them: the Python twin of `list` in templates/common/format.js (Intl.ListFormat)

The generated JavaScript joins names, statuses and dice with Intl.ListFormat; these patterns give the same text for
the bundled languages (tests/test_lists.py compares them with Node's Intl). Each is CLDR's listPatterns (UTS #35,
Lists) as Node's ICU ships them: two items joined by `two`, more by `start` for the first pair, `middle` for each
next and `end` for the last.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

Kind = Literal["conjunction", "disjunction"]
Style = Literal["long", "narrow"]


class Patterns(NamedTuple):
    """One list pattern of CLDR: how two items are joined, and the first, middle and last pair of a longer list"""

    two: str
    start: str
    middle: str
    end: str


def same(pattern: str) -> Patterns:
    """A list pattern that joins every pair alike"""
    return Patterns(pattern, pattern, pattern, pattern)


# CLDR listPatterns, standard (conjunction, long), standard-narrow and or (disjunction), by language subtag.
PATTERNS: dict[str, dict[tuple[Kind, Style], Patterns]] = {
    "en": {("conjunction", "long"): Patterns("{0} and {1}", "{0}, {1}", "{0}, {1}", "{0}, and {1}"),
           ("conjunction", "narrow"): same("{0}, {1}"),
           ("disjunction", "long"): Patterns("{0} or {1}", "{0}, {1}", "{0}, {1}", "{0}, or {1}")},
    "de": {("conjunction", "long"): Patterns("{0} und {1}", "{0}, {1}", "{0}, {1}", "{0} und {1}"),
           ("conjunction", "narrow"): Patterns("{0} und {1}", "{0}, {1}", "{0}, {1}", "{0} und {1}"),
           ("disjunction", "long"): Patterns("{0} oder {1}", "{0}, {1}", "{0}, {1}", "{0} oder {1}")},
    "zh": {("conjunction", "long"): Patterns("{0}和{1}", "{0}、{1}", "{0}、{1}", "{0}和{1}"),
           ("conjunction", "narrow"): same("{0}、{1}"),
           ("disjunction", "long"): Patterns("{0}或{1}", "{0}、{1}", "{0}、{1}", "{0}或{1}")},
}


def joined(pattern: str, first: str, second: str) -> str:
    """Fill a pattern's {0} and {1}, in one pass: an item that holds {1} stays as it is"""
    head, _, rest = pattern.partition("{0}")
    middle, _, tail = rest.partition("{1}")
    return f"{head}{first}{middle}{second}{tail}"


def list_text(items: Sequence[str], language: str, kind: Kind = "conjunction", style: Style = "long") -> str:
    """Join items as a language (a BCP 47 tag) joins a list of this kind and style"""
    patterns = PATTERNS[language.split("-")[0]][kind, style]
    if len(items) < 2:
        return "".join(items)
    if len(items) == 2:
        return joined(patterns.two, items[0], items[1])
    text = joined(patterns.end, items[-2], items[-1])
    for item in reversed(items[1:-2]):
        text = joined(patterns.middle, item, text)
    return joined(patterns.start, items[0], text)
