"""A value written as TOML text: what `ambush init` writes into a new campaign and what a build's warnings quote"""

from __future__ import annotations

import json
from typing import Any


def toml_value(value: Any) -> str:
    """Render a string, number, boolean, list or table as a TOML value (tables inline)"""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {toml_value(item)}" for key, item in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value), ensure_ascii=False)  # a JSON string is a valid TOML basic string
