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


def html_text(value: str) -> str:
    """Escape text for an HTML element or attribute"""
    return str(escape(value))


FILTERS = {"js": js_literal, "html": html_text}
