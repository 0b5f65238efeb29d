"""One escaping filter per output context: JS literals and HTML text"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from markupsafe import escape

# Characters that could end a <script> element, open a comment or break a JS line inside a literal.
JS_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
JS_UNSAFE_TABLE = str.maketrans(JS_UNSAFE)

def js_literal(value: Any) -> str:
    """Render any JSON-able value as a JS literal that is safe inside a script and on one line"""
    if isinstance(value, str):
        return string_literal(value)
    text = json.dumps(value, ensure_ascii=False, sort_keys=False, separators=(", ", ": "))
    return text.translate(JS_UNSAFE_TABLE)


@lru_cache(maxsize=1 << 16)
def string_literal(value: str) -> str:
    """Render a string as a safe JS literal, once per process: a build of many campaigns writes the same strings"""
    return json.dumps(value, ensure_ascii=False).translate(JS_UNSAFE_TABLE)


def js_block(value: Any, width: int = 120, depth: int = 0) -> str:
    """Render a JSON-able value as a readable JS literal: one entry per line, each on one line where it fits (a little
    longer where it holds only plain values, as a record does)"""
    return flat_and_block(value, width, depth)[1]


def flat_and_block(value: Any, width: int, depth: int) -> tuple[str, str]:
    """Return a value as js_literal writes it and as js_block does, each entry's literal made once (json.dumps of a
    table or a list is its entries' literals joined by ", ", keys by ": ")"""
    if not isinstance(value, (dict, list)):
        flat = js_literal(value)
        return flat, flat
    if isinstance(value, dict):
        keys = [js_literal(str(key)) for key in value]
        inner = [flat_and_block(item, width, depth + 1) for item in value.values()]
        flat = "{" + ", ".join(f"{key}: {item_flat}" for key, (item_flat, _) in zip(keys, inner, strict=True)) + "}"
        lines = [f"{key}: {item_block}" for key, (_, item_block) in zip(keys, inner, strict=True)]
        opening, closing = "{", "}"
    else:
        inner = [flat_and_block(item, width, depth + 1) for item in value]
        flat = "[" + ", ".join(item_flat for item_flat, _ in inner) + "]"
        lines = [item_block for _, item_block in inner]
        opening, closing = "[", "]"
    plain = all(not isinstance(item, (dict, list)) for item in (value.values() if isinstance(value, dict) else value))
    if len(flat) + 2 * depth <= width or (plain and depth > 0 and len(flat) <= 160):
        return flat, flat
    pad = "  " * (depth + 1)
    return flat, opening + "\n" + "".join(f"{pad}{line},\n" for line in lines) + "  " * depth + closing


def html_text(value: str) -> str:
    """Escape text for an HTML element or attribute"""
    return str(escape(value))


FILTERS = {"js": js_literal, "js_block": js_block, "html": html_text}
