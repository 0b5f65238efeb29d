"""Who and what a generated module is, and what the campaign tells each target, as plain data"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Author:
    """One author of the generated module; only name is required"""

    name: str
    email: str | None = None
    url: str | None = None
    discord: str | None = None


@dataclass(frozen=True)
class ModuleInfo:
    """The module's identity: id, title, version, description, authors, languages and the default one"""

    id: str
    title: str
    version: str
    description: str
    authors: tuple[Author, ...]
    languages: tuple[str, ...]
    default_language: str


@dataclass(frozen=True)
class TargetSettings:
    """What the campaign gives one target, passed on untouched: the sheet reader of each input, and its settings"""

    attributes: dict[str, dict[str, Any]]
    settings: dict[str, Any]
