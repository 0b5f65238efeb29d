"""The Roll20 files written for each example campaign: locked, valid, and macros that parse as Roll20 rolls"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from exporter.campaign import load_campaign
from exporter.definitions import build_definitions
from exporter.targets.roll20.writer import script_name
from tests.conftest import CAMPAIGNS, roll20_configurations, run_node

IDS = [load_campaign(path).id for path in CAMPAIGNS]


@pytest.fixture(scope="module")
def dist(examples) -> Path:
    return examples  # only <id>/roll20 is read: the same files as a build of that target alone


@pytest.mark.parametrize("campaign_id", IDS)
def test_the_script_parses_and_is_one_module_iife(dist, campaign_id):
    name = script_name(campaign_id)
    script = dist / campaign_id / "roll20" / f"{name}.js"
    roll20_configurations([dist / i for i in IDS])  # compiles each script as a classic one (vm.Script), in one process
    text = script.read_text(encoding="utf-8")
    assert re.search(rf"^const {name} = \(\(\) => {{$", text, re.M)
    assert not re.search(r"^\s*(import|export) ", text, re.M)
    assert f"API_Meta.{name}" in text


@pytest.mark.parametrize("campaign_id", IDS)
def test_an_example_without_user_ids_writes_no_script_json(dist, campaign_id):
    assert not (dist / campaign_id / "roll20" / "script.json").exists()
    assert "rebuild: the build then writes the `script.json`" in (dist / campaign_id / "roll20" / "README.md").read_text(
        encoding="utf-8")


@pytest.mark.parametrize("campaign_id", IDS)
def test_every_inline_roll_of_the_macros_parses_with_nothing_left_as_a_label(dist, campaign_id):
    macros = sorted((dist / campaign_id / "roll20" / "macros").glob("*.txt"))
    assert macros
    done = run_node("tests/roll20/parse_macros.mjs", *map(str, macros))
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert {Path(r["file"]).name for r in results} == {m.name for m in macros}
    failures = [r for r in results if not r["ok"]]
    assert not failures, json.dumps(failures, indent=2)


def test_the_macro_check_catches_leftover_text_and_broken_queries(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("&{template:default} {{a=[[1d6 + @{selected|iq} dex]]}} {{b=[[?{Bonus|2}+]]}}\n", encoding="utf-8")
    done = run_node("tests/roll20/parse_macros.mjs", str(bad))
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["ok"] for r in results] == [False, False]
    assert results[0]["labels"] == ["dex"]


@pytest.mark.parametrize("path", CAMPAIGNS, ids=IDS)
def test_the_readme_lists_each_sheet_reader_on_a_line_of_its_own(dist, path):
    campaign = load_campaign(path)
    readers = build_definitions(campaign).targets["roll20"].attributes
    text = (dist / campaign.id / "roll20" / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"^- `([a-z_]+)`: (.+)$", text.partition("Sheet values read")[2].partition("\n\n## ")[0], re.M)
    assert [key for key, _ in listed] == list(readers)
    for (_, line), reader in zip(listed, readers.values(), strict=True):
        if "when" in reader:  # both of a choice's readers named, and what chooses
            assert f"`{reader['when']}` is 1" in line and line.count("; else ") == 1, line
    assert bool(readers) != ("Sheet values read: none" in text)
