"""The file-system floor of a build: the folders and files a build wrote, made again with no rendering

Run by benchmarks/run.py as `python fs_floor.py LAYOUT OUT`: LAYOUT (JSON) lists a built dist's folders and files
(with their sizes) in the order a build makes them; they are written into a staging folder beside OUT with the calls a
build makes (mkdir; os.open, write, fchmod and utime per file; chmod and utime per folder), then moved into place, the
previous OUT removed, as a build does. What is left of a build's time above this is its own work.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

STAMP = 315_532_800


def write_layout(layout: list[list], root: Path) -> None:
    """Make the folders and write the files of layout under root"""
    folders = []
    for entry in layout:
        path = root / entry[1]
        if entry[0] == "folder":
            os.mkdir(path, 0o755)
            folders.append(path)
            continue
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        try:
            os.write(fd, b"x" * entry[2])
            os.fchmod(fd, 0o644)
            os.utime(fd, (STAMP, STAMP))
        finally:
            os.close(fd)
    for folder in reversed(folders):
        os.chmod(folder, 0o755)
        os.utime(folder, (STAMP, STAMP))


def main() -> None:
    """Write the layout into a staging folder, then replace OUT with it"""
    layout, out = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")), Path(sys.argv[2])
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=out.parent))
    write_layout(layout, staging)
    old = out.with_name(f".{out.name}.old")
    if out.exists():
        out.rename(old)
    staging.rename(out)
    shutil.rmtree(old, ignore_errors=True)


if __name__ == "__main__":
    main()
