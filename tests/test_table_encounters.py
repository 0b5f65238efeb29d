"""Table encounters replayed in the CLI: a drafted encounter's odds and scenario file, from Foundry and from Roll20"""

from __future__ import annotations

import html
import json
import re
import subprocess
import tomllib

import pytest
from click.testing import CliRunner

from exporter.cli import main
from tests.conftest import NODE, NODE_FLAGS, ROOT
from tests.test_js_odds import close

SCRIPT = ROOT / "tests" / "table_encounters.mjs"
MARKER = "@@encounters@@"
EXAMPLES = ("ambush-gurps-example", "ambush-adnd-example", "ambush-fallout-example")
PRE = re.compile(r"<pre[^>]*>(.*?)</pre>", re.S)


@pytest.fixture(scope="module")
def tables(examples) -> dict:
    """Draft the encounter at both emulated tables of every example, in one Node process"""
    done = subprocess.run([NODE, *NODE_FLAGS, str(SCRIPT)], capture_output=True, text=True, encoding="utf-8",
                          timeout=300, check=False, env={"MODULES_DIR": str(examples), "PATH": ""})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.split(MARKER, 1)[1])


def cli(tmp_path, text: str, *args: str) -> str:
    """Run an ambush command on a scenario file holding text; return what it printed"""
    path = tmp_path / "encounter.toml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, [*args, str(path)])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("example", EXAMPLES)
def test_a_foundry_export_reads_in_the_cli_with_the_odds_the_dialog_shows(tables, example, tmp_path):
    drafted = tables["foundry"][example]
    data = tomllib.loads(drafted["toml"])
    names = [m["name"] for key in "ab" for m in drafted["draft"]["sides"][key]["members"]]
    assert "back\\slash new line" in names, "a token named across two lines is drafted under a one-line name"
    assert [m["name"] for key in "ab" for m in data["sides"][key]["members"]] == names
    assert not any("id" in m or "label" in m for key in "ab" for m in data["sides"][key]["members"])
    assert "out" not in data
    python = json.loads(cli(tmp_path, drafted["toml"], "odds", "--json"))
    assert list(python["members"]) == names
    assert not close(python, drafted["odds"], "odds")
    assert "seed 7" in cli(tmp_path, drafted["toml"], "simulate", "--seed", "7")


@pytest.mark.parametrize("example", EXAMPLES)
def test_roll20_whispers_the_odds_and_the_same_scenario_file_escaped_for_chat(tables, example):
    odds_card, export_card = tables["roll20"][example]["whispers"]
    drafted = tables["foundry"][example]
    assert odds_card.count('<div style="margin:1px 0;">') == 1 + len(drafted["odds"]["members"])
    assert "[" not in export_card and "@" not in export_card.split("</pre>")[0].split(">", 3)[-1]
    body = PRE.search(export_card)
    assert body, export_card
    assert html.unescape(body.group(1).replace("<br>", "\n")) == drafted["toml"]


def test_the_toml_writer_escapes_hostile_strings_and_keys(tables):
    strings = tables["strings"]
    data = tomllib.loads(strings["toml"])
    repaired = [re.sub(r"[\ud800-\udfff]", "\ufffd", s.encode("utf-16", "surrogatepass").decode("utf-16", "replace"))
                for s in strings["given"]]
    assert data["strings"] == repaired
    assert data[strings["given"][0]] == 1


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_dialog_shows_the_odds_and_recomputes_them_when_the_gm_edits(tables, example):
    drafted = tables["foundry"][example]
    before, after = drafted["dialog"]["before"], drafted["dialog"]["after"]
    surprise = drafted["odds"]["surprise"]
    assert before[0] == ("Who gets the jump: side A {:.1f}%, side B {:.1f}%, nobody {:.1f}%"
                         .format(*(100 * surprise[k] for k in ("a", "b", "none"))))
    assert before[1:] == [f"{name}: {member['expected_lost']:.2f} {member['unit']}s lost on average"
                          for name, member in drafted["odds"]["members"].items()]
    assert after != before and len(after) == len(before)
