"""Each language at the table: numbers as it writes them in both VTTs, and the campaign's default_language

A GURPS campaign whose default_language is de is built here beside the examples (whose default is en): its Roll20
script speaks German from the first start, its chat macros and its Foundry compendium macros carry German names and
texts, and the examples keep English. The behaviour at the table runs in the emulations
(tests/roll20/languages.test.mjs, tests/foundry/languages.test.mjs).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from exporter.build import build_campaigns
from exporter.cli import main
from exporter.lang import bundled_language
from tests.conformance import FOUNDRY_GENERATIONS
from tests.conftest import (
    ROOT,
    macro_notifications,
    node_file_tests,
    roll20_configuration,
    run_node_generation,
    run_node_tests,
)

GERMAN = """id = "german-gurps"
title = "Überraschung"
version = "1.0.0"
system = "gurps4e"
languages = ["en", "de", "zh-CN"]
default_language = "de"
"""
ROLL20_FILE = ROOT / "tests" / "roll20" / "languages.test.mjs"
FOUNDRY_FILE = ROOT / "tests" / "foundry" / "languages.test.mjs"
DE, EN = bundled_language("de"), bundled_language("en")


@pytest.fixture(scope="module")
def german(tmp_path_factory):
    folder = tmp_path_factory.mktemp("german")
    (folder / "campaign.toml").write_text(GERMAN, encoding="utf-8")
    build_campaigns([folder / "campaign.toml"], folder / "dist", make_zip=False)
    return folder / "dist" / "german-gurps"


@pytest.fixture(scope="module")
def roll20_run(german, examples):
    env = {"SCRIPTS_DIR": str(examples), "GERMAN_SCRIPT": str(german / "roll20" / "GermanGurps.js")}
    return run_node_tests(ROLL20_FILE, env)


test_roll20_speaks_the_language, test_roll20_speaks_the_language_file = node_file_tests(ROLL20_FILE, "roll20_run")


@pytest.fixture(scope="module", params=FOUNDRY_GENERATIONS, ids=lambda g: f"v{g}")
def foundry_run(request, examples):
    return run_node_generation(FOUNDRY_FILE, request.param, {"MODULES_DIR": str(examples)})


test_foundry_speaks_the_client_language, test_foundry_speaks_the_client_language_file = node_file_tests(
    FOUNDRY_FILE, "foundry_run")


def pack_documents(module: Path) -> list[dict]:
    """Read the compendium's macro documents from their sources"""
    folder = module / "packs" / "_source" / "surprise-macros"
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.json"))]


def test_the_compendium_macros_and_their_pack_carry_the_default_languages_names(german, examples):
    for module, strings in ((german / "foundry", DE), (examples / "ambush-gurps-example" / "foundry", EN)):
        names = sorted(document["name"] for document in pack_documents(module))
        assert names == sorted(strings[f"Macro.{key}"] for key in ("Surprise", "Clear", "Recovery"))
        manifest = json.loads((module / "module.json").read_text(encoding="utf-8"))
        assert [pack["label"] for pack in manifest["packs"]] == [strings["Pack.Macros"]]
    config = (german / "foundry" / "scripts" / "common" / "config.js").read_text(encoding="utf-8")
    assert f'"macro": "{DE["Macro.Surprise"]}"' in config and f'"pack": "{DE["Pack.Macros"]}"' in config


@pytest.mark.parametrize(("client", "expected"), [("fr", "de"), ("en", "en"), ("zh-CN", "zh-CN")])
def test_a_macro_run_without_the_module_falls_back_to_the_default_language(german, client, expected):
    documents = pack_documents(german / "foundry")
    assert documents
    for shown in macro_notifications([(document["command"], client) for document in documents]):
        assert shown == [bundled_language(expected)["Notify.ModuleInactive"]]


def test_the_roll20_script_and_its_chat_macros_speak_the_default_language(german, examples):
    assert roll20_configuration(german)["DEFAULT_LANGUAGE"] == "de"
    assert roll20_configuration(examples / "ambush-gurps-example")["DEFAULT_LANGUAGE"] == "en"
    macros = {path.stem: path.read_text(encoding="utf-8") for path in (german / "roll20" / "macros").glob("*.txt")}
    assert f"{{{{name={DE['RollMacro.Gurps.Recovery']}}}}}" in macros["surprise-recovery"]
    recovery = macros["surprise-recovery"]
    assert f"{DE['Dialog.Yes']},1" in recovery and f"{DE['Dialog.No']},0" in recovery
    readme = (german / "roll20" / "README.md").read_text(encoding="utf-8")
    assert "(`de` until you pick" in readme and DE["RollMacro.Gurps.Recovery"] in readme


def test_init_writes_the_default_language(tmp_path):
    path = tmp_path / "campaign.toml"
    assert CliRunner().invoke(main, ["init", "--system", "adnd1e", str(path)]).exit_code == 0
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["default_language"] == "en" and data["default_language"] in data["languages"]
