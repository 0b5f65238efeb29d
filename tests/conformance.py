"""Shared by the conformance tests: group vectors by rules options, build one campaign per group, play them

A group is one campaign built for both targets with the group's rules options. The vectors then play through the
table session on a fake host (its modules as the Foundry module ships them), through the Foundry module in the
emulated V13 and V14 clients, and through the Roll20 script in the emulated sandbox: one Node process per runner,
every group and vector in it (one per generation for the Foundry clients), two at a time.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

from exporter.build import build_campaigns
from exporter.campaign import load_campaign
from exporter.definitions import build_definitions
from exporter.targets.foundry.writer import SCRIPTS_DIR
from exporter.targets.roll20.markers import status_markers
from exporter.targets.roll20.writer import script_name
from tests.conftest import VECTORS, run_node

SESSION_RUNNER = "tests/js/session_vectors.mjs"
FOUNDRY_RUNNER = "tests/foundry/conformance.mjs"
FOUNDRY_GENERATIONS = (13, 14)  # the Foundry releases the emulation runs (tools/harness/foundry/harness.mjs GENERATIONS)
ROLL20_RUNNER = "tests/roll20/conformance.mjs"
# The game system the emulated world runs when the module requires none: any id the module does not know.
ANY_GAME_SYSTEM = "any-game-system"


@dataclass(frozen=True)
class Group:
    """Vectors of one system and one set of rules options, and the campaign built for them"""

    system: str
    campaign: Path
    built: Path  # dist/<id>: foundry/ and roll20/
    vectors: tuple[Path, ...]


def option_groups(paths: Iterable[Path] = VECTORS) -> dict[tuple[str, str], list[Path]]:
    """Group vector files by system and rules options: one campaign is built for each group"""
    groups: dict[tuple[str, str], list[Path]] = defaultdict(list)
    for path in paths:
        scenario = json.loads(path.read_text(encoding="utf-8"))["scenario"]
        groups[(scenario["system"], json.dumps(scenario.get("options", {}), sort_keys=True))].append(path)
    return dict(sorted(groups.items()))


def campaign_toml(system: str, options: dict, index: int, languages: tuple[str, ...] = ("en",)) -> str:
    lines = [f'id = "conformance-{index}"', 'title = "Conformance"', 'version = "1.0.0"', f'system = "{system}"',
             f"languages = {json.dumps(list(languages))}", "[options]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in options.items()]
    return "\n".join(lines) + "\n"


def build_groups(root: Path, vectors: Iterable[Path] = VECTORS, languages: tuple[str, ...] = ("en",)) -> list[Group]:
    """Build one campaign, for both targets, per option group of the vectors"""
    groups = []
    for index, ((system, options), paths) in enumerate(option_groups(vectors).items()):
        campaign = root / f"campaign-{index}.toml"
        campaign.write_text(campaign_toml(system, json.loads(options), index, languages), encoding="utf-8")
        groups.append(Group(system, campaign, root / "dist" / f"conformance-{index}", tuple(paths)))
    build_campaigns([group.campaign for group in groups], root / "dist", make_zip=False)
    return groups


def run_runner(root: Path, runner: str, entries: list[dict], label: str = "") -> list[dict]:
    """Run a Node runner once over its groups file and return every report line it printed"""
    listing = root / f"{Path(runner).parent.name}{label}-groups.json"
    listing.write_text(json.dumps(entries), encoding="utf-8")
    done = run_node(runner, str(listing))
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def by_vector(reports: Iterable[dict]) -> dict[str, dict]:
    """Key reports by vector name"""
    return {report["vector"]: report for report in reports}


def run_session(root: Path, groups: list[Group]) -> dict[str, dict]:
    """Play every group's vectors through the table session on a fake host, the modules as Foundry ships them"""
    entries = [{"tree": str(group.built / "foundry" / SCRIPTS_DIR), "system": group.system,
                "vectors": [str(path) for path in group.vectors]} for group in groups]
    return by_vector(run_runner(root, SESSION_RUNNER, entries))


def game_system(module: Path) -> str:
    """Return the game system the built module requires (module.json relationships), or any other"""
    manifest = json.loads((module / "module.json").read_text(encoding="utf-8"))
    systems = manifest["relationships"]["systems"]
    return systems[0]["id"] if systems else ANY_GAME_SYSTEM


def run_foundry(root: Path, groups: list[Group], generation: int) -> dict[str, dict]:
    """Play every group's vectors through its Foundry module in the emulated client of one generation"""
    entries = [{"module": str(group.built / "foundry"), "gameSystem": game_system(group.built / "foundry"),
                "generation": generation, "vectors": [str(path) for path in group.vectors]} for group in groups]
    return by_vector(run_runner(root, FOUNDRY_RUNNER, entries, f"-v{generation}"))


def roll20_entry(group: Group) -> dict:
    """What the Roll20 runner needs to know about a group's script: its file, name, sheet readers and markers"""
    defs = build_definitions(load_campaign(group.campaign))
    name = script_name(defs.module.id)
    return {
        "script": str(group.built / "roll20" / f"{name}.js"),
        "scriptName": name,
        "attributes": defs.targets["roll20"].attributes,
        "constants": defs.constants,  # the rules' numbers a reader names (requires, plus)
        "markers": status_markers(defs),
        "procedures": {p.id: [asdict(i) for i in p.inputs] for p in defs.procedures},
        "vectors": [str(path) for path in group.vectors],
    }


def run_roll20(root: Path, groups: list[Group]) -> dict[str, dict]:
    """Play every group's vectors through its Roll20 script in the emulated Mod sandbox"""
    return by_vector(run_runner(root, ROLL20_RUNNER, [roll20_entry(group) for group in groups]))


def run_everywhere(root: Path, vectors: Iterable[Path] = VECTORS) -> dict[str, dict[str, dict]]:
    """Play vectors through the session, the Foundry module (V13, V14) and the Roll20 script, side by side"""
    groups = build_groups(root, vectors)
    runs = {"session": (run_session, root, groups), "roll20": (run_roll20, root, groups),
            **{f"foundry-v{g}": (run_foundry, root, groups, g) for g in FOUNDRY_GENERATIONS}}
    with ThreadPoolExecutor(max_workers=2) as pool:  # the emulated Foundry clients take the longest: first
        order = sorted(runs, key=lambda name: "foundry" not in name)
        started = {name: pool.submit(*runs[name]) for name in order}
        return {name: started[name].result() for name in runs}
