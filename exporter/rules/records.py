"""Read a valid scenario without pydantic, into the parts its rules module declares (exporter/rules/declared.py)

`ambush odds` and `ambush simulate` start in a fraction of the time pydantic takes to import. A table these
readings refuse is not judged here: read_scenario returns None and exporter/scenario.py validates it with the
pydantic model, which gives the exact error. tests/test_records.py checks that both accept the same tables and
read the same values.
"""

from __future__ import annotations

import types
from functools import cache
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from exporter.rules.declared import (
    EMPTY,
    REQUIRED,
    Bounds,
    Declared,
    Lengths,
    Visible,
    declared_fields,
    is_declared,
)
from exporter.rules.shared import visible
from exporter.rules.systems import SYSTEMS, system_module


class Refused(ValueError):
    """A value that its declaration does not accept"""


class Unreadable(TypeError):
    """A declared type the records cannot read"""


class Record:
    """A part's fields as attributes, and the keys that were given (as pydantic's model_fields_set)"""

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
    if type(system) is not str or system not in SYSTEMS:
        return None
    try:
        return record(system_module(system).Scenario, data)
    except ValueError:  # a Refused value or a failed check (FieldProblem), as pydantic reports them
        return None


def record(part: type[Declared], data: Any) -> Record:
    """Read a table into a record of a declared part: every key known, every required key given, the defaults filled
    in, then the part's check; ValueError when refused"""
    if type(data) is not dict:
        raise Refused(part.__name__)
    fields = shapes(part)
    if any(key not in fields for key in data):
        raise Refused(part.__name__)
    values = {}
    for name, (shape, default) in fields.items():
        if name in data:
            values[name] = value(shape, data[name])
        elif default is REQUIRED:
            raise Refused(name)
        elif default is EMPTY:
            values[name] = record(shape[1], {})
        else:
            values[name] = default
    made = record_class(part)(values, frozenset(data))
    check = getattr(made, "check", None)
    if check is not None:
        check()
    return made


def value(shape: tuple[Any, ...], given: Any) -> Any:
    """Read one value of a shape: strict, as the models validate TOML (no "12" for 12, no 1 for true)"""
    kind = shape[0]
    if kind == "optional":
        return None if given is None else value(shape[1], given)
    if kind == "part":
        return record(shape[1], given)
    if kind == "list":
        if type(given) is list and within(len(given), shape[2], shape[3]):
            return [value(shape[1], item) for item in given]
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
def shapes(part: type[Declared]) -> dict[str, tuple[tuple[Any, ...], Any]]:
    """Return each field of a declared part with its shape, e.g. ("int", 1, 40), and its default"""
    out = {}
    for name, field in declared_fields(part).items():
        where = f"{part.__module__}.{part.__name__}.{name}"
        spec = field.spec
        metadata = [item for item in (spec.bounds, spec.lengths) if item is not None]
        shape = type_shape(where, field.type, metadata)
        if spec.default is EMPTY and shape[0] != "part":
            raise Unreadable(f"{where}: EMPTY is the default of a part only")
        out[name] = (shape, spec.default)
    return out


def type_shape(where: str, annotation: Any, metadata: list[Any]) -> tuple[Any, ...]:
    """Return the shape of one annotation with its bounds, e.g. ("int", 1, 40) or ("optional", ("str", ...))"""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return type_shape(where, args[0], [*args[1:], *metadata])
    if origin in (Union, types.UnionType):
        if len(args) != 2 or type(None) not in args:
            raise Unreadable(f"{where}: {annotation}, the records read only X | None")
        return ("optional", type_shape(where, next(a for a in args if a is not type(None)), metadata))
    if origin is Literal and all(type(a) is str for a in args) and not metadata:
        return ("literal", args)
    if origin is list:
        low, high = lengths(where, metadata)
        return ("list", type_shape(where, args[0], []), low, high)
    return plain_shape(where, annotation, metadata)


def plain_shape(where: str, annotation: Any, metadata: list[Any]) -> tuple[Any, ...]:
    """Return the shape of bool, int, str or a declared part"""
    if annotation is bool and not metadata:
        return ("bool",)
    if annotation is int:
        bounds = [(m.ge, m.le) for m in metadata if isinstance(m, Bounds)]
        if len(bounds) != len(metadata) or len(bounds) > 1:
            raise Unreadable(f"{where}: integer constraints {metadata}")
        return ("int", *(bounds[0] if bounds else (None, None)))
    if annotation is str:
        checked = [m for m in metadata if isinstance(m, Visible)]
        low, high = lengths(where, [m for m in metadata if m not in checked])
        return ("str", low, high, bool(checked))
    if is_declared(annotation) and not metadata:
        return ("part", annotation)
    raise Unreadable(f"{where}: {annotation} with {metadata}")


def lengths(where: str, metadata: list[Any]) -> tuple[int | None, int | None]:
    """Read the one Lengths a text or a list may have"""
    if len(metadata) > 1 or any(not isinstance(m, Lengths) for m in metadata):
        raise Unreadable(f"{where}: length constraints {metadata}")
    return (metadata[0].min_length, metadata[0].max_length) if metadata else (None, None)


@cache
def record_class(part: type[Declared]) -> type[Record]:
    """Return the record class of a declared part, with the methods its rules module gives it"""
    return type(part.__name__, (part, Record), {"__module__": part.__module__, "__qualname__": part.__qualname__})
