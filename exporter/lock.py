"""A lock file that keeps builds into one folder apart on every OS: created exclusively, removed afterwards

Whoever creates the file (O_CREAT | O_EXCL, atomic on POSIX and Windows) holds the lock; others wait and retry.
The file names its holder: its process id, its host and when the process started, with a token, so a holder removes
only its own lock. A holder on this host whose process is gone (killed, or its id now another process's) left the
lock behind: a waiter takes it at once. Where that cannot be told (another host, no POSIX process ids), a lock file
older than STALE_SECONDS was left by a build that was killed, since a build holds the lock only while it renames its
trees into place. Either way a waiter breaks it by renaming it aside (only one rename of it can succeed) and
removing it.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from exporter.errors import ExportError

LOCK_FILE = ".ambush.lock"
POLL_SECONDS = 0.05
STALE_SECONDS = 60.0


def process_start(pid: int) -> str | None:
    """Return when a process on this host started, as the OS counts it (Linux: clock ticks since boot), or None"""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2:].split()  # after the command name, which may hold spaces and brackets
    return fields[19] if len(fields) > 19 else None  # field 22 of proc(5), starttime


def holder() -> dict[str, Any]:
    """Describe this process as the holder of a lock or a staging folder"""
    return {"pid": os.getpid(), "host": socket.gethostname(), "start": process_start(os.getpid()),
            "since": time.time(), "token": secrets.token_hex(8)}


def read_holder(text: str) -> dict[str, Any] | None:
    """Read the holder a lock file or a staging folder names; an older ambush wrote "PID HOST TOKEN"; None for none"""
    try:
        found = json.loads(text)
    except ValueError:
        parts = text.split()
        return {"pid": int(parts[0]), "host": parts[1]} if len(parts) == 3 and parts[0].isdigit() else None
    return found if isinstance(found, dict) and isinstance(found.get("pid"), int) else None


def holder_gone(named: dict[str, Any] | None) -> bool | None:
    """Tell whether the process a holder names has ended: True, False, or None where this host cannot tell"""
    if named is None or named.get("host") != socket.gethostname() or os.name != "posix":
        return None
    pid = named["pid"]
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists (POSIX; on Windows it would end it)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass  # another user's process, alive
    except OSError:
        return None
    start = named.get("start")
    return start is not None and process_start(pid) not in (None, start)  # alive, unless the id is another's now


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
    token = json.dumps(holder())
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
    """Remove the lock file if its holder is gone, or, where that cannot be told, if it is older than stale_after
    seconds; tell whether one was removed"""
    try:
        text = path.read_text(encoding="utf-8")
        gone = holder_gone(read_holder(text))
        if gone is False or (gone is None and time.time() - path.stat().st_mtime < stale_after):
            return False
        aside = path.with_name(f"{path.name}.stale-{secrets.token_hex(8)}")
        path.rename(aside)
    except OSError:
        return False  # released, or broken by another waiter, in the meantime
    if aside.read_text(encoding="utf-8") != text:
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
