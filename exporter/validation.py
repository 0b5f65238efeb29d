"""Shared input handling: read TOML files and turn pydantic errors into one-line field messages"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from exporter.errors import InputFileError
from exporter.excerpt import excerpt
from exporter.rules.shared import FieldProblem
from exporter.rules.systems import SYSTEM_IDS

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError


def read_toml(path: Path) -> dict[str, Any]:
    """Read a TOML file within the limits of exporter/limits.py, reporting a missing, unreadable, malformed or too large
    file as an input error"""
    from exporter.bounded_toml import LimitError, loads_bounded, read_bounded

    try:
        text = read_bounded(path).decode("utf-8-sig")  # a byte-order mark, as some Windows editors write, is fine
    except FileNotFoundError:
        raise InputFileError(path, None, "no such file") from None
    except IsADirectoryError:
        raise InputFileError(path, None, "is a directory, not a file") from None
    except UnicodeDecodeError as err:
        raise InputFileError(path, None, f"is not UTF-8 text (byte {err.start}); save it as UTF-8") from None
    except LimitError as err:
        raise InputFileError(path, None, str(err)) from None
    except OSError as err:
        raise InputFileError(path, None, f"cannot be read ({err.strerror})") from None
    try:
        return loads_bounded(text)
    except tomllib.TOMLDecodeError as err:
        raise InputFileError(path, None, f"not valid TOML: {err}") from None
    except LimitError as err:
        raise InputFileError(path, None, str(err)) from None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """Return "; did you mean X?" for the closest known name, or nothing when none is close"""
    import difflib  # lazy: only a bad input asks

    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


def describe_first_error(err: ValidationError, system: str,
                         model_of: Callable[[str], type[BaseModel]] | None = None,
                         root: type[BaseModel] | None = None) -> tuple[str | None, str]:
    """Turn pydantic's first error into a field path and a short message

    model_of names, for an unknown key, the other systems' models that do know it; root (default: this
    system's model_of) is the model validated, whose fields next to an unknown key are suggested.
    """
    errors = err.errors(include_url=False)
    # An unknown key is usually the cause of a "missing" one (iqq for iq), so it is named first.
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    field = field_path(first["loc"])
    kind = first["type"]
    if kind == "extra_forbidden":
        return field, unknown_key_message(first["loc"], system, model_of, root)
    if kind == "missing":
        return field, "missing"
    problem = (first.get("ctx") or {}).get("error")
    if isinstance(problem, FieldProblem):
        prefix = field_path(first["loc"])
        return (f"{prefix}.{problem.field}" if prefix else problem.field), str(problem)
    message = str(first["msg"]).removeprefix("Value error, ")
    if kind == "value_error" or not first["loc"]:
        return field, message
    return field, f"{message} (got {excerpt(first.get('input'))})"


# The steps pydantic adds to a location inside a union or a validator: its own tags, never a key of the file.
# A bare type name (int, str) is such a tag only at the end of a location: a key of the file may be called so.
PYDANTIC_TAG = re.compile(r"^(constrained-\w+|function-\w+\[.*\]|lax-or-strict\[.*\]|json-or-python\[.*\]|"
                          r"(list|dict|tuple|set|literal|union|tagged-union|model)\[.*\])$")
PYDANTIC_TYPE = re.compile(r"^(int|str|bool|float|none)$")


def field_path(loc: tuple[Any, ...]) -> str | None:
    """Render a pydantic location as a TOML-style path, e.g. sides.a.members[1].iq"""
    text = ""
    for index, step in enumerate(loc):
        if step == "[key]":  # pydantic's marker for a bad dict key: the key itself is the previous step
            continue
        last = index == len(loc) - 1
        if isinstance(step, str) and (PYDANTIC_TAG.match(step) or (last and PYDANTIC_TYPE.match(step))):
            continue
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    return text or None


def unknown_key_message(loc: tuple[Any, ...], system: str, model_of: Callable[[str], type[BaseModel]] | None,
                        root: type[BaseModel] | None) -> str:
    """Say why a key is unknown: another system's field, a fixed reading, or a typo of a known one"""
    owners = [other for other in SYSTEM_IDS
              if model_of is not None and other != system and key_known_to(model_of(other), loc)]
    if owners:
        return f"is a field of {', '.join(owners)}, not of {system}"
    fixed = fixed_reading(system, loc)
    if fixed:
        return fixed
    if root is None and model_of is not None and system in SYSTEM_IDS:
        root = model_of(system)
    return "unknown field" + did_you_mean(str(loc[-1]), sibling_keys(root, loc))


def fixed_reading(system: str, loc: tuple[Any, ...]) -> str | None:
    """Return why an options key that names a fixed reading is no option, or None"""
    from exporter.options import FIXED_READINGS

    name = loc[-1]
    if isinstance(name, str) and (len(loc) == 1 or loc[-2] == "options"):
        return FIXED_READINGS.get(system, {}).get(name)
    return None


def sibling_keys(root: Any, loc: tuple[Any, ...]) -> list[str]:
    """Return the field names of the model that holds the last step of loc (none for a plain table)"""
    model = root
    for step in loc[:-1]:
        if isinstance(step, int):
            continue
        fields = getattr(model, "model_fields", None)
        if fields is None or step not in fields:
            return []
        model = innermost_model(fields[step].annotation)
    return list(getattr(model, "model_fields", None) or [])


def key_known_to(model: Any, loc: tuple[Any, ...]) -> bool:
    """Tell whether a model has a field at this location"""
    for step in loc:
        if isinstance(step, int):
            continue
        fields = getattr(model, "model_fields", None)
        if fields is None or step not in fields:
            return False
        model = innermost_model(fields[step].annotation)
    return True


def innermost_model(annotation: Any) -> Any:
    """Find the pydantic model inside an annotation such as list[Member] or Side | None"""
    from pydantic import BaseModel  # lazy: reading a valid scenario file needs no pydantic

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = innermost_model(arg)
        if found is not None:
            return found
    return None
