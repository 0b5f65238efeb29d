"""Fractions in lowest terms from known denominators against Fraction's own gcd"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from exporter.rules.exact import coprime, factorised, lowest, valuation

PRIMES = (2, 3, 5)
exponents = st.fixed_dictionaries({p: st.integers(0, 400) for p in PRIMES})


def count(x: int, prime: int) -> int:
    """How often prime divides x, one division at a time"""
    found = 0
    while x % prime == 0:
        x //= prime
        found += 1
    return found


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 10**40), exponents, st.sampled_from(PRIMES), st.integers(0, 2000))
def test_valuation_counts_a_prime_up_to_the_cap(unit, powers, prime, cap):
    x = unit * prime ** powers[prime]
    assert valuation(x, prime, cap) == min(count(x, prime), cap)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**60), exponents, exponents)
def test_lowest_equals_fraction(unit, in_numerator, in_denominator):
    numerator = unit * 2 ** in_numerator[2] * 3 ** in_numerator[3] * 5 ** in_numerator[5]
    denominator = 2 ** in_denominator[2] * 3 ** in_denominator[3] * 5 ** in_denominator[5]
    ours, theirs = lowest(numerator, denominator, in_denominator.items()), Fraction(numerator, denominator)
    assert (ours.numerator, ours.denominator) == (theirs.numerator, theirs.denominator)
    assert factorised(denominator, PRIMES) == in_denominator
    assert factorised(denominator * 7, PRIMES) is None


def test_coprime_builds_the_fraction_it_is_given():
    assert coprime(3, 8) == Fraction(3, 8) and (coprime(3, 8).numerator, coprime(3, 8).denominator) == (3, 8)
    assert hash(coprime(0, 1)) == hash(Fraction(0))
