"""Read a TOML file within the limits of exporter/limits.py: its size, its nesting and its keys' length

The standard library's parser recurses once per nested array or inline table (about 450 of them, a 1 KB file, raise
RecursionError) and takes time and memory quadratic in the parts of a dotted key (20,000 parts, 40 KB: 1.5 GB). So a
file is read only up to the size limit, a key of more parts than the nesting limit allows is refused before it is
parsed, and what the parser gives is held to the nesting and key limits; a refusal names the line where it can.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from exporter.limits import FILE_BYTES, KEY_CHARACTERS, NESTING

# A dotted run of more parts than the nesting allows, anywhere in the text: none, and no key can hold that many.
# Possessive, and a bare part starts only where a word does: a megabyte of letters is one try, not a million.
PART = r"""(?:[A-Za-z0-9_-]++|"(?:[^"\\\n]|\\.)*+"|'[^'\n]*+')"""
LONG_DOTTED = re.compile(rf"(?<![A-Za-z0-9_-]){PART}(?:[ \t]*+\.[ \t]*+{PART}){{{NESTING}}}")
TOKEN = re.compile(r'''
    (?P<space>[ \t\r]+) | (?P<newline>\n) | (?P<comment>\#[^\n]*)
  | (?P<string>"""(?:[^"\\]|\\.|"{1,2}(?!"))*"{3,5} | \'\'\'(?:[^']|'{1,2}(?!'))*'{3,5}
               | "(?:[^"\\\n]|\\.)*" | '[^'\n]*')
  | (?P<punct>[\[\]{}=,.]) | (?P<word>[^ \t\r\n\#"'\[\]{}=,.]+) | (?P<other>.)
''', re.S | re.X)


class LimitError(Exception):
    """A file beyond a limit: what is too much, and its line where known"""

    def __init__(self, what: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {what}" if line else what)


def read_bounded(path: Path) -> bytes:
    """Read a file's bytes, refusing one larger than the limit without reading the rest"""
    with path.open("rb") as handle:
        data = handle.read(FILE_BYTES + 1)
    if len(data) > FILE_BYTES:
        raise LimitError(f"is larger than {FILE_BYTES // (1024 * 1024)} MiB, the largest file ambush reads")
    return data


def loads_bounded(text: str) -> dict[str, Any]:
    """Parse TOML text held to the nesting and key limits; TOMLDecodeError for a text that is no TOML"""
    if LONG_DOTTED.search(text):
        check_structure(text)  # only a dotted key or header of that many parts is beyond the limit
    try:
        data = tomllib.loads(text)
    except RecursionError:
        check_structure(text)
        raise LimitError(nesting_message()) from None
    problem = first_beyond(data, 0)
    if problem is not None:
        check_structure(text)  # names the line
        raise LimitError(problem)
    return data


def nesting_message() -> str:
    """Say that tables and arrays are nested beyond the limit"""
    return f"tables and arrays are nested more than {NESTING} deep, the most ambush reads"


def key_message(key: str) -> str:
    """Say that a key is longer than the limit"""
    from exporter.excerpt import excerpt

    return f"the key {excerpt(key)} is longer than {KEY_CHARACTERS} characters, the longest ambush reads"


def first_beyond(value: Any, level: int) -> str | None:
    """Return what the first table or array beyond a limit breaks, or None; level is value's own nesting"""
    stack = [(value, level)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if depth > NESTING:
                return nesting_message()
            for key, inner in item.items():
                if len(key) > KEY_CHARACTERS:
                    return key_message(key)
                if isinstance(inner, dict | list):
                    stack.append((inner, depth + 1))
        elif isinstance(item, list):
            if depth > NESTING:
                return nesting_message()
            stack.extend((inner, depth + 1) for inner in item if isinstance(inner, dict | list))
    return None


def key_text(token: str) -> str:
    """Return a key part as the parser reads it: a quoted part unquoted"""
    if token[0] not in "\"'":
        return token
    try:
        return str(tomllib.loads(f"k = {token}")["k"])
    except tomllib.TOMLDecodeError:
        return token


def check_structure(text: str) -> int:
    """Walk the text's tokens as the parser nests them; raise LimitError at the first line beyond a limit, else return
    the deepest level

    Exact for a valid file; for one that is no TOML it stops where it loses its way and leaves the refusal to the
    parser.
    """
    scan = Scan(text)
    scan.run()
    return scan.deepest


class Scan:
    """One walk over a text's tokens: the table a header opened, the open arrays and inline tables, the key read"""

    def __init__(self, text: str) -> None:
        self.tokens = [(m.lastgroup, m.group(), m.start()) for m in TOKEN.finditer(text)]
        self.text = text
        self.index = 0
        self.line = 1
        self.table_level = 0
        self.arrays: set[tuple[str, ...]] = set()  # the paths [[headers]] made arrays of tables
        self.stack: list[tuple[str, int]] = []  # open ("array" | "inline", level)
        self.deepest = 0  # the deepest table or array so far

    def next(self) -> tuple[str, str, int] | None:
        """Return the next token that is no blank or comment, counting lines; None at the end"""
        while self.index < len(self.tokens):
            kind, token, start = self.tokens[self.index]
            self.index += 1
            if kind == "newline":
                self.line += 1
                if not self.stack:
                    return kind, token, start
            elif kind == "string":
                self.line += token.count("\n")
                return kind, token, start
            elif kind not in ("space", "comment"):
                return kind, token, start
        return None

    def beyond(self, level: int) -> None:
        """Refuse a table or array at a level beyond the limit"""
        self.deepest = max(self.deepest, level)
        if level > NESTING:
            raise LimitError(nesting_message(), self.line)

    def key(self, first: tuple[str, str, int]) -> tuple[list[str], tuple[str, str, int] | None]:
        """Read a dotted key from its first part; return its parts and the token after it"""
        parts = [key_text(first[1])]
        if len(parts[0]) > KEY_CHARACTERS:
            raise LimitError(key_message(parts[0]), self.line)
        following = self.next()
        while following is not None and following[0] == "punct" and following[1] == ".":
            part = self.next()
            if part is None or part[0] not in ("word", "string"):
                return parts, part
            parts.append(key_text(part[1]))
            if len(parts[-1]) > KEY_CHARACTERS:
                raise LimitError(key_message(parts[-1]), self.line)
            self.beyond(len(parts) - 1)  # a dotted key opens a table per part but its last: stop at the limit
            following = self.next()
        return parts, following

    def run(self) -> None:
        """Walk every line: headers, keys and their values"""
        token = self.next()
        while token is not None:
            kind, text, start = token
            if kind == "newline":
                token = self.next()
            elif kind == "punct" and text == "[":
                token = self.header(start)
            elif kind in ("word", "string"):
                token = self.key_value(token, self.table_level)
            else:
                return  # no TOML: the parser says where

    def header(self, start: int) -> tuple[str, str, int] | None:
        """Read a [table] or [[array of tables]] header and open its table"""
        many = self.text.startswith("[[", start)
        if many:
            self.next()
        first = self.next()
        if first is None or first[0] not in ("word", "string"):
            return None
        parts, after = self.key(first)
        levels = len(parts) + sum(tuple(parts[:i]) in self.arrays for i in range(1, len(parts)))
        if many:
            self.arrays.add(tuple(parts))
            levels += 1
        self.beyond(levels)
        self.table_level = levels
        while after is not None and after[1] == "]":
            after = self.next()
        return after

    def key_value(self, first: tuple[str, str, int], level: int) -> tuple[str, str, int] | None:
        """Read key = value in a table at a level; return the token after the value"""
        parts, after = self.key(first)
        self.beyond(level + len(parts) - 1)
        if after is None or after[1] != "=":
            return None
        return self.value(level + len(parts))

    def value(self, level: int, token: tuple[str, str, int] | None = None) -> tuple[str, str, int] | None:
        """Read one value at a level (from its first token, when read already), nested arrays and inline tables
        included; return the token after it"""
        token = self.next() if token is None else token
        if token is None or token[0] != "punct" or token[1] not in "[{":
            after = self.next()
            if token is not None and token[0] == "word":  # a float or a date and time: 1.5, 1979-05-27 07:32:00
                while after is not None and (after[0] == "word" or after[1] == "."):
                    after = self.next()
            return after
        self.beyond(level)
        closing = "]" if token[1] == "[" else "}"
        self.stack.append(("array" if closing == "]" else "inline", level))
        token = self.next()
        while token is not None and token[1] != closing:
            if token[1] == ",":
                token = self.next()
            elif closing == "]":
                token = self.value(level + 1, token)
            elif token[0] in ("word", "string"):
                token = self.key_value(token, level)
            else:
                return None
        self.stack.pop()
        return self.next()
