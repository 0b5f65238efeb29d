"""Present odds and simulations: the odds JSON of docs/dev/architecture.md, readable tables, narrated plays

Each output is written as it is made, a member at a time (the *_chunks generators), so that what a command holds grows
with the profiles of a fight, not with its members; the functions that return a text join the chunks.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from math import fsum
from typing import Any

from exporter.lang.numbers import number_text, percent_text
from exporter.narration import LANGUAGE, LOSSES, narrate, side_label
from exporter.rules.dice import SeededRoller
from exporter.rules.shared import MemberOdds, Odds
from exporter.rules.systems import system_module

SURPRISE_KEYS = ("a", "b", "none")


def odds_data(odds: Odds) -> dict[str, Any]:
    """Return the odds in the JSON shape of docs/dev/architecture.md (floats out)"""
    shared: dict[int, dict[str, Any]] = {}  # members who share a MemberOdds share its JSON data
    for m in odds.members.values():
        if id(m) not in shared:
            shared[id(m)] = member_data(m)
    data: dict[str, Any] = {
        "system": odds.system,
        "procedure": odds.procedure,
        "surprise": {k: float(odds.surprise[k]) for k in SURPRISE_KEYS},
        "members": {name: shared[id(m)] for name, m in odds.members.items()},
    }
    if odds.free_segments is not None:
        data["free_segments"] = {str(k): float(p) for k, p in sorted(odds.free_segments.items())}
    return data


def member_data(member: MemberOdds) -> dict[str, Any]:
    """Return one member's loss distribution as JSON data, and where the rules tell them apart his chance to be
    surprised and the distribution of his Initiative"""
    data: dict[str, Any] = {
        "unit": member.unit,
        "lost": {str(k): float(p) for k, p in sorted(member.lost.items())},
        "never": float(member.never),
        "expected_lost": None if member.expected_lost is None else float(member.expected_lost),
    }
    if member.surprised is not None:
        data["surprised"] = float(member.surprised)
    if member.initiative is not None:
        data["initiative"] = {str(k): float(p) for k, p in sorted(member.initiative.items())}
    return data


def scenario_odds(scenario: Any) -> Odds:
    """Compute a scenario's exact odds"""
    return system_module(scenario.system).odds(scenario)


def odds_json(scenario: Any, odds: Odds | None = None) -> str:
    """Render a scenario's odds (computed unless given) as JSON"""
    return "".join(odds_json_chunks(scenario, odds))


def odds_json_chunks(scenario: Any, odds: Odds | None = None) -> Iterator[str]:
    """Write a scenario's odds (computed unless given) as JSON, a member at a time"""
    return json_chunks(odds_data(scenario_odds(scenario) if odds is None else odds))


def dumps_odds(data: dict[str, Any]) -> str:
    """Write odds data as json.dumps(data, indent=2) does, each member block shared by several names once"""
    return "".join(json_chunks(data))


def json_chunks(data: dict[str, Any]) -> Iterator[str]:
    """Write odds data as json.dumps(data, indent=2) does, a member at a time; a block shared by several names is
    made once"""
    blocks: dict[int, str] = {}
    yield "{"
    for position, (key, value) in enumerate(data.items()):
        yield ",\n" if position else "\n"
        if key != "members":
            yield f"  {json.dumps(key)}: {indented(value, 2)}"
            continue
        yield '  "members": {'
        for index, (name, member) in enumerate(value.items()):
            if id(member) not in blocks:
                blocks[id(member)] = indented(member, 4)
            yield f"{',' if index else ''}\n    {json.dumps(name, ensure_ascii=False)}: {blocks[id(member)]}"
        yield "\n  }"
    yield "\n}"


def indented(value: Any, depth: int) -> str:
    """Write a JSON value with indent 2 as it appears nested depth spaces deep (JSON text has no raw newline)"""
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + " " * depth)


def percent(p: Fraction) -> str:
    """Write a probability as a percentage with two decimals, right-aligned for a column"""
    return percent_text(p, LANGUAGE, 2).rjust(7)


BAR_WIDTH = 40
EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(p: Fraction, width: int = BAR_WIDTH) -> str:
    """Draw a probability as a bar of block characters, to an eighth of a character"""
    eighths = round(float(p) * width * 8)
    return "█" * (eighths // 8) + (EIGHTHS[eighths % 8] if eighths % 8 else "")


def chart_rows(rows: list[tuple[str, Fraction]]) -> list[str]:
    """Lay out labelled probabilities as aligned rows with bars"""
    width = max((len(label) for label, _ in rows), default=0)
    return [f"  {label:<{width}}  {percent(p)}  {bar(p)}".rstrip() for label, p in rows]


SHOWN = Fraction(999, 1000)  # rows are shown until this much of the distribution is


def distribution_rows(member: MemberOdds) -> list[tuple[str, Fraction | float]]:
    """Return the head of a loss distribution as rows, folding the rare tail and adding never

    The shown mass is summed in floats (exact Fraction sums of a long tail cost a gcd of ever larger integers per
    row) and decided exactly where the floats are too close to call; the folded row's mass is drawn as a float.
    """
    rows: list[tuple[str, Fraction | float]] = []
    shown: list[float] = []
    total = 0.0  # within 1e-12 of the exact sum: a few thousand roundings at most
    for value, p in sorted(member.lost.items()):
        if total > float(SHOWN) + 1e-9 or (abs(total - float(SHOWN)) <= 1e-9 and exact_sum(rows) >= SHOWN):
            rows.append(("more", max(0.0, 1 - fsum(shown) - float(member.never))))
            break
        rows.append((str(value), p))
        shown.append(float(p))
        total += shown[-1]
    if member.never:
        rows.append(("never", member.never))
    return rows


def exact_sum(rows: list[tuple[str, Fraction | float]]) -> Fraction:
    """Return the exact mass of rows of exact probabilities"""
    return sum((Fraction(p) for _, p in rows), Fraction(0))


def odds_table(scenario: Any, odds: Odds | None = None) -> str:
    """Render a scenario's odds (computed unless given) as readable tables with bar charts"""
    return "\n".join(odds_table_lines(scenario, odds))


def odds_table_lines(scenario: Any, odds: Odds | None = None) -> Iterator[str]:
    """Write a scenario's odds (computed unless given) as the lines of readable tables, a member at a time"""
    odds = scenario_odds(scenario) if odds is None else odds
    labels = {"a": side_label(scenario, "a"), "b": side_label(scenario, "b"), "none": "nobody"}
    lines = [f"{odds.system} · {odds.procedure}", "", "Who gets the jump"]
    lines += chart_rows([(labels[k], odds.surprise[k]) for k in SURPRISE_KEYS])
    if odds.free_segments is not None:
        lines += ["", "Side-level free segments (positive: side a acts alone)"]
        lines += chart_rows([(f"{k:>3}", p) for k, p in sorted(odds.free_segments.items())])
    unit = next(iter(odds.members.values())).unit
    yield from [*lines, "", LOSSES[unit]]
    charts: dict[int, tuple[str, list[str]]] = {}  # members who share a MemberOdds share its text and chart
    for name, member in odds.members.items():
        if id(member) not in charts:
            expected = ("never recovers" if member.expected_lost is None
                        else f"expected {number_text(member.expected_lost, LANGUAGE, 3)}")
            if member.surprised is not None:
                expected = f"surprised {percent(member.surprised).strip()}, {expected}"
            if member.initiative is not None:
                mean = sum((total * p for total, p in member.initiative.items()), Fraction(0))
                expected += f", Initiative {number_text(mean, LANGUAGE, 2)} on average"
            charts[id(member)] = (expected, ["  " + row for row in chart_rows(distribution_rows(member))])
        expected, chart = charts[id(member)]
        yield f"  {name}: {expected}"
        yield from chart


def odds_svg(scenario: Any, odds: Odds | None = None) -> str:
    """Draw a scenario's odds (computed unless given) as a self-contained SVG bar chart, members grouped by side"""
    return "".join(odds_svg_chunks(scenario, odds))


def odds_svg_chunks(scenario: Any, odds: Odds | None = None) -> Iterator[str]:
    """Draw a scenario's odds (computed unless given) as an SVG chart, written a shape at a time"""
    from exporter.chart import odds_chart
    from exporter.targets.environment import make_environment  # Jinja only when a chart is asked for

    odds = scenario_odds(scenario) if odds is None else odds
    labels = {"a": side_label(scenario, "a"), "b": side_label(scenario, "b"), "none": "nobody"}
    sides = {key: [member.name for member in scenario.side(key).members] for key in ("a", "b")}
    chart = odds_chart(odds, labels, sides, distribution_rows)
    return make_environment("odds").get_template("chart.svg").generate(**chart)


def simulation_text(scenario: Any, seed: int) -> str:
    """Play a scenario with seeded dice and narrate it"""
    return "\n".join(simulation_lines(scenario, seed))


def simulation_lines(scenario: Any, seed: int) -> Iterator[str]:
    """Play a scenario with seeded dice and narrate it, a line at a time"""
    outcome = system_module(scenario.system).resolve(scenario, SeededRoller(seed))
    yield from [f"{scenario.system} · {scenario.procedure} · seed {seed}", ""]
    yield from narrate(scenario, outcome)


def simulation_json(scenario: Any, seed: int) -> str:
    """Play a scenario with seeded dice and render the outcome as JSON"""
    return "".join(simulation_json_chunks(scenario, seed))


def simulation_json_chunks(scenario: Any, seed: int) -> Iterator[str]:
    """Play a scenario with seeded dice and write the outcome as JSON, as json.dumps(indent=2) writes it, in pieces"""
    outcome = system_module(scenario.system).resolve(scenario, SeededRoller(seed))
    data = {"system": scenario.system, "procedure": scenario.procedure, "seed": seed, "outcome": outcome.to_json()}
    return json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(data)


def systems_table(only: str | None = None) -> str:
    """Tabulate rules systems: procedures, and options with their defaults and one-line meanings"""
    from exporter.options import system_options, value_names
    from exporter.rules.systems import SYSTEM_IDS, SYSTEMS

    lines = []
    for system in [only] if only else SYSTEM_IDS:
        rules = system_module(system)
        lines += [f"{system} ({SYSTEMS[system].title.removesuffix(' Surprise')}; `ambush docs rules/{system}`)",
                  f"  procedures: {', '.join(rules.PROCEDURES)}", f"  unit of loss: {rules.UNIT}",
                  "  options (name = default: meaning; values):"]
        for option in system_options(system):
            lines += [f"    {option.name} = {option.shown_default}: {option.meaning}",
                      f"      values: {value_names(option)}"]
        lines.append("")
    lines.append("`ambush explain NAME` tells what each value of an option changes, and its source.")
    return "\n".join(lines)
