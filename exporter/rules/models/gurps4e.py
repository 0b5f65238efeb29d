"""The pydantic models of a GURPS scenario file and its house rules; the procedures are in gurps4e.py"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from exporter.limits import MEMBERS_A_SIDE
from exporter.rules.gurps4e import ScenarioMethods, SideMethods
from exporter.rules.models import Name, RulesModel, option
from exporter.rules.shared import SideKey


class Options(RulesModel):
    """The configurable readings of docs/rules/gurps4e.md#readings"""

    stun_roll_timing: Literal["start", "end"] = option(
        "start", "When a mentally stunned character rolls IQ to snap out: at the start or at the end of his turn",
        "A1", "B393 \"at the start of his turn\"; B420 rolls physical stun at the end",
        {"start": "roll first; a success lifts the -4 defence at once, the turn is still Do Nothing",
         "end": "roll last, as for physical stun; the -4 defence lasts through the turn of the success"})
    freeze_roll_scope: Literal["side", "individual"] = option(
        "side", "Total surprise: one 1d6 freeze roll for the whole surprised side, or one per defender",
        "A2", "B393 \"the GM rolls 1d before the defenders can react\"",
        {"side": "the GM rolls once; every defender without Combat Reflexes freezes that many seconds",
         "individual": "each defender without Combat Reflexes rolls his own freeze"})
    leaderless_iq_bonus: bool = option(
        False, "Initiative roll: whether the higher-IQ +1 applies when a side is leaderless",
        "A7", "B393 is silent; a leaderless side already takes -2",
        {"false": "no IQ bonus to either side when one of them is leaderless",
         "true": "a leaderless side compares its highest IQ with the other side's leader or highest IQ"})


class Member(RulesModel):
    """One character: IQ and Combat Reflexes for recovery, Tactics, Stealth and Per for the contest"""

    name: Name
    iq: int = Field(ge=1, le=40)
    combat_reflexes: bool = False
    tactics: int = Field(default=0, ge=0, le=40)
    stealth: int | None = Field(default=None, ge=1, le=40)
    per: int | None = Field(default=None, ge=1, le=40)


class Side(SideMethods, RulesModel):
    """One side: its leader (None = leaderless) and the initiative inputs"""

    name: Name | None = None
    leader: Name | None = None
    animals: bool = False
    gm_modifier: int = Field(default=0, ge=-20, le=20)
    expecting_trouble: bool = True
    members: list[Member] = Field(min_length=1, max_length=MEMBERS_A_SIDE)


class Sides(RulesModel):
    """The two sides; a is the party"""

    a: Side
    b: Side


class Scenario(ScenarioMethods, RulesModel):
    """A GURPS surprise scenario (docs/scenarios.md)"""

    system: Literal["gurps4e"]
    procedure: Literal["partial", "total", "quick-contest"]
    # total: the side that surprises the other by the GM's call; quick-contest: the side that sneaks.
    surprising: SideKey = "a"
    sides: Sides
    options: Options = Options()
