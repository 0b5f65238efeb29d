"""The pydantic models of an AD&D 1e scenario file and its house rules; the procedures are in adnd1e.py"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from exporter.limits import MEMBERS_A_SIDE
from exporter.rules.adnd1e import DEFAULT_RATING, MemberMethods, ScenarioMethods, SidesMethods
from exporter.rules.models import Name, RulesModel, option


class Options(RulesModel):
    """The configurable readings of docs/rules/adnd1e.md#readings (C4, C5)"""

    dex_unsurprised_may_act: bool = option(
        True, "Whether a member whose Dexterity cancels his side's surprise acts in the surprise segments",
        "C4", "the seed's example: the Dexterity 16+ member acts alone in segment 1",
        {"true": "he acts in every segment he is not frozen, even while his side is",
         "false": "he is not frozen, yet waits with his side until it acts"})
    side_best_rating: bool = option(
        False, "Whether a side uses the best surprise rating of its members (a ranger among them)",
        "C5a", "DMG p.62: a side surprised only on 1, or surprising on 1-3, thanks to one member",
        {"false": "ratings are given per side (surprised_on, surprises_on)",
         "true": "members may give their own surprised_on and surprises_on; the side takes the best"})
    dex_encumbrance_gate: bool = option(
        False, "Whether Dexterity counts only for a member at no more than normal gear",
        "C5b", "DMG p.62: the Dexterity adjustment needs normal gear",
        {"false": "Dexterity always counts", "true": "a member marked encumbered loses his Dexterity adjustment"})
    missile_triple_rate: bool = option(
        False, "Whether a readied missile weapon fires at three times its rate in surprise segments",
        "C5c", "DMG p.62: missiles discharged at 3 times the normal rate",
        {"false": "the narration says nothing of missile rates",
         "true": "each surprise segment of the outcome is flagged, and `ambush simulate` reminds the GM"})


class Member(MemberMethods, RulesModel):
    """One combatant: a name and what sets his surprise adjustment"""

    name: Name
    dex: int | None = Field(default=None, ge=3, le=18)
    surprise_adjustment: int | None = Field(default=None, ge=-5, le=5)
    encumbered: bool = False
    surprised_on: int | None = Field(default=None, ge=0, le=6)
    surprises_on: int | None = Field(default=None, ge=1, le=6)


class Side(RulesModel):
    """One side of the encounter and its surprise ratings"""

    name: Name | None = None
    surprised_on: int = Field(default=DEFAULT_RATING, ge=0, le=6)
    surprises_on: int = Field(default=DEFAULT_RATING, ge=1, le=6)
    aware: bool = False
    members: list[Member] = Field(min_length=1, max_length=MEMBERS_A_SIDE)


class Sides(SidesMethods, RulesModel):
    """Exactly the two sides a (the party) and b"""

    a: Side
    b: Side


class Scenario(ScenarioMethods, RulesModel):
    """One AD&D surprise check: two sides and the chosen readings"""

    system: Literal["adnd1e"]
    procedure: Literal["roll"]
    sides: Sides
    options: Options = Field(default_factory=Options)
