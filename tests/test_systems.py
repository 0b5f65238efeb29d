"""The systems registry: every registered system provides the declared interface and everything a target needs"""

from __future__ import annotations

import inspect
import re
from typing import get_args
import tomllib

import pytest

from exporter._resources import templates_root
from exporter.definitions.macros import MACRO_LABELS, macro_defs
from exporter.definitions.statuses import STATUS_LABELS
from exporter.lang import bundled_language
from exporter.rules.protocol import RulesSystem
from exporter.rules.systems import SYSTEM_IDS, SYSTEMS, narration_module, system_module
from exporter.targets.foundry.packs import MACRO_CALLS, MACRO_ICONS
from exporter.targets.foundry.statuses import STATUS_ICONS, STATUS_REUSE
from exporter.targets.modules import module_source, system_entry_path
from exporter.targets.roll20.markers import STATUS_MARKERS
from exporter.rules.models import model_of
from tests.conftest import CAMPAIGNS, modules_imported

LEVELS = ("scenario", "side", "member")
WHO_GIVES = {"", "a", "b", "ab", "surprising", "watching"}
ENGLISH = bundled_language("en")


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_every_registered_module_provides_the_rules_interface(system):
    rules = system_module(system)
    assert isinstance(rules, RulesSystem)
    assert rules.SYSTEM == system
    assert rules.PROCEDURES and all(isinstance(p, str) for p in rules.PROCEDURES)
    assert isinstance(rules.UNIT, str) and isinstance(rules.CONSTANTS, dict)
    assert model_of(rules.Options)().model_dump()  # every house rule has a default
    assert callable(rules.Scenario.side)
    assert len(inspect.signature(rules.resolve).parameters) == 2
    assert len(inspect.signature(rules.odds).parameters) == 1
    assert callable(narration_module(system).narrate)


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_the_inputs_of_every_procedure_are_fields_of_the_rules_models(system):
    rules = system_module(system)
    models = {"scenario": model_of(rules.Scenario), "side": model_of(rules.Side), "member": model_of(rules.Member)}
    assert list(rules.INPUTS) == list(rules.PROCEDURES)
    for levels in rules.INPUTS.values():
        assert set(levels) <= set(LEVELS)
        for level, entries in levels.items():
            for key, required, *gates in entries:
                assert key in models[level].model_fields, f"{level}.{key}"
                assert required in WHO_GIVES
                for gate in gates:  # an option that is on, or one with a value: "rules=2024"
                    option, _, value = gate.partition("=")
                    assert option in model_of(rules.Options).model_fields, f"{key} is read only with {gate}"
                    if value:
                        assert value in get_args(model_of(rules.Options).model_fields[option].annotation), gate


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_every_procedure_status_and_macro_has_its_strings(system):
    rules = system_module(system)
    for procedure in rules.PROCEDURES:
        assert f"Procedure.{procedure}" in ENGLISH
    for status in rules.STATUSES:
        assert STATUS_LABELS[status] in ENGLISH
    for macro in macro_defs(rules.GM_ROLLS):
        assert MACRO_LABELS[macro.id] == macro.label and macro.label in ENGLISH


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_every_target_knows_how_to_show_the_statuses_and_macros(system):
    rules = system_module(system)
    api = (templates_root() / "foundry" / "api.js").read_text(encoding="utf-8")
    for status in rules.STATUSES:
        assert STATUS_ICONS[status] and STATUS_REUSE[status] and STATUS_MARKERS[status]
    for macro in macro_defs(rules.GM_ROLLS):
        assert MACRO_ICONS[macro.id]
        assert re.search(rf"^\s+{MACRO_CALLS[macro.id]}:", api, re.M), f"api.js has no {MACRO_CALLS[macro.id]}"


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_every_system_has_its_templates(system):
    common = templates_root() / "common"
    for part in ("rules", "runtime"):
        assert (common / part / f"{system}.js").is_file(), f"{part}/{system}.js"
    exported = (common / "rules" / f"{system}.js").read_text(encoding="utf-8").partition("\nexport {\n")[2]
    assert "  odds,\n" in exported, "its exact odds are not among its rules module's exports"
    # its entry is written by the build, the same for every system but its id
    assert not (common / "systems" / f"{system}.js").exists()
    assert f'provideSystem("{system}", ' in module_source(templates_root(), system_entry_path(system))


def test_the_registry_names_each_module_once():
    assert len({entry.rules for entry in SYSTEMS.values()}) == len(SYSTEMS)
    assert len({entry.narration for entry in SYSTEMS.values()}) == len(SYSTEMS)


def system_modules(system: str) -> set[str]:
    """Name the modules of one system: its rules (with its scenario's parts and roll procedures) and narration"""
    entry = SYSTEMS[system]
    return {entry.rules, entry.narration}


@pytest.mark.parametrize("path", CAMPAIGNS, ids=lambda p: p.stem)
def test_the_definitions_of_a_campaign_import_no_other_system(path):
    system = tomllib.loads(path.read_text(encoding="utf-8"))["system"]
    imported = modules_imported("from pathlib import Path\nfrom exporter.campaign import load_campaign\n"
                                "from exporter.definitions import build_definitions\n"
                                f"build_definitions(load_campaign(Path({str(path)!r})))")
    assert SYSTEMS[system].rules in imported
    assert not sorted(imported & set().union(*(system_modules(other) for other in SYSTEM_IDS if other != system)))
