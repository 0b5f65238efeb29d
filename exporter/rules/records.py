"""Read a valid scenario without pydantic, from the shapes of its models (exporter/rules/shapes.py)

`ambush odds` and `ambush simulate` start in a fraction of the time pydantic takes to import. A table these
shapes refuse is not judged here: read_scenario returns None and exporter/scenario.py validates it with the
pydantic model, which gives the exact error. tests/test_records.py checks that both accept the same tables and
read the same values.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from exporter.rules.shapes import SHAPES
from exporter.rules.shared import visible
from exporter.rules.systems import system_module


class Refused(ValueError):
    """A value that its shape does not accept"""


class Record:
    """A model's fields as attributes, and the keys that were given (as pydantic's model_fields_set)"""

    def __init__(self, values: dict[str, Any], given: frozenset[str]) -> None:
        vars(self).update(values, model_fields_set=given)

    def __setattr__(self, name: str, value: Any) -> None:
        """Refuse a change, as the frozen models do"""
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if k != "model_fields_set")
        return f"{type(self).__name__}({fields})"


def read_scenario(data: Any) -> Record | None:
    """Read scenario data (as TOML gives it) into records, or None when only its pydantic model can judge it"""
    system = data.get("system") if type(data) is dict else None
    if type(system) is not str or system not in SHAPES:
        return None
    try:
        return read(system, "Scenario", data)
    except ValueError:  # a Refused value or a failed check (FieldProblem), as pydantic reports them
        return None


def record(system: str, model: str, values: dict[str, Any]) -> Record:
    """Make one record of a system's model from its fields, the defaults filled in; ValueError when refused"""
    return read(system, model, values)


def read(system: str, model: str, data: Any) -> Record:
    """Read a table into a record of a model: every key known, every required key given, then the model's check"""
    if type(data) is not dict:
        raise Refused(model)
    fields = SHAPES[system][model]["fields"]
    if any(key not in fields for key in data):
        raise Refused(model)
    values = {}
    for name, field in fields.items():
        if name in data:
            values[name] = value(system, field["type"], data[name])
        elif "default" not in field:
            raise Refused(name)
        elif field["type"][0] == "model":
            values[name] = read(system, field["type"][1], field["default"])
        else:
            values[name] = field["default"]
    made = record_class(system, model)(values, frozenset(data))
    check = getattr(made, "check", None)
    if check is not None:
        check()
    return made


def value(system: str, shape: tuple[Any, ...], given: Any) -> Any:
    """Read one value of a shape: strict, as the models validate TOML (no "12" for 12, no 1 for true)"""
    kind = shape[0]
    if kind == "optional":
        return None if given is None else value(system, shape[1], given)
    if kind == "model":
        return read(system, shape[1], given)
    if kind == "list":
        if type(given) is list and within(len(given), shape[2], shape[3]):
            return [value(system, shape[1], item) for item in given]
    elif plain_fits(shape, given):
        return visible(given) if kind == "str" and shape[3] else given
    raise Refused(kind)


def plain_fits(shape: tuple[Any, ...], given: Any) -> bool:
    """Tell whether a plain value (bool, int, literal, str) has its shape's type and lies within its bounds"""
    kind = shape[0]
    if kind == "bool":
        return type(given) is bool
    if kind == "int":
        return type(given) is int and within(given, shape[1], shape[2])
    if kind == "literal":
        return type(given) is str and given in shape[1]
    return kind == "str" and type(given) is str and within(len(given), shape[1], shape[2])


def within(number: int, low: int | None, high: int | None) -> bool:
    """Tell whether a number lies within optional bounds"""
    return (low is None or number >= low) and (high is None or number <= high)


@cache
def record_class(system: str, model: str) -> type[Record]:
    """Return the record class of a model, with its rules module's methods (SideMethods ...) when it has them"""
    methods = SHAPES[system][model]["methods"]
    bases = (Record,) if methods is None else (getattr(system_module(system), methods), Record)
    return type(model, bases, {"__module__": __name__, "__qualname__": model})
