"""Roll procedures as data: the dice and terms of each roll a GM can make by hand, in no VTT's syntax

Every number is a rules module's CONSTANTS entry or a rules model's field default, so a rendered roll
computes what the rules core computes. Labels and texts are catalogue keys; a text may hold {name}
placeholders that the procedure's values fill. The terms are defined here, each system's rolls in its own module
of this package, which the registry (exporter/rules/systems.py) names: the definitions of a campaign import only
the rules module of its system.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Literal

from pydantic import BaseModel

from exporter.rules.shared import SideKey
from exporter.rules.systems import SYSTEMS


@dataclass(frozen=True)
class Dice:
    """Roll count dice of sides faces and add them, or add only the keep_highest highest"""

    count: int
    sides: int
    keep_highest: int | None = None


@dataclass(frozen=True)
class Constant:
    """A rule constant: its key in the rules module's CONSTANTS and its value"""

    name: str
    value: int


@dataclass(frozen=True)
class Number:
    """A plain number of the arithmetic itself (1 in turn - 1, the 0 floor), not a rule constant"""

    value: int


@dataclass(frozen=True)
class Input:
    """A rules model's field: a number, or a boolean that counts 1 when true; default as in the model"""

    key: str
    type: Literal["number", "boolean"]
    default: Any = None
    side: SideKey | None = None
    selected: bool = False  # belongs to the character the roll is for, whose sheet a VTT may read


@dataclass(frozen=True)
class Prompt:
    """A number the roller gives that no rules model holds: a turn, a side's sum of modifiers"""

    label: str
    default: int | None = None
    side: SideKey | None = None


@dataclass(frozen=True)
class Choice:
    """One of several labelled terms, picked by the roller"""

    label: str
    options: tuple[tuple[str, Term], ...]


@dataclass(frozen=True)
class Sum:
    """Terms added (+1) or subtracted (-1), in order"""

    terms: tuple[tuple[int, Term], ...]


@dataclass(frozen=True)
class Product:
    """Terms multiplied"""

    factors: tuple[Term, ...]


@dataclass(frozen=True)
class Extreme:
    """The highest or the lowest of terms"""

    highest: bool
    terms: tuple[Term, ...]


Term = Dice | Constant | Number | Input | Prompt | Choice | Sum | Product | Extreme


@dataclass(frozen=True)
class Row:
    """One labelled line of a roll: a term to roll, or a rule the roll cannot compute, as text"""

    label: tuple[str, ...]
    term: Term | None = None
    text: str | None = None


@dataclass(frozen=True)
class RollProcedure:
    """One roll a GM can make by hand: its id, title, lines and the values its texts show"""

    id: str
    title: str
    rows: tuple[Row, ...]
    values: Mapping[str, int] = field(default_factory=dict)


def plus(*terms: Term) -> Sum:
    """Add terms"""
    return Sum(tuple((1, term) for term in terms))


def minus(first: Term, *terms: Term) -> Sum:
    """Subtract terms from the first"""
    return Sum(((1, first), *((-1, term) for term in terms)))


def highest(*terms: Term) -> Extreme:
    """Take the highest of terms"""
    return Extreme(True, terms)


def lowest(*terms: Term) -> Extreme:
    """Take the lowest of terms"""
    return Extreme(False, terms)


def constant(rules: Any, name: str) -> Constant:
    """Name one of a rules module's constants"""
    return Constant(name, rules.CONSTANTS[name])


def model_input(model: type[BaseModel], key: str, *, side: SideKey | None = None, selected: bool = False) -> Input:
    """Describe a rules model's field as an input, with the model's default (None when it has none)"""
    info = model.model_fields[key]
    kind: Literal["number", "boolean"] = "boolean" if info.annotation is bool else "number"
    return Input(key, kind, None if info.is_required() else info.default, side, selected)


def side_label(key: SideKey) -> str:
    """Return the catalogue key of a side's name"""
    return f"Dialog.Side.{key}"


def roll_procedures(system: str) -> tuple[RollProcedure, ...]:
    """Return the roll procedures of a system, from the module of this package the registry names"""
    return import_module(SYSTEMS[system].rolls).procedures()
