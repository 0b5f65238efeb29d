"""One escaping filter per output context: JS literals, HTML text, Roll20 chat"""

from __future__ import annotations

import json
from typing import Any

from markupsafe import escape

# Characters that could end a <script> element, open a comment or break a JS line inside a literal.
JS_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}

# TokenMod's HE(): what Roll20 chat would otherwise read as HTML, roll syntax, queries or attributes.
ROLL20_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "'": "&#39;", '"': "&quot;", "@": "&#64;", "|": "&#124;",
               "{": "&#123;", "}": "&#125;", "[": "&#91;", "]": "&#93;", "%": "&#37;", "#": "&#35;",
               "?": "&#63;", "*": "&#42;", "\n": "<br>"}


def js_literal(value: Any) -> str:
    """Render any JSON-able value as a JS literal that is safe inside a script and on one line"""
    text = json.dumps(value, ensure_ascii=False, sort_keys=False, separators=(", ", ": "))
    return "".join(JS_UNSAFE.get(ch, ch) for ch in text)


def html_text(value: str) -> str:
    """Escape text for an HTML element or attribute"""
    return str(escape(value))


def roll20_html(value: str) -> str:
    """Escape text for Roll20 chat HTML so nothing in it runs as markup, roll or query syntax"""
    return "".join(ROLL20_HTML.get(ch, ch) for ch in value)


FILTERS = {"js": js_literal, "html": html_text, "roll20_html": roll20_html}
