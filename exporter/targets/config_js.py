"""The one rendered module of a build, `common/config.js`: what differs between campaigns, as named constants

Every other module of the table is the same in every build and imports what it needs from this one. The entries every
target shares come from the definitions; each target adds its own (the Foundry module's id, the Roll20 script's
name, the sheet readers, the strings) through `extra`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from jinja2 import Environment

from exporter import __version__
from exporter.definitions import Definitions, InputDef
from exporter.definitions.settings import setting_entries

CONFIG_MODULE = "common/config.js"


@dataclass(frozen=True)
class ConfigEntry:
    """One constant of the configuration module: its name, what it is, its value"""

    name: str
    doc: str
    value: Any


def input_data(item: InputDef) -> dict[str, Any]:
    """Return an input as plain data without the attributes it leaves at their defaults (common/draft.js fills them)"""
    data = {}
    for attribute in fields(InputDef):
        value = getattr(item, attribute.name)
        if value != attribute.default:
            data[attribute.name] = [input_data(inner) for inner in value] if attribute.name == "fields" else value
    return data


def procedures_data(defs: Definitions) -> list[dict[str, Any]]:
    """Return each procedure and the inputs it reads, as plain data"""
    return [{"id": p.id, "inputs": [input_data(i) for i in p.inputs]} for p in defs.procedures]


def common_entries(defs: Definitions) -> list[ConfigEntry]:
    """Return the entries every target's configuration holds"""
    return [
        ConfigEntry("SYSTEM", "The rules system this build plays", defs.system),
        ConfigEntry("RULES", f"The rule constants of the rules core (exporter/rules, CONSTANTS of {defs.system})",
                    defs.constants),
        ConfigEntry("DEFAULT_OPTIONS", "The rules options of a scenario that gives none: the system's defaults with "
                    "the campaign's house rules", defs.options),
        ConfigEntry("PROCEDURES", "Each procedure and the inputs it reads: level, type, who must give it, default, "
                    "bounds, the input it is given instead of; what an input leaves out has its default",
                    procedures_data(defs)),
        ConfigEntry("SIDE_KEYS", "The keys of the two sides; a is the party", list(defs.side_keys)),
        ConfigEntry("UNIT", "What a member's odds count: seconds, segments or rounds lost", defs.unit),
        ConfigEntry("TAIL_CUT", "The odds cut a loss distribution's tail once the mass still to come is below this "
                    "fraction, [numerator, denominator]", list(defs.tail_cut)),
    ]


def settings_entry(defs: Definitions, target: str,
                   doc: str = "The automation's settings, as the campaign gives them to every target") -> ConfigEntry:
    """Return the configuration entry of the settings that apply to a target"""
    return ConfigEntry("SETTINGS", doc, setting_entries(defs.settings, target))


def render_config(env: Environment, defs: Definitions, build: str, extra: list[ConfigEntry]) -> str:
    """Render the configuration module of one build: the shared entries, then the target's own"""
    entries = common_entries(defs) + extra
    names = [entry.name for entry in entries]
    if len(set(names)) != len(names):
        raise ValueError(f"config.js would define a constant twice: {names}")
    return env.get_template("config.js").render(build=build, ambush_version=__version__, entries=entries)
