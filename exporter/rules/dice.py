"""Dice: one injectable roller for live play and tests, and exact dice distributions"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from typing import Protocol

from exporter.errors import DiceExhausted, RuleError

Distribution = dict[int, Fraction]


class Roller(Protocol):
    """Anything that rolls one die at a time"""

    def roll(self, sides: int) -> int:
        """Return one face of a die with this many sides, 1..sides"""
        ...


class SeededRoller:
    """Roll with a seeded pseudo-random generator: same seed, same faces"""

    def __init__(self, seed: int) -> None:
        import random  # lazy: `ambush odds` rolls nothing

        self.seed = seed
        self._random = random.Random(seed)

    def roll(self, sides: int) -> int:
        """Return a uniformly drawn face"""
        return self._random.randint(1, sides)


class ScriptedRoller:
    """Roll a fixed sequence of faces, in order, as the conformance vectors do"""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        self.used = 0

    def roll(self, sides: int) -> int:
        """Return the next scripted face, checked against the die's size"""
        if self.used >= len(self.faces):
            raise DiceExhausted(f"the dice script ran out after {self.used} faces (a d{sides} was asked for)")
        face = self.faces[self.used]
        if not 1 <= face <= sides:
            raise RuleError(f"scripted face #{self.used + 1} is {face}, which a d{sides} cannot show")
        self.used += 1
        return face

    @property
    def remaining(self) -> int:
        """Count the faces not rolled yet"""
        return len(self.faces) - self.used


def roll_dice(roller: Roller, count: int, sides: int) -> tuple[int, ...]:
    """Roll count dice of one size, in order"""
    return tuple(roller.roll(sides) for _ in range(count))


@cache
def die(sides: int) -> Distribution:
    """Return the distribution of one fair die"""
    return {face: Fraction(1, sides) for face in range(1, sides + 1)}


@cache
def sum_of(count: int, sides: int) -> Distribution:
    """Return the distribution of the sum of count fair dice"""
    total: Distribution = {0: Fraction(1)}
    for _ in range(count):
        total = convolve(total, die(sides))
    return total


@cache
def highest_of(count: int, sides: int) -> Distribution:
    """Return the distribution of the highest of count fair dice (Advantage keeps the higher)"""
    return {face: Fraction(face**count - (face - 1) ** count, sides**count) for face in range(1, sides + 1)}


@cache
def lowest_of(count: int, sides: int) -> Distribution:
    """Return the distribution of the lowest of count fair dice (Disadvantage keeps the lower)"""
    return {face: Fraction((sides - face + 1) ** count - (sides - face) ** count, sides**count)
            for face in range(1, sides + 1)}


def convolve(first: Distribution, second: Distribution) -> Distribution:
    """Return the distribution of the sum of two independent variables"""
    out: Distribution = {}
    for a, pa in first.items():
        for b, pb in second.items():
            out[a + b] = out.get(a + b, Fraction(0)) + pa * pb
    return out


def probability(dist: Distribution, values: Sequence[int] | None = None, *, at_most: int | None = None) -> Fraction:
    """Return the probability of the given values, or of every value up to at_most"""
    if at_most is not None:
        return sum((p for v, p in dist.items() if v <= at_most), Fraction(0))
    return sum((dist.get(v, Fraction(0)) for v in values or ()), Fraction(0))
