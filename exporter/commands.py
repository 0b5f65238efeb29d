"""What the commands share, the command line's (cli.py) and a platform's own (exporter/platforms.py): bad input as one
line with exit code 2, and help texts more than one command gives"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import click

from exporter.errors import ExportError

REPOSITORY_HELP = "The repository's web address, like https://github.com/OWNER/NAME: the release URLs point into it."


class InputError(click.ClickException):
    """Report bad user input as a one-line message"""

    exit_code = 2


@contextmanager
def reported_errors() -> Iterator[None]:
    """Map library errors to click exceptions"""
    try:
        yield
    except ExportError as err:  # raised by the library, never printed there
        raise InputError(err.one_line()) from err
