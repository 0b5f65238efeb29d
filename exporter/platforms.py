"""The registry of platforms: each platform id and where its writer, its campaign section and its release files live

A platform is what a campaign builds for: a virtual tabletop or the web page. Adding one means one entry here and the
package it names under exporter/targets/: a writer class with write(defs, folder), a module with release_files,
release_notes and with_release (exporter/release.py reads them), its own commands if it has any (click commands the
command line lists beside its own), and where the campaign has a table for it, a section module with its model Section
(whose `attributes` map inputs to readers), target_settings(campaign), build_warnings(campaign) and
init_context(system) (what `ambush init` writes into the table). Nothing outside this
module and that package names the platform (tests/test_platforms.py); this module imports none of them until asked,
so the campaign and the command line load without Jinja.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, NamedTuple


class PlatformEntry(NamedTuple):
    """One platform: its writer, campaign section and release modules, what the build makes, how help text names it"""

    writer: str  # module.Class of the writer
    section: str | None  # the module of the campaign's table for this platform, if it has one
    release: str  # the module with release_files, release_notes and with_release
    folder: str  # the folder the build writes in a campaign's output folder
    noun: str  # what the build makes, as help text names it: "Foundry module"
    zipped: bool = False  # the build also packs the folder as <id>-<version>.zip (--zip)
    default: bool = False  # a campaign that names no targets builds it
    capabilities: tuple[str, ...] = ()  # what the platform offers that a setting may need (SettingDef.needs)
    commands: tuple[tuple[str, str], ...] = ()  # its own commands: (name, module.command), imported when asked for


PLATFORMS: dict[str, PlatformEntry] = {
    "foundry": PlatformEntry("exporter.targets.foundry.writer.FoundryWriter", "exporter.targets.foundry.section",
                             "exporter.targets.foundry.release",
                             "foundry", "Foundry module", zipped=True, default=True,
                             # docs/dev/foundry.md §7: only Foundry's combat has a beginning the module hears first
                             capabilities=("combat-start",),
                             commands=(("publish", "exporter.targets.foundry.commands.publish"),)),
    "roll20": PlatformEntry("exporter.targets.roll20.writer.Roll20Writer", "exporter.targets.roll20.section",
                            "exporter.targets.roll20.release",
                            "roll20", "Roll20 script", default=True),
    "web": PlatformEntry("exporter.targets.web.writer.WebWriter", None, "exporter.targets.web.release", "web",
                         "web page"),
}
PLATFORM_IDS = tuple(PLATFORMS)
DEFAULT_PLATFORMS = tuple(name for name, entry in PLATFORMS.items() if entry.default)
FOLDERS = tuple(entry.folder for entry in PLATFORMS.values())  # what a build makes in a campaign's folder, with its zip
SECTIONS = tuple(name for name, entry in PLATFORMS.items() if entry.section is not None)
PLATFORM_COMMANDS = {name: command for entry in PLATFORMS.values() for name, command in entry.commands}

# What a campaign's id and version must be for every platform to take them: the strictest rule, Foundry's package id
# (docs/dev/foundry.md §1), and versions the VTTs compare part by part as JavaScript numbers.
ID_RULE = ("must be a Foundry package id: lower-case letters, digits, - and _, not an OS-reserved name such as con "
           "or nul")
VERSION_COMPARERS = "Foundry and Roll20"


def named(dotted: str) -> Any:
    """Return what a dotted name of the registry names, importing its module"""
    module, _, name = dotted.rpartition(".")
    return getattr(import_module(module), name)


def section_module(platform: str) -> Any:
    """Return the module of a platform's table in campaign.toml: Section, target_settings, build_warnings"""
    return import_module(PLATFORMS[platform].section or "")


def release_module(platform: str) -> Any:
    """Return the module that names a platform's release files and notes"""
    return import_module(PLATFORMS[platform].release)


def listed(nouns: list[str]) -> str:
    """Join nouns as help text lists them: a, b and c"""
    return nouns[0] if len(nouns) == 1 else f"{', '.join(nouns[:-1])} and {nouns[-1]}"


def nouns() -> str:
    """Name what a build makes, for help text: Foundry module, Roll20 script and web page"""
    return listed([entry.noun for entry in PLATFORMS.values()])


def every_noun() -> str:
    """Name each thing a build makes, for help text: the Foundry module, the Roll20 script and the web page"""
    return listed([f"the {entry.noun}" for entry in PLATFORMS.values()])


def zipped_noun() -> str:
    """Name what --zip packs, for help text: the Foundry module"""
    return listed([f"the {entry.noun}" for entry in PLATFORMS.values() if entry.zipped])
