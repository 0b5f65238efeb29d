"""The sheet readers (Foundry: exporter/game_systems/ through exporter/targets/foundry/sheets.py; Roll20:
exporter/targets/roll20/sheets/): sources noted, campaign defaults and outputs follow it"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from exporter.build import build_campaigns
from exporter.campaign import load_campaign
from exporter.rules import adnd1e
from exporter.rules.shared import gate_text
from exporter.rules.systems import option_gated_inputs, unread_inputs
from exporter.targets.foundry.sheets import FOUNDRY_SHEETS, foundry_reader
from exporter.targets.roll20.sheets import ROLL20_SHEETS, roll20_reader
from exporter.targets.foundry import section as foundry_section
from exporter.targets.foundry.section import foundry_defaults
from exporter.targets.roll20 import section as roll20_section
from exporter.targets.roll20.section import roll20_defaults
from tests.conftest import CAMPAIGNS, module_exports, roll20_configuration, roll20_configurations

COMMIT = re.compile(r"@[0-9a-f]{8,40}\b")


@pytest.mark.parametrize("table", [FOUNDRY_SHEETS, ROLL20_SHEETS], ids=["foundry", "roll20"])
def test_every_default_reader_names_the_file_it_was_checked_against(table):
    for system, entry in table.items():
        readers = entry["readers"] if "readers" in entry else entry
        for key, (_, source) in readers.items():
            assert source.strip(), f"{system}.{key}"
            if "ARS" not in source:  # ARS's code is not public on GitHub: its source stays unconfirmed
                assert COMMIT.search(source), f"{system}.{key}: {source!r} names no commit"


def test_the_campaign_defaults_are_the_sheets_table():
    assert foundry_defaults("gurps4e")["attributes"]["combat_reflexes"] == {"advantage": "Combat Reflexes"}
    assert foundry_defaults("adnd1e")["attributes"]["surprise_adjustment"] == "system.abilities.dex.reaction"
    assert roll20_defaults("adnd1e")["surprise_adjustment"] == {
        "set": ["surprisebonus_inverted", "surprisebonus"], "agrees": {"input": "dex", "table": "dex_adjustment"}}
    assert foundry_defaults("fallout-ttrpg") == {"system_id": None, "attributes": {}, "versions": []}
    assert foundry_defaults("gurps4e")["versions"] == ["0.18.22", "1.0.0-alpha"]
    assert foundry_defaults("adnd1e")["versions"] == ["2023.08.06"]
    assert foundry_defaults("dnd5e") == {"system_id": "dnd5e", "versions": ["5.3.3"], "attributes": {
        "stealth": "system.skills.ste.total", "passive_perception": "system.skills.prc.passive",
        "initiative": "system.attributes.init.total"}}
    assert roll20_defaults("fallout-ttrpg") == {}


@pytest.mark.parametrize("system", sorted(ROLL20_SHEETS))
def test_the_roll20_defaults_are_readers_a_campaign_may_give(system, tmp_path):
    from exporter.toml_text import toml_value

    readers = "\n".join(f"{key} = {toml_value(reader)}" for key, reader in roll20_defaults(system).items())
    # An input only an option reads takes a reader only with that option on.
    gated = option_gated_inputs(system)
    options = "".join(gate_text(gate).removeprefix("options.") + "\n"
                      for gate in sorted({gated[k] for k in roll20_defaults(system) if k in gated}))
    path = tmp_path / "campaign.toml"
    path.write_text(f'id = "x"\ntitle = "X"\nversion = "1.0.0"\nsystem = "{system}"\n[options]\n{options}'
                    f'[roll20.attributes]\n{readers}\n', encoding="utf-8")
    expected = {key: roll20_reader(reader) for key, reader in sorted(roll20_defaults(system).items())}
    assert roll20_section.attributes(load_campaign(path)) == expected


def test_the_generated_outputs_read_the_sheets_table(examples):
    roll20_configurations([examples / load_campaign(path).id for path in CAMPAIGNS])  # one Node process for all
    for path in CAMPAIGNS:
        campaign = load_campaign(path)
        folder = examples / campaign.id
        roll20 = roll20_configuration(folder)["ATTRIBUTES"]
        unread = unread_inputs(campaign.system, campaign.rules_options)  # an option the example leaves off reads none
        expected = {k: roll20_reader(v) for k, v in roll20_defaults(campaign.system).items() if k not in unread}
        assert roll20 == dict(sorted(expected.items())), campaign.id
        foundry = module_exports(folder / "foundry" / "scripts" / "common" / "config.js")["ATTRIBUTES"]
        assert foundry == {k: foundry_reader(v) for k, v in foundry_section.attributes(campaign).items()}
        if campaign.system != "gurps4e":  # the GURPS example names its readers itself
            defaults = {k: v for k, v in foundry_defaults(campaign.system)["attributes"].items() if k not in unread}
            assert foundry == {k: foundry_reader(v) for k, v in sorted(defaults.items())}, campaign.id


def test_the_macros_dex_formula_is_the_1e_table():
    from exporter.targets.roll20.macros import Context, render

    term = adnd1e.dex_adjustment_term()
    for dex in range(3, 19):
        text = render(term, Context("en", {}, {"dex": {"attribute": "dexterity"}}, {}))
        text = text.replace("@{selected|dexterity}", str(dex))
        assert eval_group(text) == adnd1e.DEX_ADJUSTMENT[dex], dex


def eval_group(text: str) -> int:
    """Evaluate an inline-roll expression of numbers, + and -, and {a, b}kh1 groups"""
    while "{" in text:
        text = re.sub(r"\{\s*([^{}]+?)\s*\}kh1", lambda m: str(max(eval_group(p) for p in m[1].split(","))), text)
    return int(eval(text, {"__builtins__": {}}))  # digits, + - and parentheses only, built above


def test_init_writes_the_readers_as_toml_tables(tmp_path):
    from exporter.init import init_campaign

    path = init_campaign("gurps4e", tmp_path / "campaign.toml")
    text = path.read_text(encoding="utf-8")
    assert 'combat_reflexes = { advantage = "Combat Reflexes" }' in text
    assert foundry_section.attributes(load_campaign(path))["tactics"] == {"skill": "Tactics"}


def test_hostile_reader_names_stay_data(tmp_path):
    from tests.conftest import run_node

    name = "Combat \\\"Reflexes\\\" </script> ${x} '); alert(1); // \\\\ |@{x}%{y}"
    campaign = tmp_path / "campaign.toml"
    campaign.write_text(f'''id = "hostile-readers"
title = "H"
version = "1.0.0"
system = "gurps4e"
[foundry.attributes]
combat_reflexes = {{ advantage = "{name}" }}
tactics = {{ skill = "{name}" }}
[roll20.attributes]
combat_reflexes = {{ section = "repeating_traits", name = "{name}" }}
''', encoding="utf-8")
    loaded = load_campaign(campaign)
    wanted = loaded.foundry.attributes["combat_reflexes"].advantage
    build_campaigns([campaign], tmp_path / "dist", make_zip=False)
    folder = tmp_path / "dist" / "hostile-readers"
    script = next((folder / "roll20").glob("*.js"))
    done = run_node("tests/roll20/parse_es2020.mjs", str(script))
    assert json.loads(done.stdout)["ok"], done.stdout
    assert roll20_configuration(folder)["ATTRIBUTES"]["combat_reflexes"]["name"] == wanted
    config = module_exports(folder / "foundry" / "scripts" / "common" / "config.js")
    assert config["ATTRIBUTES"]["tactics"]["skill"] == wanted
    assert "</script>" not in (folder / "roll20" / "README.md").read_text(encoding="utf-8")
