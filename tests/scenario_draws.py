"""Generated scenarios for the tests that compare the JS and the Python cores: one generator for every system

Hypothesis draws rules options from each system's Options model, scenarios of every procedure as the system's own tests
say (tests/rules/test_<module>.py: drawn_scenarios) kept to the fields it reads (tests/procedure_fields.py), awkward
member names and die faces; the Python core's play-out of a scenario is
the expected outcome of a temporary conformance vector. Used by tests/test_differential.py, tests/test_js_rules.py
and tests/test_js_odds.py. AMBUSH_DIFF_SEED draws another batch than the fixed default one.
"""

from __future__ import annotations

import os
from importlib import import_module
from types import ModuleType
from typing import Any, Literal, get_args, get_origin

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from exporter.rules.dice import ScriptedRoller
from exporter.rules.systems import SYSTEMS, system_module
from exporter.scenario import scenario_from_dict
from exporter.rules.models import model_of
from tests.procedure_fields import applicable

SEED = int(os.environ.get("AMBUSH_DIFF_SEED", "0"))
EDGE_FACES = 6  # drawn first, freely: Hypothesis likes extreme faces
MAX_DRAWN_FACES = 45  # at most 15 failed 3d6 recovery rolls: a GURPS stun ends well inside the runners' rounds
PAD_FACE = 1  # after the drawn faces: 3d6 = 3 recovers whenever a roll can be attempted

# Names that are also JS property names, look like numbers or keywords, or carry quotes and spaces.
AWKWARD_NAMES = (
    "constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "prototype", "length", "then",
    "0", "12", "-1", "NaN", "null", "undefined", "true", "a", "b", "none",
    "Jean Luc", "Émile  Zola", "Zoë", "李 小龙", "Ωmega-7", "😲 Boo", "O'Neil", 'Say "hi"', "Tom & Jerry",
    "back\\slash",
)
visible_text = (st.text(st.characters(categories=("L", "M", "N", "P", "S", "Zs")), min_size=1, max_size=16)
                .map(str.strip).filter(bool))
member_name = st.one_of(st.sampled_from(AWKWARD_NAMES), visible_text)


def maybe(strategy: st.SearchStrategy) -> st.SearchStrategy:
    """Draw a value or None, None meaning that the key is left out"""
    return st.one_of(st.none(), strategy)


def put(target: dict, **values: Any) -> dict:
    """Set the keys whose value is not None"""
    target.update({key: value for key, value in values.items() if value is not None})
    return target


# --- options --------------------------------------------------------------------------------------


def non_default(options: dict, system: str) -> dict:
    """Keep the options that differ from the defaults, as the vectors write them"""
    defaults = model_of(system_module(system).Options)().model_dump()
    return {key: value for key, value in options.items() if value != defaults[key]}


# How far above its lowest value a whole-number option is drawn, besides its default
INT_OPTION_SPREAD = 11


def option_values(system: str) -> dict[str, st.SearchStrategy]:
    """Return each rules option of a system (its Options model) and what to draw for it: every choice it allows"""
    values = {}
    for name, field in model_of(system_module(system).Options).model_fields.items():
        kind = field.annotation
        if get_origin(kind) is Literal:
            values[name] = st.sampled_from(list(get_args(kind)))
        elif kind is bool:
            values[name] = st.booleans()
        elif kind is int:
            low = next(bound.ge for bound in field.metadata if hasattr(bound, "ge"))
            values[name] = st.one_of(st.just(field.default), st.integers(low, low + INT_OPTION_SPREAD))
        else:
            raise TypeError(f"{system} option {name}: no values to draw for {kind}")
    return values


@st.composite
def option_sets(draw, system: str) -> dict:
    """Draw the rules options of a system, those that differ from the defaults"""
    return non_default({name: draw(values) for name, values in option_values(system).items()}, system)


# --- scenarios ------------------------------------------------------------------------------------


@st.composite
def side_names(draw) -> tuple[list[str], list[str]]:
    """Draw the member names of both sides, unique across the two"""
    count_a, count_b = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    names = draw(st.lists(member_name, min_size=count_a + count_b, max_size=count_a + count_b, unique=True))
    return names[:count_a], names[count_a:]


def system_draws(system: str) -> ModuleType:
    """Return the tests of a rules system (tests/rules/test_<module>.py), which say how its scenarios are drawn:
    drawn_scenarios(procedure, options), a strategy, and DIE_FACES, the faces of the die its dice are"""
    return import_module(f"tests.rules.test_{SYSTEMS[system].module}")


def scenarios(system: str, procedure: str, options: dict) -> st.SearchStrategy:
    """Return the strategy that draws a system's scenarios of a procedure under a set of rules options"""
    return system_draws(system).drawn_scenarios(procedure, options)


@st.composite
def any_case(draw, system: str) -> tuple[dict, list[int]]:
    """Draw one scenario of any procedure under any rules options, and die faces for it"""
    procedure = draw(st.sampled_from(system_module(system).PROCEDURES))
    return draw(cases(system, procedure, draw(option_sets(system))))


@st.composite
def cases(draw, system: str, procedure: str, options: dict) -> tuple[dict, list[int]]:
    """Draw one scenario of a procedure under a set of rules options, and die faces for it"""
    scenario = applicable(draw(scenarios(system, procedure, options)))
    if options:
        scenario["options"] = options
    die = system_draws(system).DIE_FACES
    edge = draw(st.lists(st.integers(1, die), max_size=EDGE_FACES))
    faces = draw(st.randoms(use_true_random=False))  # fair faces after them, so that stuns and contests vary
    return scenario, edge + [faces.randint(1, die) for _ in range(MAX_DRAWN_FACES - len(edge))]


def collect(strategy: st.SearchStrategy, count: int, salt: int) -> list:
    """Draw count examples of a strategy with Hypothesis, the same ones for the same seed and salt"""
    found: list = []

    # Collecting, not testing: nothing to shrink or replay, and big or slow examples are the point.
    @seed(SEED * 1000 + salt)
    @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def draw(example):
        found.append(example)

    draw()
    return found


def vector_for(name: str, scenario: dict, faces: list[int], maker: str) -> dict:
    """Play a scenario in the Python core and return the vector: the faces it used and its outcome"""
    model = scenario_from_dict(scenario, name)  # a generator bug, not a finding, when this refuses
    roller = ScriptedRoller(faces + [PAD_FACE] * 400)
    outcome = system_module(scenario["system"]).resolve(model, roller)
    return {"name": name, "description": f"Generated by {maker}; expected from the Python core",
            "rules": [], "scenario": scenario, "dice": roller.faces[:roller.used], "expected": outcome.to_json()}
