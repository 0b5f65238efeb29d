"""The house-rule options of every system as a GM reads them: meaning, values, default, source and docs"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, get_args

from exporter.rules.declared import declared_fields
from exporter.rules.systems import SYSTEM_IDS, system_module

# Readings the rules fix (one value, or not implemented): never offered as options, refused with the rules' reason.
FIXED_READINGS: dict[str, dict[str, str]] = {system: system_module(system).FIXED_READINGS for system in SYSTEM_IDS}


@dataclass(frozen=True)
class OptionInfo:
    """One option of one system, everything the CLI, `ambush init` and the docs say of it"""

    system: str
    name: str
    default: Any
    meaning: str
    reading: str
    source: str
    values: dict[str, str]

    @property
    def shown_default(self) -> str:
        """Return the default as TOML writes it"""
        return json.dumps(self.default)

    @property
    def docs(self) -> str:
        """Return the command that prints the docs' section on the option"""
        return f"`ambush docs rules/{self.system}#{self.reading.lower()}`"


def system_options(system: str) -> list[OptionInfo]:
    """Return the options of a system, in the order its Options declares them"""
    rows = []
    for name, field in declared_fields(system_module(system).Options).items():
        text = field.spec.option
        if text is None:
            raise TypeError(f"{system} Options.{name} is not declared with option(): it has no meaning to show")
        rows.append(OptionInfo(system, name, field.default, text.meaning, text.reading, text.source, dict(text.values)))
    return rows


def value_names(option: OptionInfo) -> str:
    """Return the values an option takes, as a GM writes them"""
    annotation = declared_fields(system_module(option.system).Options)[option.name].plain_type
    if annotation is bool:
        return "true | false"
    choices = get_args(annotation)
    if choices and all(isinstance(c, str) for c in choices):
        return " | ".join(json.dumps(c) for c in choices)
    return "an integer"


def find_option(name: str, system: str | None = None) -> list[OptionInfo]:
    """Return the options of this name, in one system or in every system"""
    systems = [system] if system else list(SYSTEM_IDS)
    return [o for s in systems for o in system_options(s) if o.name == name]


def explain_option(option: OptionInfo) -> str:
    """Describe one option: meaning, values, default, source and where the docs say more"""
    lines = [f"{option.name} ({option.system}, reading {option.reading})", f"  {option.meaning}.",
             f"  values: {value_names(option)}   default: {option.shown_default}"]
    lines += [f"    {value}: {effect}" for value, effect in option.values.items()]
    lines += [f"  source: {option.source}", f"  more: {option.docs}"]
    return "\n".join(lines)
