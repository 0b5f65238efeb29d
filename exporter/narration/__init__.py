"""Turn outcomes into plain-English narration a GM reads in the terminal"""

from __future__ import annotations

from typing import Any

from collections.abc import Sequence

from exporter.lang.lists import list_text
from exporter.lang.messages import Value, fill
from exporter.lang.numbers import number_text
from exporter.rules.systems import narration_module

LANGUAGE = "en"  # the command line speaks English; its numbers are written, and its counts take words, as English does
# Each thing the command line counts, its noun in the form a count of it takes (exporter/lang/messages.py).
NOUNS = {
    "second": "{count, plural, one {second} other {seconds}}",
    "segment": "{count, plural, one {segment} other {segments}}",
    "round": "{count, plural, one {round} other {rounds}}",
    "turn": "{count, plural, one {turn} other {turns}}",
}
# The heading over what each unit of loss the odds count (docs/dev/architecture.md, odds JSON: unit).
LOSSES = {"second": "Seconds lost to surprise", "segment": "Segments lost to surprise",
          "round": "Rounds lost to surprise", "turn": "Turns lost to surprise"}


def say(text: str, **data: Value) -> str:
    """Fill a message of the command line: its placeholders, and its plural choices by English's plural rules"""
    return fill(text, data, LANGUAGE)


def listed(items: Sequence[str]) -> str:
    """Join names as English joins a list, as the table's cards do (exporter/lang/lists.py): "A, B, and C" """
    return list_text(items, LANGUAGE)


def noun(count: int, unit: str) -> str:
    """Name a thing counted in the form its count takes: "second" for 1, "seconds" for 0 or 2"""
    return say(NOUNS[unit], count=count)


def counted(count: int, unit: str) -> str:
    """Write a count with its noun: "1 second", "2 seconds" """
    return f"{number_text(count, LANGUAGE)} {noun(count, unit)}"


def signed(value: int) -> str:
    """Write a modifier with its sign, +0 included"""
    return number_text(value, LANGUAGE, signed=True)


def side_label(scenario: Any, key: str) -> str:
    """Name a side for the GM: its own name, or "Side A" / "Side B" when it has none"""
    return scenario.side(key).name or f"Side {key.upper()}"


def narrate(scenario: Any, outcome: Any) -> list[str]:
    """Narrate an outcome with its system's narrator"""
    return narration_module(scenario.system).narrate(scenario, outcome)
