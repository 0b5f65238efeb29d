"""The odds table's rows against an exact fold: the same rows, the folded mass within float rounding"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from exporter.report import distribution_rows
from exporter.rules.shared import MemberOdds


def exact_rows(member: MemberOdds) -> list[tuple[str, Fraction]]:
    """Fold the rows as the table did before issue 21: every sum exact"""
    rows, shown = [], Fraction(0)
    for value, p in sorted(member.lost.items()):
        if shown >= Fraction(999, 1000):
            rows.append(("more", 1 - shown - member.never))
            break
        rows.append((str(value), p))
        shown += p
    if member.never:
        rows.append(("never", member.never))
    return rows


def assert_same_rows(member: MemberOdds) -> None:
    ours, theirs = distribution_rows(member), exact_rows(member)
    assert [label for label, _ in ours] == [label for label, _ in theirs]
    for (label, p), (_, q) in zip(ours, theirs, strict=True):
        assert p == q if label != "more" else abs(p - float(q)) < 1e-15


def test_a_distribution_that_reaches_the_line_exactly_folds_where_the_exact_sum_does():
    assert_same_rows(MemberOdds("second", {1: Fraction(1, 2), 2: Fraction(499, 1000), 3: Fraction(1, 1000)}))
    assert_same_rows(MemberOdds("second", {1: Fraction(1, 10)} | {k: Fraction(1, 10) for k in range(2, 11)}))
    assert_same_rows(MemberOdds("second", {1: Fraction(998, 1000), 2: Fraction(1, 10**15), 3: Fraction(1, 1000)}))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 10**6), min_size=1, max_size=60), st.integers(0, 10**5), st.integers(1, 10**6))
def test_rows_fold_as_the_exact_sums_do(weights, never, cut):
    total = sum(weights) + never + cut
    lost = {turn: Fraction(w, total) for turn, w in enumerate(weights)}
    assert_same_rows(MemberOdds("second", lost, never=Fraction(never, total)))
