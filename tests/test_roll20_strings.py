"""The Roll20 script's STRINGS: its own system's strings only, every key it asks t() for, one key per line"""

from __future__ import annotations

import json
import re
from functools import cache

import pytest

from exporter.campaign import load_campaign
from exporter.definitions import Definitions, build_definitions
from exporter.rules.systems import SYSTEM_IDS
from exporter.targets.roll20 import Roll20Writer
from tests.conftest import CAMPAIGNS

STRINGS_BLOCK = re.compile(r"^  const STRINGS = \{\n(?P<body>.*?)^  \};\n", re.M | re.S)
LANGUAGE_LINE = re.compile(r'^    "(?P<language>[^"]+)": \{$')
ENTRY_LINE = re.compile(r'^      (?P<key>"(?:\\.|[^"\\])*"): (?P<text>"(?:\\.|[^"\\])*"),$')
T_CALL = re.compile(r"(?<![\w$.])t\(")
# A catalogue key in a JS string ("Dialog.Title"), or the fixed start of one built at run time (`Input.${key}`).
WHOLE_KEY = re.compile(r"""(["'`])([A-Z][A-Za-z0-9]*(?:\.[A-Za-z0-9_-]+)+)\1""")
KEY_START = re.compile(r"""["'`]([A-Z][A-Za-z0-9]*(?:\.[A-Za-z0-9_-]+)*\.)(?:\$\{|["'])""")


@cache
def built(system: str) -> tuple[Definitions, str]:
    """Render the example campaign of a system: its definitions and its Roll20 script"""
    path = next(p for p in CAMPAIGNS if load_campaign(p).system == system)
    defs = build_definitions(load_campaign(path))
    writer = Roll20Writer()
    return defs, writer.env.get_template("script.js").render(**writer.context(defs))


def strings_of(script: str) -> dict[str, dict[str, str]]:
    """Read STRINGS back from a script, checking its layout: one object per language, one key per line"""
    block = STRINGS_BLOCK.search(script)
    assert block, "no multi-line STRINGS in the script"
    strings: dict[str, dict[str, str]] = {}
    table: dict[str, str] = {}
    for line in block["body"].splitlines():
        if language := LANGUAGE_LINE.match(line):
            table = strings.setdefault(language["language"], {})
        elif entry := ENTRY_LINE.match(line):
            table[json.loads(entry["key"])] = json.loads(entry["text"])
        else:
            assert line == "    },", f"not one key per line: {line[:80]}"
    return strings


def code_of(script: str) -> str:
    """Return the script without its STRINGS"""
    return STRINGS_BLOCK.sub("", script)


def t_arguments(code: str) -> list[str]:
    """Return the argument text of every call of t(), up to its closing parenthesis"""
    out = []
    for call in T_CALL.finditer(code):
        depth, end = 1, call.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(code[end], 0)
            end += 1
        out.append(code[call.end():end - 1])
    return out


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_one_object_per_language_and_one_sorted_key_per_line(system):
    defs, script = built(system)
    strings = strings_of(script)
    assert list(strings) == list(defs.module.languages)
    for language, table in strings.items():
        assert list(table) == sorted(table)
        assert table == {key: defs.catalogue[language][key] for key in table}
        assert set(table) == set(strings["en"])


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_every_key_the_script_asks_for_is_there(system):
    defs, script = built(system)
    strings = strings_of(script)["en"]
    arguments = t_arguments(code_of(script))
    assert len(arguments) > 50
    for argument in arguments:
        for _, key in WHOLE_KEY.findall(argument):
            assert key in strings, f"t({argument[:60]}) asks for {key}"
        for start in KEY_START.findall(argument):
            assert any(key.startswith(start) for key in strings), f"t({argument[:60]}): nothing starts with {start}"
    procedures = {f"Procedure.{p}" for p in defs.procedure_ids}
    assert {key for key in strings if key.startswith("Procedure.")} == procedures
    inputs = {f"Input.{i.key}" for p in defs.procedures for i in p.inputs if i.type != "openers"}
    assert inputs <= set(strings)


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_every_key_in_the_script_is_one_it_refers_to(system):
    _, script = built(system)
    code = code_of(script)
    whole = {key for _, key in WHOLE_KEY.findall(code)}
    starts = set(KEY_START.findall(code))
    for key in strings_of(script)["en"]:
        assert key in whole or any(key.startswith(start) for start in starts), f"{key} is never used"


def test_no_script_carries_another_systems_strings():
    namespaces = {system: {key.split(".")[0] for key in strings_of(built(system)[1])["en"]} for system in SYSTEM_IDS}
    shared = set.intersection(*namespaces.values())
    own = {system: names - shared for system, names in namespaces.items()}
    assert all(len(names) == 1 for names in own.values()), own
    assert len(set.union(*own.values())) == len(SYSTEM_IDS), own
    for system in SYSTEM_IDS:
        defs, script = built(system)
        strings = strings_of(script)["en"]
        static_inputs = {key for _, key in WHOLE_KEY.findall(code_of(script)) if key.startswith("Input.")}
        inputs = {f"Input.{i.key}" for p in defs.procedures for i in p.inputs}
        assert {key for key in strings if key.startswith("Input.")} <= inputs | static_inputs


def test_the_script_carries_far_fewer_strings_than_the_catalogue():
    for system in SYSTEM_IDS:
        defs, script = built(system)
        assert len(strings_of(script)["en"]) < len(defs.catalogue["en"]) * 0.6
