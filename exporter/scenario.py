"""Read a scenario file (docs/scenarios.md) into the rules model of its system"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from exporter.errors import InputFileError
from exporter.excerpt import excerpt
from exporter.limits import MEMBERS_A_SIDE
from exporter.rules.records import read_scenario
from exporter.rules.systems import SYSTEM_IDS, system_module
from exporter.validation import describe_first_error, did_you_mean, read_toml

if TYPE_CHECKING:
    from pydantic import BaseModel


def load_scenario(path: Path) -> Any:
    """Read and validate a scenario TOML file: as records when valid, else through its model for the exact error"""
    data = read_toml(path)
    check_crowd(data, path)
    scenario = read_scenario(data)
    return scenario if scenario is not None else scenario_from_dict(data, path)


def check_crowd(data: dict[str, Any], path: Path) -> None:
    """Refuse a side of more members than the limit before any member is read: its odds would take minutes"""
    sides = data.get("sides")
    for key, side in (sides.items() if isinstance(sides, dict) else ()):
        members = side.get("members") if isinstance(side, dict) else None
        if isinstance(members, list) and len(members) > MEMBERS_A_SIDE:
            raise InputFileError(path, f"sides.{key}.members", f"lists {len(members):,} members; a side has at most "
                                                              f"{MEMBERS_A_SIDE:,}")


def scenario_from_dict(data: dict[str, Any], path: Path | str = "<scenario>") -> BaseModel:
    """Validate scenario data (as read from TOML or a vector) into its system's model"""
    from pydantic import ValidationError  # lazy: a valid scenario file needs no pydantic (load_scenario)

    system = data.get("system")
    if system is None:
        for key in data:  # a misspelt system is the likelier cause
            if did_you_mean(key, ["system"]):
                raise InputFileError(path, key, f"unknown field{did_you_mean(key, ['system'])}")
        raise InputFileError(path, "system", f"missing; one of {', '.join(SYSTEM_IDS)}")
    if system not in SYSTEM_IDS:
        raise InputFileError(path, "system", f"unknown system {excerpt(system)}; one of {', '.join(SYSTEM_IDS)}")
    model = scenario_model(system)
    try:
        return model.model_validate(data, strict=True)  # TOML types are exact: no "12" for 12, no 1 for true
    except ValidationError as err:
        raise InputFileError(path, *describe_first_error(err, system, scenario_model)) from None


def scenario_model(system: str) -> type[BaseModel]:
    """Return the scenario model of a system"""
    from exporter.rules.models import model_of  # lazy, as above

    return model_of(system_module(system).Scenario)
