"""A scenario's parts as a rules module declares them: plain classes whose annotated fields give each field's type,
default and bounds, without pydantic

A rules module declares its Scenario, Sides, Side, Member and Options as subclasses of Declared, with the methods
its procedures ask of them. Two readers take the fields from these declarations: exporter/rules/records.py reads a
valid table into them without pydantic (so `ambush odds` and `ambush simulate` start fast), and
exporter/rules/models.py makes the pydantic models that judge a refused table and read campaign options.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from exporter.limits import NAME_CHARACTERS
from exporter.rules.shared import JS_SAFE_INTEGER


@dataclass(frozen=True)
class Bounds:
    """The lowest and highest value an integer may take"""

    ge: int | None = None
    le: int | None = None


@dataclass(frozen=True)
class Lengths:
    """The fewest and most characters of a text, or items of a list"""

    min_length: int | None = None
    max_length: int | None = None


@dataclass(frozen=True)
class Visible:
    """A name's check: one line with a visible character (exporter/rules/shared.py: visible)"""


VISIBLE = Visible()

# Member and side names, and every reference to a member (leader, attacker, opener).
Name = Annotated[str, Lengths(1, NAME_CHARACTERS), VISIBLE]
# An integer a GM types that the runtimes read: JavaScript holds it exactly.
SafeInt = Annotated[int, Bounds(-JS_SAFE_INTEGER, JS_SAFE_INTEGER)]


class Required:
    """The default of a field a table must give"""

    def __repr__(self) -> str:
        return "REQUIRED"


class Empty:
    """The default of a part a table may leave out: the part read from an empty table (options = {})"""

    def __repr__(self) -> str:
        return "EMPTY"


REQUIRED = Required()
EMPTY = Empty()


@dataclass(frozen=True)
class OptionText:
    """What a house-rule option means: one line, its docs reading id, its source and what each value does"""

    meaning: str
    reading: str
    source: str
    values: dict[str, str]


@dataclass(frozen=True)
class Spec:
    """A field's default and its bounds, and for a house-rule option what it means"""

    default: Any = REQUIRED
    bounds: Bounds | None = None
    lengths: Lengths | None = None
    option: OptionText | None = None


def bounded(default: Any = REQUIRED, *, ge: int | None = None, le: int | None = None) -> Any:
    """Declare an integer field with its default (REQUIRED when a table must give it) and its bounds"""
    return Spec(default, bounds_of(ge, le))


def sized(default: Any = REQUIRED, *, min_length: int | None = None, max_length: int | None = None) -> Any:
    """Declare a list field with its default (REQUIRED when a table must give it) and how many items it holds"""
    return Spec(default, lengths=Lengths(min_length, max_length))


def option(default: Any, meaning: str, reading: str, source: str, values: dict[str, str], *, ge: int | None = None,
           le: int | None = None) -> Any:
    """Declare a house-rule option: its default, one-line meaning, docs reading id, source and what each value does"""
    return Spec(default, bounds_of(ge, le), None, OptionText(meaning, reading, source, values))


def bounds_of(ge: int | None, le: int | None) -> Bounds | None:
    """Return the bounds given, or None when neither is"""
    return None if ge is None and le is None else Bounds(ge, le)


@dataclass(frozen=True)
class Field:
    """One declared field: its name, its type as the annotation gives it (evaluated) and its spec"""

    name: str
    type: Any
    spec: Spec

    @property
    def required(self) -> bool:
        """Tell whether a table must give the field"""
        return self.spec.default is REQUIRED

    @property
    def default(self) -> Any:
        """Return the field's default, None when a table must give it"""
        return None if self.required else self.spec.default

    @property
    def bounds(self) -> Bounds | None:
        """Return an integer field's bounds: its own, or those of its type (SafeInt)"""
        if self.spec.bounds is not None or get_origin(self.type) is not Annotated:
            return self.spec.bounds
        return next((item for item in get_args(self.type)[1:] if isinstance(item, Bounds)), None)

    @property
    def plain_type(self) -> Any:
        """Return the type a value of the field has: bool, int, str, a Literal, a list or a part (not None)"""
        annotation = self.type
        while True:
            origin, args = get_origin(annotation), get_args(annotation)
            if origin is Annotated:
                annotation = args[0]
            elif origin in (Union, UnionType):
                annotation = next(arg for arg in args if arg is not type(None))
            else:
                return annotation


class Declared:
    """A part of a scenario (Scenario, Sides, Side, Member, Options), declared by its annotated fields in order

    The field values a declaration gives are taken off the class: its instances are the records and models the two
    readers make, which hold every field as an attribute.
    """

    __declared__: dict[str, tuple[str, Spec]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not is_declared(cls):  # a record or model class made from a declaration: nothing to take
            return
        annotations = cls.__dict__.get("__annotations__", {})
        declared = {}
        for name, annotation in annotations.items():
            given = cls.__dict__.get(name, REQUIRED)
            declared[name] = (annotation, given if isinstance(given, Spec) else Spec(given))
            if name in cls.__dict__:
                delattr(cls, name)
        cls.__declared__ = declared
        cls.__annotations__ = {}  # the readers own the fields; pydantic must not collect them from a base

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if is_declared(cls):  # it would have no field: read a table with records.record or models.model_of
            raise TypeError(f"{cls.__qualname__} is a declaration; read a table into it with "
                            "exporter.rules.records.record or validate one with exporter.rules.models.model_of")
        return super().__new__(cls)


@cache
def declared_fields(part: type[Declared]) -> dict[str, Field]:
    """Return a declaration's fields in order, their annotations evaluated in its module"""
    names = vars(sys.modules[part.__module__])
    return {name: Field(name, eval(annotation, names) if isinstance(annotation, str) else annotation, spec)
            for name, (annotation, spec) in part.__declared__.items()}  # the module's own annotations, as typing does


def is_declared(item: Any) -> bool:
    """Tell whether a type is a scenario part a rules module declares"""
    return isinstance(item, type) and issubclass(item, Declared) and Declared in item.__bases__


def parts_of(root: type[Declared]) -> list[type[Declared]]:
    """Return a declared part and every part its fields hold, outermost first"""
    found = [root]
    for part in found:  # grows as it goes: breadth first
        for field in declared_fields(part).values():
            found += [inner for inner in held_parts(field.type) if inner not in found]
    return found


def held_parts(annotation: Any) -> list[type[Declared]]:
    """Return the declared parts a type holds: itself, or those inside a list, an X | None or Annotated"""
    if is_declared(annotation):
        return [annotation]
    return [part for arg in get_args(annotation) for part in held_parts(arg)]
