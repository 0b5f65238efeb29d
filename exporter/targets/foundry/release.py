"""The Foundry module in a GitHub release: its zip and its manifest, the URLs Foundry installs and updates from"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from exporter.errors import InputFileError

if TYPE_CHECKING:
    from exporter.campaign import Campaign


@dataclass(frozen=True)
class ReleaseUrls:
    """Where one module of a release is found

    Foundry reads `manifest` for updates, so module.json names the latest release's; `download` is this release's zip
    (foundryvtt.com's package management article, "Package Manifest URL"; docs/release.md). foundryvtt.com lists a
    version by its own manifest, `version_manifest`, whose zip never changes.
    """

    manifest: str
    download: str
    version_manifest: str
    notes: str


def manifest_asset(campaign_id: str) -> str:
    """Return the file name of a module's module.json in a release: one release may carry several modules"""
    return f"{campaign_id}.json"


def release_urls(repository: str, tag: str, campaign_id: str, version: str) -> ReleaseUrls:
    """Return a module's URLs in the GitHub release of tag (GitHub serves the latest release's files under latest/)"""
    asset = manifest_asset(campaign_id)
    return ReleaseUrls(manifest=f"{repository}/releases/latest/download/{asset}",
                       download=f"{repository}/releases/download/{tag}/{campaign_id}-{version}.zip",
                       version_manifest=f"{repository}/releases/download/{tag}/{asset}",
                       notes=f"{repository}/releases/tag/{tag}")


def with_release(path: Path, campaign: Campaign, repository: str, tag: str) -> Campaign:
    """Return the campaign with its release's URLs, refusing URLs of its own that point elsewhere"""
    urls = release_urls(repository, tag, campaign.id, campaign.version)
    for key in ("manifest", "download"):
        given = campaign.release_url(getattr(campaign.foundry, key))
        if given is not None and given != getattr(urls, key):
            raise InputFileError(path, f"foundry.{key}", f"is {given}, but the release serves "
                                                         f"{getattr(urls, key)}; leave it out: the release sets it")
    foundry = campaign.foundry.model_copy(update={"manifest": urls.manifest, "download": urls.download})
    return campaign.model_copy(update={"foundry": foundry})


def release_files(campaign: Campaign) -> dict[str, str]:
    """Return the module's files in a release, each one's name there and its path in the campaign's build"""
    from exporter.build import zip_name  # lazy: publishing needs only the URLs

    return {zip_name(campaign): zip_name(campaign), manifest_asset(campaign.id): "foundry/module.json"}


def release_notes(campaigns: list[Campaign], repository: str, tag: str) -> list[str]:
    """Return the lines of the release notes that tell a GM how to install each module"""
    return ["Foundry VTT: in *Add-on Modules*, *Install Module*, paste the manifest URL of the module:", "",
            *(f"- {c.title} ({c.id} {c.version}): `{release_urls(repository, tag, c.id, c.version).manifest}`"
              for c in campaigns), ""]
