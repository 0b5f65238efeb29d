"""The documentation in docs/: complete for every option, field and reading, its links and examples sound"""

from __future__ import annotations

import re
import subprocess
import tomllib

import pytest

from exporter.campaign import Author, Campaign
from exporter.options import FIXED_READINGS, system_options
from exporter.rules.models import model_of
from exporter.rules.systems import SYSTEM_IDS, system_module
from exporter.scenario import scenario_from_dict
from exporter.targets.foundry.section import FoundryTarget
from exporter.targets.roll20.section import Roll20Target
from exporter.validation import innermost_model
from tests.conftest import ROOT, TARGET_NAMES

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
LINK = re.compile(r"\]\(([^)#\s]+)?(?:#([^)\s]+))?\)")


def page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def tracked_text_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    return [name for name in listed if (ROOT / name).is_file() and not name.startswith("node_modules")]


def test_no_project_file_points_at_the_spec_folder_outside_the_repository():
    outside = ("../" + "shared", "/work/" + "shared")
    offenders = []
    for name in tracked_text_files():
        try:
            text = (ROOT / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        offenders += [f"{name}: {needle}" for needle in outside if needle in text]
    assert offenders == []


def opening(path: str, after_title: bool = True) -> str:
    """The first paragraph, after the page's title where it has one"""
    return (ROOT / path).read_text(encoding="utf-8").split("\n\n")[int(after_title)]


def line_with(path: str, start: str) -> str:
    return next(line for line in (ROOT / path).read_text(encoding="utf-8").splitlines() if line.startswith(start))


def section(path: str, heading: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8").split(f"\n{heading}\n", 1)[1].split("\n#", 1)[0]


# Where a text for a GM tells what ambush builds: each target by its name, or by the folder a build writes it into.
TELLS_WHAT_IS_BUILT = {
    "README.md, opening": lambda: opening("README.md"),
    "docs/README.md, opening": lambda: opening("docs/README.md"),
    "docs/release.md, opening": lambda: opening("docs/release.md"),
    "templates/init/campaign.toml, opening": lambda: opening("templates/init/campaign.toml", after_title=False),
    "pyproject.toml, description": lambda: tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["description"],
}
LISTS_THE_FOLDERS = {
    "README.md, the build command": lambda: line_with("README.md",
                                                      ".venv/bin/ambush build my-campaign.toml --out dist "),
    "docs/campaign.md, opening": lambda: opening("docs/campaign.md"),
    "docs/dev/architecture.md, output layout": lambda: section("docs/dev/architecture.md", "### Output layout"),
}


@pytest.mark.parametrize("place", TELLS_WHAT_IS_BUILT)
def test_a_text_that_tells_what_ambush_builds_names_every_target(place):
    said = " ".join(TELLS_WHAT_IS_BUILT[place]().split())
    assert [name for name in TARGET_NAMES.values() if name not in said] == [], said


@pytest.mark.parametrize("place", LISTS_THE_FOLDERS)
def test_a_text_that_lists_the_folders_of_a_build_names_every_targets_folder(place):
    said = LISTS_THE_FOLDERS[place]()
    assert [target for target in TARGET_NAMES if f"/{target}/" not in said] == [], said


def test_the_readme_links_the_docs():
    assert "](docs/README.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", [*PAGES, ROOT / "README.md"], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_of_a_page_reaches_a_file_and_an_anchor(path):
    text = path.read_text(encoding="utf-8")
    for target, anchor in LINK.findall(text):
        if target.startswith(("http://", "https://")):
            pytest.fail(f"{path.name} links outside the repository: {target}")
        linked = (path.parent / target).resolve() if target else path
        assert linked.exists(), f"{path.name}: {target} does not exist"
        if anchor and linked.suffix == ".md":
            assert anchor in anchors(linked.read_text(encoding="utf-8")), f"{path.name}: no #{anchor} in {target}"


def anchors(text: str) -> set[str]:
    """Return the explicit anchors and GitHub's heading anchors of a Markdown page"""
    found = set(re.findall(r'<a id="([^"]+)"></a>', text))
    for heading in re.findall(r"^#+ (.+)$", text, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_the_rules_page_explains_every_option_with_its_values_and_default(system):
    text = page(f"rules/{system}.md")
    for option in system_options(system):
        assert f'<a id="{option.reading.lower()}"></a>' in text, option.reading
        section = text.split(f'<a id="{option.reading.lower()}"></a>', 1)[1].split("<a id=", 1)[0]
        assert f"option `{option.name}`, default `{option.shown_default}`" in section
        for value in option.values:
            assert f"`{value}`" in section or f"`{value!r}`".replace("'", '"') in section or value == "N"
        assert option.docs == f"`ambush docs rules/{system}#{option.reading.lower()}`"


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_the_rules_page_names_every_fixed_reading_that_was_an_option(system):
    for name in FIXED_READINGS[system]:
        assert f"`{name}`" in page(f"rules/{system}.md")


def test_the_campaign_reference_names_every_field_and_option():
    text = page("campaign.md")
    for model in (Campaign, Author, FoundryTarget, Roll20Target):
        for name in model.model_fields:
            assert f"`{name}`" in text, f"{model.__name__}.{name}"


def model_fields(model: type) -> set[str]:
    """Return every field name of a model and of the models inside it"""
    names: set[str] = set()
    for name, info in model.model_fields.items():
        names.add(name)
        inner = innermost_model(info.annotation)
        if inner is not None and name != "options":
            names |= model_fields(inner)
    return names


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_the_scenario_reference_names_every_field_of_every_system(system):
    text = page("scenarios.md")
    section = page(f"rules/{system}.md").split("## Scenario fields", 1)[1].split("\n## ", 1)[0]
    common = text.split("## Common", 1)[1].split("\n## ", 1)[0]
    for name in ("system", "procedure", "[sides.a]", "[[sides.X.members]]", "members.name", "sides.X.name",
                 "[options]"):
        assert f"`{name}`" in common, name
    for name in model_fields(model_of(system_module(system).Scenario)) - {"a", "b", "members", "name", "system",
                                                                           "procedure", "sides", "options"}:
        assert f"`{name}`" in section or f"`[[{name}]]`" in section, name


def test_every_toml_example_in_the_docs_is_a_valid_scenario():
    blocks = [block for path in PAGES for block in re.findall(r"```toml\n(.*?)```", path.read_text("utf-8"), re.S)]
    assert blocks
    for block in blocks:
        data = tomllib.loads(block)
        if "procedure" in data:
            scenario_from_dict(data)
