"""Lay out the odds of a scenario as an SVG bar chart: who gets the jump, then each side's members under its name

The shapes are laid out as they are drawn, a member at a time, and never held all at once: one pass finds the
chart's height, one gives its boxes and one its texts (the SVG draws the boxes first), each holding one bar per
profile of the fight.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from exporter.lang.numbers import number_text, percent_text
from exporter.narration import LANGUAGE, LOSSES, counted, noun
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


BAR_HEIGHT_TEXT, NOTE_X_TEXT = number(BAR_HEIGHT), number(BAR_X + BAR_WIDTH + 6)


def percent(p: Fraction) -> str:
    """Write a probability as a percentage with two decimals"""
    return percent_text(p, LANGUAGE, 2)


class Text(NamedTuple):
    """One text of the chart, coordinates written out (a tuple: the template reads its fields as attributes)"""

    x: str
    y: str
    text: str
    size: int
    bold: bool


class Rect(NamedTuple):
    """One filled box of the chart, coordinates written out; label is its tooltip"""

    x: str
    y: str
    width: str
    height: str
    fill: str
    label: str


@dataclass
class Chart:
    """The shapes of one kind laid out since they were last taken ("texts" or "rects"; None keeps none), and the
    height used so far"""

    keep: str | None = None
    texts: list[Text] = field(default_factory=list)
    rects: list[Rect] = field(default_factory=list)
    y: float = 10

    def taken(self) -> list[Text] | list[Rect]:
        """Return the shapes kept since the last call, and forget them"""
        shapes: list[Text] | list[Rect] = self.texts if self.keep == "texts" else self.rects
        self.texts, self.rects = [], []
        return shapes

    def heading(self, text: str, level: int) -> None:
        """Add a heading line: level 1 the title, 2 a section or a side, 3 a member"""
        size = {1: 15, 2: 13, 3: 12}[level]
        self.text(LABEL_X + INDENT[level], self.y + 14, text, size=size, bold=level < 3)
        self.y += ROW + (4 if level < 3 else 0)

    def text(self, x: float, y: float, content: str, size: int = 12, bold: bool = False) -> None:
        """Add one text at a baseline"""
        if self.keep == "texts":
            self.texts.append(Text(number(x), number(y), content, size, bold))

    def rect(self, x: float, y: float, width: float, height: float, fill: str, label: str) -> None:
        """Add one filled box; label is its tooltip"""
        if self.keep == "rects":
            self.rects.append(Rect(number(x), number(y), number(width), number(height), fill, label))


    def drawn_bar(self, label: str, part: Part, indent: int) -> None:
        """Add a labelled row with one bar laid out already"""
        self.text(LABEL_X + indent, self.y + 13, fit(label))
        self.rect(BAR_X, self.y + 3, part.width, BAR_HEIGHT, part.colour, f"{label}: {part.percent}")
        self.text(BAR_X + part.width + 6, self.y + 13, part.percent)
        self.y += ROW

    def drawn_stacked(self, label: str, parts: list[Part], note: str, indent: int = 24) -> None:
        """Add a labelled row with one stacked bar laid out already, and a note after it"""
        if self.keep == "texts":
            text_y = number(self.y + 13)
            self.texts += [Text(number(LABEL_X + indent), text_y, fit(label), 12, False),
                           Text(NOTE_X_TEXT, text_y, note, 12, False)]
        elif self.keep == "rects":
            bar_y = number(self.y + 3)
            self.rects += [Rect(part.x_text, bar_y, part.width_text, BAR_HEIGHT_TEXT, part.colour,
                                f"{label}, {part.name}: {part.percent}") for part in parts if part.width > 0]
        self.y += ROW


@dataclass(frozen=True)
class Part:
    """One coloured piece of a bar, laid out once per loss distribution: what it shows, where it starts, how wide"""

    name: str
    percent: str
    colour: str
    width: float
    x_text: str  # where it starts and how wide, as written in the chart
    width_text: str


def drawn_part(name: str, p: Fraction, colour: str, x: float = BAR_X) -> Part:
    """Lay out one piece of a bar: its width and percentage from its probability"""
    width = float(p) * BAR_WIDTH
    return Part(name, percent(p), colour, width, number(x), number(width))


def drawn_stacked_parts(parts: list[tuple[str, Fraction, str]]) -> list[Part]:
    """Lay out the pieces of a stacked bar one after the other"""
    drawn, x = [], float(BAR_X)
    for name, p, colour in parts:
        drawn.append(drawn_part(name, p, colour, x))
        x += drawn[-1].width
    return drawn


def odds_chart(odds: Odds, labels: dict[str, str], sides: dict[str, list[str]], distribution_rows: Any) -> dict:
    """Lay out the chart: labels name the sides (and "none"), sides list each side's member names; its texts and
    boxes are laid out as the template reads them"""

    def shapes(keep: str | None) -> Iterator[Text | Rect]:
        chart = Chart(keep)
        yield from draw(chart, odds, labels, sides, distribution_rows, drawn)
        measured.append(chart.y)

    # Bars laid out once for every pass; members who share a MemberOdds (one profile) share its bars: the exact sums
    # and percentages of a long distribution cost far more than drawing a row.
    drawn: dict[Any, Any] = {}
    measured: list[float] = []
    for _ in shapes(None):
        pass
    return {"title": f"{odds.system} · {odds.procedure}", "width": WIDTH, "height": number(measured[0] + 10),
            "texts": shapes("texts"), "rects": shapes("rects")}


def draw(chart: Chart, odds: Odds, labels: dict[str, str], sides: dict[str, list[str]], distribution_rows: Any,
         drawn: dict[Any, Any]) -> Iterator[Text | Rect]:
    """Lay out the chart, giving the shapes it keeps as each heading or member is laid out; drawn holds the bars laid
    out in an earlier pass: the sides' by label, each profile's by its MemberOdds"""

    def bar(key: tuple[str, object], label: str, p: Fraction, colour: str) -> None:
        if key not in drawn:
            drawn[key] = drawn_part(label, p, colour)
        chart.drawn_bar(label, drawn[key], indent=20)

    title = f"{odds.system} · {odds.procedure}"
    chart.heading(title, 1)
    chart.heading("Who gets the jump", 2)
    for key in ("a", "b", "none"):
        bar(("surprise", key), labels[key], odds.surprise[key], COLOURS[key])
    if odds.free_segments is not None:
        chart.heading("Side-level free segments (positive: side a acts alone)", 2)
        for value, p in sorted(odds.free_segments.items()):
            bar(("segments", value), str(value), p, COLOURS["a" if value > 0 else "b" if value < 0 else "none"])
    unit = next(iter(odds.members.values())).unit
    chart.heading(LOSSES[unit], 2)
    compact = len(odds.members) >= COMPACT_AT
    if compact:
        legend(chart, unit)
    yield from chart.taken()
    for key in SIDE_KEYS:
        chart.heading(f"{labels[key]} (side {key})", 2)
        for name in sides[key]:
            member = odds.members[name]
            if id(member) not in drawn:
                drawn[id(member)] = profile_bars(member, unit, compact, distribution_rows)
            parts, note = drawn[id(member)]
            if compact:
                chart.drawn_stacked(name, parts, note)
            else:
                chart.heading(f"{name}: {note}", 3)
                for part in parts:
                    chart.drawn_bar(part.name, part, indent=36)
            yield from chart.taken()
        yield from chart.taken()


def profile_bars(member: MemberOdds, unit: str, compact: bool, distribution_rows: Any) -> tuple[list[Part], str]:
    """Lay out one loss distribution's bars and the note beside them: a stacked bar, or a bar per row"""
    if compact:
        return drawn_stacked_parts(stacked_parts(member, unit)), expected_text(member, short=True)
    rows = distribution_rows(member)
    return [drawn_part(label, p, COLOURS["never" if label == "never" else "lost"]) for label, p in rows], \
        expected_text(member)


def expected_text(member: MemberOdds, short: bool = False) -> str:
    """Tell a member's expected loss ("expected 1.062", "1.062" in the compact column) or that he may never recover"""
    if member.expected_lost is None:
        return "never" if short else "never recovers"
    expected = number_text(member.expected_lost, LANGUAGE, 3)
    return expected if short else f"expected {expected}"


def shade_names(unit: str) -> list[str]:
    """Name the loss shades: 0, 1, ... and the last as "N or more" units"""
    last = len(LOSS_SHADES) - 1
    return [counted(k, unit) for k in range(last)] + [f"{last}+ {noun(last, unit)}"]


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
