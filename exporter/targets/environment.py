"""Build the Jinja environment a target's renderer owns"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from jinja2 import BaseLoader, Environment, StrictUndefined, TemplateNotFound
from jinja2.loaders import split_template_path

from exporter._resources import template_file, templates_root
from exporter.targets.escaping import FILTERS


class TemplateLoader(BaseLoader):
    """Load templates from folders in order, each file read once per process (the targets share common/)"""

    def __init__(self, folders: list[Path]) -> None:
        self.folders = folders

    def get_source(self, environment: Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        """Return the template's text and file; a template file never changes while ambush runs"""
        parts = split_template_path(template)  # refuses a path that leaves the folder
        for folder in self.folders:
            path = folder.joinpath(*parts)
            if path.is_file():
                return template_file(path), str(path), lambda: True
        raise TemplateNotFound(template)


def make_environment(target: str) -> Environment:
    """Return an environment that loads the target's templates, then the shared ones"""
    root = templates_root()
    env = Environment(
        loader=TemplateLoader([root / target, root / "common"]),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters.update(FILTERS)
    return env
