"""The records (exporter/rules/records.py) accept exactly the scenarios the pydantic models accept, with their values"""

from __future__ import annotations

import copy
import json
import pickle
import tomllib
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from exporter.errors import ExportError
from exporter.rules.dice import SeededRoller
from exporter.rules import fallout_ttrpg, gurps4e
from exporter.rules.declared import Declared, bounded, declared_fields, parts_of
from exporter.rules.records import Record, Unreadable, read_scenario, record, shapes
from exporter.rules.systems import SYSTEM_IDS, system_module
from exporter.scenario import scenario_from_dict
from tests.conftest import FIXTURES, SCENARIOS, VECTORS, modules_imported

EXAMPLES = {p.stem: tomllib.loads(p.read_text(encoding="utf-8")) for p in SCENARIOS}
SEEDS = [*EXAMPLES.values(), *(json.loads(p.read_text(encoding="utf-8"))["scenario"] for p in VECTORS)]
BAD = sorted((FIXTURES / "bad" / "scenarios").glob("*.toml"))
# What `ambush odds` and `ambush simulate` leave unimported on a valid scenario file: the start-up they save.
NOT_FOR_ODDS = ("pydantic", "pydantic_core", "jinja2", "exporter.campaign", "exporter.targets", "exporter.definitions",
                "exporter.build", "exporter.rules.models", "exporter.rules.rolls")


def fields(item: Any) -> Any:
    """Return a record's or a model's fields as plain data, recursively"""
    if isinstance(item, Record):
        return {key: fields(value) for key, value in vars(item).items() if key != "model_fields_set"}
    if isinstance(item, BaseModel):
        return {key: fields(getattr(item, key)) for key in type(item).model_fields}
    if isinstance(item, list):
        return [fields(value) for value in item]
    return item


def given_keys(item: Any) -> Any:
    """Return the keys each table gave (model_fields_set), recursively"""
    if isinstance(item, (Record, BaseModel)):
        names = vars(item) if isinstance(item, Record) else type(item).model_fields
        return {"given": set(item.model_fields_set),
                **{key: given_keys(getattr(item, key)) for key in names if key != "model_fields_set"}}
    if isinstance(item, list):
        return [given_keys(value) for value in item]
    return None


def verdict(data: Any) -> tuple[str, Any]:
    """Return what the models make of scenario data: its fields, or the one-line error"""
    try:
        model = scenario_from_dict(data, "s.toml")
    except ExportError as err:
        return "refused", err.one_line()
    return "read", (fields(model), given_keys(model))


class Table(Declared):
    ratings: dict[str, int]


class Either(Declared):
    iq: int | str


class Real(Declared):
    iq: float = bounded(0, ge=0)


class BoundedFlag(Declared):
    alert: bool = bounded(False, ge=0)


@pytest.mark.parametrize("part", [Table, Either, Real, BoundedFlag], ids=lambda m: m.__name__)
def test_the_records_refuse_a_declaration_they_cannot_read(part):
    with pytest.raises(Unreadable):
        shapes(part)


def test_a_declaration_keeps_no_field_value_on_its_class():
    # Its instances hold the fields: a default left on the class would answer for a field a record lacks.
    assert not any(hasattr(gurps4e.Member, name) for name in declared_fields(gurps4e.Member))
    assert declared_fields(gurps4e.Member)["tactics"].default == 0


@pytest.mark.parametrize("data", SEEDS, ids=lambda d: f"{d['system']}-{d.get('procedure')}")
def test_every_example_and_vector_reads_as_records_with_the_values_of_its_model(data):
    scenario = read_scenario(data)
    assert scenario is not None
    assert ("read", (fields(scenario), given_keys(scenario))) == verdict(data)


@pytest.mark.parametrize("name", EXAMPLES)
def test_records_give_the_odds_and_the_plays_of_the_models(name):
    data = EXAMPLES[name]
    scenario, model = read_scenario(data), scenario_from_dict(data)
    rules = system_module(data["system"])
    assert rules.odds(scenario) == rules.odds(model)
    for seed in range(25):
        played = rules.resolve(scenario, SeededRoller(seed)).to_json()
        assert played == rules.resolve(model, SeededRoller(seed)).to_json()


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_every_bad_scenario_is_left_to_its_model_for_the_error(path):
    try:
        data = tomllib.loads(path.read_bytes().decode("utf-8-sig"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        pytest.skip("not TOML: read_toml refuses it before any model")
    assert read_scenario(data) is None
    assert verdict(data)[0] == "refused"


def test_a_record_made_by_a_procedure_is_refused_like_its_model():
    assert record(gurps4e.Member, {"name": "-", "iq": 10}).tactics == 0
    with pytest.raises(ValueError, match="blank"):
        record(fallout_ttrpg.Opener, {"name": " ", "attack_bonus": 1, "target_number": 2})


def tables(node: Any) -> Iterator[dict[str, Any]]:
    """Yield every table of scenario data, outermost first"""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from tables(value)
    elif isinstance(node, list):
        for value in node:
            yield from tables(value)


VALUES = st.one_of(
    st.integers(-3, 45), st.sampled_from([2**53 - 1, 2**53, -(2**53), 1.5, "12", True, False, None, [], {}, [{}]]),
    st.sampled_from(["", " ", "\u00a0", "x" * 200, "x" * 201, "Ava", "a", "b", "none", "partial", "total",
                     "quick-contest", "roll", "world-map", "sneak-attack", "gurps4e", "adnd1e", "fallout-ttrpg",
                     "start", "end", "side", "individual", "sr_end", "sr_turn_start"]))
KEYS = st.sampled_from(sorted({key for system in SYSTEM_IDS for part in parts_of(system_module(system).Scenario)
                               for key in declared_fields(part)} | {"iqq", "c"}))


@st.composite
def mutated_scenarios(draw: st.DrawFn) -> Any:
    """Draw an example or vector scenario with a few keys set, added, dropped, or members copied or removed"""
    data = copy.deepcopy(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 3))):
        table = draw(st.sampled_from(list(tables(data))))
        change = draw(st.sampled_from(["set", "drop", "add", "copy", "remove", "rename"]))
        lists = [v for t in tables(data) for v in t.values() if isinstance(v, list) and v]
        if change in ("set", "drop") and table:
            key = draw(st.sampled_from(sorted(table)))
            if change == "drop":
                del table[key]
            else:
                table[key] = copy.deepcopy(draw(VALUES))  # a copy: VALUES' [] and {} must not be mutated by later draws
        elif change == "add":
            table[draw(KEYS)] = copy.deepcopy(draw(VALUES))
        elif change in ("copy", "remove") and lists:
            chosen = draw(st.sampled_from(lists))
            chosen.append(copy.deepcopy(draw(st.sampled_from(chosen)))) if change == "copy" else chosen.pop()
        elif change == "rename" and "name" in table:
            table["name"] = draw(st.sampled_from(["Ava", "Bo", "a0", " ", ""]))
    return data


@settings(max_examples=400, deadline=None)
@given(mutated_scenarios())
def test_records_accept_exactly_what_the_models_accept_and_read_the_same_values(data):
    scenario, judged = read_scenario(copy.deepcopy(data)), verdict(data)
    if scenario is None:
        assert judged[0] == "refused"
    else:
        assert judged == ("read", (fields(scenario), given_keys(scenario)))


def modules_after(*commands: list[str]) -> set[str]:
    """Run ambush commands in one fresh interpreter; return every module imported by then"""
    return modules_imported("from exporter.cli import main\n"
                            f"for args in {commands!r}:\n"
                            "    try:\n        main(args)\n    except SystemExit as done:\n"
                            "        assert done.code == 0, args")


@pytest.mark.parametrize("command", ["odds", "simulate"])
def test_odds_and_simulate_of_the_examples_import_neither_pydantic_nor_jinja_nor_the_builders(command):
    runs = [[command, str(path), *extra] for path in SCENARIOS for extra in ([], ["--json"])]
    imported = modules_after(*runs)
    assert not sorted(m for m in imported if m.startswith(NOT_FOR_ODDS))


def test_a_model_of_a_declared_part_survives_pickling_as_a_build_worker_gets_it():
    data = EXAMPLES["gurps-partial"]
    scenario = scenario_from_dict({**data, "options": {"stun_roll_timing": "end"}})
    copied = pickle.loads(pickle.dumps(scenario))
    assert type(copied) is type(scenario) and copied == scenario
    assert copied.options.model_fields_set == {"stun_roll_timing"}
