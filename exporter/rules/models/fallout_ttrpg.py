"""The pydantic models of a Fallout TTRPG scenario file and its house rules; the procedures: fallout_ttrpg.py"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from exporter.limits import MEMBERS_A_SIDE
from exporter.rules.fallout_ttrpg import ScenarioMethods
from exporter.rules.models import Name, RulesModel, SafeInt, option
from exporter.rules.shared import JS_SAFE_INTEGER


class Options(RulesModel):
    """The configurable readings of docs/rules/fallout-ttrpg.md#readings"""

    opening_attack_is_free: bool = option(
        False, "Whether the Sneak Attack that opens the fight is an extra action or the opener's Surprise Round turn",
        "B1", "Surprise page: the Sneak Attack \"resolves first\", never called extra",
        {"false": "the opening attack is his whole Surprise Round turn",
         "true": "the opening attack is extra; he takes a full turn in the Surprise Round too"})
    poor_failure_margin: int = option(
        5, "By how much the party's spot test must fail for the enemies to get the Surprise Round",
        "B3", "Surprise page: \"fail by 5 or more, e.g.\"",
        {"N": "a total of DC - N or less is a poor failure (1 or more)"}, ge=1, le=JS_SAFE_INTEGER)
    enemy_spot_roll: bool = option(
        False, "Whether side b's leader rolls a spot test of his own after a party's failure",
        "B5", "Surprise page, quick reference: \"the party (or the GM, for enemies) succeeds\"",
        {"false": "one party roll decides both directions",
         "true": "after a failure that is not poor and not against hunters, side b's leader rolls too"})
    cautious_sleeper_wakes: Literal["sr_turn_start", "sr_end"] = option(
        "sr_turn_start", "When a sleeper with Cautious Nature wakes in a Surprise Round against his side",
        "B7", "Surprise page: the sleeper rules are for sleepers \"who are surprised\"",
        {"sr_turn_start": "at the start of his Surprise Round turn, Prone with empty slots, and he may act",
         "sr_end": "at the end of the Surprise Round, with the surprised sleepers"})


class Member(RulesModel):
    """One combatant: PER and Survival for the spot check, perks, sleep and Sequence"""

    name: Name
    per: int | None = Field(default=None, ge=1, le=10)
    survival: int | None = Field(default=None, ge=0, le=20)
    cautious_nature: bool = False
    asleep: bool = False
    sequence: SafeInt = 0  # B6: an input, higher acts first


class Side(RulesModel):
    """One side of the encounter; a is the party"""

    name: Name | None = None
    members: list[Member] = Field(min_length=1, max_length=MEMBERS_A_SIDE)


class Sides(RulesModel):
    """The two sides; a is the party"""

    a: Side
    b: Side


class Opener(RulesModel):
    """One declared opening Sneak Attack: who attacks, his bonus and the number to reach"""

    name: Name
    attack_bonus: SafeInt
    target_number: SafeInt


class Scenario(ScenarioMethods, RulesModel):
    """A Fallout TTRPG surprise scenario (docs/scenarios.md)"""

    system: Literal["fallout-ttrpg"]
    procedure: Literal["world-map", "sneak-attack"]
    dc: SafeInt | None = None
    hunting: bool = False
    attacker: Name | None = None
    attack_bonus: SafeInt | None = None
    target_number: SafeInt | None = None
    openers: list[Opener] | None = Field(default=None, max_length=2 * MEMBERS_A_SIDE)
    sides: Sides
    options: Options = Options()
