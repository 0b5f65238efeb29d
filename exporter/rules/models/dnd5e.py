"""The pydantic models of a D&D 5e scenario file and its house rules; the procedures: dnd5e.py"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from exporter.limits import MEMBERS_A_SIDE
from exporter.rules.dnd5e import ScenarioMethods, SidesMethods
from exporter.rules.models import Name, RulesModel, option

# A d20 bonus or a passive score a GM types: far beyond any creature's, small enough to read at a glance.
Bonus = Annotated[int, Field(ge=-30, le=60)]


class Options(RulesModel):
    """The configurable readings of docs/rules/dnd5e.md#readings"""

    rules: Literal["2014", "2024"] = option(
        "2014", "Which rules surprise follows: the 2014 rules (SRD 5.1) or the 2024 rules (SRD 5.2)",
        "D12", "SRD 5.1 Combat, \"Surprise\"; SRD 5.2 Combat, \"Initiative\" (\"Surprise\")",
        {"2014": "a surprised creature cannot move or act on its first turn, nor react until that turn ends",
         "2024": "a surprised creature rolls Initiative with Disadvantage and loses no turn"})
    surprise_by: Literal["stealth", "gm"] = option(
        "stealth", "Who decides who is surprised: the Stealth checks against passive Perception, or the GM",
        "D8", "SRD 5.1: \"The GM determines who might be surprised\"; SRD 5.2: a combatant \"surprised by combat "
              "starting\"",
        {"stealth": "each hider's Stealth check against each watcher's passive Perception",
         "gm": "the GM marks who is surprised (the member field gm_surprised)"})
    ties: Literal["hider", "watcher"] = option(
        "hider", "Who a Stealth total equal to a passive Perception favours",
        "D4", "SRD 5.1 \"Contests\": on a tie \"the situation remains the same\"; a passive score works as a DC",
        {"hider": "a tie stays hidden (the check meets the passive score)",
         "watcher": "a tie is noticed (the check must beat the passive score)"})
    group_check: bool = option(
        False, "Whether a side's hiders make one group Stealth check against each watcher",
        "D6", "SRD 5.1 \"Group Checks\": \"if at least half the group succeeds, the whole group succeeds\"",
        {"false": "each hider must stay hidden from a watcher for him to be surprised",
         "true": "a watcher is surprised when at least half the hiders stay hidden from him"})


class Member(RulesModel):
    """One creature: hiding or not, his Stealth and passive Perception, Alert, and his Initiative bonus"""

    name: Name
    hiding: bool = False
    stealth: Bonus | None = None
    stealth_advantage: bool = False
    stealth_disadvantage: bool = False
    passive_perception: Bonus | None = None
    alert: bool = False
    gm_surprised: bool = False
    initiative: Bonus | None = None


class Side(RulesModel):
    """One side of the encounter"""

    name: Name | None = None
    members: list[Member] = Field(min_length=1, max_length=MEMBERS_A_SIDE)


class Sides(SidesMethods, RulesModel):
    """The two sides"""

    a: Side
    b: Side


class Scenario(ScenarioMethods, RulesModel):
    """A D&D 5e surprise scenario (docs/scenarios.md)"""

    system: Literal["dnd5e"]
    procedure: Literal["stealth"]
    sides: Sides
    options: Options = Options()
