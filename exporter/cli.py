"""The ambush command line: parse options, call the library, print, map errors to exit codes"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from exporter.errors import ExportError
from exporter.rules.systems import SYSTEM_IDS


class InputError(click.ClickException):
    """Report bad user input as a one-line message"""

    exit_code = 2


@contextmanager
def reported_errors() -> Iterator[None]:
    """Map library errors to click exceptions"""
    try:
        yield
    except ExportError as err:  # raised by the library, never printed there
        raise InputError(err.one_line()) from err


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ambush", prog_name="ambush")
def main() -> None:
    """Turn tabletop surprise rules into Foundry VTT and Roll20 automation"""


@main.command()
@click.argument("campaigns", nargs=-1, type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(path_type=Path), default=Path("dist"), show_default=True)
@click.option("--target", type=click.Choice(["foundry", "roll20", "all"]), default="all", show_default=True)
@click.option("--zip/--no-zip", "make_zip", default=True, show_default=True)
@click.option("--check", is_flag=True, help="Write nothing; exit 1 listing the files a build would change.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Build this many campaigns at once.")
def build(campaigns: tuple[Path, ...], out: Path, target: str, make_zip: bool, check: bool, jobs: int) -> None:
    """Build VTT output for each campaign (default: the bundled examples)"""
    from exporter.build import build_campaigns  # lazy: keeps --help fast

    progress = Progress(len(campaigns) or 3) if sys.stderr.isatty() and not check else None
    with reported_errors():
        report = build_campaigns(list(campaigns), out, target, make_zip, check, progress=progress, jobs=jobs)
    if progress:
        progress.done()
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)
    if check:
        if report.differences:
            click.echo("\n".join(["out of date:", *report.differences]))
            raise SystemExit(1)
        click.echo(f"{out} is up to date")
        return
    for folder in report.written:
        click.echo(f"wrote {folder}")
    if len(report.written) > 1:
        click.echo(f"{len(report.written)} campaigns built into {out}")


class Progress:
    """Show build progress on a terminal, on one line of stderr that is rewritten"""

    def __init__(self, total: int) -> None:
        self.total = total
        self.count = 0

    def __call__(self, campaign_id: str) -> None:
        self.count += 1
        click.echo(f"\r\033[Kbuilding {self.count}/{max(self.total, self.count)}: {campaign_id}", err=True, nl=False)

    def done(self) -> None:
        """Clear the progress line"""
        click.echo("\r\033[K", err=True, nl=False)


@main.command()
@click.option("--system", type=click.Choice(SYSTEM_IDS), required=True)
@click.argument("path", type=click.Path(path_type=Path), default=Path("campaign.toml"))
def init(system: str, path: Path) -> None:
    """Write a new, commented campaign.toml for a system"""
    from exporter.init import init_campaign

    with reported_errors():
        click.echo(f"wrote {init_campaign(system, path)}")


@main.command()
@click.argument("campaign", type=click.Path(path_type=Path))
def validate(campaign: Path) -> None:
    """Check a campaign.toml without building it"""
    from exporter.campaign import load_campaign

    with reported_errors():
        loaded = load_campaign(campaign)
    click.echo(f"{campaign}: ok ({loaded.system}, {loaded.id} {loaded.version})")


@main.command()
@click.argument("scenario", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the odds as JSON.")
@click.option("--svg", "svg", type=click.Path(dir_okay=False, path_type=Path), help="Also draw them as an SVG chart.")
def odds(scenario: Path, as_json: bool, svg: Path | None) -> None:
    """Compute the exact odds of a surprise scenario"""
    from exporter.report import odds_json, odds_svg, odds_table
    from exporter.scenario import load_scenario

    with reported_errors():
        loaded = load_scenario(scenario)
        text = odds_json(loaded) if as_json else odds_table(loaded)
        if svg is not None:
            write_output(svg, odds_svg(loaded))
    click.echo(text)


def write_output(path: Path, text: str) -> None:
    """Write a file the user asked for, reporting a path that cannot be written as bad input"""
    from exporter.dist import write_text
    from exporter.errors import InputFileError

    try:
        write_text(path, text)
    except OSError as err:
        raise InputFileError(path, None, f"cannot be written ({err.strerror})") from None


@main.command()
def systems() -> None:
    """Show the rules systems, their procedures, and their options with defaults"""
    from exporter.report import systems_table

    click.echo(systems_table())


@main.command()
@click.argument("scenario", type=click.Path(path_type=Path))
@click.option("--seed", type=int, default=None, help="Seed the dice; the same seed tells the same story.")
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as JSON.")
def simulate(scenario: Path, seed: int | None, as_json: bool) -> None:
    """Play a surprise scenario with real dice and narrate it"""
    import secrets

    from exporter.report import simulation_json, simulation_text
    from exporter.scenario import load_scenario

    with reported_errors():
        loaded = load_scenario(scenario)
        chosen = secrets.randbelow(2**31) if seed is None else seed
        click.echo(simulation_json(loaded, chosen) if as_json else simulation_text(loaded, chosen))
