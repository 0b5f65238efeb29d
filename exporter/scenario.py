"""Read a scenario file (DESIGN.md, scenario file) into the rules model of its system"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from exporter.errors import InputFileError
from exporter.rules.model import FieldProblem
from exporter.rules.systems import SYSTEM_IDS, system_module


def load_scenario(path: Path) -> BaseModel:
    """Read and validate a scenario TOML file"""
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise InputFileError(path, None, "no such file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise InputFileError(path, None, f"cannot be read ({err})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputFileError(path, None, f"not valid TOML: {err}") from None
    return scenario_from_dict(data, path)


def scenario_from_dict(data: dict[str, Any], path: Path | str = "<scenario>") -> BaseModel:
    """Validate scenario data (as read from TOML or a vector) into its system's model"""
    system = data.get("system")
    if system is None:
        raise InputFileError(path, "system", f"missing; one of {', '.join(SYSTEM_IDS)}")
    if system not in SYSTEM_IDS:
        raise InputFileError(path, "system", f"unknown system {system!r}; one of {', '.join(SYSTEM_IDS)}")
    model = system_module(system).Scenario
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise InputFileError(path, *describe_first_error(err, system)) from None


def describe_first_error(err: ValidationError, system: str) -> tuple[str | None, str]:
    """Turn pydantic's first error into a field path and a short message"""
    first = err.errors(include_url=False)[0]
    field = field_path(first["loc"])
    kind = first["type"]
    if kind == "extra_forbidden":
        owners = [other for other in SYSTEM_IDS if other != system and key_known_to(other, first["loc"])]
        if owners:
            return field, f"is a field of {', '.join(owners)}, not of {system}"
        return field, "unknown field"
    if kind == "missing":
        return field, "missing"
    problem = (first.get("ctx") or {}).get("error")
    if isinstance(problem, FieldProblem):
        prefix = field_path(first["loc"])
        return (f"{prefix}.{problem.field}" if prefix else problem.field), str(problem)
    message = str(first["msg"]).removeprefix("Value error, ")
    if kind == "value_error" or not first["loc"]:
        return field, message
    return field, f"{message} (got {first.get('input')!r})"


def field_path(loc: tuple[Any, ...]) -> str | None:
    """Render a pydantic location as a TOML-style path, e.g. sides.a.members[1].iq"""
    text = ""
    for step in loc:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    return text or None


def key_known_to(system: str, loc: tuple[Any, ...]) -> bool:
    """Tell whether another system's scenario model has a field at this location"""
    model: Any = system_module(system).Scenario
    for step in loc:
        if isinstance(step, int):
            continue
        fields = getattr(model, "model_fields", None)
        if fields is None or step not in fields:
            return False
        model = innermost_model(fields[step].annotation)
    return True


def innermost_model(annotation: Any) -> Any:
    """Find the pydantic model inside an annotation such as list[Member] or Side | None"""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = innermost_model(arg)
        if found is not None:
            return found
    return None
