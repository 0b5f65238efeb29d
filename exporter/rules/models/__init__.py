"""The pydantic models of scenario files and house rules, and their shared building blocks

The rules modules (exporter/rules/<system>.py) hold the procedures and import no pydantic, so that `ambush odds`
and `ambush simulate` start fast: a valid scenario is read by exporter/rules/records.py from the shapes these
models give (exporter/rules/shapes.py), and only a refused one is validated here, for the exact error.
"""

from __future__ import annotations

from typing import Annotated, Any, Self

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, model_validator

from exporter.limits import NAME_CHARACTERS
from exporter.rules.shared import JS_SAFE_INTEGER, visible

# An integer a GM types that the runtimes read: JavaScript holds it exactly.
SafeInt = Annotated[int, Field(ge=-JS_SAFE_INTEGER, le=JS_SAFE_INTEGER)]

# Member and side names, and every reference to a member (leader, attacker, opener).
Name = Annotated[str, StringConstraints(min_length=1, max_length=NAME_CHARACTERS), AfterValidator(visible)]


def option(default: Any, meaning: str, reading: str, source: str, values: dict[str, str], **constraints: Any) -> Any:
    """Declare a house-rule option: its default, one-line meaning, docs reading id, source and what each value does"""
    return Field(default=default, description=meaning, json_schema_extra={"reading": reading, "source": source,
                                                                         "values": values}, **constraints)


class StrictModel(BaseModel):
    """A frozen model that rejects unknown keys"""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class RulesModel(StrictModel):
    """A model of a scenario file or of house rules, checked as a whole by its rules module's methods"""

    @model_validator(mode="after")
    def _checked(self) -> Self:
        check = getattr(self, "check", None)  # the rules module's own check (its *Methods class), if it has one
        if check is not None:
            check()
        return self
