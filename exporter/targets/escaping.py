"""One escaping filter per output context: JS literals and HTML text"""

from __future__ import annotations

import json
from typing import Any

from markupsafe import escape

# Characters that could end a <script> element, open a comment or break a JS line inside a literal.
JS_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}

def js_literal(value: Any) -> str:
    """Render any JSON-able value as a JS literal that is safe inside a script and on one line"""
    text = json.dumps(value, ensure_ascii=False, sort_keys=False, separators=(", ", ": "))
    return "".join(JS_UNSAFE.get(ch, ch) for ch in text)


def js_block(value: Any, width: int = 120, depth: int = 0) -> str:
    """Render a JSON-able value as a readable JS literal: one entry per line, each on one line where it fits (a little
    longer where it holds only plain values, as a record does)"""
    flat = js_literal(value)
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    plain = all(not isinstance(item, (dict, list)) for item in items)
    record = plain and depth > 0 and len(flat) <= 160
    if not isinstance(value, (dict, list)) or len(flat) + 2 * depth <= width or record:
        return flat
    pad = "  " * (depth + 1)
    if isinstance(value, dict):
        items = [f"{js_literal(str(key))}: {js_block(item, width, depth + 1)}" for key, item in value.items()]
        opening, closing = "{", "}"
    else:
        items = [js_block(item, width, depth + 1) for item in value]
        opening, closing = "[", "]"
    return opening + "\n" + "".join(f"{pad}{item},\n" for item in items) + "  " * depth + closing


def html_text(value: str) -> str:
    """Escape text for an HTML element or attribute"""
    return str(escape(value))


FILTERS = {"js": js_literal, "js_block": js_block, "html": html_text}
