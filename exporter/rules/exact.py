"""Exact fractions in lowest terms without Euclid: denominators made of small primes, whose powers the caller knows"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

Exponents = dict[int, int]  # prime -> exponent: the denominator's factorisation, every prime in it


def valuation(x: int, prime: int, cap: int) -> int:
    """Count how often prime divides x, no further than cap: a few divisions by prime, prime**2, prime**4, ..."""
    if x == 0:
        return cap
    if prime == 2:
        return min((x & -x).bit_length() - 1, cap)
    count, chunks, power, size = 0, [], prime, 1
    while count + size <= cap:  # gallop: each chunk squares the last, so a large count costs few divisions
        quotient, rest = divmod(x, power)
        if rest:
            break
        x, count = quotient, count + size
        chunks.append((power, size))
        power, size = power * power, size * 2
    for power, size in reversed(chunks):  # what is left is below the chunk that failed: halve down to one
        if count + size <= cap:
            quotient, rest = divmod(x, power)
            if not rest:
                x, count = quotient, count + size
    return count


def lowest(numerator: int, denominator: int, exponents: Iterable[tuple[int, int]]) -> Fraction:
    """Return numerator / denominator in lowest terms, given the denominator's factorisation as (prime, exponent)

    The common factor can only be made of the denominator's primes, so counting each prime in the numerator (up to
    its power in the denominator) finds it; Fraction's gcd instead costs the square of the size of integers that
    grow with every turn of a tail or every watcher of a contest.
    """
    common = 1
    for prime, exponent in exponents:
        if exponent:
            common *= prime ** valuation(numerator, prime, exponent)
    if common == 1:
        return coprime(numerator, denominator)
    return coprime(numerator // common, denominator // common)


# Python 3.12+ builds a Fraction from coprime integers with _from_coprime_ints; 3.11 spells it _normalize=False.
_FROM_COPRIME = getattr(Fraction, "_from_coprime_ints", None)


def coprime(numerator: int, denominator: int) -> Fraction:
    """Return a Fraction from a numerator and positive denominator already in lowest terms, skipping its gcd"""
    if _FROM_COPRIME is not None:
        return _FROM_COPRIME(numerator, denominator)
    return Fraction(numerator, denominator, _normalize=False)


def plus(first: Exponents, second: Exponents, times: int = 1) -> Exponents:
    """Return the factorisation of a product: first times second**times"""
    out = dict(first)
    for prime, exponent in second.items():
        out[prime] = out.get(prime, 0) + exponent * times
    return out


def factorised(denominator: int, primes: tuple[int, ...]) -> Exponents | None:
    """Return a small denominator's factorisation over primes, or None when another prime divides it"""
    out, rest = {}, denominator
    for prime in primes:
        out[prime] = valuation(rest, prime, rest.bit_length())
        rest //= prime ** out[prime]
    return out if rest == 1 else None
