"""The campaign's [roll20] table: the sheet readers, the authors' user ids, the marker, the side rule and the chat
command, and what the script takes from the campaign"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, Field, StringConstraints, field_validator

from exporter.campaign_fields import (AgreementCheck, EntryName, InputKey, Reader, parse_readers, reader_data,
                                      readers_left_out)
from exporter.limits import USER_IDS
from exporter.rules.models import StrictModel
from exporter.rules.shared import FieldProblem, visible
from exporter.rules.systems import unread_inputs
from exporter.targets.roll20.sheets import roll20_reader, roll20_sheet

if TYPE_CHECKING:
    from exporter.campaign import Campaign
    from exporter.definitions.identity import TargetSettings

SHEET_NAME = re.compile(r"[A-Za-z0-9_|-]{1,100}")
MarkerName = Annotated[str, StringConstraints(min_length=1, max_length=100), AfterValidator(visible)]
Roll20Attribute = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_|-]+$", max_length=100)]
UserId = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,12}$")]
# docs/dev/roll20.md §3: an API command is a chat message starting with "!"; kept to letters, digits, - and _.
ChatCommand = Annotated[str, StringConstraints(pattern=r"^![A-Za-z0-9_-]{1,30}$")]
Roll20Names = Annotated[list[Roll20Attribute], Field(min_length=1, max_length=5)]
SectionName = Annotated[str, StringConstraints(pattern=r"^repeating_[a-z0-9]+$", max_length=100)]


class RequiredConstant(StrictModel):
    """Another sheet attribute (its default counting) that must hold a number constant of the rules"""

    attribute: Roll20Attribute
    constant: InputKey


class SetAttributeReader(Reader):
    """Sheet attributes read only where an attribute object holds a value, the first that does"""

    set: Roll20Names
    # The value is the whole number that follows this phrase in the attribute's text, case aside (D&D 5E by Roll20: an
    # NPC's passive Perception is only text in npc_senses, "darkvision 60 ft., passive Perception 13").
    after: Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z ]{0,38}[A-Za-z]$")] | None = None
    # Where the sheet also holds the other input and the two disagree by the rules' table, both are asked for.
    agrees: AgreementCheck | None = None
    # The value counts only where this other attribute holds the rules' constant; elsewhere it is asked for
    # (AD&D 1e Revised: a chance "of 8" is no chance in six).
    requires: RequiredConstant | None = None
    # A number constant of the rules added to the value (AD&D 1e Revised: a modifier to others' surprise is a rating).
    plus: InputKey | None = None

    @field_validator("set", mode="before")
    @classmethod
    def _one_name(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value

    def check(self, system: str, constants: dict[str, Any], where: str) -> None:
        """Refuse a `requires` or `plus` that names no number constant of the rules"""
        numbers = sorted(name for name, value in constants.items()
                         if isinstance(value, int) and not isinstance(value, bool))
        named = {"requires.constant": self.requires.constant if self.requires else None, "plus": self.plus}
        for field, constant in named.items():
            if constant is not None and constant not in numbers:
                listed = ", ".join(numbers) or "none"
                raise FieldProblem(f"{where}.{field}", f"must be a number of the {system} rules; one of {listed}")


class SectionReader(Reader):
    """A named row of one or more repeating sections: true when present, or its value field"""

    section: SectionName | Annotated[list[SectionName], Field(min_length=1, max_length=5)]
    name: EntryName
    name_field: Roll20Attribute = "name"
    # The row's value: the first of these fields that holds a number
    value: Roll20Attribute | Roll20Names | None = None
    # A skill's points field: the row counts only with at least one point, and a level of at least 1 (B393)
    points: Roll20Attribute | None = None

    def check(self, system: str, constants: dict[str, Any], where: str) -> None:
        """Refuse points without a value: the points belong to a skill's level"""
        if self.points and self.value is None:
            raise FieldProblem(f"{where}.points", "needs a value: the points belong to a skill's level")


class SwitchReader(Reader):
    """One of two readers, chosen by a sheet attribute (its default counting) that tells two kinds of character apart:
    `then` where it holds 1, `otherwise` elsewhere (D&D 5E by Roll20: `npc` is 1 on an NPC's sheet)"""

    when: Roll20Attribute
    then: Roll20Attribute | SetAttributeReader
    otherwise: Roll20Attribute | SetAttributeReader

    def check(self, system: str, constants: dict[str, Any], where: str) -> None:
        """Check each reader it chooses between; neither may need another input to agree with it"""
        for field in ("then", "otherwise"):
            reader = getattr(self, field)
            if isinstance(reader, SetAttributeReader):
                if reader.agrees is not None:
                    raise FieldProblem(f"{where}.{field}.agrees", "is not read inside a when/then/otherwise reader")
                reader.check(system, constants, f"{where}.{field}")


Roll20Reader = Roll20Attribute | SetAttributeReader | SectionReader | SwitchReader
ROLL20_READERS: dict[str, type[StrictModel]] = {"set": SetAttributeReader, "section": SectionReader,
                                                "when": SwitchReader}


class Roll20Target(StrictModel):
    """How the Roll20 script meets the character sheet and the tokens"""

    attributes: dict[str, Roll20Reader] | None = None
    # docs/dev/roll20.md §8: the roll20userid of each author, as strings of digits (TOML types are exact)
    user_ids: Annotated[list[UserId], Field(max_length=USER_IDS)] | None = None
    # script.json for the one-click repository, which needs user_ids: None writes it where they are given, true asks
    # for it (the build warns without them), false never writes it (a script pasted into the Mod page)
    publish: bool | None = None
    marker: MarkerName | None = None  # None: the target's own
    side_rule: Literal["controlled-by", "turn-order-split"] = "controlled-by"
    command: ChatCommand = "!surprise"  # the chat command the script answers; two scripts must not share one

    @field_validator("attributes", mode="before")
    @classmethod
    def _readers(cls, value: Any) -> Any:
        return parse_readers(value, ROLL20_READERS, SHEET_NAME, "a sheet attribute name (letters, digits, _ | -)")


def roll20_defaults(system: str) -> dict[str, Any]:
    """Return the Roll20 sheet reader of each input a system usually meets (exporter/targets/roll20/sheets/)"""
    return roll20_sheet(system)


def init_context(system: str) -> dict[str, Any]:
    """Return what `ambush init` writes into the [roll20] table of a new campaign: the sheet's readers, the marker"""
    from exporter.targets.roll20.markers import STATUS_MARKERS

    return {"roll20_attributes": roll20_defaults(system), "roll20_marker": STATUS_MARKERS["surprised"]}


def attributes(campaign: Campaign) -> dict[str, dict[str, Any]]:
    """Return the sheet reader of each input the rules read, the campaign's or the system's defaults"""
    given = campaign.roll20.attributes
    readers = {k: reader_data(v) for k, v in given.items()} if given is not None else sheet_defaults(campaign)
    return {key: roll20_reader(reader) for key, reader in sorted(readers.items())}


def sheet_defaults(campaign: Campaign) -> dict[str, Any]:
    """Return the sheet's default readers, without those of inputs an option reads that is off"""
    unread = unread_inputs(campaign.system, campaign.rules_options)
    return {key: reader for key, reader in roll20_defaults(campaign.system).items() if key not in unread}


def user_ids(campaign: Campaign) -> list[str]:
    """Return the authors' Roll20 user ids as digit strings; empty when the campaign names none"""
    return list(campaign.roll20.user_ids or [])


def target_settings(campaign: Campaign) -> TargetSettings:
    """Return what the campaign gives the script, its defaults filled in"""
    from exporter.definitions.identity import TargetSettings  # lazy: loading a campaign needs no definitions

    roll20 = campaign.roll20
    return TargetSettings(attributes(campaign), {"marker": roll20.marker, "side_rule": roll20.side_rule,
                                                 "command": roll20.command, "user_ids": user_ids(campaign),
                                                 "publish": roll20.publish})


def build_warnings(campaign: Campaign) -> list[str]:
    """Say what a campaign that asks to publish its script (publish = true) lacks for that, if it does, and which
    inputs the sheet holds that its own reader table leaves out"""
    from exporter.targets.roll20.writer import unpublishable_warning

    unpublishable = campaign.roll20.publish is True and not user_ids(campaign)
    return ([unpublishable_warning(campaign.id)] if unpublishable else []) + readers_left_out(
        campaign.id, "roll20.attributes", campaign.roll20.attributes, sheet_defaults(campaign))


Section = Roll20Target  # the model the campaign's table takes (exporter/platforms.py)
