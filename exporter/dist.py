"""Reproducible output: fixed-timestamp zips and text files written the same way on every machine"""

from __future__ import annotations

import os
import struct
import time
import zlib
from collections.abc import Iterable
from functools import lru_cache
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


# Zip records (PKWARE APPNOTE 4.3.7, 4.3.12, 4.3.16) as Python's zipfile writes them into a seekable file: version
# 2.0 (deflate), no data descriptor, no extra field, no comment, a UTF-8 flag only for a name that is not ASCII.
LOCAL_HEADER, CENTRAL_HEADER, END_RECORD = b"PK\x03\x04", b"PK\x01\x02", b"PK\x05\x06"
ZIP_VERSION, UNIX, DEFLATED, UTF8_NAME = 20, 3, 8, 0x800
ZIP_FILE_ATTRIBUTES = 0o100644 << 16  # regular file, rw-r--r--
ZIP32_LIMIT = (1 << 31) - 1  # zipfile turns to ZIP64 above this; a campaign's files are far below


@lru_cache(maxsize=512)
def deflated(data: bytes) -> tuple[bytes, int]:
    """Return data deflated at level 9 (raw, as a zip holds it) and its CRC-32: the same script is compressed once
    per process however many campaigns ship it"""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(), zlib.crc32(data)


def zip_bytes(files: dict[str, bytes]) -> bytes:
    """Return a reproducible zip of files (POSIX path -> bytes), entries in sorted path order, each with the fixed
    time, made on Unix with rw-r--r--: the bytes zipfile writes for the same entries at compresslevel 9"""
    year, month, day, hour, minute, second = zip_date_time()
    dos_time, dos_date = hour << 11 | minute << 5 | second // 2, (year - 1980) << 9 | month << 5 | day
    local, central, offset = [], [], 0
    for name in sorted(files):
        data = files[name]
        packed, crc = deflated(data)
        encoded, flags = (name.encode("ascii"), 0) if name.isascii() else (name.encode("utf-8"), UTF8_NAME)
        if max(len(data) * 1.05, len(packed), offset) > ZIP32_LIMIT:
            raise ValueError(f"{name}: too large for a zip without ZIP64")
        fields = struct.pack("<4HL2LH", flags, DEFLATED, dos_time, dos_date, crc, len(packed), len(data), len(encoded))
        local += [LOCAL_HEADER, struct.pack("<2B", ZIP_VERSION, 0), fields, struct.pack("<H", 0), encoded, packed]
        central += [CENTRAL_HEADER, struct.pack("<4B", ZIP_VERSION, UNIX, ZIP_VERSION, 0), fields,
                    struct.pack("<4HL", 0, 0, 0, 0, ZIP_FILE_ATTRIBUTES), struct.pack("<L", offset), encoded]
        offset += 30 + len(encoded) + len(packed)
    directory = b"".join(central)
    if offset + len(directory) > ZIP32_LIMIT:
        raise ValueError("too large for a zip without ZIP64")
    end = struct.pack("<4s4H2LH", END_RECORD, 0, 0, len(files), len(files), len(directory), offset, 0)
    return b"".join(local) + directory + end


def write_text(path: Path, text: str | Iterable[str]) -> None:
    """Write a UTF-8 text file with LF line ends, creating its folder; a text given in pieces is written as they come"""
    if not path.parent.is_dir():  # a look is cheaper than a mkdir that finds the folder there
        path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as handle:
        handle.writelines([text] if isinstance(text, str) else text)


class OutputTree:
    """A build's files under one folder, written with their fixed mode and time as they come and kept in memory,
    so a zip needs no reading back and the folders are stamped once, with no walk of the tree"""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.stamp = source_date_epoch()
        self.files: dict[Path, bytes] = {}
        os.mkdir(root, DIR_MODE)
        self.folders: list[Path] = [root]  # in the order made: a folder before the folders in it
        self.made = {root}

    def write_text(self, path: Path, text: str) -> None:
        """Write a UTF-8 text file (its line ends as given: the texts are made with LF), creating its folder"""
        self.write_bytes(path, text.encode("utf-8"))

    def write_bytes(self, path: Path, data: bytes) -> None:
        """Write a file under the root with the fixed mode and modification time, in one open"""
        self.make_folder(path.parent)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, FILE_MODE)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fchmod(fd, FILE_MODE)  # the umask may have narrowed the mode open gave
            os.utime(fd, (self.stamp, self.stamp))
        finally:
            os.close(fd)
        self.files[path] = data

    def make_folder(self, folder: Path) -> None:
        """Create a folder under the root, and the folders above it, each once"""
        if folder in self.made:
            return
        if not folder.is_relative_to(self.root):
            raise ValueError(f"{folder} is outside {self.root}")
        self.make_folder(folder.parent)
        os.mkdir(folder, DIR_MODE)
        self.folders.append(folder)
        self.made.add(folder)

    def under(self, folder: Path) -> dict[str, bytes]:
        """Return the files written under folder, by their POSIX path relative to it"""
        return {path.relative_to(folder).as_posix(): data for path, data in self.files.items()
                if path.is_relative_to(folder)}

    def finish(self) -> None:
        """Give every folder made the fixed mode and time, once every file is in: writing into a folder changes its time"""
        for folder in reversed(self.folders):
            os.chmod(folder, DIR_MODE)
            os.utime(folder, (self.stamp, self.stamp))
