"""The odds chart: members grouped by side, compact for a crowd, clean coordinates, and what a renderer draws"""

from __future__ import annotations

import json
import re
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from exporter.chart import COMPACT_AT, ROW, number
from exporter.cli import main
from tests.conftest import SCENARIOS, run_node

SVG = "{http://www.w3.org/2000/svg}"
CLEAN = re.compile(r"^-?\d+(\.\d{1,2})?$")


def chart(tmp_path, scenario_path) -> ElementTree.Element:
    out = tmp_path / "chart.svg"
    result = CliRunner().invoke(main, ["odds", str(scenario_path), "--svg", str(out)])
    assert result.exit_code == 0, result.output
    return ElementTree.parse(out).getroot()


def crowd(tmp_path, per_side: int):
    """A GURPS partial surprise with per_side members a side"""
    lines = ['system = "gurps4e"', 'procedure = "partial"']
    for key, name in (("a", "Party"), ("b", "Raiders")):
        lines += [f"[sides.{key}]", f'name = "{name}"', f'leader = "{key}0"']
        for index in range(per_side):
            lines += [f"[[sides.{key}.members]]", f'name = "{key}{index}"', f"iq = {8 + index % 5}"]
    path = tmp_path / "crowd.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
def test_a_number_is_written_with_at_most_two_decimals(value):
    text = number(value)
    assert CLEAN.match(text), text
    assert abs(float(text) - value) <= 0.005 + 1e-9


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_coordinate_is_clean(path, tmp_path):
    root = chart(tmp_path, path)
    for element in root.iter():
        for attribute in ("x", "y", "width", "height"):
            value = element.get(attribute)
            if value is not None and not value.endswith("%"):
                assert CLEAN.match(value), f"{element.tag} {attribute}={value}"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_members_are_grouped_under_their_side_name(path, tmp_path):
    import tomllib

    data = tomllib.loads(path.read_text(encoding="utf-8"))
    texts = [t.text for t in chart(tmp_path, path).iter(f"{SVG}text")]
    headings = [index for index, text in enumerate(texts) if text and re.search(r" \(side [ab]\)$", text)]
    assert len(headings) == 2
    start_a, start_b = headings
    for key, (start, end) in (("a", (start_a, start_b)), ("b", (start_b, len(texts)))):
        side = data["sides"][key]
        assert texts[start] == f"{side.get('name', f'Side {key.upper()}')} (side {key})"
        for member in side["members"]:
            assert any(t and t.startswith(member["name"]) for t in texts[start:end]), member["name"]


def test_a_crowd_gets_one_row_per_member(tmp_path):
    small = chart(tmp_path, crowd(tmp_path, (COMPACT_AT - 1) // 2))
    large = chart(tmp_path, crowd(tmp_path, 10))
    assert int(large.get("height")) < 20 * ROW + 12 * ROW  # 20 members, a row each, plus headings and legend
    assert int(large.get("height")) < int(small.get("height")) * 2
    texts = [t.text for t in large.iter(f"{SVG}text")]
    for index in range(10):
        assert texts.count(f"a{index}") == 1 and texts.count(f"b{index}") == 1
    assert "never" in texts  # the legend


@pytest.mark.parametrize("path", [SCENARIOS[0], SCENARIOS[-1]], ids=lambda p: p.stem)
def test_a_real_svg_renderer_draws_the_bars_where_the_chart_says(path, tmp_path):
    root = chart(tmp_path, path)
    bars = [r for r in root.findall(f"{SVG}rect") if r.get("x") and float(r.get("width")) >= 4]
    assert bars
    points = [f"{int(float(r.get('x')) + float(r.get('width')) / 2)},{int(float(r.get('y')) + 6)}" for r in bars]
    points.append("2,2")
    done = run_node("tests/js/render_svg.mjs", str(tmp_path / "chart.svg"), *points)
    assert done.returncode == 0, done.stderr
    rendered = json.loads(done.stdout)
    assert (rendered["width"], rendered["height"]) == (int(root.get("width")), int(root.get("height")))
    assert rendered["colours"] == [r.get("fill") for r in bars] + ["#ffffff"]


def profiles_fight(tmp_path, per_side: int, procedure: str = "partial"):
    """A GURPS fight of per_side members a side, cycling through three profiles"""
    lines = ['system = "gurps4e"', f'procedure = "{procedure}"']
    for key in ("a", "b"):
        lines += [f"[sides.{key}]", f'leader = "{key}0"' if procedure == "partial" else ""]
        for index in range(per_side):
            lines += [f"[[sides.{key}.members]]", f'name = "{key}{index}"', f"iq = {9 + index % 3}"]
    path = tmp_path / "profiles.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("per_side", [100, 4], ids=["compact", "a row per loss"])
def test_each_profile_s_bars_are_laid_out_once(per_side, tmp_path, monkeypatch):
    """200 members of three profiles: the exact sums and percentages of their bars are done once per profile"""
    import exporter.chart
    from exporter.report import distribution_rows, odds_svg
    from exporter.rules import gurps4e
    from exporter.scenario import load_scenario

    scenario = load_scenario(profiles_fight(tmp_path, per_side))
    odds = gurps4e.odds(scenario)
    profiles = {id(member): member for member in odds.members.values()}
    assert len(profiles) <= 6  # three IQs a side; the odds module shares a MemberOdds per profile
    calls = {"percent": 0, "stacked_parts": 0}
    for name in calls:
        original = getattr(exporter.chart, name)

        def counted(*args, _original=original, _name=name):
            calls[_name] += 1
            return _original(*args)

        monkeypatch.setattr(exporter.chart, name, counted)
    before = odds_svg(scenario)
    monkeypatch.undo()
    assert before == odds_svg(scenario)  # the counters change nothing
    shades = len(exporter.chart.LOSS_SHADES) + 1  # and never
    if per_side >= exporter.chart.COMPACT_AT // 2:
        assert calls["stacked_parts"] == len(profiles)
        assert calls["percent"] == 3 + shades * len(profiles)  # who gets the jump, then one stacked bar a profile
    else:
        rows = sum(len(distribution_rows(member)) for member in profiles.values())
        assert calls["percent"] == 3 + rows


def test_odds_with_a_chart_are_computed_once(tmp_path, monkeypatch):
    from exporter.rules import gurps4e

    calls = []
    original = gurps4e.odds
    monkeypatch.setattr(gurps4e, "odds", lambda scenario: calls.append(1) or original(scenario))
    result = CliRunner().invoke(main, ["odds", str(profiles_fight(tmp_path, 3)), "--svg", str(tmp_path / "c.svg")])
    assert result.exit_code == 0, result.output
    assert len(calls) == 1
