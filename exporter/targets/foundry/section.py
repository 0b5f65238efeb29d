"""The campaign's [foundry] table: the game system, the actor data paths and the release URLs, and what the module
takes from the campaign"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import StringConstraints, field_validator

from exporter.campaign_fields import (EntryName, Reader, Url, parse_readers, reader_data, readers_left_out,
                                      release_address)
from exporter.rules.models import StrictModel
from exporter.rules.systems import unread_inputs
from exporter.targets.foundry.sheets import foundry_reader, foundry_sheet

if TYPE_CHECKING:
    from exporter.campaign import Campaign
    from exporter.definitions.identity import TargetSettings

# docs/dev/foundry.md §1.1: the Foundry generations the module supports, module.json's minimum and maximum.
FOUNDRY_GENERATIONS = ("13", "14")
FOUNDRY_VERSION = re.compile(r"(\d+)(?:\.\d+)?")  # a generation (14) or one build of it (14.369)
SYSTEM_PACKAGE_ID = re.compile(r"[A-Za-z0-9_-]+")
DATA_PATH = re.compile(r"system(\.[A-Za-z0-9_]+)+")

# A Foundry actor data path lives under the actor's system data (docs/game-systems.md tells how to find one).
AttributePath = Annotated[str, StringConstraints(pattern=r"^system(\.[A-Za-z0-9_]+)+$")]
# A Foundry game-system id and a Foundry build: short words
SystemPackageId = Annotated[str, StringConstraints(max_length=100)]
FoundryBuild = Annotated[str, StringConstraints(max_length=20)]


class AdvantageReader(Reader):
    """An advantage found by name in a game system's nested list (GGA system.ads): true when present"""

    advantage: EntryName


class SkillReader(Reader):
    """A skill found by name in a game system's nested list (GGA system.skills): its level"""

    skill: EntryName


FoundryReader = AttributePath | AdvantageReader | SkillReader
FOUNDRY_READERS: dict[str, type[StrictModel]] = {"advantage": AdvantageReader, "skill": SkillReader}


class FoundryTarget(StrictModel):
    """How the module meets the Foundry game system: its id, actor data paths and release URLs"""

    system_id: SystemPackageId | None = None
    attributes: dict[str, FoundryReader] | None = None
    manifest: Url | None = None
    download: Url | None = None
    verified: FoundryBuild | None = None  # the Foundry build the GM checked the module on; none: Foundry shows it unverified

    @field_validator("system_id")
    @classmethod
    def _system_id(cls, value: str | None) -> str | None:
        if value and not SYSTEM_PACKAGE_ID.fullmatch(value):  # "" means no game system: a system-agnostic module
            raise ValueError("must be a Foundry package id (letters, digits, - and _), or empty for none")
        return value

    @field_validator("attributes", mode="before")
    @classmethod
    def _readers(cls, value: Any) -> Any:
        return parse_readers(value, FOUNDRY_READERS, DATA_PATH, "an actor data path starting with system., like "
                             "system.attributes.IQ.value (`ambush docs game-systems`)")

    @field_validator("verified")
    @classmethod
    def _verified(cls, value: str | None) -> str | None:
        found = FOUNDRY_VERSION.fullmatch(value) if value is not None else None
        if value is not None and (found is None or found.group(1) not in FOUNDRY_GENERATIONS):
            raise ValueError(f"must be a Foundry version the module supports ({' or '.join(FOUNDRY_GENERATIONS)}), "
                             'or one build of it such as "14.369": the build you checked the module on')
        return value

    @field_validator("manifest", "download")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        return release_address(value)


def foundry_defaults(system: str) -> dict[str, Any]:
    """Return the Foundry game system and the reader of each input a system usually meets
    (exporter/targets/foundry/sheets.py)"""
    return foundry_sheet(system)


def init_context(system: str) -> dict[str, Any]:
    """Return what `ambush init` writes into the [foundry] table of a new campaign: the system's defaults"""
    defaults = foundry_defaults(system)
    return {"foundry_system": defaults["system_id"], "foundry_attributes": defaults["attributes"]}


def system_id(campaign: Campaign) -> str | None:
    """Return the Foundry game-system id, the system's default unless the campaign names one"""
    if "system_id" in campaign.foundry.model_fields_set:
        return campaign.foundry.system_id or None
    return foundry_defaults(campaign.system)["system_id"]


def sheet_defaults(campaign: Campaign) -> dict[str, Any]:
    """Return the game system's default readers, each while the house rules read its input: they hold for the game
    system they were read from; another game system asks in the dialog"""
    defaults = foundry_defaults(campaign.system)
    if system_id(campaign) != defaults["system_id"]:
        return {}
    unread = unread_inputs(campaign.system, campaign.rules_options)
    return {key: reader for key, reader in defaults["attributes"].items() if key not in unread}


def attributes(campaign: Campaign) -> dict[str, dict[str, str]]:
    """Return the reader of each input the rules read, the campaign's or the system's defaults"""
    given = campaign.foundry.attributes
    readers = {k: reader_data(v) for k, v in given.items()} if given is not None else sheet_defaults(campaign)
    return {key: foundry_reader(reader) for key, reader in sorted(readers.items())}


def checked_versions(campaign: Campaign) -> list[str]:
    """Return the versions of the Foundry game system ambush was checked against; none for a system of its own"""
    defaults = foundry_defaults(campaign.system)
    return defaults["versions"] if system_id(campaign) == defaults["system_id"] else []


def compatibility(campaign: Campaign) -> dict[str, str]:
    """Return module.json's compatibility: every supported generation, and the build the GM checked it on if given

    ambush tests the module in emulations of V13 and V14 (docs/dev/foundry.md §1.1), never in a running Foundry,
    so it claims no verified build of its own.
    """
    verified = {"verified": campaign.foundry.verified} if campaign.foundry.verified else {}
    return {"minimum": FOUNDRY_GENERATIONS[0], **verified, "maximum": FOUNDRY_GENERATIONS[-1]}


def target_settings(campaign: Campaign) -> TargetSettings:
    """Return what the campaign gives the module, its defaults filled in and its release URLs expanded"""
    from exporter.definitions.identity import TargetSettings  # lazy: loading a campaign needs no definitions

    return TargetSettings(attributes(campaign), {
        "system_id": system_id(campaign),
        "checked_versions": checked_versions(campaign),
        "manifest": campaign.release_url(campaign.foundry.manifest),
        "download": campaign.release_url(campaign.foundry.download),
        "compatibility": compatibility(campaign),
    })


def build_warnings(campaign: Campaign) -> list[str]:
    """Say which inputs the game system's sheets hold that the campaign's own reader table leaves out"""
    return readers_left_out(campaign.id, "foundry.attributes", campaign.foundry.attributes, sheet_defaults(campaign))


Section = FoundryTarget  # the model the campaign's table takes (exporter/platforms.py)
