"""Shared building blocks of the rules core: sides, field problems, odds results (no pydantic: see declared.py)"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from exporter.excerpt import excerpt

SideKey = Literal["a", "b"]
SIDE_KEYS: tuple[SideKey, SideKey] = ("a", "b")


# The largest integer JavaScript holds exactly (Number.MAX_SAFE_INTEGER): bounds every integer the runtimes read.
JS_SAFE_INTEGER = 2**53 - 1


# Control characters (C0, DEL, C1) and the line and paragraph separators: none belongs in a one-line name, and a
# newline in one ends a line of a chat card, a log or a TOML file early.
CONTROL_CHARACTER = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(text: str) -> str:
    """Refuse text with a control character where one line is meant: a name, an id, a version, an address"""
    if found := CONTROL_CHARACTER.search(text):
        raise ValueError(f"has the control character U+{ord(found.group()):04X}; it must be one line of text "
                         f"(got {excerpt(text)})")
    return text


# Invisible format characters (Unicode's Cf): a bidi override or isolate turns a name around where it is shown, a zero
# width space makes two names look alike. The zero width joiner and non-joiner stay: Persian and Indic spelling and
# emoji sequences need them.
FORMAT_CHARACTER = re.compile("[\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b\u200e\u200f"
                              "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
                              "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001"
                              "\U000e0020-\U000e007f]")


def visible(name: str) -> str:
    """Refuse a name or title of whitespace only, which no one at the table could tell apart or read, one with an
    invisible format character, or one not of one line"""
    if not name.strip():
        raise ValueError(f"is blank; a name needs a visible character (got {excerpt(name)})")
    if found := FORMAT_CHARACTER.search(name):
        raise ValueError(f"has the invisible format character U+{ord(found.group()):04X}; a name is shown as it reads "
                         f"(got {excerpt(name)})")
    return one_line(name)


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

def option_reads(option_value: Callable[[str], Any], gate: str | None) -> bool:
    """Tell whether the house rules read an input gated by an option: "name" while it is on, "name=value" while it
    has that value (an INPUTS entry's option)"""
    if gate is None:
        return True
    name, _, value = gate.partition("=")
    return str(option_value(name)) == value if value else bool(option_value(name))


def gate_text(gate: str) -> str:
    """Say which house rule reads a gated input, as a campaign file sets it: options.name = true, or = "value"."""
    name, _, value = gate.partition("=")
    return f'options.{name} = "{value}"' if value else f"options.{name} = true"

# Odds tails are cut once the mass still to come is this small (docs/dev/architecture.md, the odds JSON).
TAIL_CUT = Fraction(1, 10**12)


class FieldProblem(ValueError):
    """A validator's complaint about one field, given as a path relative to the model being validated"""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


# What every scenario holds whatever its procedure, by level (docs/scenarios.md, Common).
STRUCTURE = {"scenario": ("system", "procedure", "sides", "options"), "side": ("name", "members"), "member": ("name",)}


def check_procedure_fields(scenario: Any, inputs: Inputs,
                           spellings: dict[str, tuple[str, ...]] | None = None) -> None:
    """Refuse a field given that only another procedure reads: it would be ignored (docs/scenarios.md)"""
    other_spellings = spellings or {}
    known: dict[tuple[str, str], list[str]] = {}  # a crowd's members ask about the same few fields

    def readers(level: str, key: str) -> list[str]:
        """Return the procedures that read this field at this level"""
        if (level, key) not in known:
            known[level, key] = [name for name, levels in inputs.items()
                                 if any(key == entry[0] or key in other_spellings.get(entry[0], ())
                                        for entry in levels.get(level, ()))]
        return known[level, key]

    def check(level: str, given: Any, prefix: str) -> None:
        for key in sorted(given.model_fields_set - set(STRUCTURE[level])):
            owners = readers(level, key)
            if owners and scenario.procedure not in owners:
                readers_text = " and ".join(owners)
                raise FieldProblem(f"{prefix}{key}", f"is read by procedure {readers_text}, "
                                                     f"not by {scenario.procedure}: remove it")

    check("scenario", scenario, "")
    for side_key in SIDE_KEYS:
        side = scenario.sides[side_key] if isinstance(scenario.sides, dict) else getattr(scenario.sides, side_key)
        check("side", side, f"sides.{side_key}.")
        for index, member in enumerate(side.members):
            check("member", member, f"sides.{side_key}.members[{index}].")


def check_unique_names(sides: Any) -> None:
    """Reject a member name used twice, on one side or across both"""
    seen: set[str] = set()
    for key in SIDE_KEYS:
        for index, member in enumerate(getattr(sides, key).members):
            if member.name in seen:
                raise FieldProblem(f"sides.{key}.members[{index}].name", f"{excerpt(member.name)} is used more than once")
            seen.add(member.name)


def indexed_members(sides: Any) -> Iterator[tuple[SideKey, int, Any]]:
    """Yield every member with his side and index, side a first, in listed order (sides indexed by key)"""
    for key in SIDE_KEYS:
        for index, member in enumerate(sides[key].members):
            yield key, index, member


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
    surprised: Fraction | None = None  # where the rules tell it apart from losing a turn (dnd5e)
    initiative: dict[int, Fraction] | None = None  # where the surprise changes the Initiative roll (dnd5e 2024)


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
