"""Write a new, commented campaign.toml for a system"""

from __future__ import annotations

import os
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from exporter._resources import templates_root
from exporter.campaign import load_campaign, member_inputs
from exporter.dist import write_text
from exporter.errors import InputFileError
from exporter.options import system_options, value_names
from exporter.platforms import SECTIONS, section_module
from exporter.release import WORKFLOW_PATH, workflow_text
from exporter.rules.shared import gate_text
from exporter.rules.systems import SYSTEM_IDS, SYSTEMS, system_module, unread_inputs
from exporter.toml_text import toml_value


def gated_off(system: str) -> dict[str, str]:
    """Return the inputs the system's default house rules do not read, each with the rule that would read it"""
    return {key: gate_text(gate) for key, gate in unread_inputs(system, system_module(system).DEFAULT_OPTIONS).items()}


def campaign_text(system: str, campaign_id: str) -> str:
    """Render the commented campaign.toml of a system"""
    env = Environment(loader=FileSystemLoader(str(templates_root() / "init")), undefined=StrictUndefined,
                      keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    env.filters["toml"] = toml_value
    return env.get_template("campaign.toml").render(
        id=campaign_id, title=SYSTEMS[system].title, system=system, system_ids=SYSTEM_IDS,
        options=[{"name": o.name, "default": o.default, "meaning": o.meaning,
                  "values_text": value_names(o).replace('"', "")} for o in system_options(system)],
        inputs=member_inputs(system), gated=gated_off(system),
        **{name: value for platform in SECTIONS
           for name, value in section_module(platform).init_context(system).items()},
    )


def workflow_path(campaign: Path) -> Path:
    """Return where the release workflow of a campaign goes: beside it, the campaign's folder the repository's root"""
    return campaign.parent / WORKFLOW_PATH


CAMPAIGN_FILE = "campaign.toml"


def campaign_file(given: str) -> Path:
    """Return the file init writes for a PATH as typed: the file, or campaign.toml in the folder it names

    A folder is one that exists, or a new one typed with a separator at its end (mycamp/) or without the .toml a
    campaign file ends in (mycamp): a file named mycamp would be no campaign any command looks for.
    """
    path = Path(given)
    folder = given.endswith(("/", os.sep)) or path.is_dir() or path.suffix.lower() != ".toml"
    return path / CAMPAIGN_FILE if folder else path


def init_campaign(system: str, target: Path, workflow: bool = False) -> Path:
    """Write a new campaign.toml at target (its folder made as needed) and check it loads

    With workflow, also the release workflow beside it (workflow_path); nothing is written when either file exists.
    """
    for existing in [target, *([workflow_path(target)] if workflow else [])]:
        if existing.exists():
            raise InputFileError(existing, None, "already exists; choose another path")
    campaign_id = "ambush-" + system.replace("-ttrpg", "").replace("4e", "").replace("1e", "")
    write_text(target, campaign_text(system, campaign_id))
    load_campaign(target)
    if workflow:
        write_text(workflow_path(target), workflow_text())
    return target
