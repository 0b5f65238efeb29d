"""The table's common modules as one build ships them, for the Node tests that import them without a VTT"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from exporter._resources import templates_root
from exporter.campaign import load_campaign
from exporter.definitions import build_definitions
from exporter.targets.config_js import ConfigEntry, render_config
from exporter.rules.systems import SYSTEM_IDS
from exporter.targets.environment import make_environment
from exporter.targets.modules import system_entry, system_entry_path


def campaign_text(system: str, options: dict, campaign_id: str = "common-tree") -> str:
    """Return a campaign.toml of one system and its rules options"""
    lines = [f'id = "{campaign_id}"', 'title = "Common tree"', 'version = "1.0.0"', f'system = "{system}"',
             'languages = ["en"]', "[options]"]
    return "\n".join(lines + [f"{key} = {json.dumps(value)}" for key, value in options.items()]) + "\n"


def write_common_tree(folder: Path, system: str, options: dict | None = None,
                      entries: list[ConfigEntry] | None = None) -> Path:
    """Write folder/common/: the common modules as a build ships them, and the config.js a campaign of these options gets (with
    the entries a target adds, when given)"""
    campaign = folder / "campaign.toml"
    folder.mkdir(parents=True, exist_ok=True)
    campaign.write_text(campaign_text(system, options or {}), encoding="utf-8")
    defs = build_definitions(load_campaign(campaign))
    shutil.copytree(templates_root() / "common", folder / "common", dirs_exist_ok=True)
    for each in SYSTEM_IDS:  # the systems' entries, which the build writes
        (folder / system_entry_path(each)).parent.mkdir(exist_ok=True)
        (folder / system_entry_path(each)).write_text(system_entry(each), encoding="utf-8")
    config = render_config(make_environment("foundry"), defs, "a test tree", entries or [])
    (folder / "common" / "config.js").write_text(config, encoding="utf-8")
    return folder
