"""Foundry's own command, `ambush publish`: announce a released module on foundryvtt.com (Package Release API);
the command line finds it through the platform registry (exporter/platforms.py) and imports it only when asked"""

from __future__ import annotations

from pathlib import Path

import click

from exporter.commands import REPOSITORY_HELP, reported_errors


@click.command(short_help="Announce a released module on foundryvtt.com (Package Release API)")
@click.argument("manifest", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--repository", required=True, metavar="URL", help=REPOSITORY_HELP)
@click.option("--tag", required=True, help="The tag of the GitHub release that carries the module.")
@click.option("--dry-run", is_flag=True, help="Stop after the dry run: foundryvtt.com checks the release and lists "
                                               "nothing.")
def publish(manifest: Path, repository: str, tag: str, dry_run: bool) -> None:
    """Announce a released module on foundryvtt.com through Foundry's Package Release API

    MANIFEST is the ID.json that `ambush release` wrote, attached to the GitHub release of TAG. The package's release
    token is read from the environment variable FOUNDRY_PACKAGE_TOKEN. A dry run goes first (with --dry-run, alone); a
    version that foundryvtt.com lists already is no error (`ambush docs release`).
    """
    from exporter.targets.foundry.publish import PublishError, publish_module, token_from_environment

    with reported_errors():
        try:
            click.echo(publish_module(manifest, repository, tag, token_from_environment(), say=click.echo,
                                      dry_run=dry_run))
        except PublishError as err:
            click.echo(f"Error: {' '.join(str(err).split())}", err=True)
            raise SystemExit(1) from None
