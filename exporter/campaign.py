"""The campaign: one campaign.toml validated into a model (docs/dev/architecture.md, the first stage of the pipeline)"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    Field,
    PrivateAttr,
    StringConstraints,
    ValidationError,
    field_validator,
    model_validator,
)

from exporter.errors import InputFileError
from exporter.excerpt import excerpt
from exporter.lang import bundled_language
from exporter.lang.messages import MessageError, arguments, choice_counts
from exporter.lang.placeholders import kind
from exporter.limits import (
    AUTHORS, DESCRIPTION_CHARACTERS, LINE_CHARACTERS, STRING_CHARACTERS, TITLE_CHARACTERS, URL_CHARACTERS, USER_IDS,
    VERSION_CHARACTERS,
)
from exporter.rules.models import StrictModel
from exporter.rules.shared import FieldProblem, one_line, visible
from exporter.rules.systems import SYSTEM_IDS, option_gated_inputs, system_module
from exporter.sheets import foundry_reader, foundry_sheet, reader_type, roll20_reader, roll20_sheet
from exporter.validation import describe_first_error, read_toml

SystemId = Literal[SYSTEM_IDS]  # type: ignore[valid-type]  # the registry's ids
Language = Literal["en", "de", "zh-CN"]
Target = Literal["foundry", "roll20", "web"]
LANGUAGES: tuple[Language, ...] = ("en", "de", "zh-CN")
TARGETS: tuple[Target, ...] = ("foundry", "roll20", "web")
DEFAULT_TARGETS: tuple[Target, ...] = ("foundry", "roll20")  # a campaign that names none: the two VTTs

# docs/dev/foundry.md §1: package ids match /^[A-Za-z0-9-_]+$/ and are no OS-reserved name; we keep them lower-case.
PACKAGE_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
RESERVED_IDS = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}
VERSION = re.compile(r"([0-9]+)\.([0-9]+)\.([0-9]+)(?:[-+][0-9A-Za-z.-]+)?")
# Foundry compares versions part by part, numbers as JavaScript numbers
# (https://foundryvtt.com/api/v14/functions/foundry.utils.isNewerVersion.html), exact only up to 2^53 - 1; npm's semver
# refuses a larger part for the same reason (npm/node-semver classes/semver.js, MAX_SAFE_INTEGER).
LARGEST_VERSION_PART = 2**53 - 1
URL = re.compile(r"https?://[^\s\"'<>\\]+")
SYSTEM_PACKAGE_ID = re.compile(r"[A-Za-z0-9_-]+")
# docs/dev/foundry.md §1.1: the Foundry generations the module supports, module.json's minimum and maximum.
FOUNDRY_GENERATIONS = ("13", "14")
FOUNDRY_VERSION = re.compile(r"(\d+)(?:\.\d+)?")  # a generation (14) or one build of it (14.369)
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
URL_PLACEHOLDERS = ("{id}", "{version}")

Title = Annotated[str, StringConstraints(min_length=1, max_length=TITLE_CHARACTERS), AfterValidator(visible)]
OneLine = Annotated[str, StringConstraints(max_length=LINE_CHARACTERS), AfterValidator(one_line)]
Url = Annotated[str, StringConstraints(max_length=URL_CHARACTERS)]
Override = Annotated[str, StringConstraints(max_length=STRING_CHARACTERS)]
# A Foundry actor data path lives under the actor's system data (docs/game-systems.md tells how to find one).
AttributePath = Annotated[str, StringConstraints(pattern=r"^system(\.[A-Za-z0-9_]+)+$")]
MarkerName = Annotated[str, StringConstraints(min_length=1, max_length=100), AfterValidator(visible)]
Roll20Attribute = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_|-]+$", max_length=100)]
EntryName = Annotated[str, StringConstraints(min_length=1, max_length=100, pattern=r"^[^\x00-\x1f\x7f`]+$")]
UserId = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,12}$")]
# A Foundry game-system id and a Foundry build: short words
SystemPackageId = Annotated[str, StringConstraints(max_length=100)]
FoundryBuild = Annotated[str, StringConstraints(max_length=20)]
# docs/dev/roll20.md §3: an API command is a chat message starting with "!"; kept to letters, digits, - and _.
ChatCommand = Annotated[str, StringConstraints(pattern=r"^![A-Za-z0-9_-]{1,30}$")]


def foundry_defaults(system: str) -> dict[str, Any]:
    """Return the Foundry game system and the reader of each input a system usually meets (exporter/sheets.py)"""
    return foundry_sheet(system)


def roll20_defaults(system: str) -> dict[str, Any]:
    """Return the Roll20 sheet reader of each input a system usually meets (exporter/sheets.py)"""
    return roll20_sheet(system)


class AdvantageReader(StrictModel):
    """An advantage found by name in a game system's nested list (GGA system.ads): true when present"""

    advantage: EntryName


class SkillReader(StrictModel):
    """A skill found by name in a game system's nested list (GGA system.skills): its level"""

    skill: EntryName


Roll20Names = Annotated[list[Roll20Attribute], Field(min_length=1, max_length=5)]
SectionName = Annotated[str, StringConstraints(pattern=r"^repeating_[a-z0-9]+$", max_length=100)]
InputKey = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,40}$")]


class AgreementCheck(StrictModel):
    """Another input the value must agree with through a table of the rules (AD&D: Dexterity and its adjustment)"""

    input: InputKey
    table: InputKey


class RequiredConstant(StrictModel):
    """Another sheet attribute (its default counting) that must hold a number constant of the rules"""

    attribute: Roll20Attribute
    constant: InputKey


class SetAttributeReader(StrictModel):
    """Sheet attributes read only where an attribute object holds a value, the first that does"""

    set: Roll20Names
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


class SectionReader(StrictModel):
    """A named row of one or more repeating sections: true when present, or its value field"""

    section: SectionName | Annotated[list[SectionName], Field(min_length=1, max_length=5)]
    name: EntryName
    name_field: Roll20Attribute = "name"
    # The row's value: the first of these fields that holds a number
    value: Roll20Attribute | Roll20Names | None = None
    # A skill's points field: the row counts only with at least one point, and a level of at least 1 (B393)
    points: Roll20Attribute | None = None


FoundryReader = AttributePath | AdvantageReader | SkillReader
Roll20Reader = Roll20Attribute | SetAttributeReader | SectionReader


def parse_readers(value: Any, kinds: dict[str, type[StrictModel]], name: re.Pattern[str], described: str) -> Any:
    """Turn each reader table into its model, by its key, so that a problem names the reader's own field"""
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, reader in value.items():
        if isinstance(reader, str):
            if not name.fullmatch(reader):
                raise FieldProblem(str(key), f"must be {described} (got {excerpt(reader)})")
            out[key] = reader
            continue
        kind = next((model for field, model in kinds.items() if isinstance(reader, dict) and field in reader), None)
        if kind is None:
            tables = " or ".join("{ " + field + " = ... }" for field in kinds)
            raise FieldProblem(str(key), f"a reader is {described} or {tables}")
        try:
            out[key] = kind.model_validate(reader, strict=True)
        except ValidationError as err:
            field, message = describe_first_error(err, "")
            raise FieldProblem(f"{key}.{field}" if field else str(key), message) from None
    return out


FOUNDRY_READERS: dict[str, type[StrictModel]] = {"advantage": AdvantageReader, "skill": SkillReader}
ROLL20_READERS: dict[str, type[StrictModel]] = {"set": SetAttributeReader, "section": SectionReader}
DATA_PATH = re.compile(r"system(\.[A-Za-z0-9_]+)+")
SHEET_NAME = re.compile(r"[A-Za-z0-9_|-]{1,100}")


def reader_data(reader: Any) -> Any:
    """Return a reader as plain data: a string, or a table without its unset optional keys"""
    return reader if isinstance(reader, str) else reader.model_dump(exclude_none=True, exclude_defaults=False)


def member_inputs(system: str) -> tuple[str, ...]:
    """Return the per-member inputs the rules of a system read (every member field but the name)"""
    return tuple(field for field in system_module(system).Member.model_fields if field != "name")


def web_address(value: str | None) -> str | None:
    """Refuse an address that is not an http(s) URL of one line without spaces or quotes"""
    if value is not None and not URL.fullmatch(one_line(value)):
        raise ValueError("must be an http(s) URL without spaces or quotes")
    return value


class Author(StrictModel):
    """One author of the generated module"""

    name: Title
    email: OneLine | None = None
    url: Annotated[Url, AfterValidator(web_address)] | None = None
    discord: OneLine | None = None


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
        if web_address(value) is None:
            return value
        for placeholder in PLACEHOLDER.findall(value):
            if placeholder not in URL_PLACEHOLDERS:
                raise ValueError(f"has the placeholder {placeholder}; only {{id}} and {{version}} are filled in")
        if "{" in PLACEHOLDER.sub("", value) or "}" in PLACEHOLDER.sub("", value):
            raise ValueError("has an unmatched { or }; only {id} and {version} are filled in")
        return value


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


class Campaign(StrictModel):
    """A campaign.toml: module metadata, the rules system, house rules and per-target mappings"""

    id: str
    title: Title
    version: Annotated[str, StringConstraints(max_length=VERSION_CHARACTERS)]
    description: str = Field(default="", max_length=DESCRIPTION_CHARACTERS)
    authors: list[Author] = Field(default_factory=list, max_length=AUTHORS)
    system: SystemId
    languages: list[Language] = Field(default_factory=lambda: list(LANGUAGES))
    default_language: Language = "en"  # the Roll20 script's until a GM picks another; the compendium macros' names
    targets: list[Target] = Field(default_factory=lambda: list(DEFAULT_TARGETS))
    options: dict[str, Any] = Field(default_factory=dict)
    foundry: FoundryTarget = Field(default_factory=FoundryTarget)
    roll20: Roll20Target = Field(default_factory=Roll20Target)
    strings: dict[Language, dict[str, Override]] = Field(default_factory=dict)
    _rules_options: BaseModel = PrivateAttr()  # options, validated once by _consistent

    @field_validator("id")
    @classmethod
    def _package_id(cls, value: str) -> str:
        if not PACKAGE_ID.fullmatch(value) or value in RESERVED_IDS:
            raise ValueError("must be a Foundry package id: lower-case letters, digits, - and _, "
                             "not an OS-reserved name such as con or nul")
        return value

    @field_validator("version")
    @classmethod
    def _version(cls, value: str) -> str:
        matched = VERSION.fullmatch(value)
        if not matched:
            raise ValueError("must be a version like 1.2.0")
        if any(int(part) > LARGEST_VERSION_PART for part in matched.groups()):
            raise ValueError(f"has a number above {LARGEST_VERSION_PART}, which Foundry and Roll20 cannot compare "
                             "exactly: give a version like 1.2.0")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Campaign:
        self._check_languages()
        if not self.targets or len(set(self.targets)) != len(self.targets):
            raise FieldProblem("targets", "must name foundry, roll20, web or several, once each")
        options_model = system_module(self.system).Options
        try:
            self._rules_options = options_model.model_validate(self.options, strict=True)
        except ValidationError as err:
            field, message = describe_first_error(err, self.system, options_model_of, root=options_model)
            raise FieldProblem(f"options.{field}" if field else "options", message) from None
        self._check_strings()
        inputs = member_inputs(self.system)
        gated = option_gated_inputs(self.system)
        for target, mapping in (("foundry", self.foundry.attributes), ("roll20", self.roll20.attributes)):
            for key in mapping or {}:
                if key not in inputs:
                    raise FieldProblem(f"{target}.attributes.{key}",
                                       f"is not an input of {self.system}; one of {', '.join(inputs)}")
                if key in gated and not getattr(self._rules_options, gated[key]):
                    raise FieldProblem(f"{target}.attributes.{key}", f"is read only with options.{gated[key]} = true")
                self._check_reader(target, key, (mapping or {})[key])
        return self

    def _check_languages(self) -> None:
        """Refuse a language list without en or with one twice, and a default language it does not ship"""
        if "en" not in self.languages:
            raise FieldProblem("languages", "must include en, the source of every translation")
        if len(set(self.languages)) != len(self.languages):
            raise FieldProblem("languages", "lists a language twice")
        if self.default_language not in self.languages:
            raise FieldProblem("default_language", f"is {self.default_language}, which languages does not list "
                               f"({', '.join(self.languages)})")
        if "default_language" not in self.model_fields_set and self.languages[0] != "en":
            # Before default_language, the first of languages was the default: say which one is meant, never guess.
            raise FieldProblem("default_language", f"is not given and languages lists {self.languages[0]} first: "
                               f"set default_language = \"{self.languages[0]}\" or \"en\"")

    def _check_strings(self) -> None:
        """Refuse an override of a string that does not exist, with broken plural syntax, or reading what the
        original does not give it: a placeholder it has not, or a plural choice by a text (exporter/lang/messages.py)"""
        known = bundled_language("en")
        for language, overrides in self.strings.items():
            for key, text in overrides.items():
                field = f"strings.{language}.{key}"
                if key not in known:
                    raise FieldProblem(field, "is not a string the module shows")
                try:
                    given, used, counts = arguments(known[key]), arguments(text), choice_counts(text)
                except MessageError as err:
                    raise FieldProblem(field, str(err)) from None
                if used - given:
                    listed = ", ".join(f"{{{name}}}" for name in sorted(given))
                    raise FieldProblem(field, f"has the placeholder {{{min(used - given)}}}, which the string it "
                                              f"overrides has not ({f'that one has {listed}' if listed else 'none'})")
                texts = sorted(name for name in counts if kind(key, name) == "text")
                if texts:
                    raise FieldProblem(field, f"chooses a plural form by {{{texts[0]}}}, which is a text, not a number")

    def _check_reader(self, target: str, key: str, reader: Any) -> None:
        """Refuse a reader whose kind gives another type than the input's: presence for a number, a level for a flag"""
        wanted = reader_type(reader_data(reader) if not isinstance(reader, str) else {})
        field = system_module(self.system).Member.model_fields[key]
        have = "boolean" if field.annotation is bool else "number"
        if wanted and wanted != have:
            kind = "a yes/no reader (an advantage, a row without value)" if wanted == "boolean" else "a number reader"
            raise FieldProblem(f"{target}.attributes.{key}", f"is a {have} input; {kind} does not fit it")
        if isinstance(reader, SectionReader) and reader.points and reader.value is None:
            raise FieldProblem(f"{target}.attributes.{key}.points",
                               "needs a value: the points belong to a skill's level")
        agrees = getattr(reader, "agrees", None)
        if agrees is not None:
            inputs = member_inputs(self.system)
            if agrees.input not in inputs or agrees.input == key:
                raise FieldProblem(f"{target}.attributes.{key}.agrees.input",
                                   f"must be another input of {self.system}; one of {', '.join(inputs)}")
            constants = system_module(self.system).CONSTANTS
            tables = sorted(name for name, value in constants.items() if isinstance(value, dict))
            if agrees.table not in tables:
                raise FieldProblem(f"{target}.attributes.{key}.agrees.table",
                                   f"must be a table of the {self.system} rules; one of {', '.join(tables) or 'none'}")
        if isinstance(reader, SetAttributeReader):
            self._check_numbers(f"{target}.attributes.{key}", reader)

    def _check_numbers(self, where: str, reader: SetAttributeReader) -> None:
        """Refuse a reader's `requires` or `plus` that names no number constant of the rules"""
        numbers = sorted(name for name, value in system_module(self.system).CONSTANTS.items()
                         if isinstance(value, int) and not isinstance(value, bool))
        named = {"requires.constant": reader.requires.constant if reader.requires else None, "plus": reader.plus}
        for field, constant in named.items():
            if constant is not None and constant not in numbers:
                listed = ", ".join(numbers) or "none"
                raise FieldProblem(f"{where}.{field}", f"must be a number of the {self.system} rules; one of {listed}")

    @property
    def rules_options(self) -> BaseModel:
        """Return the house rules as the system's options, every default filled in"""
        return self._rules_options

    @property
    def foundry_system_id(self) -> str | None:
        """Return the Foundry game-system id, the system's default unless the campaign names one"""
        if "system_id" in self.foundry.model_fields_set:
            return self.foundry.system_id or None
        return foundry_defaults(self.system)["system_id"]

    @property
    def foundry_attributes(self) -> dict[str, dict[str, str]]:
        """Return the reader of each input the rules read, the campaign's or the system's defaults"""
        given = self.foundry.attributes
        defaults = foundry_defaults(self.system)
        # The defaults hold for the game system they were read from; another one asks in the dialog.
        fallback = defaults["attributes"] if self.foundry_system_id == defaults["system_id"] else {}
        readers = {k: reader_data(v) for k, v in given.items()} if given is not None else fallback
        return {key: foundry_reader(reader) for key, reader in sorted(readers.items())}

    @property
    def foundry_checked_versions(self) -> list[str]:
        """Return the versions of the Foundry game system ambush was checked against; none for a system of its own"""
        defaults = foundry_defaults(self.system)
        return defaults["versions"] if self.foundry_system_id == defaults["system_id"] else []

    @property
    def roll20_attributes(self) -> dict[str, dict[str, Any]]:
        """Return the sheet reader of each input the rules read, the campaign's or the system's defaults"""
        given = self.roll20.attributes
        readers = {k: reader_data(v) for k, v in given.items()} if given is not None else self._roll20_defaults()
        return {key: roll20_reader(reader) for key, reader in sorted(readers.items())}

    def _roll20_defaults(self) -> dict[str, Any]:
        """Return the sheet's default readers, without those of inputs an option reads that is off"""
        gated = option_gated_inputs(self.system)
        return {key: reader for key, reader in roll20_defaults(self.system).items()
                if key not in gated or getattr(self._rules_options, gated[key])}

    @property
    def roll20_user_ids(self) -> list[str]:
        """Return the authors' Roll20 user ids as digit strings; empty when the campaign names none"""
        return list(self.roll20.user_ids or [])

    @property
    def foundry_compatibility(self) -> dict[str, str]:
        """Return module.json's compatibility: every supported generation, and the build the GM checked it on if given

        ambush tests the module in emulations of V13 and V14 (docs/dev/foundry.md §1.1), never in a running Foundry,
        so it claims no verified build of its own.
        """
        verified = {"verified": self.foundry.verified} if self.foundry.verified else {}
        return {"minimum": FOUNDRY_GENERATIONS[0], **verified, "maximum": FOUNDRY_GENERATIONS[-1]}

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
        raise InputFileError(path, "system", f"unknown system {excerpt(system)}; one of {', '.join(SYSTEM_IDS)}")
    try:
        return Campaign.model_validate(data, strict=True)  # TOML types are exact: no 1 for true
    except ValidationError as err:
        raise InputFileError(path, *describe_first_error(err, system or "", root=Campaign)) from None


def options_model_of(system: str) -> type[BaseModel]:
    """Return the rules options model of a system"""
    return system_module(system).Options
