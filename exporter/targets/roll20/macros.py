"""Chat macros for GMs without Mod access: the definitions' roll procedures as default-template inline rolls"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from exporter.definitions import Definitions
from exporter.rules.rolls import (
    Choice,
    Constant,
    Dice,
    Extreme,
    Input,
    Number,
    Product,
    Prompt,
    RollProcedure,
    Row,
    Sum,
    Term,
    side_label,
)
from exporter.lang.messages import fill
from exporter.lang.numbers import NO, YES

LABEL = "Format.Label"  # a label and its value, in each language's punctuation (templates/common/format.js label)

# docs/dev/roll20.md §6: inside an inner (nested) query these three must be HTML entities, and only there.
NESTED_QUERY_ESCAPES = {"}": "&#125;", "|": "&#124;", ",": "&#44;"}
# Characters that would end a query, a template field or an inline roll if they appeared in text.
UNSAFE_IN_MACRO = str.maketrans({ch: " " for ch in "{}[]|@%#?&,"})
# docs/dev/roll20.md §6: attribute calls resolve before queries and are never encoded.
ATTRIBUTE_CALL = re.compile(r"(@\{[^{}]*\})")


@dataclass(frozen=True)
class Context:
    """What a procedure renders with: one language and its strings, the sheet attributes, the text values"""

    language: str
    strings: Mapping[str, str]
    attributes: Mapping[str, Mapping[str, Any]]
    values: Mapping[str, int]

    def text(self, *keys: str) -> str:
        """Write catalogue strings as labels of one another ("Side A: Surprised on 1 to"), each filled from the
        procedure's values, with the language's punctuation (Format.Label)"""
        texts = [fill(self.strings[k], self.values, self.language) for k in keys]
        return functools.reduce(lambda name, value: fill(self.strings[LABEL], {"label": name, "value": value},
                                                         self.language), texts)


def plain(text: str) -> str:
    """Make catalogue text safe to stand inside a template field or a query prompt"""
    return " ".join(text.translate(UNSAFE_IN_MACRO).split())


def query(prompt: str, *options: str) -> str:
    """Write a roll query: ?{Prompt}, ?{Prompt|default} or ?{Prompt|Label,value|...}"""
    return "?{" + "|".join([plain(prompt), *options]) + "}"


def nested(inner: str) -> str:
    """Encode a query that stands inside another query's option; @{...} stays as it is (it resolves first)"""
    return "".join(part if ATTRIBUTE_CALL.fullmatch(part) else "".join(NESTED_QUERY_ESCAPES.get(ch, ch) for ch in part)
                   for part in ATTRIBUTE_CALL.split(inner))


def choice(ctx: Context, prompt: str, options: list[tuple[str, Term]]) -> str:
    """Ask a query whose options are labelled terms, the first being the default"""
    return query(prompt, *(f"{plain(ctx.text(label))},{nested(grouped(term, ctx))}" for label, term in options))


def grouped(term: Term, ctx: Context) -> str:
    """Write a term that stands beside other operators (a product, a query's answer): a sum in parentheses"""
    return f"({render(term, ctx)})" if isinstance(term, Sum) else render(term, ctx)


def input_query(term: Input, ctx: Context) -> str:
    """Read an input from the selected token's sheet, or ask for it with the model's default

    Only a plain attribute is read: a macro cannot tell a set value from the sheet's default, nor walk a section.
    """
    name = (ctx.attributes.get(term.key) or {}).get("attribute")
    if term.selected and name:
        return f"@{{selected|{name}}}"
    prompt = ctx.text(*((side_label(term.side),) if term.side else ()), f"Input.{term.key}")
    if term.type == "boolean":
        options = [(NO, Number(0)), (YES, Number(1))]
        return choice(ctx, prompt, options[::-1] if term.default else options)
    # A query's answer goes into the roll's arithmetic: its default stays a plain number in every language.
    return query(prompt) if term.default is None else query(prompt, str(term.default))


def prompt_query(term: Prompt, ctx: Context) -> str:
    """Ask for a number no sheet holds"""
    prompt = ctx.text(*((side_label(term.side),) if term.side else ()), term.label)
    return query(prompt) if term.default is None else query(prompt, str(term.default))


def render_sum(term: Sum, ctx: Context) -> str:
    """Add and subtract terms; a subtracted sum keeps its parentheses"""
    parts = [("- " if sign < 0 else "+ ") + (grouped(part, ctx) if sign < 0 else render(part, ctx))
             for sign, part in term.terms]
    return " ".join(parts).removeprefix("+ ")


def group(inner: str) -> str:
    """Write a roll group, keeping braces apart: a {{ or }} would open or close a template field"""
    return "{" + (" " if inner.startswith("{") else "") + inner + (" " if inner.endswith("}") else "") + "}"


def dice(term: Dice, ctx: Context) -> str:
    """Write dice: 3d6, or 2d20kh1 when only the highest count"""
    return f"{term.count}d{term.sides}" + (f"kh{term.keep_highest}" if term.keep_highest else "")


def number(term: Constant | Number, ctx: Context) -> str:
    """Write a rule constant or a plain number"""
    return str(term.value)


def product(term: Product, ctx: Context) -> str:
    """Multiply terms"""
    return " * ".join(grouped(factor, ctx) for factor in term.factors)


def extreme(term: Extreme, ctx: Context) -> str:
    """Keep the highest or the lowest of a group (docs/dev/roll20.md §6: {a, b}kh1)"""
    return group(", ".join(render(t, ctx) for t in term.terms)) + ("kh1" if term.highest else "kl1")


def picked(term: Choice, ctx: Context) -> str:
    """Ask for one of the choice's options"""
    return choice(ctx, ctx.text(term.label), list(term.options))


RENDERERS: dict[type, Callable[[Any, Context], str]] = {
    Dice: dice, Constant: number, Number: number, Input: input_query, Prompt: prompt_query, Choice: picked,
    Sum: render_sum, Product: product, Extreme: extreme,
}


def render(term: Term, ctx: Context) -> str:
    """Write a term as inline-roll arithmetic"""
    return RENDERERS[type(term)](term, ctx)


def row(line: Row, ctx: Context) -> tuple[str, str]:
    """Write one template field: an inline roll of the row's term, or its rule as text"""
    label = ctx.text(*line.label)
    if line.text is not None:
        return label, plain(ctx.text(line.text))
    assert line.term is not None
    return label, f"[[{render(line.term, ctx)}]]"


def template(title: str, fields: list[tuple[str, str]]) -> str:
    """Write a default roll template message"""
    return "&{template:default} {{name=" + plain(title) + "}} " + " ".join(
        "{{" + plain(label) + "=" + value + "}}" for label, value in fields)


def macro(procedure: RollProcedure, ctx: Context) -> dict[str, Any]:
    """Write one macro: a file name, a display name and its chat text"""
    title = ctx.text(procedure.title)
    return {"id": procedure.id, "name": plain(title), "action": template(title, [row(r, ctx) for r in procedure.rows])}


def chat_macros(defs: Definitions) -> list[dict[str, Any]]:
    """Return the system's chat macros: {id, name, action}, one per roll procedure, in the default language"""
    language = defs.module.default_language
    return [macro(p, Context(language, defs.catalogue[language], defs.targets["roll20"].attributes, p.values))
            for p in defs.rolls]
