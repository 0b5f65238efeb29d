"""The brute-force reference for the exact odds: the algorithms of GURPS and Fallout odds before issue 21

Fraction arithmetic one operation at a time, as the rules read: every watcher's rolls multiplied in, every turn of a
tail reduced by Fraction's gcd. Slow on crowds of distinct members, which is why exporter/rules/ no longer does it;
tests/rules/test_odds_reference.py holds the rules core to it exactly. Only the rules' primitives (success chances,
contest ranks, opening order) come from the rules modules, never their odds.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from typing import Any

from exporter.rules import fallout_ttrpg as f
from exporter.rules import gurps4e as g
from exporter.rules.records import record
from exporter.rules.shared import SIDE_KEYS, TAIL_CUT, MemberOdds, Odds, add_mass, other


def gurps_odds(scenario: Any) -> Odds:
    """Return GURPS odds as before issue 21"""
    surprise, kind = gurps_surprise_chances(scenario)
    members, shared = {}, {}  # as before: one computation per side and stun profile
    for key in SIDE_KEYS:
        for member in scenario.side(key).members:
            profile = (key, member.iq, member.combat_reflexes)
            if profile not in shared:
                shared[profile] = unconditional(seconds_lost(member.iq, member.combat_reflexes, kind),
                                                surprise[other(key)])
            members[member.name] = shared[profile]
    return Odds(g.SYSTEM, scenario.procedure, surprise, members)


def gurps_surprise_chances(scenario: Any) -> tuple[dict[str, Fraction], str]:
    """Return the chance that each side gets the jump, and what the loser suffers"""
    if scenario.procedure in g.SURPRISING_PROCEDURES:
        win = Fraction(1) if scenario.procedure == "total" else sneak_win_chance(scenario)
        chances = {"a": Fraction(0), "b": Fraction(0), "none": 1 - win}
        chances[scenario.surprising] = win
        kind = "total" if scenario.procedure == "total" else g.contest_kind(scenario.side(scenario.watching))
        return chances, kind
    mods = {k: sum(g.initiative_modifiers(scenario.side(k), scenario.side(other(k)), scenario.options).values())
            for k in SIDE_KEYS}
    chances = {"a": Fraction(0), "b": Fraction(0), "none": Fraction(0)}
    for roll_a in range(1, 7):
        for roll_b in range(1, 7):
            winner = g.initiative_winner({"a": roll_a + mods["a"], "b": roll_b + mods["b"]})
            chances[winner or "none"] += Fraction(1, 36)
    return chances, "partial"


def roll_outcomes(skill: int) -> list[tuple[g.SuccessRoll, Fraction]]:
    """Return every possible success roll of a skill with its chance"""
    if g.success_threshold(skill) is None:
        return [(g.SuccessRoll("-", skill, None), Fraction(1))]
    return [(g.SuccessRoll("-", skill, total), p) for total, p in sorted(g.success_roll_distribution().items())]


def sneak_win_chance(scenario: Any) -> Fraction:
    """Return the chance that the worst sneak beats every watcher, one watcher at a time"""
    sneak = g.worst_sneak(scenario.side(scenario.surprising))
    chance = Fraction(0)
    for sneak_roll, p_sneak in roll_outcomes(sneak.stealth or 0):
        beats_all = p_sneak
        for per, count in Counter(w.per or 0 for w in scenario.side(scenario.watching).members).items():
            beaten = sum((p for w, p in roll_outcomes(per) if g.watcher_result(sneak_roll, w) == "sneak"), Fraction(0))
            beats_all *= beaten**count
        chance += beats_all
    return chance


@cache
def seconds_lost(iq: int, combat_reflexes: bool, kind: str) -> MemberOdds:
    """Return the distribution of seconds lost by a surprised member, turn by turn in Fractions"""
    member = record(g.Member, {"name": "-", "iq": iq, "combat_reflexes": combat_reflexes})
    if g.never_recovers(member, kind):
        return MemberOdds(g.UNIT, {}, never=Fraction(1), expected_lost=None)
    if kind == "total" and not member.combat_reflexes:
        chance, lost = g.success_chance(iq), {}
        for freeze in range(1, 7):
            for index, term in enumerate(geometric_tail(Fraction(1, 6), chance, TAIL_CUT / 6)):
                lost[freeze + 1 + index] = lost.get(freeze + 1 + index, Fraction(0)) + term
        return MemberOdds(g.UNIT, lost, expected_lost=Fraction(7, 2) + 1 / chance)
    lost, still_stunned, expected, turn = {}, Fraction(1), Fraction(0), 0
    while True:
        turn += 1
        target = g.recovery_target(member, "partial", turn)
        chance = g.success_chance(target)
        if g.success_threshold(target) == g.SURE_FAILURE - 1:
            expected += still_stunned * (turn - 1 + 1 / chance)
            for index, term in enumerate(geometric_tail(still_stunned, chance, TAIL_CUT)):
                lost[turn + index] = term
            return MemberOdds(g.UNIT, lost, expected_lost=expected)
        lost[turn] = still_stunned * chance
        expected += turn * lost[turn]
        still_stunned *= 1 - chance


def geometric_tail(mass: Fraction, chance: Fraction, cut: Fraction) -> list[Fraction]:
    """Spread mass over turns with a constant chance while the mass still to come is at least cut"""
    terms = []
    while mass >= cut:
        terms.append(mass * chance)
        mass *= 1 - chance
        if not mass:
            break
    return terms


def unconditional(if_surprised: MemberOdds, surprised: Fraction) -> MemberOdds:
    """Weigh a member's loss by the chance his side is surprised, adding 0 for the rest"""
    lost = {k: p * surprised for k, p in if_surprised.lost.items() if p * surprised}
    lost = add_mass(lost, 0, 1 - surprised)
    never = if_surprised.never * surprised
    expected = None if never else (if_surprised.expected_lost or Fraction(0)) * surprised
    return MemberOdds(g.UNIT, lost, never, expected)


def fallout_sneak_attack_chances(scenario: Any) -> dict[str, Fraction]:
    """Return the chance that each side's opener hits first, one opener at a time in Fractions"""
    chances = {"a": Fraction(0), "b": Fraction(0), "none": Fraction(0)}
    all_missed = Fraction(1)
    for opener in f.opening_order(scenario):
        hit = f.hit_chance(opener.attack_bonus, opener.target_number)
        chances[f.side_of(scenario, opener.name)] += all_missed * hit
        all_missed *= 1 - hit
    chances["none"] = all_missed
    return chances


def fallout_odds(scenario: Any) -> Odds:
    """Return Fallout odds as before issue 21"""
    surprise = (f.world_map_chances(scenario) if scenario.procedure == "world-map"
                else fallout_sneak_attack_chances(scenario))
    members = {}
    for key, member in f.members_with_sides(scenario):
        lose_round = Fraction(0) if f.acts_when_surprised(member, scenario.options) else surprise[other(key)]
        lost = add_mass(add_mass({}, 0, 1 - lose_round), 1, lose_round)
        members[member.name] = MemberOdds(f.UNIT, lost, never=Fraction(0), expected_lost=lose_round)
    return Odds(f.SYSTEM, scenario.procedure, surprise, members)
