"""Build the Jinja environment a target's renderer owns"""

from __future__ import annotations

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from exporter._resources import templates_root
from exporter.targets.escaping import FILTERS


def make_environment(target: str) -> Environment:
    """Return an environment that loads the target's templates, then the shared ones"""
    root = templates_root()
    env = Environment(
        loader=FileSystemLoader([str(root / target), str(root / "common")]),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters.update(FILTERS)
    return env
