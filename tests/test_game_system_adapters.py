"""One folder per game system's adapter (templates/foundry/game-systems/): the neutral layers name no game system"""

from __future__ import annotations

import re

from exporter.game_systems import GAME_SYSTEMS
from tests.conftest import ROOT

FOUNDRY = ROOT / "templates" / "foundry"
ADAPTERS = FOUNDRY / "game-systems"
GAME_SYSTEM_ID = re.compile(r'^export const GAME_SYSTEM_ID = "([^"]+)";$', re.M)
# What chooses a game system in code: its id read from the world; the registry alone reads it.
READS_SYSTEM_ID = re.compile(r"game\.system\??\.id\b")


def adapter_ids() -> dict[str, str]:
    """Return each adapter folder's game system id, as its adapter.js declares it"""
    ids = {}
    for adapter in sorted(ADAPTERS.glob("*/adapter.js")):
        found = GAME_SYSTEM_ID.search(adapter.read_text(encoding="utf-8"))
        if found:
            ids[adapter.parent.name] = found.group(1)
    return ids


def neutral_files() -> list:
    """Return the Foundry module's scripts outside the adapter folders"""
    return sorted(path for path in FOUNDRY.rglob("*.js") if ADAPTERS not in path.parents)


def test_each_adapter_folder_declares_the_game_system_id_it_serves():
    assert adapter_ids() == {"ars": "ars", "dnd5e": "dnd5e", "gurps": "gurps"}
    assert (ADAPTERS / "none" / "adapter.js").is_file()


def test_the_neutral_layers_name_no_game_system_id():
    names = "|".join(re.escape(game_system) for game_system in adapter_ids().values())
    literal = re.compile(rf"""["'`](?:{names})(?:\.[\w.]*)?["'`]""")
    assert names
    for path in neutral_files():
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT)
        assert not literal.findall(text), f"{where} names a game system: {literal.findall(text)}"
        assert not READS_SYSTEM_ID.search(text), f"{where} reads game.system.id: the registry chooses the adapter"


def test_only_the_registry_reads_the_game_system_id_among_the_adapters():
    readers = [path.relative_to(ADAPTERS).as_posix() for path in ADAPTERS.rglob("*.js")
               if READS_SYSTEM_ID.search(path.read_text(encoding="utf-8"))]
    assert readers == ["registry.js"]


def test_the_build_knows_the_game_systems_the_adapters_serve():
    assert sorted(GAME_SYSTEMS) == sorted(adapter_ids().values())
    assert all(folder == game_system for folder, game_system in adapter_ids().items())
