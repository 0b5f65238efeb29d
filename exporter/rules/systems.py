"""The registry of rules systems: each system id and where its rules core and narration live

Adding a system means one entry here and the modules it names: a rules module that provides RulesSystem
(exporter/rules/protocol.py), declaring its scenario's parts (exporter/rules/declared.py) and its roll procedures
(exporter/rules/rolls.py), and a narration module with narrate(scenario, outcome).
"""

from __future__ import annotations

from functools import partial
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from exporter.rules.shared import input_entries, option_reads

if TYPE_CHECKING:
    from exporter.rules.protocol import RulesSystem


class SystemEntry(NamedTuple):
    """One rules system: its rules and narration modules, the title `ambush init` gives a campaign, what the command
    line calls it, and the example scenario whose odds chart the docs show"""

    rules: str
    narration: str
    title: str
    called: str
    chart: str

    @property
    def module(self) -> str:
        """Return the rules module's own name, which its narration and tests take: fallout_ttrpg"""
        return self.rules.rpartition(".")[2]


SYSTEMS: dict[str, SystemEntry] = {
    "gurps4e": SystemEntry("exporter.rules.gurps4e", "exporter.narration.gurps4e", "GURPS Surprise", "GURPS 4e, B393",
                           "gurps-partial"),
    "adnd1e": SystemEntry("exporter.rules.adnd1e", "exporter.narration.adnd1e", "AD&D 1e Surprise", "AD&D 1e / OSRIC",
                          "adnd-seed-example"),
    "fallout-ttrpg": SystemEntry("exporter.rules.fallout_ttrpg", "exporter.narration.fallout_ttrpg",
                                 "Fallout TTRPG Surprise", "the Fallout TTRPG homebrew", "fallout-sneak-attack"),
    "dnd5e": SystemEntry("exporter.rules.dnd5e", "exporter.narration.dnd5e", "D&D 5e Surprise",
                         "D&D 5th edition, 2014 and 2024 rules", "dnd-bandit-camp"),
}
SYSTEM_IDS = tuple(SYSTEMS)


def systems_called() -> str:
    """Return every system id with what it is called, as the command line lists them"""
    return ", ".join(f"{system} ({entry.called})" for system, entry in SYSTEMS.items())


def system_module(system: str) -> RulesSystem:
    """Return the rules module of a system id"""
    return cast("RulesSystem", import_module(SYSTEMS[system].rules))


def narration_module(system: str) -> ModuleType:
    """Return the narration module of a system id"""
    return import_module(SYSTEMS[system].narration)


def unread_inputs(system: str, options: Any) -> dict[str, str]:
    """Return the member inputs of a system that house rules (an Options model or record) leave unread, each with the
    option that would read it"""
    value_of = partial(getattr, options)
    return {key: gate for key, gate in option_gated_inputs(system).items() if not option_reads(value_of, gate)}


def option_gated_inputs(system: str) -> dict[str, str]:
    """Return the member inputs of a system that only a rules option reads, with that option"""
    return {e.key: e.option for levels in system_module(system).INPUTS.values() for e in input_entries(levels)
            if e.level == "member" and e.option is not None}
