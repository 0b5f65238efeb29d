"""Turn outcomes into plain-English narration a GM reads in the terminal"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from exporter.rules.systems import SYSTEM_MODULES


def narrate(scenario: Any, outcome: Any) -> list[str]:
    """Narrate an outcome with its system's narrator"""
    module = SYSTEM_MODULES[scenario.system].rsplit(".", 1)[1]
    return import_module(f"exporter.narration.{module}").narrate(scenario, outcome)
