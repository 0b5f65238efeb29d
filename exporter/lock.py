"""A lock file that keeps builds into one folder apart on every OS: created exclusively, removed afterwards

Whoever creates the file (O_CREAT | O_EXCL, atomic on POSIX and Windows) holds the lock; others wait and retry.
The file names its holder with a token, so a holder removes only its own lock. A build holds the lock only while
it renames its trees into place, so a lock file older than STALE_SECONDS was left by a build that was killed:
a waiter breaks it by renaming it aside (only one rename of it can succeed) and removing it.
"""

from __future__ import annotations

import os
import secrets
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from exporter.errors import ExportError

LOCK_FILE = ".ambush.lock"
POLL_SECONDS = 0.05
STALE_SECONDS = 60.0


@contextmanager
def folder_lock(folder: Path, stale_after: float = STALE_SECONDS, needed: bool = True) -> Iterator[None]:
    """Hold the folder's lock while the block runs, waiting while another build holds it; remove it after

    Not needed: where the lock file cannot be created (a read-only or vanished folder), which no build can be
    writing into either, the block runs without it.
    """
    path = folder / LOCK_FILE
    token = acquire(path, stale_after, needed)
    try:
        yield
    finally:
        if token is not None:
            release(path, token)


def acquire(path: Path, stale_after: float, needed: bool = True) -> str | None:
    """Create the lock file exclusively, waiting for its holder or breaking a stale one; return our token"""
    token = f"{os.getpid()} {socket.gethostname()} {secrets.token_hex(8)}"
    while True:
        try:
            descriptor = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            if not break_if_stale(path, stale_after):
                time.sleep(POLL_SECONDS)
            continue
        except OSError as err:
            if not needed:
                return None
            raise ExportError(f"{path}: cannot be created ({err.strerror})") from None
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(token)
        return token


def break_if_stale(path: Path, stale_after: float) -> bool:
    """Remove the lock file if it is older than stale_after seconds; tell whether one was removed"""
    try:
        holder = path.read_text(encoding="utf-8")
        if time.time() - path.stat().st_mtime < stale_after:
            return False
        aside = path.with_name(f"{path.name}.stale-{secrets.token_hex(8)}")
        path.rename(aside)
    except OSError:
        return False  # released, or broken by another waiter, in the meantime
    if aside.read_text(encoding="utf-8") != holder:
        # A fresh lock was taken between reading and renaming: hand it back to its holder.
        with suppress(OSError):
            os.replace(aside, path)
        return False
    aside.unlink(missing_ok=True)
    return True


def release(path: Path, token: str) -> None:
    """Remove the lock file if it is still ours"""
    with suppress(OSError):
        if path.read_text(encoding="utf-8") == token:
            path.unlink()
