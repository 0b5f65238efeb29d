"""The web page in a GitHub release: one HTML file a GM downloads and opens, named with its version"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from exporter.targets.web.writer import PAGE

if TYPE_CHECKING:
    from exporter.campaign import Campaign


def page_asset(campaign_id: str, version: str) -> str:
    """Return the file name of a campaign's web page in a release: a GM keeps the page, so it names its version"""
    return f"{campaign_id}-{version}.html"


def with_release(path: Path, campaign: Campaign, repository: str, tag: str) -> Campaign:
    """Return the campaign as a release builds it: the page names no release URL"""
    return campaign


def release_files(campaign: Campaign) -> dict[str, str]:
    """Return the page's file in a release, its name there and its path in the campaign's build"""
    return {page_asset(campaign.id, campaign.version): f"web/{PAGE}"}


def release_notes(campaigns: list[Campaign], repository: str, tag: str) -> list[str]:
    """Return the lines of the release notes that tell a GM how to open each page"""
    return ["Without a VTT: download the page and open it in a browser; it works offline, from the file:", "",
            *(f"- {c.title}: `{page_asset(c.id, c.version)}`" for c in campaigns), ""]
