"""The campaign: one campaign.toml validated into a model (DESIGN.md pipeline, first stage)"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
    model_validator,
)

from exporter.definitions.catalogue import bundled_language
from exporter.definitions.tables import option_gated_inputs
from exporter.errors import InputFileError
from exporter.rules.model import FieldProblem, StrictModel, visible
from exporter.rules.systems import SYSTEM_IDS, system_module
from exporter.validation import describe_first_error, read_toml

SystemId = Literal[SYSTEM_IDS]  # type: ignore[valid-type]  # the registry's ids
Language = Literal["en", "de", "zh-CN"]
Target = Literal["foundry", "roll20"]
LANGUAGES: tuple[Language, ...] = ("en", "de", "zh-CN")
TARGETS: tuple[Target, ...] = ("foundry", "roll20")

# FOUNDRY.md 1: package ids match /^[A-Za-z0-9-_]+$/ and are no OS-reserved name; we keep them lower-case.
PACKAGE_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
RESERVED_IDS = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}
VERSION = re.compile(r"^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$")
URL = re.compile(r"^https?://[^\s\"'<>\\]+$")
SYSTEM_PACKAGE_ID = re.compile(r"^[A-Za-z0-9_-]+$")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
URL_PLACEHOLDERS = ("{id}", "{version}")

# The game system each rules system usually runs on in Foundry (FOUNDRY.md 1.4) and the actor data paths
# of the attributes the rules read; an attribute without a path is asked for in the dialog. A system without
# an entry (the Fallout homebrew) runs system-agnostic and asks for every attribute.
FOUNDRY_DEFAULTS: dict[str, dict[str, Any]] = {
    "gurps4e": {"system_id": "gurps", "attributes": {"iq": "system.attributes.IQ.value",
                                                     "per": "system.attributes.PER.value"}},
    "adnd1e": {"system_id": "ars", "attributes": {"dex": "system.abilities.dex.value"}},
}
NO_FOUNDRY_DEFAULTS: dict[str, Any] = {"system_id": None, "attributes": {}}
# ROLL20.md 7: sheet attribute names of the GURPS and AD&D 1e sheets; a system without a sheet has no entry.
ROLL20_DEFAULTS: dict[str, dict[str, str]] = {
    "gurps4e": {"iq": "intelligence", "per": "perception"},
    "adnd1e": {"dex": "dexterity", "surprise_adjustment": "surprisebonus"},
}

Title = Annotated[str, StringConstraints(min_length=1, max_length=20_000), AfterValidator(visible)]


def actor_data_path(path: str) -> str:
    """Refuse a Foundry attribute path that is not a dotted path under the actor's system data"""
    if not re.match(r"^system(\.[A-Za-z0-9_]+)+$", path):
        raise ValueError(f"must be an actor data path starting with system., e.g. system.attributes.IQ.value "
                         f"(got {path!r}); docs/game-systems.md tells how to find one")
    return path


AttributePath = Annotated[str, AfterValidator(actor_data_path)]
MarkerName = Annotated[str, StringConstraints(min_length=1, max_length=100), AfterValidator(visible)]
Roll20Attribute = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_|-]+$", max_length=100)]


def foundry_defaults(system: str) -> dict[str, Any]:
    """Return the Foundry game system and actor data paths a system usually meets"""
    return FOUNDRY_DEFAULTS.get(system, NO_FOUNDRY_DEFAULTS)


def roll20_defaults(system: str) -> dict[str, str]:
    """Return the Roll20 sheet attribute names a system usually meets"""
    return ROLL20_DEFAULTS.get(system, {})


def member_inputs(system: str) -> tuple[str, ...]:
    """Return the per-member inputs the rules of a system read (every member field but the name)"""
    return tuple(field for field in system_module(system).Member.model_fields if field != "name")


class Author(StrictModel):
    """One author of the generated module"""

    name: Title
    email: str | None = None
    url: str | None = None
    discord: str | None = None


class FoundryTarget(StrictModel):
    """How the module meets the Foundry game system: its id, actor data paths and release URLs"""

    system_id: str | None = None
    attributes: dict[str, AttributePath] | None = None
    manifest: str | None = None
    download: str | None = None

    @field_validator("system_id")
    @classmethod
    def _system_id(cls, value: str | None) -> str | None:
        if value and not SYSTEM_PACKAGE_ID.match(value):  # "" means no game system: a system-agnostic module
            raise ValueError("must be a Foundry package id (letters, digits, - and _), or empty for none")
        return value

    @field_validator("manifest", "download")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        if value is None:
            return value
        if not URL.match(value):
            raise ValueError("must be an http(s) URL without spaces or quotes")
        for placeholder in PLACEHOLDER.findall(value):
            if placeholder not in URL_PLACEHOLDERS:
                raise ValueError(f"has the placeholder {placeholder}; only {{id}} and {{version}} are filled in")
        if "{" in PLACEHOLDER.sub("", value) or "}" in PLACEHOLDER.sub("", value):
            raise ValueError("has an unmatched { or }; only {id} and {version} are filled in")
        return value


class Roll20Target(StrictModel):
    """How the Roll20 script meets the character sheet and the tokens"""

    attributes: dict[str, Roll20Attribute] | None = None
    marker: MarkerName | None = None  # None: the target's own
    side_rule: Literal["controlled-by", "turn-order-split"] = "controlled-by"


class Campaign(StrictModel):
    """A campaign.toml: module metadata, the rules system, house rules and per-target mappings"""

    id: str
    title: Title
    version: str
    description: str = Field(default="", max_length=20_000)
    authors: list[Author] = Field(default_factory=list)
    system: SystemId
    languages: list[Language] = Field(default_factory=lambda: list(LANGUAGES))
    targets: list[Target] = Field(default_factory=lambda: list(TARGETS))
    options: dict[str, Any] = Field(default_factory=dict)
    foundry: FoundryTarget = Field(default_factory=FoundryTarget)
    roll20: Roll20Target = Field(default_factory=Roll20Target)
    strings: dict[Language, dict[str, str]] = Field(default_factory=dict)

    @field_validator("id")
    @classmethod
    def _package_id(cls, value: str) -> str:
        if not PACKAGE_ID.match(value) or value in RESERVED_IDS:
            raise ValueError("must be a Foundry package id: lower-case letters, digits, - and _, "
                             "not an OS-reserved name such as con or nul")
        return value

    @field_validator("version")
    @classmethod
    def _version(cls, value: str) -> str:
        if not VERSION.match(value):
            raise ValueError("must be a version like 1.2.0")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Campaign:
        if "en" not in self.languages:
            raise FieldProblem("languages", "must include en, the source of every translation")
        if len(set(self.languages)) != len(self.languages):
            raise FieldProblem("languages", "lists a language twice")
        if not self.targets or len(set(self.targets)) != len(self.targets):
            raise FieldProblem("targets", "must name foundry, roll20 or both, once each")
        options_model = system_module(self.system).Options
        try:
            options_model.model_validate(self.options, strict=True)
        except ValidationError as err:
            field, message = describe_first_error(err, self.system, options_model_of, root=options_model)
            raise FieldProblem(f"options.{field}" if field else "options", message) from None
        known = bundled_language("en")
        for language, overrides in self.strings.items():
            for key in overrides:
                if key not in known:
                    raise FieldProblem(f"strings.{language}.{key}", "is not a string the module shows")
        inputs = member_inputs(self.system)
        gated = option_gated_inputs(self.system)
        for target, mapping in (("foundry", self.foundry.attributes), ("roll20", self.roll20.attributes)):
            for key in mapping or {}:
                if key not in inputs:
                    raise FieldProblem(f"{target}.attributes.{key}",
                                       f"is not an input of {self.system}; one of {', '.join(inputs)}")
                if key in gated and not self.options.get(gated[key]):
                    raise FieldProblem(f"{target}.attributes.{key}", f"is read only with options.{gated[key]} = true")
        return self

    @property
    def rules_options(self) -> BaseModel:
        """Return the house rules as the system's validated options"""
        return system_module(self.system).Options.model_validate(self.options)

    @property
    def foundry_system_id(self) -> str | None:
        """Return the Foundry game-system id, the system's default unless the campaign names one"""
        if "system_id" in self.foundry.model_fields_set:
            return self.foundry.system_id or None
        return foundry_defaults(self.system)["system_id"]

    @property
    def foundry_attributes(self) -> dict[str, str]:
        """Return the actor data path of each attribute the rules read, defaults first"""
        if self.foundry.attributes is not None:
            return dict(sorted(self.foundry.attributes.items()))
        return dict(sorted(foundry_defaults(self.system)["attributes"].items()))

    @property
    def roll20_attributes(self) -> dict[str, str]:
        """Return the sheet attribute name of each attribute the rules read"""
        if self.roll20.attributes is not None:
            return dict(sorted(self.roll20.attributes.items()))
        return dict(sorted(roll20_defaults(self.system).items()))

    def release_url(self, template: str | None) -> str | None:
        """Fill {id} and {version} into a release URL template"""
        if template is None:
            return None
        return template.replace("{id}", self.id).replace("{version}", self.version)


def load_campaign(path: Path) -> Campaign:
    """Read and validate a campaign.toml"""
    data = read_toml(path)
    system = data.get("system")
    if system is not None and system not in SYSTEM_IDS:
        raise InputFileError(path, "system", f"unknown system {system!r}; one of {', '.join(SYSTEM_IDS)}")
    try:
        return Campaign.model_validate(data, strict=True)  # TOML types are exact: no 1 for true
    except ValidationError as err:
        raise InputFileError(path, *describe_first_error(err, system or "", root=Campaign)) from None


def options_model_of(system: str) -> type[BaseModel]:
    """Return the rules options model of a system"""
    return system_module(system).Options
