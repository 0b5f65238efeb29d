"""docs/dev/architecture.md's recipe for a new rules system against the tree: every file it lists is there for every
registered system, and every file named after a system, or naming one in neutral code, is one the recipe lists"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

from exporter.rules.systems import SYSTEM_IDS, SYSTEMS
from tests.test_platforms import docstrings

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "dev" / "architecture.md"
MOST_FILES = 12  # what adding a rules system may cost, the bar the architecture holds itself to
RECIPE = re.compile(r"<!-- recipe: system -->\n(.*?)<!-- /recipe -->", re.S)
ROW = re.compile(r"^\| `(?P<path>[^`]+)` \| (?P<kind>new|changed) \| .+ \|$")
# Where files are named after another kind of system, each with its own recipe: a game system's sheet-reading adapter
# on a VTT (GURPS Game Aid's id is "gurps"; Roll20's GURPS sheet), its sheet corpora; and test data named after the
# system they try.
OTHER_RECIPES = ("exporter/game_systems/", "templates/foundry/game-systems/", "exporter/targets/roll20/sheets/",
                 "fixtures/sheets/", "fixtures/bad/",
                 "tests/__snapshots__/", "docs/pictures/")


def recipe() -> list[tuple[str, str]]:
    """Return the recipe's rows: each file's path pattern and whether a new system adds it or changes it"""
    found = RECIPE.search(ARCHITECTURE.read_text(encoding="utf-8"))
    assert found, "docs/dev/architecture.md has no <!-- recipe: system --> table"
    rows = [ROW.match(line) for line in found.group(1).splitlines() if line.startswith("| `")]
    assert all(rows), "a recipe row is not | `path` | new or changed | what |"
    return [(row["path"], row["kind"]) for row in rows if row]


def names_of(system: str) -> dict[str, str]:
    """Return the names a system's files take: its id, its Python module, its vectors' and examples' prefix"""
    return {"<id>": system, "<module>": SYSTEMS[system].module, "<prefix>": re.split(r"[0-9-]", system, maxsplit=1)[0]}


def expanded(pattern: str, system: str) -> str:
    """Return a recipe pattern for one system"""
    for placeholder, name in names_of(system).items():
        pattern = pattern.replace(placeholder, name)
    return pattern


def tracked() -> list[str]:
    """Return the files git tracks"""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [line for line in listed.splitlines() if (ROOT / line).is_file()]


def test_the_recipe_lists_at_most_what_the_issue_allows_and_says_its_count():
    rows = recipe()
    assert len(rows) == len({path for path, _ in rows}), "a file is listed twice"
    # The count is the recipe's own claim (docs/dev/architecture.md says it), and a new system takes no more than 12
    said = re.search(r"A new rules system takes (\d+) files", ARCHITECTURE.read_text(encoding="utf-8"))
    assert said and int(said.group(1)) == len(rows), "the recipe's count is not the number of files it lists"
    assert len(rows) <= MOST_FILES, f"a new system takes {len(rows)} files, more than {MOST_FILES}"


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_every_file_the_recipe_lists_is_there_for_every_system(system):
    files = tracked()
    for pattern, kind in recipe():
        path = expanded(pattern, system)
        matching = [f for f in files if Path(f).match(path)] if "*" in path else [f for f in files if f == path]
        assert matching, f"the recipe lists {pattern} ({kind}), which {system} does not have: {path}"


def test_every_file_named_after_a_system_is_one_the_recipe_lists():
    patterns = [(expanded(pattern, system), system) for pattern, kind in recipe() if kind == "new" for system in SYSTEM_IDS]
    named = {system: re.compile(r"(?:^|/)(?:test_)?(?:{})(?:[-_.]|$)".format("|".join(map(re.escape, set(names_of(system).values())))))
             for system in SYSTEM_IDS}
    strays = []
    for file in tracked():
        if file.startswith(OTHER_RECIPES):
            continue
        for system, pattern in named.items():
            if pattern.search(file) and not any(Path(file).match(path) for path, owner in patterns if owner == system):
                strays.append(file)
    assert not strays, f"named after a system, but not in the recipe: {strays}"


def system_names_in(source: str) -> list[tuple[int, str]]:
    """Return each string in code (not a docstring) that is a system id, or a dotted name that holds one"""
    tree = ast.parse(source)
    prose = docstrings(tree)
    ids = re.compile(r"(?<![\w-])(?:{})(?!\w)".format("|".join(map(re.escape, SYSTEM_IDS))))
    return sorted((node.lineno, node.value) for node in ast.walk(tree) if isinstance(node, ast.Constant)
                  and isinstance(node.value, str) and id(node) not in prose and ids.search(node.value))


def test_neutral_code_names_no_rules_system_but_where_the_recipe_says():
    listed = {expanded(pattern, system) for pattern, _ in recipe() for system in SYSTEM_IDS}
    naming = []
    for path in sorted((ROOT / "exporter").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative in listed or relative.startswith(OTHER_RECIPES):
            continue
        naming += [f"{relative}:{line}: {value[:60]!r}" for line, value in system_names_in(path.read_text(encoding="utf-8"))]
    assert not naming, "neutral code names a rules system; read exporter/rules/systems.py:\n" + "\n".join(naming)


def test_the_check_finds_a_system_named_in_code_but_not_in_prose():
    source = '"""rules/gurps4e"""\nHELP = "gurps4e (GURPS 4e)"\nPAGE = "rules/adnd1e#c5"\nTEXT = "a gurps4e-like system"\n'
    assert [value for _, value in system_names_in(source)] == ["gurps4e (GURPS 4e)", "rules/adnd1e#c5",
                                                                "a gurps4e-like system"]
