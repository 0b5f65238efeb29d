"""Turn outcomes into plain-English narration a GM reads in the terminal"""

from __future__ import annotations

from typing import Any

from exporter.rules.systems import narration_module


def side_label(scenario: Any, key: str) -> str:
    """Name a side for the GM: its own name, or "Side A" / "Side B" when it has none"""
    return scenario.side(key).name or f"Side {key.upper()}"


def narrate(scenario: Any, outcome: Any) -> list[str]:
    """Narrate an outcome with its system's narrator"""
    return narration_module(scenario.system).narrate(scenario, outcome)
