"""What the docs promise is what the tool does: commands, options, defaults, the Foundry claims, checked sources"""

from __future__ import annotations

import json
import re

import click
import pytest
from click.testing import CliRunner
from pydantic import BaseModel

from exporter.campaign import Campaign
from exporter.cli import main
from exporter.game_systems.ars import ARS
from exporter.game_systems.gurps import GGA
from exporter.toml_text import toml_value
from exporter.targets.foundry.section import FoundryTarget
from exporter.targets.roll20.section import Roll20Target
from tests.conftest import ROOT, ambush_commands

DOCS = ROOT / "docs"
# The pages a GM reads (docs/dev is for contributors) and the README
GM_PAGES = [ROOT / "README.md", *sorted(p for p in DOCS.rglob("*.md") if "dev" not in p.relative_to(DOCS).parts)]
ALL_PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
CODE_SPAN = re.compile(r"`([^`\n]+)`")
SHELL_BLOCK = re.compile(r"```sh\n(.*?)```", re.S)
COMMANDS_JS = (ROOT / "templates" / "roll20" / "commands.js").read_text(encoding="utf-8")
DRAFT_JS = (ROOT / "templates" / "roll20" / "draft-card.js").read_text(encoding="utf-8")
BUILD = """id = "claims"
title = "Claims"
version = "1.0.0"
system = "adnd1e"
targets = ["foundry"]
"""


def ambush_invocations() -> list[tuple[str, list[str]]]:
    """Return (page, words after `ambush`) for every ambush command a page shows, in code spans and shell blocks"""
    found = []
    for path in ALL_PAGES:
        text = path.read_text(encoding="utf-8")
        lines = [span for span in CODE_SPAN.findall(text)]
        lines += [line.split("#", 1)[0] for block in SHELL_BLOCK.findall(text) for line in block.splitlines()]
        for line in lines:
            for match in re.finditer(r"(?:^|[\s/])ambush((?: [^|;&`]*)?)", line):
                if "_AMBUSH_COMPLETE" in line:
                    continue
                words = match.group(1).split()
                found.append((path.relative_to(ROOT).as_posix(), words))
    return found


def test_every_ambush_command_and_option_the_docs_show_exists():
    invocations = ambush_invocations()
    assert len(invocations) > 40
    commands = ambush_commands()
    for page, words in invocations:
        if not words or words[0] in ("--version", "--help", "-h"):
            continue
        name = words[0]
        assert name in commands, f"{page}: `ambush {' '.join(words)}`: no command {name}"
        command = commands[name]
        known = {opt for param in command.params if isinstance(param, click.Option)
                 for opt in (*param.opts, *param.secondary_opts)} | {"--help", "-h"}
        for word in words[1:]:
            for option in re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", word):  # --zip/--no-zip: both
                assert option in known, f"{page}: `ambush {' '.join(words)}`: {name} has no {option}"
    result = CliRunner().invoke(main, ["build", "--help"])
    assert "--no-zip" in result.output


def test_the_command_reference_lists_every_command():
    text = (DOCS / "dev" / "architecture.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `ambush (\w+)", text, re.M))
    assert listed == set(ambush_commands())


def roll20_subcommands() -> set[str]:
    """Return the subcommands the script answers, as its command handler reads them"""
    return set(re.findall(r'case "(\w+)"', COMMANDS_JS)) | set(re.findall(r'sub === "(\w+)"', COMMANDS_JS))


def reads_argument(name: str) -> bool:
    """Tell whether the script reads --name from a command"""
    code = COMMANDS_JS + DRAFT_JS
    return bool(re.search(rf'args\.{name}\b|"{name}" in args|args\["{name}"\]|key of \[[^\]]*"{name}"', code))


def test_every_roll20_command_and_option_the_docs_list_is_answered():
    text = (DOCS / "dev" / "architecture.md").read_text(encoding="utf-8")
    table = text.split("### The Roll20 commands", 1)[1].split("\n\n", 3)[2]
    documented: set[str] = set()
    for row in table.splitlines()[2:]:
        for span in CODE_SPAN.findall(row.split(" | ", 1)[0]):
            documented.add(span.split()[0])
            for option in re.findall(r"--(\w+)", span):
                assert reads_argument(option), f"the script reads no --{option} ({span})"
    for option in re.findall(r"`--(\w+)", table):
        assert reads_argument(option), option
    assert documented == roll20_subcommands()


def test_the_table_page_names_every_roll20_command():
    text = (DOCS / "table.md").read_text(encoding="utf-8")
    commands = text.split("Commands: ", 1)[1].split("\n\n", 1)[0]
    named = {span.removeprefix("!surprise ").split()[0] for span in CODE_SPAN.findall(commands)} - {"--ids", "--cards"}
    assert roll20_subcommands() <= named


@pytest.mark.parametrize("model", [Campaign, FoundryTarget, Roll20Target], ids=lambda m: m.__name__)
def test_every_default_the_campaign_reference_gives_is_the_models(model):
    text = (DOCS / "campaign.md").read_text(encoding="utf-8")
    rows = {cells[0].strip("`"): cells[2] for row in text.splitlines()
            if len(cells := [c.strip() for c in row.strip().strip("|").split(" | ")]) == 4}
    for name, info in model.model_fields.items():
        default = None if info.is_required() else info.get_default(call_default_factory=True)
        if default is None or isinstance(default, dict | BaseModel):
            continue  # none, or a table whose defaults have their own rows
        assert name in rows, name
        said = rows[name].strip("`")
        assert said == toml_value(default) or (said, default) == ("none", []), f"{name}: {said}, not {default!r}"


def test_no_page_claims_a_verified_foundry_the_module_does_not(tmp_path):
    campaign = tmp_path / "campaign.toml"
    campaign.write_text(BUILD, encoding="utf-8")
    assert CliRunner().invoke(main, ["build", str(campaign), "--out", str(tmp_path / "dist")]).exit_code == 0
    manifest = json.loads((tmp_path / "dist" / "claims" / "foundry" / "module.json").read_text(encoding="utf-8"))
    assert "verified" not in manifest["compatibility"]
    for path in GM_PAGES:
        text = " ".join(path.read_text(encoding="utf-8").split())
        claims = re.findall(r"verified (?:on|for|with) (?:Foundry )?V?1\d", text, re.I)
        assert not claims, f"{path.name} claims {claims}, which module.json does not"


@pytest.mark.parametrize(("given", "written"), [
    ('verified = "14.369"', {"minimum": "13", "verified": "14.369", "maximum": "14"}),
    ('verified = "13"', {"minimum": "13", "verified": "13", "maximum": "14"}),
    ("", {"minimum": "13", "maximum": "14"}),
])
def test_module_json_claims_the_verified_build_the_campaign_gives(given, written, tmp_path):
    campaign = tmp_path / "campaign.toml"
    campaign.write_text(BUILD + f"[foundry]\n{given}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(campaign), "--out", str(tmp_path / "dist")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "dist" / "claims" / "foundry" / "module.json").read_text(encoding="utf-8")
    assert json.loads(text)["compatibility"] == written
    assert list(json.loads(text)["compatibility"]) == list(written)  # Foundry's order: minimum, verified, maximum


@pytest.mark.parametrize(("value", "said"), [
    ('"12"', "must be a Foundry version the module supports (13 or 14)"),
    ('"15.351"', "must be a Foundry version the module supports (13 or 14)"),
    ('"V14"', "must be a Foundry version the module supports (13 or 14)"),
    ('"14.x"', "must be a Foundry version the module supports (13 or 14)"),
    ("14", "Input should be a valid string (got 14)"),
])
def test_a_verified_version_the_module_does_not_install_on_is_refused(value, said, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    campaign = tmp_path / "campaign.toml"
    campaign.write_text(BUILD + f"[foundry]\nverified = {value}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(campaign)])
    assert result.exit_code == 2
    assert result.output.splitlines()[0].startswith(f"Error: {campaign}: foundry.verified: {said}")
    assert len(result.output.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["campaign.toml"]


def section(page: str, heading: str) -> str:
    """Return one ## section of a docs page"""
    return (DOCS / page).read_text(encoding="utf-8").split(f"## {heading}", 1)[1].split("\n## ", 1)[0]


def test_the_game_systems_page_names_the_versions_the_default_readers_were_checked_against():
    version, repository, commit = re.fullmatch(r"ARS (v[\d.]+): ([\w/.-]+)@(\w+) \(V13/V14 unconfirmed\)", ARS).groups()
    ars = " ".join(section("game-systems.md", "Foundry: ARS").split())
    assert f"Checked against ARS {version} for Foundry V11" in ars
    assert f"({repository} at `{commit[:8]}`" in ars
    assert "Whether ARS for V13 or V14 keeps these paths, tables and settings is unconfirmed" in ars
    repository, commit = GGA.split("@")
    gga = " ".join(section("game-systems.md", "Foundry: GURPS Game Aid").split())
    assert f"({repository} at `{commit[:8]}`" in gga
