"""Quote a value a message names: short, escaped, and its length said when it is cut (a file may hold megabytes)"""

from __future__ import annotations

import reprlib
from typing import Any

from exporter.limits import EXCERPT_CHARACTERS

# Lists and tables are cut too: a few items, a level deep, each string as short as a quoted value
SHORT = reprlib.Repr()
SHORT.maxlevel, SHORT.maxlist, SHORT.maxtuple, SHORT.maxdict, SHORT.maxset = 2, 4, 4, 4, 4
SHORT.maxstring = SHORT.maxother = SHORT.maxlong = EXCERPT_CHARACTERS


def excerpt(value: Any) -> str:
    """Return a value as a message quotes it: repr() of a short one; the start of a long text, and its length"""
    if isinstance(value, str):
        if len(value) <= EXCERPT_CHARACTERS:
            return repr(value)
        return f"{value[:EXCERPT_CHARACTERS]!r}… ({len(value):,} characters)"
    return SHORT.repr(value)
