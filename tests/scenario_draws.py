"""Generated scenarios for the tests that compare the JS and the Python cores: one generator for every system

Hypothesis draws rules options from each system's Options model, scenarios of every procedure kept to the fields it
reads (tests/procedure_fields.py), awkward member names and die faces; the Python core's play-out of a scenario is
the expected outcome of a temporary conformance vector. Used by tests/test_differential.py, tests/test_js_rules.py
and tests/test_js_odds.py. AMBUSH_DIFF_SEED draws another batch than the fixed default one.
"""

from __future__ import annotations

import os
from typing import Any, Literal, get_args, get_origin

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from exporter.rules import gurps4e
from exporter.rules.dice import ScriptedRoller
from exporter.rules.systems import system_module
from exporter.scenario import scenario_from_dict
from tests.procedure_fields import applicable

SEED = int(os.environ.get("AMBUSH_DIFF_SEED", "0"))
EDGE_FACES = 6  # drawn first, freely: Hypothesis likes extreme faces
MAX_DRAWN_FACES = 45  # at most 15 failed 3d6 recovery rolls: a GURPS stun ends well inside the runners' rounds
PAD_FACE = 1  # after the drawn faces: 3d6 = 3 recovers whenever a roll can be attempted
DIE = {"gurps4e": 6, "adnd1e": 6, "fallout-ttrpg": 20}

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
    defaults = system_module(system).Options().model_dump()
    return {key: value for key, value in options.items() if value != defaults[key]}


# How far above its lowest value a whole-number option is drawn, besides its default
INT_OPTION_SPREAD = 11


def option_values(system: str) -> dict[str, st.SearchStrategy]:
    """Return each rules option of a system (its Options model) and what to draw for it: every choice it allows"""
    values = {}
    for name, field in system_module(system).Options.model_fields.items():
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


@st.composite
def gurps_scenarios(draw, procedure: str, options: dict) -> dict:
    """Draw a GURPS scenario: partial, total or quick-contest"""
    skill = st.one_of(st.integers(6, 18), st.integers(1, 40))
    # the sneak must beat every watcher: a skilled sneak and dull watchers make that common enough
    stealth, per = st.one_of(st.integers(12, 20), skill), st.one_of(st.integers(3, 10), skill)
    sides = {}
    for key, names in zip("ab", draw(side_names()), strict=True):
        members = []
        for name in names:
            contest_skill = {"a": "stealth", "b": "per"}[key] if procedure == "quick-contest" else None
            members.append(put(
                {"name": name, "iq": draw(st.one_of(st.integers(1, 18), st.integers(1, 40)))},
                combat_reflexes=draw(maybe(st.booleans())),
                tactics=draw(maybe(st.one_of(st.sampled_from([0, 1, 19, 20]), st.integers(0, 40)))),
                stealth=draw(stealth) if contest_skill == "stealth" else draw(maybe(skill)),
                per=draw(per) if contest_skill == "per" else draw(maybe(skill)),
            ))
        sides[key] = put({}, name=draw(maybe(member_name)), leader=draw(maybe(st.sampled_from(names))),
                         animals=draw(maybe(st.booleans())),
                         gm_modifier=draw(maybe(st.one_of(st.integers(-3, 3), st.integers(-20, 20)))),
                         expecting_trouble=draw(maybe(st.booleans())))
        sides[key]["members"] = members
    # Who surprises, drawn last so that the draws before it stay as they were; side b surprising takes the sides
    # drawn for a and b the other way round, for the quick contest's sneaks (stealth) are the surprising side.
    surprising = draw(maybe(st.sampled_from(["a", "b"]))) if procedure in gurps4e.SURPRISING_PROCEDURES else None
    if surprising == "b":
        sides = {"a": sides["b"], "b": sides["a"]}
    return put({"system": "gurps4e", "procedure": procedure}, surprising=surprising) | {"sides": sides}


@st.composite
def adnd_scenarios(draw, procedure: str, options: dict) -> dict:
    """Draw an AD&D scenario; member ratings and encumbrance only where their option allows them"""
    sides = {}
    for key, names in zip("ab", draw(side_names()), strict=True):
        members = []
        for name in names:
            source = draw(st.sampled_from(["none", "dex", "adjustment"]))
            member = put({"name": name},
                         dex=draw(st.integers(3, 18)) if source == "dex" else None,
                         surprise_adjustment=draw(st.integers(-5, 5)) if source == "adjustment" else None)
            if options.get("dex_encumbrance_gate"):
                put(member, encumbered=draw(maybe(st.booleans())))
            if options.get("side_best_rating"):
                put(member, surprised_on=draw(maybe(st.integers(0, 6))), surprises_on=draw(maybe(st.integers(1, 6))))
            members.append(member)
        sides[key] = put({}, name=draw(maybe(member_name)), surprised_on=draw(maybe(st.integers(0, 6))),
                         surprises_on=draw(maybe(st.integers(1, 6))), aware=draw(maybe(st.booleans())))
        sides[key]["members"] = members
    return {"system": "adnd1e", "procedure": procedure, "sides": sides}


@st.composite
def fallout_scenarios(draw, procedure: str, options: dict) -> dict:
    """Draw a Fallout scenario: a World Map check or opening Sneak Attacks, lone or declared openers"""
    rolling = {"a", "b"} if options.get("enemy_spot_roll") else {"a"}
    names_a, names_b = draw(side_names())
    sides = {}
    for key, names in (("a", names_a), ("b", names_b)):
        members = []
        for name in names:
            needs_test = procedure == "world-map" and key in rolling
            per, survival = st.integers(1, 10), st.integers(0, 20)
            members.append(put(
                {"name": name},
                per=draw(per) if needs_test else draw(maybe(per)),
                survival=draw(survival) if needs_test else draw(maybe(survival)),
                cautious_nature=draw(maybe(st.booleans())), asleep=draw(maybe(st.booleans())),
                sequence=draw(maybe(st.one_of(st.integers(0, 4), st.integers(-5, 20)))),
            ))
        sides[key] = put({}, name=draw(maybe(member_name)))
        sides[key]["members"] = members
    scenario: dict[str, Any] = {"system": "fallout-ttrpg", "procedure": procedure}
    bonus, number = st.integers(-5, 15), st.integers(1, 30)
    if procedure == "world-map":
        put(scenario, dc=draw(st.integers(0, 30)), hunting=draw(maybe(st.booleans())))
    elif draw(st.booleans()):
        scenario.update(attacker=draw(st.sampled_from(names_a)), attack_bonus=draw(bonus), target_number=draw(number))
    else:
        openers = draw(st.lists(st.sampled_from(names_a + names_b), min_size=1, max_size=4, unique=True))
        scenario["openers"] = [{"name": name, "attack_bonus": draw(bonus), "target_number": draw(number)}
                               for name in openers]
    scenario["sides"] = sides
    return scenario


SCENARIOS = {"gurps4e": gurps_scenarios, "adnd1e": adnd_scenarios, "fallout-ttrpg": fallout_scenarios}


@st.composite
def any_case(draw, system: str) -> tuple[dict, list[int]]:
    """Draw one scenario of any procedure under any rules options, and die faces for it"""
    procedure = draw(st.sampled_from(system_module(system).PROCEDURES))
    return draw(cases(system, procedure, draw(option_sets(system))))


@st.composite
def cases(draw, system: str, procedure: str, options: dict) -> tuple[dict, list[int]]:
    """Draw one scenario of a procedure under a set of rules options, and die faces for it"""
    scenario = applicable(draw(SCENARIOS[system](procedure, options)))
    if options:
        scenario["options"] = options
    edge = draw(st.lists(st.integers(1, DIE[system]), max_size=EDGE_FACES))
    faces = draw(st.randoms(use_true_random=False))  # fair faces after them, so that stuns and contests vary
    return scenario, edge + [faces.randint(1, DIE[system]) for _ in range(MAX_DRAWN_FACES - len(edge))]


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
