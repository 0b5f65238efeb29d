"""The files of a GitHub release of campaigns, with the manifest and download URLs Foundry installs and updates from"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from exporter._resources import project_metadata, templates_root
from exporter.campaign import Campaign
from exporter.dist import normalise_tree, write_text
from exporter.errors import ExportError, InputFileError
from exporter.excerpt import excerpt
from exporter.platforms import PLATFORM_IDS, release_module

# A repository's web address: the server, the owner and the name (GitHub, or a GitHub Enterprise server).
REPOSITORY = re.compile(r"https://[A-Za-z0-9.-]+(?::[0-9]+)?/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
WORKFLOW_PATH = Path(".github/workflows/release.yml")


def checked_repository(repository: str) -> str:
    """Return a repository's web address, or refuse one that is not of the form https://SERVER/OWNER/NAME"""
    if not REPOSITORY.fullmatch(repository) or repository.endswith(".git"):
        raise ExportError(f"--repository: {excerpt(repository)} is not a repository's web address like "
                          "https://github.com/OWNER/NAME")
    return repository


def checked_tag(path: Path, campaign: Campaign, tag: str) -> None:
    """Refuse a release whose tag is not v and the campaign's version: Foundry updates only to a higher version"""
    if tag == campaign.version:  # the release workflow runs on tags v*: a tag without its v releases nothing there
        raise ExportError(f"--tag: {tag!r} is the version without its v: tag v{campaign.version}")
    if tag != f"v{campaign.version}":
        raise InputFileError(path, "version", f"is {campaign.version}, but the release is tagged {tag}: "
                                              f"tag v{campaign.version}, or give the campaign the tag's version")


def with_release_urls(path: Path, campaign: Campaign, repository: str, tag: str) -> Campaign:
    """Return the campaign as its release builds it: each platform sets its release's URLs, if it has any"""
    for platform in PLATFORM_IDS:
        campaign = release_module(platform).with_release(path, campaign, repository, tag)
    return campaign


@dataclass
class Release:
    """What a release wrote, or why its build is not reproducible"""

    files: list[Path] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)


def release_names(campaign: Campaign) -> dict[str, str]:
    """Return the files one campaign adds to a release: each one's name there, and its path in the campaign's build"""
    return {name: built for platform in PLATFORM_IDS if platform in campaign.targets
            for name, built in release_module(platform).release_files(campaign).items()}


def checked_names(campaigns: dict[Path, Campaign]) -> None:
    """Refuse a campaign that gives no release file, or a file another campaign of the release gives too"""
    owners: dict[str, Path] = {}
    for path, campaign in campaigns.items():
        names = release_names(campaign)
        if not names:
            raise InputFileError(path, "targets", f"{', '.join(campaign.targets)}: no target with a file to release, "
                                                  "so there is nothing to publish")
        for name in names:
            if name in owners:
                raise InputFileError(path, "id", f"gives the release file {name}, as {owners[name]} does")
            owners[name] = path


def checked_out(out: Path) -> None:
    """Refuse an output folder that holds files (they would be attached too) or whose parent is missing"""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise InputFileError(out, None, "exists and is not an empty folder; a release is written into a new folder")
    if not out.parent.is_dir():
        raise InputFileError(out, None, f"cannot be written: the folder {out.parent} does not exist")


def build_release(paths: list[Path], repository: str, tag: str, out: Path, notes: Path | None = None) -> Release:
    """Build campaigns twice with their release URLs and write the release's files into out, all or nothing"""
    from exporter.build import build_campaigns, load_all  # lazy: publishing needs only the URLs

    checked_repository(repository)
    if not paths:
        raise ExportError("no campaign to release")
    loaded = load_all(paths)
    for path, campaign in loaded.items():
        checked_tag(path, campaign, tag)
        with_release_urls(path, campaign, repository, tag)
    checked_names(loaded)
    checked_out(out)
    if notes is not None and not notes.parent.is_dir():
        raise InputFileError(notes, None, f"cannot be written: the folder {notes.parent} does not exist")

    def adjust(path: Path, campaign: Campaign) -> Campaign:
        return with_release_urls(path, campaign, repository, tag)

    staging = Path(tempfile.mkdtemp(prefix=".ambush-release-", dir=out.parent))
    try:
        build_campaigns(list(loaded), staging / "build", adjust=adjust)
        # A second build must find nothing to change: the files are what this input always gives.
        report = build_campaigns(list(loaded), staging / "build", check=True, adjust=adjust)
        if report.differences:
            return Release(differences=report.differences)
        assets = staging / "assets"
        assets.mkdir()
        written: list[Path] = []
        for campaign in loaded.values():
            for name, built in release_names(campaign).items():
                shutil.copyfile(staging / "build" / campaign.id / built, assets / name)
                written.append(out / name)
        normalise_tree(assets)
        if out.exists():
            out.rmdir()
        assets.rename(out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    if notes is not None:
        write_text(notes, release_notes(loaded, repository, tag))
    return Release(files=sorted(written))


def release_notes(campaigns: dict[Path, Campaign], repository: str, tag: str) -> str:
    """Return the release notes: how a GM installs each module and script of the release, and opens each page"""
    lines: list[str] = []
    for platform in PLATFORM_IDS:
        building = [c for c in campaigns.values() if platform in c.targets]
        if building:
            lines += release_module(platform).release_notes(building, repository, tag)
    return "\n".join(lines)


def workflow_text() -> str:
    """Return the release workflow of a campaign's repository, installing this version of ambush (docs/release.md)"""
    project = project_metadata()
    tagged = f"{project['repository']}@v{project['version']}"
    text = (templates_root() / "init" / "release.yml").read_text(encoding="utf-8")
    return (text.replace("AMBUSH_REQUIREMENT", f"ambush @ git+{tagged}")
            .replace("AMBUSH_RELEASE_DOCS", f"{project['repository']}/blob/v{project['version']}/docs/release.md"))
