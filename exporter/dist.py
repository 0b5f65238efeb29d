"""Reproducible output: fixed-timestamp zips and text files written the same way on every machine"""

from __future__ import annotations

import os
import time
import zipfile
from collections.abc import Iterable
from pathlib import Path

EARLIEST_ZIP_TIME = 315_532_800  # 1980-01-01T00:00:00Z, the earliest time a zip entry can hold


FILE_MODE, DIR_MODE = 0o644, 0o755  # fixed permissions, whatever the umask


def source_date_epoch() -> int:
    """Return the build's fixed time: SOURCE_DATE_EPOCH if set, clamped to what a zip can hold"""
    raw = os.environ.get("SOURCE_DATE_EPOCH", "")
    epoch = int(raw) if raw.strip().isdigit() else EARLIEST_ZIP_TIME
    return max(epoch, EARLIEST_ZIP_TIME)


def given_source_date() -> int | None:
    """Return SOURCE_DATE_EPOCH when the build was given one, else None (no true date to show)"""
    raw = os.environ.get("SOURCE_DATE_EPOCH", "")
    return int(raw) if raw.strip().isdigit() else None


def zip_date_time() -> tuple[int, int, int, int, int, int]:
    """Return the fixed entry timestamp, honouring SOURCE_DATE_EPOCH"""
    return time.gmtime(source_date_epoch())[:6]


def normalise_tree(root: Path) -> None:
    """Give every folder and file under root the fixed permissions and the fixed modification time"""
    stamp = source_date_epoch()
    for path in sorted(root.rglob("*"), reverse=True):
        path.chmod(DIR_MODE if path.is_dir() else FILE_MODE)
        os.utime(path, (stamp, stamp))
    root.chmod(DIR_MODE)
    os.utime(root, (stamp, stamp))


def sorted_files(root: Path) -> list[Path]:
    """List every file under root, sorted by POSIX path (the same order on every OS)"""
    return sorted((p for p in root.rglob("*") if p.is_file()), key=lambda p: p.relative_to(root).as_posix())


def write_zip(source: Path, target: Path) -> None:
    """Write a reproducible zip of every file under source, paths relative to source"""
    stamp = zip_date_time()
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted_files(source):
            entry = zipfile.ZipInfo(path.relative_to(source).as_posix(), date_time=stamp)
            entry.create_system = 3  # Unix, whatever the host OS
            entry.external_attr = 0o100644 << 16  # regular file, rw-r--r--
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, path.read_bytes(), compresslevel=9)


def write_text(path: Path, text: str | Iterable[str]) -> None:
    """Write a UTF-8 text file with LF line ends, creating its folder; a text given in pieces is written as they come"""
    if not path.parent.is_dir():  # a look is cheaper than a mkdir that finds the folder there
        path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as handle:
        handle.writelines([text] if isinstance(text, str) else text)
