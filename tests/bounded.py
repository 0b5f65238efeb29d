"""Run an ambush command in a process of its own, held to a memory and a time limit: what a test may bound, not time"""

from __future__ import annotations

import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import ROOT


@dataclass(frozen=True)
class Bounded:
    """How a bounded run ended: its exit code (None when it ran out of time), and what it printed"""

    code: int | None
    stdout: str
    stderr: str

    @property
    def traceback(self) -> bool:
        """Tell whether Python printed a traceback"""
        return "Traceback (most recent call last)" in self.stderr


def text_of(output: bytes | str | None) -> str:
    """Return what a process printed as text (a timed-out run gives bytes, whatever it was asked for)"""
    return output.decode("utf-8", "replace") if isinstance(output, bytes) else output or ""


def run_bounded(args: list[str], memory_mb: int, seconds: float, cwd: Path = ROOT) -> Bounded:
    """Run `python -m exporter ARGS` from cwd with at most memory_mb of address space and seconds of time"""

    def limits() -> None:
        size = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
        cpu = int(seconds) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))

    try:
        done = subprocess.run([sys.executable, "-m", "exporter", *args], cwd=cwd, capture_output=True, text=True,
                              timeout=seconds * 2, preexec_fn=limits, check=False)  # the wall clock of a busy machine
    except subprocess.TimeoutExpired as expired:
        return Bounded(None, text_of(expired.stdout), text_of(expired.stderr))
    return Bounded(done.returncode, done.stdout, done.stderr)
