"""The Roll20 script in a GitHub release: the script file a GM pastes into the Mod page"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from exporter.targets.roll20.writer import script_name

if TYPE_CHECKING:
    from exporter.campaign import Campaign


def with_release(path: Path, campaign: Campaign, repository: str, tag: str) -> Campaign:
    """Return the campaign as a release builds it: the script names no release URL"""
    return campaign


def release_files(campaign: Campaign) -> dict[str, str]:
    """Return the script's file in a release, its name there and its path in the campaign's build"""
    return {f"{script_name(campaign.id)}.js": f"roll20/{script_name(campaign.id)}.js"}


def release_notes(campaigns: list[Campaign], repository: str, tag: str) -> list[str]:
    """Return the lines of the release notes that tell a GM how to install each script"""
    return ["Roll20: paste the script into *Settings > Mod (API) Scripts* of your game:", "",
            *(f"- {c.title}: `{script_name(c.id)}.js`" for c in campaigns), ""]
