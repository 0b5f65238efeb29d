"""The registry of rules systems: system id to its rules module"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

SYSTEM_MODULES = {
    "gurps4e": "exporter.rules.gurps4e",
    "adnd1e": "exporter.rules.adnd1e",
    "fallout-ttrpg": "exporter.rules.fallout_ttrpg",
}
SYSTEM_IDS = tuple(SYSTEM_MODULES)


def system_module(system: str) -> ModuleType:
    """Return the rules module of a system id"""
    return import_module(SYSTEM_MODULES[system])
