"""The strings a build carries: each module declares the keys it shows, the build ships exactly those

The Roll20 script's STRINGS and the Foundry module's lang files hold the keys their modules declare (STRING_KEYS),
placeholders filled for the build; here the declarations are checked against what the code asks t() for.
"""

from __future__ import annotations

import dataclasses
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from exporter._resources import templates_root
from exporter.campaign import load_campaign
from exporter.definitions import Definitions, build_definitions
import exporter.lang as lang_package
from exporter.lang import flatten
from exporter.rules.systems import SYSTEM_IDS
from exporter.targets.foundry.writer import FoundryWriter
from exporter.targets.modules import read_module
from exporter.targets.roll20.writer import Roll20Writer
from exporter.targets.strings import StringsError, build_keys, declared_keys
from tests.conftest import CAMPAIGNS, roll20_configuration, roll20_configurations

TEMPLATES = templates_root()
MODULES = sorted(path.relative_to(TEMPLATES).as_posix() for folder in ("common", "foundry", "roll20")
                 for path in (TEMPLATES / folder).rglob("*.js") if path.name != "config.js")
# A catalogue key in a JS string ("Dialog.Title"), or the fixed start of one built at run time (`Input.${key}`).
WHOLE_KEY = re.compile(r"""(["'`])([A-Z][A-Za-z0-9]*(?:\.[A-Za-z0-9_-]+)+)\1""")
KEY_START = re.compile(r"""["'`]([A-Z][A-Za-z0-9]*(?:\.[A-Za-z0-9_-]+)*\.)(?:\$\{|["'])""")
DECLARATION = re.compile(r"^(?:export )?const STRING_KEYS = \[[^\]]*\];$", re.M | re.S)


def system_namespace(system: str) -> str:
    """Return the one key namespace a system's runtime declares whole ("Gurps.*" in common/runtime/gurps4e.js)"""
    path = f"common/runtime/{system}.js"
    whole = [key.removesuffix(".*") for key in declared_keys(read_module(path, (TEMPLATES / path).read_text(
        encoding="utf-8"))) if key.endswith(".*")]
    assert len(whole) == 1, f"{path} declares {whole} whole: one namespace of its own expected"
    return whole[0]


SYSTEM_NAMESPACES = {system: system_namespace(system) for system in SYSTEM_IDS}


@cache
def definitions(system: str) -> Definitions:
    """Return the definitions of a system's example campaign"""
    return build_definitions(load_campaign(next(p for p in CAMPAIGNS if load_campaign(p).system == system)))


@pytest.fixture(scope="module")
def shipped(examples) -> dict[str, dict[str, dict[str, dict[str, str]]]]:
    """Return, per system, what each target of its example ships: Roll20 STRINGS and Foundry lang files by language"""
    out = {}
    roll20_configurations([examples / load_campaign(path).id for path in CAMPAIGNS])  # one Node process for all
    for path in CAMPAIGNS:
        campaign = load_campaign(path)
        folder = examples / campaign.id
        lang = {language: flatten(json.loads((folder / "foundry" / "lang" / f"{language}.json").read_text(
            encoding="utf-8"))[campaign.id]) for language in campaign.languages}
        assert sorted(file.stem for file in (folder / "foundry" / "lang").glob("*.json")) == sorted(lang)
        out[campaign.system] = {"roll20": roll20_configuration(folder)["STRINGS"], "foundry": lang}
    return out


def code_of(path: str) -> str:
    """Return a module's code without its declaration"""
    return DECLARATION.sub("", (TEMPLATES / path).read_text(encoding="utf-8"))


def as_pattern(declared: str) -> re.Pattern[str]:
    """Match the keys a declared key stands for in any build: a placeholder or a namespace's * stands for any part"""
    escaped = re.escape(declared).replace(r"\*", r"[A-Za-z0-9_.-]+")
    return re.compile(re.sub(r"\\\{\w+\\\}", r"[A-Za-z0-9_-]+", escaped) + r"\Z")


def covered(key: str, declared: list[str]) -> bool:
    """Tell whether a key, or a key's fixed start (ending in a dot), falls under a module's declaration"""
    if key.endswith("."):
        return any(item.startswith(key) or key.startswith(re.split(r"[{*]", item)[0]) for item in declared)
    return any(as_pattern(item).match(key) for item in declared)


@pytest.mark.parametrize("path", MODULES)
def test_every_key_a_module_shows_is_declared(path):
    code = code_of(path)
    declared = declared_keys(read_module(path, (TEMPLATES / path).read_text(encoding="utf-8")))
    used = {key for _, key in WHOLE_KEY.findall(code) if not key.endswith(".js")} | set(KEY_START.findall(code))
    undeclared = sorted(key for key in used if not covered(key, declared))
    assert not undeclared, f"{path} shows {undeclared} without declaring them"
    for item in declared:  # and declares nothing it does not show
        if item.startswith("{"):
            continue  # a whole key the build's data names (a status's label), which the code shows as data
        prefix = re.split(r"[{*]", item)[0]
        shown = any(key.startswith(prefix) or prefix.startswith(key) for key in used)
        assert shown, f"{path} declares {item} needlessly"


def test_a_module_declaring_an_unknown_key_stops_the_build():
    defs = build_definitions(load_campaign(CAMPAIGNS[0]))
    [module] = [m for m in Roll20Writer().modules(defs) if m.path == "common/session.js"]
    broken = type(module)(module.path, module.text.replace('"Chat.ForGM"', '"Chat.NoSuchKey"'), (), ())
    with pytest.raises(StringsError, match=r"templates/common/session\.js declares 'Chat\.NoSuchKey'"):
        build_keys(defs, [broken])


@pytest.mark.parametrize("system", SYSTEM_IDS)
@pytest.mark.parametrize("target", ["roll20", "foundry"])
def test_one_table_per_language_with_the_campaigns_texts(shipped, system, target):
    defs = definitions(system)
    strings = shipped[system][target]
    assert list(strings) == list(defs.module.languages)
    for language, table in strings.items():
        assert table == {key: defs.catalogue[language][key] for key in table}
        assert set(table) == set(strings["en"])


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_each_target_carries_what_its_modules_declare(shipped, system):
    defs = definitions(system)
    roll20 = build_keys(defs, Roll20Writer().modules(defs))
    foundry = build_keys(defs, FoundryWriter().modules(defs))
    assert sorted(shipped[system]["roll20"]["en"]) == roll20
    assert sorted(shipped[system]["foundry"]["en"]) == foundry
    assert {f"Procedure.{p}" for p in defs.procedure_ids} <= set(roll20) & set(foundry)
    assert {f"Input.{i.key}" for p in defs.procedures for i in p.inputs if i.type != "openers"} <= set(roll20)
    assert {status.label for status in defs.statuses} <= set(foundry)


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_no_target_carries_another_systems_or_targets_strings(shipped, system):
    for target, strings in shipped[system].items():
        keys = set(strings["en"])
        namespaces = {key.split(".")[0] for key in keys}
        others = set(SYSTEM_NAMESPACES.values()) - {SYSTEM_NAMESPACES[system]}
        assert not namespaces & others, f"{target} of {system} carries {namespaces & others}"
        assert SYSTEM_NAMESPACES[system] in namespaces
        procedures = {key for key in keys if key.startswith("Procedure.")}
        assert procedures == {f"Procedure.{p}" for p in definitions(system).procedure_ids}
    foundry, roll20 = set(shipped[system]["foundry"]["en"]), set(shipped[system]["roll20"]["en"])
    assert not {key for key in foundry if key.startswith(("Roll20.", "RollMacro.", "Macro."))}
    assert not {key for key in roll20 if key.startswith(("Settings.automation", "Dialog.TrackerButton", "Macro."))}


def test_each_target_carries_far_fewer_strings_than_the_catalogue(shipped):
    for system in SYSTEM_IDS:
        catalogue = definitions(system).catalogue["en"]
        for strings in shipped[system].values():
            assert len(strings["en"]) < len(catalogue) * 0.6


def own_file_keys(system: str) -> set[str]:
    """Return the keys of a system's own strings file (exporter/lang/systems/<id>.json), in English"""
    path = Path(lang_package.__file__).parent / "systems" / f"{system}.json"
    return set(flatten(json.loads(path.read_text(encoding="utf-8"))["en"]))


def keys_used_by(system: str, carried: set[str]) -> set[str]:
    """Return the keys a system's outputs show: those its targets carry, its macros' labels and its roll procedures'"""
    defs = definitions(system)
    return carried | {macro.label for macro in defs.macros} | {key for procedure in defs.rolls
                                                                for key in catalogue_keys(procedure)}


def catalogue_keys(item: Any) -> set[str]:
    """Return every catalogue key a roll procedure names: its title, its rows' labels and texts, its prompts' and
    choices' labels (exporter/rules/rolls.py), as the strings a walk of its data finds"""
    if isinstance(item, str):
        return {item} if WHOLE_KEY.fullmatch(f'"{item}"') else set()
    if isinstance(item, tuple | list):
        return set().union(*map(catalogue_keys, item))
    if dataclasses.is_dataclass(item):
        return set().union(*(catalogue_keys(getattr(item, f.name)) for f in dataclasses.fields(item)))
    return set()


def test_a_systems_own_strings_live_in_its_file_and_only_there(shipped):
    used = {system: keys_used_by(system, set(shipped[system]["roll20"]["en"]) | set(shipped[system]["foundry"]["en"]))
            for system in SYSTEM_IDS}
    general = set(flatten(json.loads((Path(lang_package.__file__).parent / "en.json").read_text(encoding="utf-8"))))
    for system in SYSTEM_IDS:
        by_others = set().union(*(used[other] for other in SYSTEM_IDS if other != system))
        own = own_file_keys(system)
        assert own, f"{system} has no strings of its own"
        assert not own & by_others, f"{system}'s file holds keys other systems show: {sorted(own & by_others)}"
        assert not (used[system] - by_others) & general, (
            f"keys only {system} shows are in the general files: {sorted((used[system] - by_others) & general)}")
        for language in ("de", "zh-CN"):  # every language gives a system's strings in the same file
            path = Path(lang_package.__file__).parent / "systems" / f"{system}.json"
            assert set(flatten(json.loads(path.read_text(encoding="utf-8"))[language])) == own
