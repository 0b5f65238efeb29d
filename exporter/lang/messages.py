"""Catalogue messages: {placeholders} and plural choices, the Python twin of `fill` in templates/common/format.js

A message is text with placeholders, `{name}`, and plural choices in the syntax of ICU MessageFormat's plural
argument: `{count, plural, one {# segment} other {# segments}}`. A choice picks its branch by the count: an exact
`=N` first, else the count's CLDR plural category in the message's language (exporter/lang/plurals.py), else `other`,
which every choice must have; in a branch `#` is the count written as the language writes it. Outside a choice, a
brace that opens no placeholder and `#` are plain text, as in any string a GM writes. Whitespace inside a choice is
spaces, tabs and line breaks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache

from exporter.lang.numbers import number_text
from exporter.lang.plurals import plural_category

ARGUMENT = re.compile(r"\{([A-Za-z0-9_]+)(\}|[ \t\r\n]*,)")  # {name} or the start of {name, ...}
PLURAL = re.compile(r"[ \t\r\n]*plural[ \t\r\n]*,")
SELECTOR = re.compile(r"[ \t\r\n]*(=(?:0|[1-9][0-9]{0,14})|zero|one|two|few|many|other)[ \t\r\n]*\{")
END = re.compile(r"[ \t\r\n]*\}")


class MessageError(ValueError):
    """A message whose syntax is broken: the text says what and where"""


@dataclass(frozen=True)
class Placeholder:
    """A {name}: the value of name"""

    name: str


@dataclass(frozen=True)
class Count:
    """The # of a branch: the count of the choice it stands in"""


@dataclass(frozen=True)
class Choice:
    """A plural choice: its count's name, its branches by selector, and its source text"""

    name: str
    branches: tuple[tuple[str, tuple[Part, ...]], ...]
    source: str


Part = str | Placeholder | Count | Choice
COUNT = Count()


def snippet(text: str, at: int) -> str:
    """Quote what stands at a place of a message, shortened, for an error"""
    rest = text[at:at + 20]
    return repr(rest + ("…" if len(text) > at + 20 else "")) if rest else "the end"


def parse_parts(text: str, at: int, in_branch: bool) -> tuple[tuple[Part, ...], int]:
    """Read parts up to the end of the text, or in a branch up to the brace that closes it"""
    parts: list[Part] = []
    plain: list[str] = []

    def flush() -> None:
        if plain:
            parts.append("".join(plain))
            plain.clear()

    while at < len(text):
        ch = text[at]
        argument = ARGUMENT.match(text, at) if ch == "{" else None
        if argument:
            flush()
            if argument[2] == "}":
                parts.append(Placeholder(argument[1]))
                at = argument.end()
            else:
                choice, at = parse_choice(text, at, argument)
                parts.append(choice)
        elif in_branch and ch == "}":
            break
        elif in_branch and ch == "{":
            raise MessageError(f"a plural branch holds {snippet(text, at)}: a brace there opens a {{placeholder}}")
        elif in_branch and ch == "#":
            flush()
            parts.append(COUNT)
            at += 1
        else:
            plain.append(ch)
            at += 1
    flush()
    return tuple(parts), at


def parse_choice(text: str, start: int, argument: re.Match[str]) -> tuple[Choice, int]:
    """Read a plural choice from its opening brace; return it and where it ends"""
    name = argument[1]
    form = f"{{{name}, plural, one {{...}} other {{...}}}}"
    plural = PLURAL.match(text, argument.end())
    if not plural:
        raise MessageError(f"{{{name}, ...}} is no plural choice: write {form}")
    at = plural.end()
    branches: dict[str, tuple[Part, ...]] = {}
    while not (end := END.match(text, at)):
        if not text[at:].strip(" \t\r\n"):
            raise MessageError(f"{{{name}, plural, ...}} is never closed: a }} is missing")
        selector = SELECTOR.match(text, at)
        if not selector:
            raise MessageError(f"{{{name}, plural, ...}} has {snippet(text, at)} where a category (zero, one, two, "
                               f"few, many, other or =N) and its {{text}} belong: write {form}")
        if selector[1] in branches:
            raise MessageError(f"{{{name}, plural, ...}} gives {selector[1]} twice")
        branches[selector[1]], at = parse_parts(text, selector.end(), in_branch=True)
        if at >= len(text):
            raise MessageError(f"{{{name}, plural, ...}} is never closed: a }} is missing")
        at += 1
    if "other" not in branches:
        raise MessageError(f"{{{name}, plural, ...}} has no other branch, which every plural choice needs: "
                           f"write {form}")
    return Choice(name, tuple(branches.items()), text[start:end.end()]), end.end()


@cache
def parse(text: str) -> tuple[Part, ...]:
    """Read a message into its parts; MessageError when its syntax is broken"""
    return parse_parts(text, 0, in_branch=False)[0]


def walk(parts: tuple[Part, ...]) -> Iterator[Part]:
    """Yield parts and, after each choice, the parts of its branches"""
    for part in parts:
        yield part
        if isinstance(part, Choice):
            for _, branch in part.branches:
                yield from walk(branch)


def arguments(text: str) -> set[str]:
    """Return the names a message reads: its placeholders and its choices' counts"""
    return {part.name for part in walk(parse(text)) if isinstance(part, Placeholder | Choice)}


def choice_counts(text: str) -> set[str]:
    """Return the names a message chooses plural forms by"""
    return {part.name for part in walk(parse(text)) if isinstance(part, Choice)}


Value = int | str


def shown(value: Value, language: str) -> str:
    """Write a value of a message's data: a number as the language writes it, a text as it is"""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TypeError(f"a message's data are whole numbers and texts, not {type(value).__name__}")
    return number_text(value, language) if isinstance(value, int) else value


def branch_for(choice: Choice, value: Value, language: str) -> tuple[Part, ...]:
    """Pick a choice's branch for a value: an exact =N, else the value's plural category, else other"""
    branches = dict(choice.branches)
    if isinstance(value, str):
        return branches["other"]
    exact = branches.get(f"={value}")
    return exact if exact is not None else branches.get(plural_category(value, language), branches["other"])


def render(parts: tuple[Part, ...], data: Mapping[str, Value], language: str, count: Value | None) -> str:
    """Write parts with their data; a placeholder or a choice without data stays as written"""
    out: list[str] = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, Count):
            assert count is not None  # the parser reads # only inside a branch
            out.append(shown(count, language))
        elif part.name not in data:
            out.append(f"{{{part.name}}}" if isinstance(part, Placeholder) else part.source)
        elif isinstance(part, Placeholder):
            out.append(shown(data[part.name], language))
        else:
            value = data[part.name]
            out.append(render(branch_for(part, value, language), data, language, value))
    return "".join(out)


def fill(text: str, data: Mapping[str, Value], language: str) -> str:
    """Fill a message's placeholders and choices from its data, numbers written as the language writes them"""
    return render(parse(text), data, language, None)
