"""The Python rules core against every conformance vector in fixtures/vectors"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from exporter.rules.dice import ScriptedRoller
from exporter.rules.systems import SYSTEM_IDS, system_module
from exporter.scenario import scenario_from_dict
from tests.conftest import VECTORS

VECTOR_KEYS = ["name", "description", "rules", "scenario", "dice", "expected"]


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector(path):
    vector = load(path)
    scenario = scenario_from_dict(vector["scenario"], path)
    roller = ScriptedRoller(vector["dice"])
    outcome = system_module(scenario.system).resolve(scenario, roller)
    assert outcome.to_json() == vector["expected"]
    assert roller.remaining == 0, f"{roller.remaining} scripted faces were never rolled"


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector_format(path):
    vector = load(path)
    assert list(vector) == VECTOR_KEYS
    assert vector["name"] == path.stem
    assert all(isinstance(face, int) and not isinstance(face, bool) for face in vector["dice"])


def test_vectors_cover_every_system():
    systems = Counter(load(p)["scenario"]["system"] for p in VECTORS)
    assert len(VECTORS) >= 30
    assert set(systems) == set(SYSTEM_IDS)
    assert min(systems.values()) >= 8
