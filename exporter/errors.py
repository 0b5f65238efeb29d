"""Errors the library raises for bad input; the CLI turns them into exit code 2"""

from __future__ import annotations

from pathlib import Path


class ExportError(Exception):
    """Base of every error caused by the user's input"""

    def one_line(self) -> str:
        """Return the message as one line"""
        return " ".join(str(self).split())


class InputFileError(ExportError):
    """A file the user named is missing, unreadable or invalid at one field"""

    def __init__(self, path: Path | str, field: str | None, message: str) -> None:
        self.path = Path(path)
        self.field = field
        self.message = message
        where = f"{self.path}: {field}: " if field else f"{self.path}: "
        super().__init__(where + message)


class DiceExhausted(ExportError):
    """A scripted dice sequence ran out before the procedure finished"""


class RuleError(ExportError):
    """A procedure was asked for something the rules cannot give"""
