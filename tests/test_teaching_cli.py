"""The CLI that teaches: option meanings in `systems`, `explain`, the commented `ambush init`, complete help"""

from __future__ import annotations

import tomllib
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from exporter.cli import main
from tests.conftest import ambush_commands
from exporter.options import FIXED_READINGS, system_options
from exporter.rules.systems import SYSTEM_IDS, system_module
from exporter.rules.models import model_of

EVERY_OPTION = [(system, option.name) for system in SYSTEM_IDS for option in system_options(system)]


def run(*args: str) -> click.testing.Result:
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize(("system", "name"), EVERY_OPTION)
def test_every_option_says_what_each_of_its_values_does(system, name):
    option = next(o for o in system_options(system) if o.name == name)
    assert option.meaning and not option.meaning.endswith(".")
    assert option.reading and option.source
    annotation = model_of(system_module(system).Options).model_fields[name].annotation
    expected = {"true", "false"} if annotation is bool else set(getattr(annotation, "__args__", ())) or {"N"}
    assert set(option.values) == expected
    assert all(effect.strip() for effect in option.values.values())


def test_no_option_has_a_single_value():
    for system in SYSTEM_IDS:
        for name, info in model_of(system_module(system).Options).model_fields.items():
            assert len(getattr(info.annotation, "__args__", (1, 2))) > 1, f"{system}.{name} has one value"


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_systems_gives_each_option_its_meaning_and_default(system):
    result = run("systems", system)
    assert result.exit_code == 0
    for option in system_options(system):
        assert f"{option.name} = {option.shown_default}: {option.meaning}" in result.output
    for other in set(SYSTEM_IDS) - {system}:
        assert f"{other} (" not in result.output


@pytest.mark.parametrize(("system", "name"), EVERY_OPTION)
def test_explain_tells_meaning_values_default_and_source(system, name):
    option = next(o for o in system_options(system) if o.name == name)
    for args in (("explain", name, "--system", system), ("systems", system, "--option", name)):
        result = run(*args)
        assert result.exit_code == 0, result.output
        for part in (option.meaning, option.source, f"default: {option.shown_default}",
                     f"`ambush docs rules/{system}#{option.reading.lower()}`",
                     *option.values.values()):
            assert part in result.output


def test_explain_an_unknown_option_is_one_line_with_a_suggestion():
    result = run("explain", "freeze_rol_scope")
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "Error: no option 'freeze_rol_scope'; `ambush systems` lists them; did you mean freeze_roll_scope?"]


@pytest.mark.parametrize(("system", "name"), [(s, n) for s, fixed in FIXED_READINGS.items() for n in fixed])
def test_fixed_readings_are_never_offered_and_explain_says_why(system, name, tmp_path):
    assert name not in run("systems").output
    assert run("init", "--system", system, str(tmp_path / "c.toml")).exit_code == 0
    assert name not in (tmp_path / "c.toml").read_text(encoding="utf-8")
    result = run("explain", name)
    assert result.exit_code == 2
    assert result.output == f"Error: {system}: {name} {FIXED_READINGS[system][name]}\n"


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_init_comments_every_field_and_option_and_points_to_the_docs(system, tmp_path):
    path = tmp_path / "campaign.toml"
    assert run("init", "--system", system, str(path)).exit_code == 0
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    table = ""
    for number, line in enumerate(lines):
        if line.startswith("["):
            table = line
            assert lines[number - 1].startswith("#"), f"table {line} has no comment"
        elif line and not line.startswith("#") and not table.endswith("attributes]"):
            assert lines[number - 1].startswith("# "), f"line {number + 1} {line!r} has no comment above it"
    assert "`ambush docs campaign`" in text and f"`ambush docs rules/{system}`" in text
    data = tomllib.loads(text)
    assert set(data["options"]) == {o.name for o in system_options(system)}
    for option in system_options(system):
        assert f"# {option.meaning}:" in text


def test_top_level_help_shows_every_command_in_full():
    result = run("--help")
    assert result.exit_code == 0
    assert "..." not in result.output.replace("[ARGS]...", "")
    for name, command in ambush_commands().items():
        assert f"  {name}" in result.output
        assert command.short_help and command.short_help in " ".join(result.output.split())
    assert "`ambush docs` lists the pages" in " ".join(result.output.split())


@pytest.mark.parametrize("name", sorted(ambush_commands()))
def test_every_command_option_has_help(name):
    command = ambush_commands()[name]
    assert command.help
    for param in command.params:
        if isinstance(param, click.Option):
            assert param.help, f"{name} {param.opts} has no help"
    result = run(name, "--help")
    assert result.exit_code == 0 and "..." not in result.output.split("\n", 1)[1]


@pytest.mark.parametrize(("args", "named"), [
    (["odds", "x.toml", "--bogus"], "ambush odds: No such option '--bogus'"),
    (["init"], "ambush init: Missing option '--system'"),
    (["init", "--system", "gurps"], "ambush init: Invalid value for '--system'"),
    (["bogus"], "ambush: No such command 'bogus'"),
])
def test_usage_errors_are_one_line_naming_the_problem_exit_2(args, named, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {named}"), result.output
    assert not list(Path(tmp_path).iterdir())
