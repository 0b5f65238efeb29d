"""Present odds and simulations: the odds JSON of DESIGN.md, readable tables, narrated plays"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from exporter.narration import narrate
from exporter.rules.dice import SeededRoller
from exporter.rules.model import MemberOdds, Odds
from exporter.rules.systems import system_module

SURPRISE_KEYS = ("a", "b", "none")


def odds_data(odds: Odds) -> dict[str, Any]:
    """Return the odds in the JSON shape of DESIGN.md (floats out)"""
    data: dict[str, Any] = {
        "system": odds.system,
        "procedure": odds.procedure,
        "surprise": {k: float(odds.surprise[k]) for k in SURPRISE_KEYS},
        "members": {name: member_data(m) for name, m in odds.members.items()},
    }
    if odds.free_segments is not None:
        data["free_segments"] = {str(k): float(p) for k, p in sorted(odds.free_segments.items())}
    return data


def member_data(member: MemberOdds) -> dict[str, Any]:
    """Return one member's loss distribution as JSON data"""
    return {
        "unit": member.unit,
        "lost": {str(k): float(p) for k, p in sorted(member.lost.items())},
        "never": float(member.never),
        "expected_lost": None if member.expected_lost is None else float(member.expected_lost),
    }


def odds_json(scenario: Any) -> str:
    """Compute a scenario's odds and render them as JSON"""
    return json.dumps(odds_data(system_module(scenario.system).odds(scenario)), indent=2, ensure_ascii=False)


def percent(p: Fraction) -> str:
    """Write a probability as a percentage"""
    return f"{float(p) * 100:6.2f}%"


def side_name(scenario: Any, key: str) -> str:
    """Name a side, falling back to its key"""
    return getattr(scenario.sides, key).name or f"Side {key.upper()}"


def odds_table(scenario: Any) -> str:
    """Compute a scenario's odds and render them as a readable table"""
    odds = system_module(scenario.system).odds(scenario)
    lines = [f"{odds.system} · {odds.procedure}", "", "Who gets the jump"]
    labels = {"a": side_name(scenario, "a"), "b": side_name(scenario, "b"), "none": "nobody"}
    width = max(len(v) for v in labels.values())
    lines += [f"  {labels[k]:<{width}}  {percent(odds.surprise[k])}" for k in SURPRISE_KEYS]
    if odds.free_segments is not None:
        lines += ["", "Side-level free segments (positive: side a acts alone)"]
        lines += [f"  {k:>3}  {percent(p)}" for k, p in sorted(odds.free_segments.items())]
    unit = next(iter(odds.members.values())).unit
    lines += ["", f"{unit.capitalize()}s lost to surprise"]
    name_width = max(len(n) for n in odds.members)
    for name, member in odds.members.items():
        expected = "never recovers" if member.expected_lost is None else f"expected {float(member.expected_lost):.3f}"
        lines.append(f"  {name:<{name_width}}  {expected}")
        lines.append("    " + distribution_text(member))
    return "\n".join(lines)


def distribution_text(member: MemberOdds) -> str:
    """Write the head of a loss distribution, folding the rare tail"""
    parts, shown = [], Fraction(0)
    for value, p in sorted(member.lost.items()):
        if shown >= Fraction(999, 1000):
            rest = 1 - shown - member.never
            parts.append(f"more: {percent(rest).strip()}")
            break
        parts.append(f"{value}: {percent(p).strip()}")
        shown += p
    if member.never:
        parts.append(f"never: {percent(member.never).strip()}")
    return "  ".join(parts)


def simulation_text(scenario: Any, seed: int) -> str:
    """Play a scenario with seeded dice and narrate it"""
    outcome = system_module(scenario.system).resolve(scenario, SeededRoller(seed))
    header = f"{scenario.system} · {scenario.procedure} · seed {seed}"
    return "\n".join([header, "", *narrate(scenario, outcome)])


def simulation_json(scenario: Any, seed: int) -> str:
    """Play a scenario with seeded dice and render the outcome as JSON"""
    outcome = system_module(scenario.system).resolve(scenario, SeededRoller(seed))
    data = {"system": scenario.system, "procedure": scenario.procedure, "seed": seed, "outcome": outcome.to_json()}
    return json.dumps(data, indent=2, ensure_ascii=False)
