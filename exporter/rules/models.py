"""The pydantic models of scenario files and house rules, made from the parts the rules modules declare

The rules modules (exporter/rules/<system>.py) declare their scenario's parts without pydantic
(exporter/rules/declared.py), so that `ambush odds` and `ambush simulate` start fast: a valid scenario is read by
exporter/rules/records.py, and only a refused one is validated here, for the exact error. Campaign options are read
here too.
"""

from __future__ import annotations

import types
from functools import cache
from typing import Annotated, Any, Self, Union, get_args, get_origin

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, model_validator

from exporter.rules.declared import (
    EMPTY,
    REQUIRED,
    Bounds,
    Declared,
    Lengths,
    Spec,
    Visible,
    declared_fields,
    is_declared,
)
from exporter.rules.shared import visible


class StrictModel(BaseModel):
    """A frozen model that rejects unknown keys"""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class RulesModel(StrictModel):
    """A model of a scenario file or of house rules, checked as a whole by its declaration's check, if it has one"""

    @model_validator(mode="after")
    def _checked(self) -> Self:
        check = getattr(self, "check", None)
        if check is not None:
            check()
        return self

    def __reduce__(self) -> Any:
        """Pickle a model of a declared part by its declaration (a build's worker processes get campaigns so): the
        model's own name in the rules module is the declaration's"""
        part = next((base for base in type(self).__bases__ if is_declared(base)), None)
        if part is None:
            return super().__reduce__()
        return (empty_model, (part,), self.__getstate__())


def empty_model(part: type[Declared]) -> RulesModel:
    """Return an instance of a declared part's model with no state yet, for unpickling"""
    model = model_of(part)
    return model.__new__(model)


@cache
def model_of(part: type[Declared]) -> type[RulesModel]:
    """Return the pydantic model of a declared part: its fields, their bounds and defaults, and its methods"""
    annotations: dict[str, Any] = {}
    namespace: dict[str, Any] = {"__module__": part.__module__, "__qualname__": part.__qualname__,
                                 "__doc__": part.__doc__, "__annotations__": annotations}
    for name, field in declared_fields(part).items():
        annotations[name] = pydantic_type(field.type)
        namespace[name] = pydantic_field(field.type, field.spec)
    return type(part.__name__, (part, RulesModel), namespace)


def pydantic_type(annotation: Any) -> Any:
    """Return an annotation with each declared part as its model and each bound as pydantic's"""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return Annotated[(pydantic_type(args[0]), *(pydantic_constraint(item) for item in args[1:]))]
    if origin in (Union, types.UnionType):
        return Union[tuple(pydantic_type(arg) for arg in args)]  # noqa: UP007  # a tuple of types, built here
    if origin is list:
        return list[pydantic_type(args[0])]  # type: ignore[misc]
    return model_of(annotation) if is_declared(annotation) else annotation


def pydantic_constraint(item: Any) -> Any:
    """Return a bound of Annotated metadata as pydantic takes it"""
    if isinstance(item, Bounds):
        return Field(**given(ge=item.ge, le=item.le))
    if isinstance(item, Lengths):
        return StringConstraints(**given(min_length=item.min_length, max_length=item.max_length))
    if isinstance(item, Visible):
        return AfterValidator(visible)
    raise TypeError(f"no pydantic constraint for {item!r}")


def pydantic_field(annotation: Any, spec: Spec) -> Any:
    """Return a field's pydantic Field: its default, bounds, lengths and, for an option, its docs"""
    settings: dict[str, Any] = {}
    if spec.bounds is not None:
        settings.update(given(ge=spec.bounds.ge, le=spec.bounds.le))
    if spec.lengths is not None:
        settings.update(given(min_length=spec.lengths.min_length, max_length=spec.lengths.max_length))
    if spec.option is not None:
        text = spec.option
        settings.update(description=text.meaning,
                        json_schema_extra={"reading": text.reading, "source": text.source, "values": text.values})
    if spec.default is EMPTY:
        settings["default_factory"] = model_of(annotation)
    elif spec.default is not REQUIRED:
        settings["default"] = spec.default
    return Field(**settings)


def given(**settings: Any) -> dict[str, Any]:
    """Return the settings that are set"""
    return {key: value for key, value in settings.items() if value is not None}
