"""What the tables of campaign.toml share: addresses, names and sheet readers, for the campaign and each platform

A platform's own table (its section model, exporter/targets/<platform>/section.py) builds on these; the campaign
(exporter/campaign.py) checks each reader against the rules, whichever platform reads it.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import StringConstraints, ValidationError

from exporter.excerpt import excerpt
from exporter.limits import URL_CHARACTERS
from exporter.rules.models import StrictModel
from exporter.rules.shared import FieldProblem, one_line
from exporter.toml_text import toml_value
from exporter.validation import describe_first_error

URL = re.compile(r"https?://[^\s\"'<>\\]+")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
URL_PLACEHOLDERS = ("{id}", "{version}")

Url = Annotated[str, StringConstraints(max_length=URL_CHARACTERS)]
EntryName = Annotated[str, StringConstraints(min_length=1, max_length=100, pattern=r"^[^\x00-\x1f\x7f`]+$")]
InputKey = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,40}$")]


def http_address(value: str | None) -> str | None:
    """Refuse an address that is not an http(s) URL of one line without spaces or quotes"""
    if value is not None and not URL.fullmatch(one_line(value)):
        raise ValueError("must be an http(s) URL without spaces or quotes")
    return value


def release_address(value: str | None) -> str | None:
    """Refuse a release URL template that is no http(s) URL or has a placeholder other than {id} and {version}"""
    if http_address(value) is None:
        return value
    for placeholder in PLACEHOLDER.findall(value):
        if placeholder not in URL_PLACEHOLDERS:
            raise ValueError(f"has the placeholder {placeholder}; only {{id}} and {{version}} are filled in")
    if "{" in PLACEHOLDER.sub("", value) or "}" in PLACEHOLDER.sub("", value):
        raise ValueError("has an unmatched { or }; only {id} and {version} are filled in")
    return value


class AgreementCheck(StrictModel):
    """Another input the value must agree with through a table of the rules (AD&D: Dexterity and its adjustment)"""

    input: InputKey
    table: InputKey


class Reader(StrictModel):
    """A reader given as a table; what else it names of the rules it checks itself"""

    def check(self, system: str, constants: dict[str, Any], where: str) -> None:
        """Refuse what the reader names that the rules of system do not have; where is the reader's field path"""


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


def reader_data(reader: Any) -> Any:
    """Return a reader as plain data: a string, or a table without its unset optional keys"""
    return reader if isinstance(reader, str) else reader.model_dump(exclude_none=True, exclude_defaults=False)


def reader_type(reader: dict[str, Any]) -> str | None:
    """Return the input type a reader gives: boolean for an entry's presence, number for a level; None: any"""
    if "advantage" in reader or ("section" in reader and "value" not in reader):
        return "boolean"
    if "skill" in reader or "value" in reader:
        return "number"
    return None


def readers_left_out(campaign_id: str, table: str, given: dict[str, Any] | None, defaults: dict[str, Any]) -> list[str]:
    """Say, one warning each, which inputs the house rules read and the platform's sheet holds (`defaults`, those it
    reads), but the campaign's own reader table (`given`, None where it gives none) leaves out: they are asked at the
    table, which a GM who switched a house rule on after `ambush init` may not expect"""
    if given is None:
        return []
    return [f"{campaign_id}: {table} has no reader for {key}, which the rules read: it is asked at the table, not read "
            f"from the sheet; the sheet's reader is {key} = {toml_value(reader)}"
            for key, reader in sorted(defaults.items()) if key not in given]
