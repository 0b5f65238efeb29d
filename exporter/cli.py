"""The ambush command line: parse options, call the library, print, map errors to exit codes"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import click

from exporter.commands import REPOSITORY_HELP, InputError, reported_errors
from exporter.platforms import PLATFORM_COMMANDS, PLATFORM_IDS, every_noun, named, nouns, zipped_noun
from exporter.rules.systems import SYSTEM_IDS, systems_called


class AmbushGroup(click.Group):
    """The command group, printing a usage error as one line (exit 2) instead of click's four, with the platforms'
    own commands (exporter/platforms.py) imported only when named or listed"""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Name every command, the platforms' own among them"""
        return sorted({*super().list_commands(ctx), *PLATFORM_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """Return a command, importing a platform's own when it is the one asked for"""
        if cmd_name in PLATFORM_COMMANDS:
            return named(PLATFORM_COMMANDS[cmd_name])
        return super().get_command(ctx, cmd_name)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Show the help, as --help does, when ambush is run with nothing: no usage error, nothing wrong"""
        if not args and not ctx.resilient_parsing:
            click.echo(ctx.get_help(), color=ctx.color)
            ctx.exit(0)
        return super().parse_args(ctx, args)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):  # type: ignore[no-untyped-def]
        """Run the CLI, turning click's usage errors into one line"""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as err:
            where = err.ctx.command_path if err.ctx else "ambush"
            click.echo(f"Error: {where}: {' '.join(err.format_message().split())} (see {where} --help)", err=True)
            sys.exit(err.exit_code)
        except click.ClickException as err:
            err.show()
            sys.exit(err.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


@click.group(name="ambush", cls=AmbushGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog="`ambush docs` lists the pages that explain every field and option, `ambush docs PAGE` prints "
                    "one; `ambush explain OPTION` tells one option's meaning, values, default and source.")
@click.version_option(package_name="ambush", prog_name="ambush")
def main() -> None:
    """Turn tabletop surprise rules into Foundry VTT and Roll20 automation, and a web page for a table without a VTT

    Write a campaign with `ambush init`, check it with `ambush validate`, build it with `ambush build`;
    try a fight first with `ambush odds` and `ambush simulate` on a scenario file, or on an example that comes with
    ambush (`ambush examples` lists them: `ambush odds gurps-partial`).
    """


@main.command(short_help=f"Build the {nouns()} of campaigns")
@click.argument("campaigns", nargs=-1, type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(path_type=Path), default=Path("dist"), show_default=True,
              help="Write each campaign into OUT/<campaign id>/.")
@click.option("--target", type=click.Choice([*PLATFORM_IDS, "all"]), default="all", show_default=True,
              help="Build only one target's files (a VTT's, or the web page).")
@click.option("--zip/--no-zip", "make_zip", default=None,
              help=f"Also pack {zipped_noun()} as <id>-<version>.zip for release (default: --zip; with --check, "
                   "as OUT holds it).")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 listing the files a build would change (a folder "
                                            "never built is one line).")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Build this many campaigns at once.")
def build(campaigns: tuple[Path, ...], out: Path, target: str, make_zip: bool | None, check: bool,
          jobs: int) -> None:
    """Build each campaign's targets (default: ./campaign.toml, else the bundled examples)

    Each campaign's `targets`: the Foundry module (OUT/<id>/foundry/ and its zip), the Roll20 script (OUT/<id>/roll20/)
    and the web page for a table without a VTT (OUT/<id>/web/index.html). CAMPAIGNS are campaign.toml files; without
    any, the campaign.toml of the current folder is built, or, when there is none, the three bundled example campaigns.
    """
    from exporter.build import build_campaigns  # lazy: keeps --help fast

    paths = list(campaigns) or given_or_default()
    progress = Progress(len(paths)) if sys.stderr.isatty() and not check else None
    with reported_errors():
        report = build_campaigns(paths, out, target, make_zip, check, progress=progress, jobs=jobs)
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


@main.command(short_help="Write a new, commented campaign.toml for a system")
@click.option("--system", type=click.Choice(SYSTEM_IDS), required=True,
              help=f"The rules system: {systems_called()}.")
@click.argument("path", type=click.Path(), default="campaign.toml")
@click.option("--workflow", is_flag=True,
              help="Also write .github/workflows/release.yml beside it: pushing a tag v<version> to GitHub then "
                   f"releases {every_noun()} (`ambush docs release`).")
def init(system: str, path: str, workflow: bool) -> None:
    """Write a new, commented campaign.toml for a system

    The campaign builds every target: the Foundry module, the Roll20 script and the web page for a table without a
    VTT (its `targets` line). PATH is the file to write (default campaign.toml), or a folder to write campaign.toml
    into: one that exists, or a new one, named with a / at its end or without .toml; an existing file is never
    overwritten. Every field and option carries a one-line comment.
    """
    from exporter.init import campaign_file, init_campaign, workflow_path

    with reported_errors():
        written = init_campaign(system, campaign_file(path), workflow)
    click.echo(f"wrote {written}")
    if workflow:
        click.echo(f"wrote {workflow_path(written)}")


def given_or_default() -> list[Path]:
    """Return the campaigns a command reads when given none, saying on stderr which"""
    from exporter._resources import default_campaigns

    paths, note = default_campaigns()
    click.echo(note, err=True)
    return paths


@main.command(short_help="Check a campaign.toml without building it")
@click.argument("campaign", type=click.Path(path_type=Path), required=False)
def validate(campaign: Path | None) -> None:
    """Check a campaign.toml without building it (default: ./campaign.toml, else the bundled examples)"""
    from exporter.campaign import load_campaign

    for path in [campaign] if campaign is not None else given_or_default():
        with reported_errors():
            loaded = load_campaign(path)
        click.echo(f"{path}: ok ({loaded.system}, {loaded.id} {loaded.version})")


def scenario_names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Complete an example scenario's name in the shell (a file completes as any path does)"""
    from exporter.examples import examples

    return [e.name for e in examples().values() if e.kind == "scenarios" and e.name.startswith(incomplete)]


def scenario_file(given: Path) -> Path:
    """Return the scenario file a command reads: the file given, else the example of that name, said on stderr

    A copy the GM wrote out (`ambush examples NAME`, NAME.toml) is read before the example it came from.
    """
    from exporter.errors import InputFileError
    from exporter.examples import SUFFIX, find_example

    if given.exists():
        return given
    copy = given.with_name(given.name + SUFFIX)
    if not given.suffix and copy.is_file():
        click.echo(f"reading {copy}", err=True)
        return copy
    example = find_example(str(given), "scenarios")
    if example is None:
        raise InputFileError(given, None, "no such file; `ambush examples` lists the example scenarios that come "
                                          "with ambush")
    click.echo(f"reading the example {example.name} (`ambush examples {example.name}` writes it here to edit)",
               err=True)
    return example.path


@main.command(short_help="Compute the exact odds of a surprise scenario")
@click.argument("scenario", type=click.Path(path_type=Path), shell_complete=scenario_names)
@click.option("--json", "as_json", is_flag=True, help="Print the odds as JSON.")
@click.option("--svg", "svg", type=click.Path(dir_okay=False, path_type=Path),
              help="Also draw them as an SVG chart into this file; its folder must exist.")
def odds(scenario: Path, as_json: bool, svg: Path | None) -> None:
    """Compute the exact odds of a surprise scenario

    SCENARIO is a scenario file (`ambush docs scenarios`): the system, the procedure and both sides; or the name of an
    example that comes with ambush (`ambush examples`).
    """
    from exporter.report import odds_json_chunks, odds_svg_chunks, odds_table_lines, scenario_odds
    from exporter.scenario import load_scenario

    with reported_errors():
        loaded = load_scenario(scenario_file(scenario))
        computed = scenario_odds(loaded)  # once, for the text and the chart
        if svg is not None:
            write_output(svg, odds_svg_chunks(loaded, computed))
        echo_chunks(odds_json_chunks(loaded, computed) if as_json else lines(odds_table_lines(loaded, computed)))


def lines(texts: Iterable[str]) -> Iterator[str]:
    """Give texts as the lines of one text: a newline between each and the next"""
    for index, text in enumerate(texts):
        yield f"\n{text}" if index else text


def echo_chunks(chunks: Iterable[str], batch: int = 1 << 16) -> None:
    """Print a text as it is made, in batches of about this many characters, and a newline after it (a fight's odds
    need not be held whole)"""
    pending: list[str] = []
    size = 0
    for chunk in chunks:
        pending.append(chunk)
        size += len(chunk)
        if size >= batch:
            click.echo("".join(pending), nl=False)
            pending, size = [], 0
    click.echo("".join(pending))


def write_output(path: Path, text: str | Iterable[str]) -> None:
    """Write a file the user asked for, reporting a path that cannot be written as bad input"""
    from exporter.dist import write_text
    from exporter.errors import InputFileError

    if not path.parent.is_dir():  # a typo in a folder name should not create a stray tree
        raise InputFileError(path, None, f"cannot be written: the folder {path.parent} does not exist")
    try:
        write_text(path, text)
    except OSError as err:
        raise InputFileError(path, None, f"cannot be written ({err.strerror})") from None


@main.command(short_help="Show the rules systems, their procedures and their options")
@click.argument("system", type=click.Choice(SYSTEM_IDS), required=False)
@click.option("--option", "option", metavar="NAME", help="Explain one option of SYSTEM (or of every system).")
def systems(system: str | None, option: str | None) -> None:
    """Show the rules systems, their procedures, and their options with defaults and meanings

    Give SYSTEM to show one system only, and --option NAME to explain one option in full.
    """
    if option is not None:
        explain_command(option, system)
        return
    from exporter.report import systems_table

    click.echo(systems_table(system))


@main.command(short_help="Explain one house-rule option: meaning, values, default, source")
@click.argument("option", metavar="OPTION")
@click.option("--system", type=click.Choice(SYSTEM_IDS), help="Look in this system only.")
def explain(option: str, system: str | None) -> None:
    """Explain one house-rule option: its meaning, values, default, source and where the docs say more"""
    explain_command(option, system)


def explain_command(name: str, system: str | None) -> None:
    """Print every option of this name, or a one-line error with the closest names"""
    from exporter.options import FIXED_READINGS, explain_option, find_option, system_options
    from exporter.validation import did_you_mean

    found = find_option(name, system)
    if found:
        click.echo("\n\n".join(explain_option(o) for o in found))
        return
    systems = [system] if system else list(SYSTEM_IDS)
    fixed = [f"{s}: {name} {FIXED_READINGS[s][name]}" for s in systems if name in FIXED_READINGS.get(s, {})]
    if fixed:
        raise InputError("; ".join(fixed))
    known = sorted({o.name for s in systems for o in system_options(s)})
    raise InputError(f"no option {name!r}{' in ' + system if system else ''}; `ambush systems` lists them"
                     + did_you_mean(name, known))


@main.command(short_help="Play a surprise scenario with real dice and narrate it")
@click.argument("scenario", type=click.Path(path_type=Path), shell_complete=scenario_names)
@click.option("--seed", type=int, default=None, help="Seed the dice; the same seed tells the same story.")
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as JSON.")
def simulate(scenario: Path, seed: int | None, as_json: bool) -> None:
    """Play a surprise scenario with real dice and narrate it

    SCENARIO is a scenario file (`ambush docs scenarios`), or the name of an example that comes with ambush
    (`ambush examples`).
    """
    import secrets

    from exporter.report import simulation_json_chunks, simulation_lines
    from exporter.scenario import load_scenario

    with reported_errors():
        loaded = load_scenario(scenario_file(scenario))
        chosen = secrets.randbelow(2**31) if seed is None else seed
        echo_chunks(simulation_json_chunks(loaded, chosen) if as_json else lines(simulation_lines(loaded, chosen)))


def example_names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Complete an example's name in the shell"""
    from exporter.examples import examples

    return [name for name in examples() if name.startswith(incomplete)]


@main.command(short_help="List the example scenarios and campaigns that come with ambush, or write one out")
@click.argument("name", required=False, shell_complete=example_names)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the example to this file (default: NAME.toml in this folder); never over a file.")
def examples(name: str | None, out: Path | None) -> None:
    """List the example scenarios and campaigns that come with ambush, or write one out to read and edit

    `ambush odds NAME` and `ambush simulate NAME` read an example scenario as it comes; `ambush build` with no
    campaign builds the example campaigns.
    """
    from exporter.examples import listing, write_example

    if name is None:
        click.echo(listing(), nl=False)
        return
    with reported_errors():
        written = write_example(name, out)
    click.echo(f"wrote {written}")


def page_names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Complete a page name in the shell"""
    from exporter.docs import pages

    return [name for name in pages() if name.startswith(incomplete)]


@main.command(short_help="Show the documentation that comes with ambush, page by page")
@click.argument("page", required=False, shell_complete=page_names)
def docs(page: str | None) -> None:
    """Show the documentation that comes with ambush: the list of pages, or one page as text

    PAGE is a name from the list, such as campaign or rules/gurps4e, and may name one section: rules/gurps4e#a1.
    """
    from exporter.docs import listing, page_text

    with reported_errors():
        text = page_text(page) if page is not None else listing()
    if sys.stdout.isatty():
        click.echo_via_pager(text)
    else:
        click.echo(text, nl=False)


TAG_HELP = "The release's tag: v and the campaigns' version, like v1.2.0."


@main.command(short_help="Build campaigns into the files of a GitHub release")
@click.argument("campaigns", nargs=-1, type=click.Path(path_type=Path))
@click.option("--repository", required=True, metavar="URL", help=REPOSITORY_HELP)
@click.option("--tag", required=True, help=TAG_HELP)
@click.option("--out", type=click.Path(path_type=Path), default=Path("release"), show_default=True,
              help="Write the release's files into this new or empty folder.")
@click.option("--notes", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write release notes with each module's manifest URL (Markdown) into this file.")
def release(campaigns: tuple[Path, ...], repository: str, tag: str, out: Path, notes: Path | None) -> None:
    """Build campaigns into the files of a GitHub release, with the URLs Foundry installs and updates from

    Each module's zip, its module.json as ID.json (its manifest URL the latest release's, its download URL this
    release's zip), each Roll20 script and each web page as ID-VERSION.html. The campaigns are built twice: a
    release whose second build differs exits 1; a campaign that gives no file to release exits 2. Without
    CAMPAIGNS, as build chooses. Every step: `ambush docs release`.
    """
    from exporter.release import build_release

    with reported_errors():
        done = build_release(list(campaigns) or given_or_default(), repository, tag, out, notes)
    if done.differences:
        click.echo("\n".join(["not reproducible: a second build changed", *done.differences]), err=True)
        raise SystemExit(1)
    for path in done.files:
        click.echo(f"wrote {path}")
