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

# A repository's web address: the server, the owner and the name (GitHub, or a GitHub Enterprise server).
REPOSITORY = re.compile(r"https://[A-Za-z0-9.-]+(?::[0-9]+)?/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
WORKFLOW_PATH = Path(".github/workflows/release.yml")


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
    """Return the campaign with its release's URLs, refusing URLs of its own that point elsewhere"""
    urls = release_urls(repository, tag, campaign.id, campaign.version)
    for key in ("manifest", "download"):
        given = campaign.release_url(getattr(campaign.foundry, key))
        if given is not None and given != getattr(urls, key):
            raise InputFileError(path, f"foundry.{key}", f"is {given}, but the release serves "
                                                         f"{getattr(urls, key)}; leave it out: the release sets it")
    foundry = campaign.foundry.model_copy(update={"manifest": urls.manifest, "download": urls.download})
    return campaign.model_copy(update={"foundry": foundry})


@dataclass
class Release:
    """What a release wrote, or why its build is not reproducible"""

    files: list[Path] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)


def page_asset(campaign_id: str, version: str) -> str:
    """Return the file name of a campaign's web page in a release: a GM keeps the page, so it names its version"""
    return f"{campaign_id}-{version}.html"


def release_names(campaign: Campaign) -> dict[str, str]:
    """Return the files one campaign adds to a release: each one's name there, and its path in the campaign's build"""
    from exporter.build import zip_name
    from exporter.targets.roll20 import script_name
    from exporter.targets.web import PAGE

    files: dict[str, str] = {}
    if "foundry" in campaign.targets:
        files[zip_name(campaign)] = zip_name(campaign)
        files[manifest_asset(campaign.id)] = "foundry/module.json"
    if "roll20" in campaign.targets:
        files[f"{script_name(campaign.id)}.js"] = f"roll20/{script_name(campaign.id)}.js"
    if "web" in campaign.targets:
        files[page_asset(campaign.id, campaign.version)] = f"web/{PAGE}"
    return files


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
    from exporter.targets.roll20 import script_name

    foundry = [c for c in campaigns.values() if "foundry" in c.targets]
    roll20 = [c for c in campaigns.values() if "roll20" in c.targets]
    web = [c for c in campaigns.values() if "web" in c.targets]
    lines: list[str] = []
    if foundry:
        lines += ["Foundry VTT: in *Add-on Modules*, *Install Module*, paste the manifest URL of the module:", ""]
        lines += [f"- {c.title} ({c.id} {c.version}): `{release_urls(repository, tag, c.id, c.version).manifest}`"
                  for c in foundry]
        lines.append("")
    if roll20:
        lines += ["Roll20: paste the script into *Settings > Mod (API) Scripts* of your game:", ""]
        lines += [f"- {c.title}: `{script_name(c.id)}.js`" for c in roll20]
        lines.append("")
    if web:
        lines += ["Without a VTT: download the page and open it in a browser; it works offline, from the file:", ""]
        lines += [f"- {c.title}: `{page_asset(c.id, c.version)}`" for c in web]
        lines.append("")
    return "\n".join(lines)


def workflow_text() -> str:
    """Return the release workflow of a campaign's repository, installing this version of ambush (docs/release.md)"""
    project = project_metadata()
    tagged = f"{project['repository']}@v{project['version']}"
    text = (templates_root() / "init" / "release.yml").read_text(encoding="utf-8")
    return (text.replace("AMBUSH_REQUIREMENT", f"ambush @ git+{tagged}")
            .replace("AMBUSH_RELEASE_DOCS", f"{project['repository']}/blob/v{project['version']}/docs/release.md"))
