"""Turn outcomes into plain-English narration a GM reads in the terminal"""

from __future__ import annotations

from typing import Any

from exporter.lang.numbers import number_text
from exporter.rules.systems import narration_module

LANGUAGE = "en"  # the command line speaks English; its numbers are written as English writes them


def signed(value: int) -> str:
    """Write a modifier with its sign, +0 included"""
    return number_text(value, LANGUAGE, signed=True)


def side_label(scenario: Any, key: str) -> str:
    """Name a side for the GM: its own name, or "Side A" / "Side B" when it has none"""
    return scenario.side(key).name or f"Side {key.upper()}"


def narrate(scenario: Any, outcome: Any) -> list[str]:
    """Narrate an outcome with its system's narrator"""
    return narration_module(scenario.system).narrate(scenario, outcome)
