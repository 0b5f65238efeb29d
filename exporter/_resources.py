"""Locate the packaged templates and example campaigns, in a wheel install or a source checkout; read a template once"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path


def bundled_dir(name: str) -> Path:
    """Return a directory shipped with the package (wheel) or found in the checkout (editable)"""
    bundled = Path(str(files("exporter").joinpath(name)))
    if bundled.is_dir():
        return bundled
    checkout = Path(__file__).resolve().parents[1] / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"exporter {name} not found; the installation is incomplete")


@cache  # asked for every template a build reads
def templates_root() -> Path:
    """Return the templates directory"""
    return bundled_dir("templates")


def bundled_examples(kind: str) -> list[Path]:
    """Return the bundled examples of a kind, campaigns or scenarios, in a fixed order (a checkout's, else the wheel's)"""
    root = Path(__file__).resolve().parents[1] / "fixtures" / kind
    if not root.is_dir():
        root = Path(str(files("exporter").joinpath("fixtures", kind)))
    return sorted(root.glob("*.toml"))


@cache
def template_file(path: Path) -> str:
    """Return the text of one of ambush's template files, read once per process however many campaigns are built"""
    return path.read_text(encoding="utf-8")


def template_text(relative: str) -> str:
    """Return the text of the template at this path under templates/, read once per process"""
    return template_file(templates_root() / relative)


def example_campaigns() -> list[Path]:
    """Return the bundled example campaigns, one per system, in a fixed order"""
    return bundled_examples("campaigns")


# The campaign a command reads when given none: the one in the current folder (ambush init writes it there).
LOCAL_CAMPAIGN = Path("campaign.toml")


def default_campaigns() -> tuple[list[Path], str]:
    """Return the campaigns a command reads when given none, and a line saying which: ./campaign.toml or the examples"""
    if LOCAL_CAMPAIGN.is_file():
        return [LOCAL_CAMPAIGN], f"no campaign named: reading {LOCAL_CAMPAIGN} in this folder"
    return example_campaigns(), (f"no campaign named and no {LOCAL_CAMPAIGN} in this folder: "
                                 "reading the bundled examples")


def project_metadata() -> dict[str, str]:
    """Return the project's version and repository address: pyproject.toml in a checkout, else the installed metadata"""
    import tomllib

    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    if pyproject.is_file():
        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        if project.get("name") == "ambush":
            return {"version": project["version"], "repository": project["urls"]["Repository"]}
    from importlib.metadata import metadata

    installed = metadata("ambush")
    urls = dict(entry.split(", ", 1) for entry in installed.get_all("Project-URL") or [])
    return {"version": installed["Version"], "repository": urls["Repository"]}
