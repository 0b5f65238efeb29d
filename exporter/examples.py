"""The examples that come with ambush: scenarios and campaigns, listed, found by name and written out to edit

A GM with an installed ambush has no clone: `ambush examples` lists what ships in the package, `ambush examples NAME`
writes one into his folder, and `ambush odds NAME` and `ambush simulate NAME` read a scenario as it ships.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from exporter._resources import bundled_examples
from exporter.errors import ExportError, InputFileError

KINDS = ("scenarios", "campaigns")
SUFFIX = ".toml"
ASIDE = re.compile(r"\s*\([^()]*\)")  # a remark in parentheses, left out of the one-line summary


@dataclass(frozen=True)
class Example:
    """One bundled example: its name, its kind and its file"""

    name: str
    kind: str
    path: Path

    def summary(self) -> str:
        """Say what the example is: the first sentence of the comment that heads its file, asides left out"""
        lines = self.path.read_text(encoding="utf-8").splitlines()
        comment = " ".join(line.lstrip("#").strip() for line in lines[:next(
            (n for n, line in enumerate(lines) if not line.startswith("#")), len(lines))])
        first = re.split(r"(?<=\.)\s", ASIDE.sub("", comment), maxsplit=1)[0]
        return first.removesuffix(".")


def examples() -> dict[str, Example]:
    """Return every bundled example by name: the scenarios, then the campaigns"""
    return {path.stem: Example(path.stem, kind, path) for kind in KINDS for path in bundled_examples(kind)}


def find_example(name: str, kind: str | None = None) -> Example | None:
    """Return the example a name (with or without .toml) names, of a kind when given, or None"""
    found = examples().get(name.removesuffix(SUFFIX))
    return found if found is not None and kind in (None, found.kind) else None


def named_example(name: str) -> Example:
    """Return the example of a name, or refuse one ambush does not have, in one line"""
    from exporter.validation import did_you_mean

    found = find_example(name)
    if found is None:
        raise ExportError(f"no example {name!r}; `ambush examples` lists them" + did_you_mean(name, examples()))
    return found


def write_example(name: str, out: Path | None = None) -> Path:
    """Write an example's file to out (default NAME.toml in this folder); never over a file that exists"""
    from exporter.dist import write_text

    example = named_example(name)
    target = out if out is not None else Path(example.name + SUFFIX)
    if target.exists():
        raise InputFileError(target, None, "already exists; choose another path with --out")
    if not target.parent.is_dir():
        raise InputFileError(target, None, f"cannot be written: the folder {target.parent} does not exist")
    write_text(target, example.path.read_text(encoding="utf-8"))
    return target


def listing() -> str:
    """List every example with what it is, by kind, and how to use each kind"""
    found = examples()
    width = max(map(len, found))
    said = {
        "scenarios": "Scenarios: `ambush odds NAME` and `ambush simulate NAME` read one as it comes "
                     "(`ambush docs scenarios`).",
        "campaigns": "Campaigns, one per system: `ambush build` with no campaign builds them all "
                     "(`ambush docs campaign`).",
    }
    lines = ["The examples that come with ambush; `ambush examples NAME` writes one into this folder to read and edit."]
    for kind in KINDS:
        lines += ["", said[kind], *(f"  {e.name:<{width}}  {e.summary()}" for e in found.values() if e.kind == kind)]
    return "\n".join(lines) + "\n"
