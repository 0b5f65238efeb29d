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
    create_model,
    field_validator,
    model_validator,
)

from exporter.campaign_fields import Reader, Url, http_address, reader_data, reader_type
from exporter.errors import InputFileError
from exporter.excerpt import excerpt
from exporter.lang import bundled_language
from exporter.lang.messages import MessageError, arguments, choice_counts
from exporter.lang.placeholders import kind
from exporter.limits import (
    AUTHORS, DESCRIPTION_CHARACTERS, LINE_CHARACTERS, STRING_CHARACTERS, TITLE_CHARACTERS, VERSION_CHARACTERS,
)
from exporter.platforms import (
    DEFAULT_PLATFORMS, ID_RULE, PLATFORM_IDS, SECTIONS, VERSION_COMPARERS, section_module,
)
from exporter.rules.declared import declared_fields
from exporter.rules.models import StrictModel, model_of
from exporter.rules.shared import FieldProblem, gate_text, one_line, visible
from exporter.rules.systems import SYSTEM_IDS, system_module, unread_inputs
from exporter.validation import describe_first_error, read_toml

SystemId = Literal[SYSTEM_IDS]  # type: ignore[valid-type]  # the registry's ids
Language = Literal["en", "de", "zh-CN"]
Target = Literal[PLATFORM_IDS]  # type: ignore[valid-type]  # the platform registry's ids
LANGUAGES: tuple[Language, ...] = ("en", "de", "zh-CN")
TARGETS: tuple[str, ...] = PLATFORM_IDS
DEFAULT_TARGETS: tuple[str, ...] = DEFAULT_PLATFORMS  # a campaign that names none: the two VTTs

# docs/dev/foundry.md §1: package ids match /^[A-Za-z0-9-_]+$/ and are no OS-reserved name; we keep them lower-case
# (ID_RULE).
PACKAGE_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
RESERVED_IDS = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}
VERSION = re.compile(r"([0-9]+)\.([0-9]+)\.([0-9]+)(?:[-+][0-9A-Za-z.-]+)?")
# Foundry compares versions part by part, numbers as JavaScript numbers
# (https://foundryvtt.com/api/v14/functions/foundry.utils.isNewerVersion.html), exact only up to 2^53 - 1; npm's semver
# refuses a larger part for the same reason (npm/node-semver classes/semver.js, MAX_SAFE_INTEGER).
LARGEST_VERSION_PART = 2**53 - 1
Title = Annotated[str, StringConstraints(min_length=1, max_length=TITLE_CHARACTERS), AfterValidator(visible)]
OneLine = Annotated[str, StringConstraints(max_length=LINE_CHARACTERS), AfterValidator(one_line)]
Override = Annotated[str, StringConstraints(max_length=STRING_CHARACTERS)]


def member_inputs(system: str) -> tuple[str, ...]:
    """Return the per-member inputs the rules of a system read (every member field but the name)"""
    return tuple(field for field in declared_fields(system_module(system).Member) if field != "name")


class Author(StrictModel):
    """One author of the generated module"""

    name: Title
    email: OneLine | None = None
    url: Annotated[Url, AfterValidator(http_address)] | None = None
    discord: OneLine | None = None


class CampaignFields(StrictModel):
    """What a campaign.toml holds besides each platform's table and the string overrides: Campaign adds those"""

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
    _rules_options: BaseModel = PrivateAttr()  # options, validated once by _consistent

    @field_validator("id")
    @classmethod
    def _package_id(cls, value: str) -> str:
        if not PACKAGE_ID.fullmatch(value) or value in RESERVED_IDS:
            raise ValueError(ID_RULE)
        return value

    @field_validator("version")
    @classmethod
    def _version(cls, value: str) -> str:
        matched = VERSION.fullmatch(value)
        if not matched:
            raise ValueError("must be a version like 1.2.0")
        if any(int(part) > LARGEST_VERSION_PART for part in matched.groups()):
            raise ValueError(f"has a number above {LARGEST_VERSION_PART}, which {VERSION_COMPARERS} cannot compare "
                             "exactly: give a version like 1.2.0")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> CampaignFields:
        self._check_languages()
        if not self.targets or len(set(self.targets)) != len(self.targets):
            raise FieldProblem("targets", f"must name {', '.join(PLATFORM_IDS)} or several, once each")
        options_model = options_model_of(self.system)
        try:
            self._rules_options = options_model.model_validate(self.options, strict=True)
        except ValidationError as err:
            field, message = describe_first_error(err, self.system, options_model_of, root=options_model)
            raise FieldProblem(f"options.{field}" if field else "options", message) from None
        self._check_strings()
        inputs = member_inputs(self.system)
        unread = unread_inputs(self.system, self._rules_options)
        for target in SECTIONS:
            mapping = getattr(self, target).attributes
            for key in mapping or {}:
                if key not in inputs:
                    raise FieldProblem(f"{target}.attributes.{key}",
                                       f"is not an input of {self.system}; one of {', '.join(inputs)}")
                if key in unread:
                    raise FieldProblem(f"{target}.attributes.{key}", f"is read only with {gate_text(unread[key])}")
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
        field = declared_fields(system_module(self.system).Member)[key]
        have = "boolean" if field.type is bool else "number"
        if wanted and wanted != have:
            kind = "a yes/no reader (an advantage, a row without value)" if wanted == "boolean" else "a number reader"
            raise FieldProblem(f"{target}.attributes.{key}", f"is a {have} input; {kind} does not fit it")
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
        if isinstance(reader, Reader):
            reader.check(self.system, system_module(self.system).CONSTANTS, f"{target}.attributes.{key}")

    @property
    def rules_options(self) -> BaseModel:
        """Return the house rules as the system's options, every default filled in"""
        return self._rules_options

    def release_url(self, template: str | None) -> str | None:
        """Fill {id} and {version} into a release URL template"""
        if template is None:
            return None
        return template.replace("{id}", self.id).replace("{version}", self.version)


def platform_field(platform: str) -> tuple[Any, Any]:
    """Return the field of a platform's table in the campaign: its model, all defaults when the file has none"""
    section = section_module(platform).Section
    return section, Field(default_factory=section)


# The campaign adds each platform's table (exporter/platforms.py) after the options, then the string overrides.
Campaign = create_model(  # type: ignore[call-overload]
    "Campaign", __base__=CampaignFields, __module__=__name__,
    __doc__="A campaign.toml: module metadata, the rules system, house rules and per-target mappings",
    **{platform: platform_field(platform) for platform in SECTIONS},
    strings=(dict[Language, dict[str, Override]], Field(default_factory=dict)),
)


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
    return model_of(system_module(system).Options)
