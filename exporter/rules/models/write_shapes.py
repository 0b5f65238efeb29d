"""Write exporter/rules/shapes.py: the shape of every scenario model, read from the pydantic models

Run `.venv/bin/python -m exporter.rules.models.write_shapes` after changing a model; tests/test_records.py fails while
the file is out of date. A model feature the records (exporter/rules/records.py) cannot read stops the writer.
"""

from __future__ import annotations

import dataclasses
import json
import types
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import AfterValidator, BaseModel, StringConstraints
from pydantic.fields import FieldInfo

from exporter.rules.shared import visible
from exporter.rules.systems import SYSTEM_IDS, SYSTEMS, system_module

PATH = Path(__file__).resolve().parents[1] / "shapes.py"
HEADER = '''"""The shapes of the scenario models, for records.py; written by exporter/rules/models/write_shapes.py"""

from __future__ import annotations

from typing import Any

# system -> model -> its rules module's methods class (or None) and its fields: the type, and the default when
# it has one ({} for a model: the model read from an empty table).
SHAPES: dict[str, dict[str, dict[str, Any]]] = '''
CONFIG = {"extra": "forbid", "frozen": True, "defer_build": True}
LINE_LENGTH = 120  # ruff's, pyproject.toml
CHECK = "_checked"  # the one model validator, exporter/rules/models/__init__.py: RulesModel


class Unreadable(TypeError):
    """A model feature the records cannot read"""


def shapes() -> dict[str, dict[str, dict[str, Any]]]:
    """Return the shapes of every system's Scenario model and the models inside it"""
    return {system: model_shapes(system, system_module(system).Scenario) for system in SYSTEM_IDS}


def model_shapes(system: str, root: type[BaseModel]) -> dict[str, dict[str, Any]]:
    """Return the shape of a model and of every model inside it, outermost first"""
    out: dict[str, dict[str, Any]] = {}
    pending = [root]
    while pending:
        model = pending.pop(0)
        if model.__name__ not in out:
            out[model.__name__] = model_shape(system, model, pending)
    return out


def model_shape(system: str, model: type[BaseModel], pending: list[type[BaseModel]]) -> dict[str, Any]:
    """Return one model's shape, adding the models its fields hold to pending"""
    where = f"{system} {model.__name__}"
    if dict(model.model_config) != CONFIG:
        raise Unreadable(f"{where}: model_config {dict(model.model_config)}, the records read only {CONFIG}")
    decorators = model.__pydantic_decorators__
    validators = {f.name for f in dataclasses.fields(decorators) if getattr(decorators, f.name)} - {"model_validators"}
    if validators or set(decorators.model_validators) != {CHECK}:
        raise Unreadable(f"{where}: validators {sorted(validators | set(decorators.model_validators))}; "
                         "put a check into its rules module's methods class instead")
    methods = [base for base in model.__bases__ if not issubclass(base, BaseModel)]
    if methods and (len(methods) > 1 or methods[0].__module__ != SYSTEMS[system].rules):
        raise Unreadable(f"{where}: bases {methods}; one methods class of {SYSTEMS[system].rules} at most")
    fields = {}
    for name, info in model.model_fields.items():
        if info.alias or info.validation_alias or info.validate_default:
            raise Unreadable(f"{where}.{name}: an alias or a validated default")
        shape = type_shape(f"{where}.{name}", info.annotation, list(info.metadata), pending)
        fields[name] = {"type": shape} if info.is_required() else {"type": shape, "default": default(where, info)}
    return {"methods": methods[0].__name__ if methods else None, "fields": fields}


def default(where: str, info: FieldInfo) -> Any:
    """Return a field's default: a plain value, or {} for a model read from an empty table"""
    made = info.default_factory() if info.default_factory is not None else info.default  # type: ignore[call-arg]
    if isinstance(made, BaseModel):
        if made.model_fields_set or made != type(made).model_validate({}):
            raise Unreadable(f"{where}: a default model that is not its model read from an empty table")
        return {}
    if made is None or type(made) in (bool, int, str):
        return made
    raise Unreadable(f"{where}: default {made!r}")


def type_shape(where: str, annotation: Any, metadata: list[Any], pending: list[type[BaseModel]]) -> tuple[Any, ...]:
    """Return the shape of one annotation with its constraints, e.g. ("int", 1, 40) or ("optional", ("str", ...))"""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return type_shape(where, args[0], [*unpacked(args[1:]), *metadata], pending)
    if origin in (Union, types.UnionType):
        if len(args) != 2 or type(None) not in args:
            raise Unreadable(f"{where}: {annotation}, the records read only X | None")
        return ("optional", type_shape(where, next(a for a in args if a is not type(None)), metadata, pending))
    if origin is Literal and all(type(a) is str for a in args) and not metadata:
        return ("literal", args)
    if origin is list:
        low, high = lengths(where, metadata)
        return ("list", type_shape(where, args[0], [], pending), low, high)
    return plain_shape(where, annotation, metadata, pending)


def plain_shape(where: str, annotation: Any, metadata: list[Any], pending: list[type[BaseModel]]) -> tuple[Any, ...]:
    """Return the shape of bool, int, str or a model"""
    if annotation is bool and not metadata:
        return ("bool",)
    if annotation is int:
        return ("int", *bounds(where, metadata))
    if annotation is str:
        checked = [m for m in metadata if isinstance(m, AfterValidator)]
        if any(m.func is not visible for m in checked):
            raise Unreadable(f"{where}: a validator other than visible")
        low, high = lengths(where, [m for m in metadata if m not in checked])
        return ("str", low, high, bool(checked))
    if isinstance(annotation, type) and issubclass(annotation, BaseModel) and not metadata:
        pending.append(annotation)
        return ("model", annotation.__name__)
    raise Unreadable(f"{where}: {annotation} with {metadata}")


def unpacked(metadata: tuple[Any, ...]) -> list[Any]:
    """Flatten Annotated metadata: a Field(...) gives its constraints"""
    out: list[Any] = []
    for item in metadata:
        out += item.metadata if isinstance(item, FieldInfo) else [item]
    return out


def bounds(where: str, metadata: list[Any]) -> tuple[int | None, int | None]:
    """Read ge and le; nothing else constrains an integer the records read"""
    low = [m.ge for m in metadata if kind(m) == "Ge"]
    high = [m.le for m in metadata if kind(m) == "Le"]
    if len(low) + len(high) != len(metadata) or len(low) > 1 or len(high) > 1:
        raise Unreadable(f"{where}: integer constraints {metadata}")
    return (low[0] if low else None, high[0] if high else None)


def lengths(where: str, metadata: list[Any]) -> tuple[int | None, int | None]:
    """Read min_length and max_length, given as Field constraints or StringConstraints"""
    low: list[int] = []
    high: list[int] = []
    for m in metadata:
        if kind(m) == "MinLen":
            low.append(m.min_length)
        elif kind(m) == "MaxLen":
            high.append(m.max_length)
        elif isinstance(m, StringConstraints) and set(given(m)) <= {"min_length", "max_length"}:
            low += [m.min_length] if m.min_length is not None else []
            high += [m.max_length] if m.max_length is not None else []
        else:
            raise Unreadable(f"{where}: length constraint {m!r}")
    if len(low) > 1 or len(high) > 1:
        raise Unreadable(f"{where}: lengths {metadata}")
    return (low[0] if low else None, high[0] if high else None)


def kind(constraint: Any) -> str:
    """Name an annotated-types constraint (Ge, Le, MinLen, MaxLen), as pydantic's field metadata holds them"""
    return type(constraint).__name__


def given(constraints: StringConstraints) -> list[str]:
    """Name the settings of a StringConstraints that are not left unset"""
    return [f.name for f in dataclasses.fields(constraints) if getattr(constraints, f.name) is not None]


def render(data: dict[str, dict[str, dict[str, Any]]]) -> str:
    """Write the shapes module's text: one model a block, one field a line"""
    lines = [HEADER + "{"]
    for system, models in data.items():
        lines.append(f"    {literal(system)}: {{")
        for model, shape in models.items():
            lines += [f"        {literal(model)}: {{", f'            "methods": {literal(shape["methods"])},',
                      '            "fields": {']
            lines += [field_line(name, field) for name, field in shape["fields"].items()]
            lines += ["            },", "        },"]
        lines.append("    },")
    return "\n".join([*lines, "}", ""])


def field_line(name: str, field: dict[str, Any]) -> str:
    """Write one field of a model, its default on a line of its own when one line would be too long"""
    line = f"                {literal(name)}: {literal(field)},"
    if len(line) <= LINE_LENGTH or "default" not in field:
        return line
    head = f"                {literal(name)}: {{"
    return f'{head}"type": {literal(field["type"])},\n{" " * len(head)}"default": {literal(field["default"])}}},'


def literal(value: Any) -> str:
    """Write a value as Python source, strings in double quotes"""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, tuple):
        items = [literal(item) for item in value]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    return repr(value)


def main() -> None:
    """Rewrite exporter/rules/shapes.py"""
    PATH.write_text(render(shapes()), encoding="utf-8")
    print(f"wrote {PATH}")


if __name__ == "__main__":
    main()
