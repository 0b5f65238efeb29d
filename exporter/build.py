"""Build campaigns into VTT output: load, derive definitions, write every target into staging, move into place"""

from __future__ import annotations

import filecmp
import json
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from exporter._resources import example_campaigns
from exporter.campaign import PACKAGE_ID, Campaign, load_campaign
from exporter.definitions import build_definitions
from exporter.dist import OutputTree, sorted_files, zip_bytes
from exporter.errors import ExportError, InputFileError
from exporter.lock import STALE_SECONDS, folder_lock, holder, holder_gone, read_holder
from exporter.platforms import FOLDERS, PLATFORMS, SECTIONS, named, section_module

STAGING_PREFIX = ".ambush-staging-"
TARGET_FOLDERS = FOLDERS  # what write_campaign makes in a campaign's folder, with its zip
STAGING_HOLDER = ".holder"  # in a staging folder: the build that writes it (a campaign id holds no dot)


@dataclass
class BuildReport:
    """What a build wrote, or what --check found different"""

    written: list[Path] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def chosen_targets(campaign: Campaign, target: str) -> list[str]:
    """Return the targets to build: the campaign's own, narrowed by --target"""
    return [t for t in campaign.targets if target in ("all", t)]


@cache
def writer(target: str) -> Any:
    """Return the writer of a target, made once per process: its Jinja environment caches the templates"""
    return named(PLATFORMS[target].writer)()  # lazy: Jinja only when building


def zip_name(campaign: Campaign) -> str:
    """Return the file name of a campaign's zipped Foundry module"""
    return f"{campaign.id}-{campaign.version}.zip"


def write_campaign(campaign: Campaign, folder: Path, target: str, make_zip: bool) -> None:
    """Write one campaign's output into folder"""
    defs = build_definitions(campaign)
    tree = OutputTree(folder)
    for platform in chosen_targets(campaign, target):
        entry = PLATFORMS[platform]
        writer(platform).write(defs, folder / entry.folder, tree)
        if make_zip and entry.zipped:
            tree.write_bytes(folder / zip_name(campaign), zip_bytes(tree.under(folder / entry.folder)))
    tree.finish()


def platform_warnings(campaigns: list[Campaign], target: str) -> list[str]:
    """Say, per campaign, what it asks of a platform that the build cannot give (a Roll20 script to publish), and which
    inputs a sheet holds that its own reader table leaves out"""
    return [warning for c in campaigns for platform in chosen_targets(c, target) if platform in SECTIONS
            for warning in section_module(platform).build_warnings(c)]


def load_all(paths: list[Path]) -> dict[Path, Campaign]:
    """Load every campaign, by its file, refusing two that share an id"""
    campaigns: dict[Path, Campaign] = {}
    seen: dict[str, Path] = {}
    for path in paths:
        campaign = load_campaign(path)
        if campaign.id in seen:
            raise InputFileError(path, "id", f"{campaign.id!r} is also the id of {seen[campaign.id]}")
        seen[campaign.id] = path
        campaigns[path] = campaign
    return campaigns


def with_target(campaigns: dict[Path, Campaign], target: str) -> tuple[list[Campaign], list[str]]:
    """Return the campaigns that build the target, and a warning for each that does not; none at all is an error"""
    if target == "all":
        return list(campaigns.values()), []
    building = [campaign for campaign in campaigns.values() if target in campaign.targets]
    others = [(path, campaign) for path, campaign in campaigns.items() if target not in campaign.targets]
    if not building:
        path, campaign = others[0]
        raise InputFileError(path, "targets", f"builds {' and '.join(campaign.targets)}, not {target}: "
                                              f"nothing to build with --target {target}")
    return building, [f"{path}: skipped: it builds {' and '.join(campaign.targets)}, not {target}"
                      for path, campaign in others]


def missing_lines(missing: list[str], actual: Path, prefix: str) -> list[str]:
    """Name each missing file, and a missing folder once, with the files it would hold: a dist never built is a line"""
    counts: dict[str, int] = {}
    for rel in missing:
        parts = rel.split("/")
        gone = next((depth for depth in range(len(parts)) if not (actual / "/".join(parts[:depth])).is_dir()), None)
        key = f"{'/'.join([prefix, *parts[:gone]])}/" if gone is not None else f"{prefix}/{rel}"
        counts[key] = counts.get(key, 0) + 1
    return [f"missing: {key}" + (f" (a folder of {count} file{'s' if count > 1 else ''})" if key.endswith("/") else "")
            for key, count in counts.items()]


def tree_differences(expected: Path, actual: Path, prefix: str) -> list[str]:
    """List the files that are missing, extra or changed in actual compared with expected"""
    want = {p.relative_to(expected).as_posix() for p in sorted_files(expected)} if expected.is_dir() else set()
    have = {p.relative_to(actual).as_posix() for p in sorted_files(actual)} if actual.is_dir() else set()
    out = missing_lines(sorted(want - have), actual, prefix)
    out += [f"extra: {prefix}/{rel}" for rel in sorted(have - want)]
    out += [f"changed: {prefix}/{rel}" for rel in sorted(want & have)
            if not filecmp.cmp(expected / rel, actual / rel, shallow=False)]
    return out


def staging_root(out: Path) -> Path:
    """Create the staging folder next to the output folder, so moving into place is a rename; it names its build"""
    out.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out))
    (staging / STAGING_HOLDER).write_text(json.dumps(holder()), encoding="utf-8")
    return staging


def remove_dead_staging(out: Path) -> None:
    """Remove the staging folders of builds that were killed: their process is gone, or, where that cannot be told,
    they are older than an hour without naming their build"""
    try:
        found = [path for path in out.iterdir() if path.name.startswith(STAGING_PREFIX) and path.is_dir()]
    except OSError:
        return
    for staging in found:
        try:
            gone = holder_gone(read_holder((staging / STAGING_HOLDER).read_text(encoding="utf-8")))
        except OSError:
            gone = None
            try:
                if not (staging / STAGING_HOLDER).exists() and time.time() - staging.stat().st_mtime > 60 * STALE_SECONDS:
                    gone = True
            except OSError:
                continue
        if gone:
            shutil.rmtree(staging, ignore_errors=True)


def restore_interrupted(out: Path) -> None:
    """Finish the moves of a build killed while it moved its trees into place (it held the lock, which we hold now):
    a tree set aside whose place is empty goes back, one whose place holds the new tree goes"""
    try:
        retired = [path for path in out.iterdir() if path.name.startswith(".") and path.name.endswith(".old")
                   and PACKAGE_ID.fullmatch(path.name[1:].removesuffix(".old")) and built_tree(path)]
    except OSError:
        return
    for old in retired:
        final = old.with_name(old.name[1:].removesuffix(".old"))
        try:
            if final.exists() or final.is_symlink():
                remove_path(old)
            else:
                old.rename(final)
        except OSError:
            pass  # the next build tries again


def built_tree(folder: Path) -> bool:
    """Tell whether a folder holds only what a build writes for a campaign (its targets' folders and its zip), so a
    folder of the user's that happens to be named like a tree set aside is never touched"""
    entries = list(folder.iterdir()) if folder.is_dir() and not folder.is_symlink() else []
    return bool(entries) and all((entry.name in TARGET_FOLDERS and entry.is_dir()) or entry.suffix == ".zip"
                                 for entry in entries) and any(entry.name in TARGET_FOLDERS for entry in entries)


def remove_path(path: Path) -> None:
    """Remove a folder tree, a file or a symlink, if there is one"""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()


def move_into_place(moves: list[tuple[Path, Path]]) -> None:
    """Replace each final path with its staged tree, all or none: old trees go aside, back on failure"""
    done: list[tuple[Path, Path | None]] = []
    for staged, final in moves:
        retired = final.with_name(f".{final.name}.old")
        try:
            remove_path(retired)  # left over by an interrupted build
            had_old = final.exists() or final.is_symlink()
            if had_old:
                final.rename(retired)
            try:
                staged.rename(final)
            except OSError:
                if had_old:
                    retired.rename(final)
                raise
        except OSError as err:
            for moved, old in reversed(done):  # nothing is written on a failed build: put the old trees back
                try:
                    remove_path(moved)
                    if old is not None:
                        old.rename(moved)
                except OSError:
                    pass
            raise ExportError(f"{final}: cannot be replaced ({err.strerror})") from None
        done.append((final, retired if had_old else None))
    for _, old in done:
        if old is not None:
            try:
                remove_path(old)
            except OSError:
                pass  # the new tree is in place; the next build clears what is left


def write_all(campaigns: list[Campaign], staging: Path, target: str, make_zip: bool, jobs: int,
              progress: Callable[[str], None] | None) -> None:
    """Write every campaign into staging, in worker processes when jobs > 1"""
    if jobs <= 1 or len(campaigns) <= 1:
        for campaign in campaigns:
            write_campaign(campaign, staging / campaign.id, target, make_zip)
            if progress:
                progress(campaign.id)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    # Spawned workers: forking a process that holds threads or replaced standard streams can hang.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(campaigns)), mp_context=context) as pool:
        futures = {pool.submit(write_campaign, c, staging / c.id, target, make_zip): c.id for c in campaigns}
        for future in as_completed(futures):
            future.result()
            if progress:
                progress(futures[future])


def build_campaigns(paths: list[Path], out: Path, target: str = "all", make_zip: bool | None = True,
                    check: bool = False, progress: Callable[[str], None] | None = None, jobs: int = 1,
                    adjust: Callable[[Path, Campaign], Campaign] | None = None) -> BuildReport:
    """Build each campaign (the bundled examples when none is named) into out/ID/, or compare with --check

    make_zip None zips as a build does, and a check then compares the zip only where out/ID/ holds one (a build with
    --no-zip left none). adjust, when given, changes each loaded campaign before it is built (a release sets its URLs).
    """
    loaded = load_all(paths or example_campaigns())
    if adjust is not None:
        loaded = {path: adjust(path, campaign) for path, campaign in loaded.items()}
    campaigns, skipped = with_target(loaded, target)
    if out.exists() and not out.is_dir():
        raise InputFileError(out, None, "cannot write the output folder: it is a file")
    report = BuildReport(warnings=skipped + ([] if check else platform_warnings(campaigns, target)))
    created = not out.exists()
    if not check and out.is_dir():
        remove_dead_staging(out)
    try:
        staging = staging_root(out) if not check else Path(tempfile.mkdtemp(prefix="ambush-check-"))
    except OSError as err:
        raise InputFileError(out, None, f"cannot write the output folder ({err.strerror})") from None
    try:
        write_all(campaigns, staging, target, make_zip is not False, jobs, progress)
        if check:
            # A build into out waits for the lock, so no tree is renamed while it is compared.
            with folder_lock(out, needed=False):
                for campaign in campaigns:
                    built = out / campaign.id
                    if make_zip is None and built.is_dir() and not (built / zip_name(campaign)).exists():
                        (staging / campaign.id / zip_name(campaign)).unlink(missing_ok=True)  # built with --no-zip
                    report.differences += tree_differences(staging / campaign.id, built, campaign.id)
            return report
        with folder_lock(out):  # another build into the same folder waits here, so trees never mix
            restore_interrupted(out)
            move_into_place([(staging / campaign.id, out / campaign.id) for campaign in campaigns])
        report.written += [out / campaign.id for campaign in campaigns]
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if created and not check and out.is_dir() and not any(out.iterdir()):
            out.rmdir()  # a failed build into a new folder leaves nothing behind
    return report
