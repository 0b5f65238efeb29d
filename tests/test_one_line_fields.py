"""A name, id, version or address is one line: a trailing newline or any control character is refused, not written"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from exporter.cli import main
from tests.conftest import FIXTURES

# The characters a fuzzer found accepted (a newline at the end, where re.match's $ matched) and their kin.
CONTROL = {"newline at the end": "{}\n", "carriage return": "{}\r", "tab inside": "a\t{}", "NUL": "{}\x00",
           "DEL": "{}\x7f", "C1 NEL": "{}\x85", "line separator": "{}\u2028"}

# Campaign fields meant as one line, with a good value each (TOML basic strings, so the control characters survive).
CAMPAIGN_FIELDS = {
    "id": ("", "id", "ambush-nl"),
    "version": ("", "version", "1.0.0"),
    "title": ("", "title", "Ambush"),
    "foundry.manifest": ("[foundry]", "manifest", "https://example.org/{id}/module.json"),
    "foundry.download": ("[foundry]", "download", "https://example.org/{id}-{version}.zip"),
    "foundry.system_id": ("[foundry]", "system_id", "gurps"),
    "foundry.verified": ("[foundry]", "verified", "14"),
    "roll20.marker": ("[roll20]", "marker", "Surprised"),
    "roll20.command": ("[roll20]", "command", "!surprise"),
    "authors[0].name": ("[[authors]]", "name", "A. Writer"),
    "authors[0].url": ("[[authors]]\nname = \"A. Writer\"", "url", "https://example.org/me"),
    "authors[0].email": ("[[authors]]\nname = \"A. Writer\"", "email", "me@example.org"),
    "authors[0].discord": ("[[authors]]\nname = \"A. Writer\"", "discord", "writer#1"),
}
HEAD = {"id": 'id = "ambush-nl"', "version": 'version = "1.0.0"', "title": 'title = "Ambush"'}


def campaign_text(field: str, value: str) -> str:
    """A small GURPS campaign whose field holds value"""
    table, key, _ = CAMPAIGN_FIELDS[field]
    given = f"{key} = {json.dumps(value)}"  # a JSON string is a TOML basic string: \n, \u0000 and \u2028 escaped
    head = [given if name == field else line for name, line in HEAD.items()]
    lines = [*head, 'system = "gurps4e"']
    if table:
        lines += [table, given]
    return "\n".join(lines) + "\n"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def assert_refused(result: Result, path: Path, field: str) -> None:
    """Exit 2 and one line naming the file and the field"""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {path}: {field}: "), result.output


@pytest.mark.parametrize("field", CAMPAIGN_FIELDS)
def test_a_campaign_field_with_its_good_value_is_accepted(field, tmp_path):
    path = tmp_path / "campaign.toml"
    path.write_text(campaign_text(field, CAMPAIGN_FIELDS[field][2]), encoding="utf-8")
    result = invoke("validate", str(path))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("control", CONTROL)
@pytest.mark.parametrize("field", CAMPAIGN_FIELDS)
def test_a_campaign_field_with_a_control_character_is_refused(field, control, tmp_path):
    path = tmp_path / "campaign.toml"
    path.write_text(campaign_text(field, CONTROL[control].format(CAMPAIGN_FIELDS[field][2])), encoding="utf-8")
    assert_refused(invoke("validate", str(path)), path, field)


def test_a_build_of_an_id_with_a_trailing_newline_writes_no_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "campaign.toml"
    path.write_text(campaign_text("id", "ambush-nl\n"), encoding="utf-8")
    result = invoke("build", str(path), "--out", str(tmp_path / "dist"))
    assert_refused(result, path, "id")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["campaign.toml"]


SCENARIO = (FIXTURES / "scenarios" / "gurps-partial.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("control", CONTROL)
def test_a_member_name_with_a_control_character_is_refused_by_odds_and_simulate(control, tmp_path):
    first = SCENARIO.index('name = "', SCENARIO.index("[[sides.a.members]]"))
    end = SCENARIO.index('"', first + len('name = "'))
    name = SCENARIO[first + len('name = "'):end]
    path = tmp_path / "scenario.toml"
    path.write_text(SCENARIO[:first] + f"name = {json.dumps(CONTROL[control].format(name))}" + SCENARIO[end + 1:],
                    encoding="utf-8")
    for command in ("odds", "simulate"):
        result = invoke(command, str(path))
        assert result.exit_code == 2, result.output
        assert result.output.startswith(f"Error: {path}: sides.a.members[0].name: ") and "control" in result.output
