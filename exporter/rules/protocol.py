"""What every rules module provides: the interface the registry, the definitions and the CLI rely on"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from exporter.rules.declared import Declared
from exporter.rules.dice import Roller
from exporter.rules.shared import Inputs, Odds

if TYPE_CHECKING:
    from exporter.rules.rolls import RollProcedure


class Outcome(Protocol):
    """A played procedure: what happened, as the JSON the vectors and `ambush simulate --json` show"""

    def to_json(self) -> dict[str, Any]:
        """Return the outcome as JSON data"""
        ...


@runtime_checkable
class RulesSystem(Protocol):
    """A rules module: its procedures and their inputs, its scenario's parts, its constants, resolve and odds"""

    SYSTEM: str  # the system id, the key of the module in the registry
    UNIT: str  # what a member loses to surprise: second, segment, round
    PROCEDURES: tuple[str, ...]
    INPUTS: Inputs  # per procedure, the model fields it reads and who must give them
    INPUT_KINDS: dict[str, str]  # the kind of each input that is no plain value: member, side or openers
    FIXED_READINGS: dict[str, str]  # readings the rules fix, never offered as options: each with the reason
    STATUSES: tuple[str, ...]  # the neutral ids of the statuses the rules mark
    GM_ROLLS: tuple[str, ...]  # the neutral ids of the rolls a GM makes outside the dialog
    CONSTANTS: dict[str, Any]  # every rule number, as plain data for the JS rules core
    # The parts of a scenario file (exporter/rules/declared.py), and the house rules read from an empty table.
    Options: type[Declared]  # the house rules, every field with a default
    Scenario: type[Declared]  # a scenario file of this system; has side(key)
    Side: type[Declared]
    Member: type[Declared]
    DEFAULT_OPTIONS: Any

    def resolve(self, scenario: Any, roller: Roller) -> Outcome:
        """Play a scenario with the dice of roller"""
        ...

    def odds(self, scenario: Any) -> Odds:
        """Return the exact outcome distribution of a scenario"""
        ...

    def roll_procedures(self) -> tuple[RollProcedure, ...]:
        """Return the rolls a GM can make by hand, as data (exporter/rules/rolls.py)"""
        ...
