"""Shared building blocks of the rules core: sides, field problems, odds results (no pydantic: see models/)"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import import_module
from typing import Any, Literal

SideKey = Literal["a", "b"]
SIDE_KEYS: tuple[SideKey, SideKey] = ("a", "b")


# The largest integer JavaScript holds exactly (Number.MAX_SAFE_INTEGER): bounds every integer the runtimes read.
JS_SAFE_INTEGER = 2**53 - 1


def visible(name: str) -> str:
    """Refuse a name of whitespace only, which no one at the table could tell apart or read"""
    if not name.strip():
        raise ValueError(f"is blank; a name needs a visible character (got {name!r})")
    return name


# Procedure id -> level (scenario, side, member) -> (input field, the sides that must give it, and for an input
# only a house rule reads, that rules option); see INPUTS of each rules module.
Inputs = dict[str, dict[str, tuple[tuple[str, ...], ...]]]


@dataclass(frozen=True)
class InputEntry:
    """One entry of a procedure's INPUTS: where the field lives, who must give it, the option that reads it"""

    level: str
    key: str
    required: str
    option: str | None


def input_entries(levels: dict[str, tuple[tuple[str, ...], ...]]) -> list[InputEntry]:
    """Read the entries of one procedure's INPUTS, in their order"""
    return [InputEntry(level, key, required, option[0] if option else None)
            for level, entries in levels.items() for key, required, *option in entries]

# Odds tails are cut once the mass still to come is this small (docs/dev/architecture.md, the odds JSON).
TAIL_CUT = Fraction(1, 10**12)


class FieldProblem(ValueError):
    """A validator's complaint about one field, given as a path relative to the model being validated"""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def check_unique_names(sides: Any) -> None:
    """Reject a member name used twice, on one side or across both"""
    seen: set[str] = set()
    for key in SIDE_KEYS:
        for index, member in enumerate(getattr(sides, key).members):
            if member.name in seen:
                raise FieldProblem(f"sides.{key}.members[{index}].name", f"{member.name!r} is used more than once")
            seen.add(member.name)


def other(side: SideKey) -> SideKey:
    """Return the opposing side's key"""
    return "b" if side == "a" else "a"


@dataclass(frozen=True)
class MemberOdds:
    """How much of the fight one member loses to surprise, as an exact distribution"""

    unit: str
    lost: dict[int, Fraction]
    never: Fraction = Fraction(0)
    expected_lost: Fraction | None = None


@dataclass(frozen=True)
class Odds:
    """The exact outcome distribution of one scenario"""

    system: str
    procedure: str
    surprise: dict[str, Fraction]
    members: dict[str, MemberOdds]
    free_segments: dict[int, Fraction] | None = field(default=None)


def scaled(dist: dict[int, Fraction], weight: Fraction) -> dict[int, Fraction]:
    """Multiply every probability of a distribution by weight"""
    return {k: p * weight for k, p in dist.items()}


def add_mass(dist: dict[int, Fraction], key: int, mass: Fraction) -> dict[int, Fraction]:
    """Return dist with mass added at key, keys sorted and empty entries dropped"""
    out = dict(dist)
    out[key] = out.get(key, Fraction(0)) + mass
    return {k: out[k] for k in sorted(out) if out[k]}


def models_on_demand(system_module_name: str) -> Callable[[str], Any]:
    """Return a rules module's __getattr__ that finds its pydantic models (exporter/rules/models/) on first use"""
    name = system_module_name.rpartition(".")[2]

    def __getattr__(attribute: str) -> Any:
        if not attribute.startswith("__"):  # `from module import x` asks for __path__: no reason to load pydantic
            models = import_module(f"exporter.rules.models.{name}")
            found = getattr(models, attribute, None)
            if isinstance(found, type) and found.__module__ == models.__name__:
                return found
        raise AttributeError(f"module {system_module_name!r} has no attribute {attribute!r}")

    return __getattr__
