"""Roll procedures as data: the dice and terms of each roll a GM can make by hand, in no VTT's syntax

Every number is a rules module's CONSTANTS entry or a field default its scenario's parts declare, so a rendered roll
computes what the rules core computes. Labels and texts are catalogue keys; a text may hold {name} placeholders that
the procedure's values fill. The terms are defined here; each system's rolls are its rules module's roll_procedures(),
beside the rules they restate. The Roll20 macros render them (exporter/targets/roll20/macros.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from exporter.rules.declared import Declared, declared_fields
from exporter.rules.shared import SideKey


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


def constant(constants: Mapping[str, Any], name: str) -> Constant:
    """Name one of a rules module's CONSTANTS"""
    return Constant(name, constants[name])


def model_input(part: type[Declared], key: str, *, side: SideKey | None = None, selected: bool = False) -> Input:
    """Describe a scenario part's field as an input, with its default (None when it has none)"""
    declared = declared_fields(part)[key]
    kind: Literal["number", "boolean"] = "boolean" if declared.type is bool else "number"
    return Input(key, kind, declared.default, side, selected)


def side_label(key: SideKey) -> str:
    """Return the catalogue key of a side's name"""
    return f"Dialog.Side.{key}"
