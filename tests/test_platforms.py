"""The platform registry: only it and each platform's own package name a platform; everything else reads the registry"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from exporter.campaign import DEFAULT_TARGETS, TARGETS, Campaign
from exporter.platforms import PLATFORMS, SECTIONS, named, release_module, section_module

EXPORTER = Path(__file__).resolve().parents[1] / "exporter"
REGISTRY = EXPORTER / "platforms.py"
# Where a platform's name still stands outside the registry and its package, and why.
NOT_YET: set[str] = set()  # files or functions (path:function) that still name a platform; none today
# A name in code that says a platform: foundry or roll20 anywhere, web as a word of it (web_page, WebWriter)
PLATFORM_NAME = re.compile(r"(?i:foundry|roll20)|(?:^|_)(?i:web)(?:_|$)|^Web[A-Z]")
# A string that names a platform: foundry or roll20 anywhere, or web as an id or a path (not "a web address"); the
# catalogue's keys are named by the platform that shows them (Roll20.DiceRoll, Web.File.dc), each once.
PLATFORM_STRING = re.compile(r"(?i:foundry|roll20)|^(?i:web)(?:[/.]|$)")
CATALOGUE_KEY = re.compile(r"^(?:Foundry|Roll20|Web)\.[A-Z][A-Za-z0-9.{}]*$")


def neutral_files() -> list[Path]:
    """Return the Python files of exporter/ that are neither the registry nor in a platform's own package"""
    packages = [EXPORTER / "targets" / platform for platform in PLATFORMS]
    return sorted(path for path in EXPORTER.rglob("*.py")
                  if path != REGISTRY and not any(package in path.parents for package in packages))


def docstrings(tree: ast.AST) -> set[int]:
    """Return the ids of the docstring nodes of a module, its classes and functions: prose, like comments"""
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}


def names_in(node: ast.AST) -> list[str]:
    """Return the names a node spells in code: variables, attributes, definitions, arguments, imports"""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.keyword):
        return [node.arg] if node.arg else []
    if isinstance(node, ast.alias):
        return [node.name, *([node.asname] if node.asname else [])]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    return []


def platform_names(source: str) -> list[tuple[int, str]]:
    """Return each line that names a platform in code (a name or a string, never a comment or a docstring)"""
    tree = ast.parse(source)
    prose = docstrings(tree)
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        found += [(line, name) for part in names_in(node) for name in part.split(".") if PLATFORM_NAME.search(name)]
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
            if PLATFORM_STRING.search(node.value) and not CATALOGUE_KEY.match(node.value):
                found.append((line, node.value))
    return sorted(found)


def exempt(path: Path, source: str, line: int) -> bool:
    """Tell whether a line lies in a file or a function NOT_YET names"""
    relative = path.relative_to(EXPORTER).as_posix()
    if relative in NOT_YET:
        return True
    functions = [node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.FunctionDef)
                 and f"{relative}:{node.name}" in NOT_YET]
    return any(f.lineno - len(f.decorator_list) - 1 <= line <= (f.end_lineno or 0) or
               any(d.lineno <= line <= (d.end_lineno or 0) for d in f.decorator_list) for f in functions)


@pytest.mark.parametrize("path", neutral_files(), ids=lambda p: p.relative_to(EXPORTER).as_posix())
def test_no_neutral_module_names_a_platform(path):
    source = path.read_text(encoding="utf-8")
    named_here = [f"{line}: {name}" for line, name in platform_names(source) if not exempt(path, source, line)]
    assert not named_here, f"{path.relative_to(EXPORTER)} names a platform; read exporter/platforms.py"


def test_the_check_finds_a_platform_named_in_code_but_not_in_prose():
    source = ('"""Write the Foundry module"""\nimport x  # the Roll20 script\nfrom exporter.targets.web import Page\n'
              'def write(roll20_script):\n    return "foundry/module.json", "a web address", "Roll20.DiceRoll"\n')
    assert [name for _, name in platform_names(source)] == ["web", "roll20_script", "foundry/module.json"]


def test_every_platform_gives_what_the_registry_promises():
    assert TARGETS == tuple(PLATFORMS) and DEFAULT_TARGETS == tuple(p for p, e in PLATFORMS.items() if e.default)
    for platform, entry in PLATFORMS.items():
        assert callable(getattr(named(entry.writer), "write", None)), platform
        release = release_module(platform)
        assert all(callable(getattr(release, f, None)) for f in ("release_files", "release_notes", "with_release"))
    for platform in SECTIONS:
        section = section_module(platform)
        assert Campaign.model_fields[platform].annotation is section.Section
        assert all(callable(getattr(section, f, None)) for f in ("target_settings", "build_warnings", "init_context"))
        assert "attributes" in section.Section.model_fields


def test_a_platforms_own_commands_come_from_the_registry_and_only_when_asked():
    from click.testing import CliRunner

    from exporter.cli import main
    from exporter.platforms import PLATFORM_COMMANDS

    assert PLATFORM_COMMANDS, "no platform has a command of its own: this test tries nothing"
    listed = CliRunner().invoke(main, ["--help"]).output
    for name in PLATFORM_COMMANDS:
        assert f"\n  {name} " in listed, f"ambush --help does not list {name}"
        assert CliRunner().invoke(main, [name, "--help"]).exit_code == 0
    assert not any(name in main.commands for name in PLATFORM_COMMANDS), "a platform's command is the CLI's own"
