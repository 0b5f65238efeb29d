"""System knowledge stays with its system: the rules modules declare their inputs' kinds, who must give an input once a
house rule is on and what a prompt offers first; the neutral definitions and the Roll20 templates only read that"""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest

from exporter._resources import templates_root
from exporter.definitions import procedure_defs
from exporter.rules import fallout_ttrpg, gurps4e
from exporter.rules.shared import input_entries
from exporter.rules.systems import SYSTEM_IDS, system_module
from exporter.targets.config_js import procedures_data
from exporter.rules.models import model_of

DEFINITIONS = Path(__file__).resolve().parents[1] / "exporter" / "definitions"


def system_words() -> set[str]:
    """Name every input and every house rule of every system: what neutral code must not spell out"""
    words: set[str] = set()
    for system in SYSTEM_IDS:
        rules = system_module(system)
        words |= {e.key for levels in rules.INPUTS.values() for e in input_entries(levels)}
        words |= set(model_of(rules.Options).model_fields)
    return words - KINDS  # a kind is the definitions' own word, whatever an input of that kind is named


KINDS = {"member", "side", "openers"}  # the kinds an input may be besides a plain value (common/draft.js reads them)


def string_constants(path: Path) -> set[str]:
    """Return the string literals of a Python file that are no docstrings"""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings}


@pytest.mark.parametrize("path", sorted(DEFINITIONS.glob("*.py")), ids=lambda p: p.name)
def test_the_neutral_definitions_name_no_input_or_house_rule_of_a_system(path):
    assert not sorted(string_constants(path) & system_words())


def kinds(system: str, options: dict | None = None) -> dict[str, str]:
    """Return the kind the definitions give each input of a system, over all its procedures"""
    return {i.key: i.type for p in procedure_defs(system, options or {}) for i in p.inputs}


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_every_input_kind_a_rules_module_declares_reaches_the_definitions(system):
    declared = system_module(system).INPUT_KINDS
    found = kinds(system)
    assert {key: found[key] for key in declared} == declared
    assert set(declared.values()) <= KINDS
    assert {kind for key, kind in found.items() if key not in declared} <= {"boolean", "number", "string"}


def test_the_definitions_read_the_kinds_from_the_rules_module_not_from_the_key(monkeypatch):
    assert kinds("gurps4e")["leader"] == "member"
    monkeypatch.setattr(gurps4e, "INPUT_KINDS", {"surprising": "side"})
    assert kinds("gurps4e")["leader"] == "string"  # the name of the leader, were he no member reference


def who_gives(options: dict) -> dict[str, str]:
    """Return who must give each input of Fallout's World Map spot check"""
    world_map = next(p for p in procedure_defs("fallout-ttrpg", options) if p.id == "world-map")
    return {i.key: i.required for i in world_map.inputs}


def test_who_must_give_an_input_under_a_house_rule_is_the_rules_module_s_declaration(monkeypatch):
    assert (who_gives({})["per"], who_gives({"enemy_spot_roll": True})["per"]) == ("a", "ab")
    monkeypatch.setattr(fallout_ttrpg, "REQUIRED_WITH_OPTION", {"enemy_spot_roll": {"survival": "ab"}})
    assert (who_gives({"enemy_spot_roll": True})["per"], who_gives({"enemy_spot_roll": True})["survival"]) == ("a", "ab")


def opener_prefills(system: str) -> dict[str, object]:
    """Return what config.js's PROCEDURES offers first for each field of an opening attack"""
    data = procedures_data(SimpleNamespace(procedures=procedure_defs(system, {})))  # type: ignore[arg-type]
    return {field["key"]: field.get("prefill") for p in data for i in p["inputs"] if i["type"] == "openers"
            for field in i["fields"]}


def test_the_opener_prefills_reach_the_table_through_the_config_only(monkeypatch):
    assert opener_prefills("fallout-ttrpg") == {"name": None, "attack_bonus": 0, "target_number": 15}
    monkeypatch.setattr(fallout_ttrpg, "INPUT_PREFILLS", {"target_number": 11})
    assert opener_prefills("fallout-ttrpg")["target_number"] == 11
    draft = (templates_root() / "roll20" / "draft-card.js").read_text(encoding="utf-8")
    assert "target_number" not in draft and "attack_bonus" not in draft
