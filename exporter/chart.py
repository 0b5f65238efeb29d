"""Lay out the odds of a scenario as an SVG bar chart: who gets the jump, then each side's members under its name"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from exporter.lang.numbers import number_text, percent_text
from exporter.narration import LANGUAGE
from exporter.rules.shared import SIDE_KEYS, MemberOdds, Odds

WIDTH, LABEL_X, BAR_X, BAR_WIDTH = 640, 10, 200, 360
ROW, BAR_HEIGHT, COMPACT_AT = 18, 12, 12  # a dozen combatants or more: one stacked bar per member
INDENT = {1: 0, 2: 0, 3: 14}  # heading level -> extra indent
COLOURS = {"a": "#2e7d32", "b": "#c62828", "none": "#757575", "lost": "#1565c0", "never": "#6a1b9a"}
# Compact layout: a shade per number of units lost, darker for more; the last one stands for that many or more.
LOSS_SHADES = ("#c5e1a5", "#90caf9", "#42a5f5", "#1e88e5", "#0d47a1")
LABEL_CHARACTERS = 24  # what fits left of the bars at 12px; a longer label is cut, its box's tooltip has it whole


def fit(label: str) -> str:
    """Cut a label that would run into the bars"""
    return label if len(label) <= LABEL_CHARACTERS else label[: LABEL_CHARACTERS - 1] + "…"


def number(value: float) -> str:
    """Write a coordinate with at most two decimals and no float noise (334.33, not 334.33000000000004)"""
    text = f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def percent(p: Fraction) -> str:
    """Write a probability as a percentage with two decimals"""
    return percent_text(p, LANGUAGE, 2)


@dataclass
class Chart:
    """The shapes of the chart in drawing order, and the height used so far"""

    texts: list[dict[str, Any]] = field(default_factory=list)
    rects: list[dict[str, Any]] = field(default_factory=list)
    y: float = 10

    def heading(self, text: str, level: int) -> None:
        """Add a heading line: level 1 the title, 2 a section or a side, 3 a member"""
        size = {1: 15, 2: 13, 3: 12}[level]
        self.text(LABEL_X + INDENT[level], self.y + 14, text, size=size, bold=level < 3)
        self.y += ROW + (4 if level < 3 else 0)

    def text(self, x: float, y: float, content: str, size: int = 12, bold: bool = False) -> None:
        """Add one text at a baseline"""
        self.texts.append({"x": number(x), "y": number(y), "text": content, "size": size, "bold": bold})

    def rect(self, x: float, y: float, width: float, height: float, fill: str, label: str) -> None:
        """Add one filled box; label is its tooltip"""
        self.rects.append({"x": number(x), "y": number(y), "width": number(width), "height": number(height),
                           "fill": fill, "label": label})

    def bar(self, label: str, p: Fraction, colour: str, indent: int = 20) -> None:
        """Add a labelled row with one bar and its percentage"""
        width = float(p) * BAR_WIDTH
        self.text(LABEL_X + indent, self.y + 13, fit(label))
        self.rect(BAR_X, self.y + 3, width, BAR_HEIGHT, colour, f"{label}: {percent(p)}")
        self.text(BAR_X + width + 6, self.y + 13, percent(p))
        self.y += ROW

    def stacked(self, label: str, parts: list[tuple[str, Fraction, str]], note: str, indent: int = 24) -> None:
        """Add a labelled row with one bar split into coloured parts, and a note after it"""
        self.text(LABEL_X + indent, self.y + 13, fit(label))
        x = float(BAR_X)
        for name, p, colour in parts:
            width = float(p) * BAR_WIDTH
            if width > 0:
                self.rect(x, self.y + 3, width, BAR_HEIGHT, colour, f"{label}, {name}: {percent(p)}")
            x += width
        self.text(BAR_X + BAR_WIDTH + 6, self.y + 13, note)
        self.y += ROW


def odds_chart(odds: Odds, labels: dict[str, str], sides: dict[str, list[str]], distribution_rows: Any) -> dict:
    """Lay out the chart: labels name the sides (and "none"), sides list each side's member names"""
    chart = Chart()
    title = f"{odds.system} · {odds.procedure}"
    chart.heading(title, 1)
    chart.heading("Who gets the jump", 2)
    for key in ("a", "b", "none"):
        chart.bar(labels[key], odds.surprise[key], COLOURS[key])
    if odds.free_segments is not None:
        chart.heading("Side-level free segments (positive: side a acts alone)", 2)
        for value, p in sorted(odds.free_segments.items()):
            chart.bar(str(value), p, COLOURS["a" if value > 0 else "b" if value < 0 else "none"])
    unit = next(iter(odds.members.values())).unit
    chart.heading(f"{unit.capitalize()}s lost to surprise", 2)
    compact = len(odds.members) >= COMPACT_AT
    if compact:
        legend(chart, unit)
    rows: dict[int, list[tuple[str, Fraction]]] = {}  # members who share a MemberOdds share its rows
    for key in SIDE_KEYS:
        chart.heading(f"{labels[key]} (side {key})", 2)
        for name in sides[key]:
            member = odds.members[name]
            if compact:
                chart.stacked(name, stacked_parts(member, unit), expected_text(member, short=True))
            else:
                chart.heading(f"{name}: {expected_text(member)}", 3)
                if id(member) not in rows:
                    rows[id(member)] = distribution_rows(member)
                for label, p in rows[id(member)]:
                    chart.bar(label, p, COLOURS["never" if label == "never" else "lost"], indent=36)
    height = chart.y + 10
    return {"title": title, "width": WIDTH, "height": number(height), "texts": chart.texts, "rects": chart.rects}


def expected_text(member: MemberOdds, short: bool = False) -> str:
    """Tell a member's expected loss ("expected 1.062", "1.062" in the compact column) or that he may never recover"""
    if member.expected_lost is None:
        return "never" if short else "never recovers"
    expected = number_text(member.expected_lost, LANGUAGE, 3)
    return expected if short else f"expected {expected}"


def shade_names(unit: str) -> list[str]:
    """Name the loss shades: 0, 1, ... and the last as "N or more" units"""
    last = len(LOSS_SHADES) - 1
    return [f"{k} {unit}{'' if k == 1 else 's'}" for k in range(last)] + [f"{last}+ {unit}s"]


def stacked_parts(member: MemberOdds, unit: str) -> list[tuple[str, Fraction, str]]:
    """Split a member's loss distribution into the shades of the compact layout, never last"""
    last = len(LOSS_SHADES) - 1
    mass = [Fraction(0)] * len(LOSS_SHADES)
    for value, p in member.lost.items():
        mass[min(value, last)] += p
    parts = [(name, p, shade) for name, p, shade in zip(shade_names(unit), mass, LOSS_SHADES, strict=True)]
    return [*parts, ("never", member.never, COLOURS["never"])]


def legend(chart: Chart, unit: str) -> None:
    """Add the key of the compact layout's shades"""
    x = float(LABEL_X + 20)
    for name, colour in [*zip(shade_names(unit), LOSS_SHADES, strict=True), ("never", COLOURS["never"])]:
        chart.rect(x, chart.y + 4, 10, 10, colour, name)
        chart.text(x + 14, chart.y + 13, name, size=11)
        x += 14 + 7 * len(name) + 14
    chart.text(BAR_X + BAR_WIDTH + 6, chart.y + 13, "expected", size=11)
    chart.y += ROW
