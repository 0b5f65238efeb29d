"""Present odds and simulations: the odds JSON of DESIGN.md, readable tables, narrated plays"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from exporter.narration import narrate, side_label
from exporter.rules.dice import SeededRoller
from exporter.rules.model import MemberOdds, Odds
from exporter.rules.systems import system_module

SURPRISE_KEYS = ("a", "b", "none")


def odds_data(odds: Odds) -> dict[str, Any]:
    """Return the odds in the JSON shape of DESIGN.md (floats out)"""
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
    """Return one member's loss distribution as JSON data"""
    return {
        "unit": member.unit,
        "lost": {str(k): float(p) for k, p in sorted(member.lost.items())},
        "never": float(member.never),
        "expected_lost": None if member.expected_lost is None else float(member.expected_lost),
    }


def odds_json(scenario: Any) -> str:
    """Compute a scenario's odds and render them as JSON"""
    return dumps_odds(odds_data(system_module(scenario.system).odds(scenario)))


def dumps_odds(data: dict[str, Any]) -> str:
    """Write odds data as json.dumps(data, indent=2) does, each member block shared by several names once"""
    blocks: dict[int, str] = {}
    for member in data["members"].values():
        if id(member) not in blocks:
            blocks[id(member)] = indented(member, 4)
    members = [f"    {json.dumps(name, ensure_ascii=False)}: {blocks[id(m)]}" for name, m in data["members"].items()]
    parts = ['  "members": {\n' + ",\n".join(members) + "\n  }" if key == "members"
             else f"  {json.dumps(key)}: {indented(value, 2)}" for key, value in data.items()]
    return "{\n" + ",\n".join(parts) + "\n}"


def indented(value: Any, depth: int) -> str:
    """Write a JSON value with indent 2 as it appears nested depth spaces deep (JSON text has no raw newline)"""
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + " " * depth)


def percent(p: Fraction) -> str:
    """Write a probability as a percentage"""
    return f"{float(p) * 100:6.2f}%"


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


def distribution_rows(member: MemberOdds) -> list[tuple[str, Fraction]]:
    """Return the head of a loss distribution as rows, folding the rare tail and adding never"""
    rows: list[tuple[str, Fraction]] = []
    shown = Fraction(0)
    for value, p in sorted(member.lost.items()):
        if shown >= Fraction(999, 1000):
            rows.append(("more", 1 - shown - member.never))
            break
        rows.append((str(value), p))
        shown += p
    if member.never:
        rows.append(("never", member.never))
    return rows


def odds_table(scenario: Any) -> str:
    """Compute a scenario's odds and render them as readable tables with bar charts"""
    odds = system_module(scenario.system).odds(scenario)
    labels = {"a": side_label(scenario, "a"), "b": side_label(scenario, "b"), "none": "nobody"}
    lines = [f"{odds.system} · {odds.procedure}", "", "Who gets the jump"]
    lines += chart_rows([(labels[k], odds.surprise[k]) for k in SURPRISE_KEYS])
    if odds.free_segments is not None:
        lines += ["", "Side-level free segments (positive: side a acts alone)"]
        lines += chart_rows([(f"{k:>3}", p) for k, p in sorted(odds.free_segments.items())])
    unit = next(iter(odds.members.values())).unit
    lines += ["", f"{unit.capitalize()}s lost to surprise"]
    charts: dict[int, list[str]] = {}  # members who share a MemberOdds share its chart
    for name, member in odds.members.items():
        expected = "never recovers" if member.expected_lost is None else f"expected {float(member.expected_lost):.3f}"
        lines.append(f"  {name}: {expected}")
        if id(member) not in charts:
            charts[id(member)] = ["  " + row for row in chart_rows(distribution_rows(member))]
        lines += charts[id(member)]
    return "\n".join(lines)


SVG_WIDTH, SVG_BAR_X, SVG_BAR_WIDTH, SVG_ROW = 640, 170, 380, 18
SVG_COLOURS = {"a": "#2e7d32", "b": "#c62828", "none": "#757575", "lost": "#1565c0", "never": "#6a1b9a"}


def odds_svg(scenario: Any) -> str:
    """Compute a scenario's odds and draw them as a self-contained SVG bar chart"""
    from exporter.targets.environment import make_environment  # Jinja only when a chart is asked for

    odds = system_module(scenario.system).odds(scenario)
    labels = {"a": side_label(scenario, "a"), "b": side_label(scenario, "b"), "none": "nobody"}
    items: list[dict[str, Any]] = []
    y = 10

    def heading(text: str, level: int = 2) -> None:
        nonlocal y
        items.append({"kind": "heading", "text": text, "level": level, "y": y})
        y += SVG_ROW + 4

    def row(label: str, p: Fraction, colour: str, indent: int = 20) -> None:
        nonlocal y
        items.append({"kind": "bar", "label": label, "y": y, "indent": indent, "colour": colour,
                      "bar": round(float(p) * SVG_BAR_WIDTH, 2), "percent": percent(p).strip()})
        y += SVG_ROW

    title = f"{odds.system} · {odds.procedure}"
    heading(title, 1)
    heading("Who gets the jump")
    for key in SURPRISE_KEYS:
        row(labels[key], odds.surprise[key], SVG_COLOURS[key])
    if odds.free_segments is not None:
        heading("Side-level free segments (positive: side a acts alone)")
        for value, p in sorted(odds.free_segments.items()):
            row(str(value), p, SVG_COLOURS["a" if value > 0 else "b" if value < 0 else "none"])
    unit = next(iter(odds.members.values())).unit
    heading(f"{unit.capitalize()}s lost to surprise")
    rows: dict[int, list[tuple[str, Fraction]]] = {}  # members who share a MemberOdds share its rows
    for name, member in odds.members.items():
        expected = "never recovers" if member.expected_lost is None else f"expected {float(member.expected_lost):.3f}"
        heading(f"{name}: {expected}", 3)
        if id(member) not in rows:
            rows[id(member)] = distribution_rows(member)
        for label, p in rows[id(member)]:
            row(label, p, SVG_COLOURS["never" if label == "never" else "lost"], indent=30)
    template = make_environment("odds").get_template("chart.svg")
    return template.render(title=title, items=items, width=SVG_WIDTH, height=y + 10, bar_x=SVG_BAR_X)


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


def systems_table() -> str:
    """Tabulate every rules system: its procedures and its options with their defaults"""
    from exporter.rules.systems import SYSTEM_IDS

    lines = []
    for system in SYSTEM_IDS:
        rules = system_module(system)
        lines += [f"{system}", f"  procedures: {', '.join(rules.PROCEDURES)}", f"  unit of loss: {rules.UNIT}",
                  "  options (RULES.md readings, with defaults):"]
        defaults = rules.Options().model_dump(mode="json")
        width = max(len(name) for name in defaults)
        for name, value in defaults.items():
            annotation = rules.Options.model_fields[name].annotation
            choices = getattr(annotation, "__args__", None)
            allowed = " | ".join(map(str, choices)) if choices and all(isinstance(c, str) for c in choices) else ""
            shown = json.dumps(value)
            lines.append(f"    {name:<{width}}  {shown}" + (f"   ({allowed})" if allowed else ""))
        lines.append("")
    return "\n".join(lines).rstrip()
