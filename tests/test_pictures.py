"""The pictures of docs/pictures/ are current: each made from the HTML or SVG the current build gives

No browser is needed: the sources are made again as tools/pictures.py makes them (the example script and module run
in the emulations, the charts written as `ambush odds --svg` writes them), and their SHA-256 compared with the ones
recorded beside the pictures.
"""

from __future__ import annotations

import html
import json
import struct
import tomllib

import pytest

from exporter.rules.systems import SYSTEM_IDS
from tests.conftest import ROOT
from tools import pictures

TABLE = ROOT / "docs" / "table.md"
# The pictures together stay small enough to travel with the docs
TOTAL_BYTES = 400_000


@pytest.fixture(scope="module")
def made(examples):
    return pictures.sources(examples)


def png_size(path) -> tuple[int, int]:
    """Read a PNG's width and height from its header, refusing a file that is no PNG"""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", f"{path.name} is no PNG"
    return struct.unpack(">II", data[16:24])


def test_every_picture_is_made_from_the_current_build(made):
    recorded = pictures.read_manifest()
    stale = [name for name, source in made.items() if recorded.get(name) != source.sha256]
    assert not stale, f"stale pictures: {stale}; run `python tools/pictures.py` and commit docs/pictures/"
    assert sorted(recorded) == sorted(made), "pictures.json lists exactly the pictures the tool makes"


def test_one_chart_for_every_system_of_the_registry():
    systems = [tomllib.loads((ROOT / "fixtures" / "scenarios" / name).read_text(encoding="utf-8"))["system"]
               for name in pictures.charts().values()]
    assert sorted(systems) == sorted(SYSTEM_IDS), "one odds chart per system (exporter/rules/systems.py: chart)"


def test_a_changed_source_makes_its_picture_stale(made, monkeypatch, tmp_path):
    manifest = tmp_path / "pictures.json"
    data = json.loads(pictures.MANIFEST.read_text(encoding="utf-8"))
    data["pictures"]["roll20-draft-de.png"]["sha256"] = "0" * 64
    manifest.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(pictures, "MANIFEST", manifest)
    assert pictures.stale(made) == ["roll20-draft-de.png"]


def test_every_picture_is_a_png_of_its_page_or_chart_and_all_are_small(made):
    total = 0
    for name, source in made.items():
        path = pictures.PICTURES / name
        assert path.is_file(), f"docs/pictures/{name} is missing"
        width, height = png_size(path)
        if source.kind == "web":  # an element of the page, in a window of the source's width
            assert width <= source.width and 40 < height <= pictures.WEB_MAX_HEIGHT, f"{name}: {width}x{height}"
        else:
            drawn = source.text.split('width="', 1)[-1].split('"', 1)[0]
            expected = source.width if source.kind == "html" else int(drawn)
            assert width == expected and 40 < height < 2000, f"{name}: {width}x{height}"
        total += path.stat().st_size
    assert sorted(p.name for p in pictures.PICTURES.glob("*.png")) == sorted(made), "no picture the tool does not make"
    assert total <= TOTAL_BYTES, f"the pictures take {total} bytes"


def strings(language: str) -> dict:
    """Return a bundled language file's strings"""
    return json.loads((ROOT / "exporter" / "lang" / f"{language}.json").read_text(encoding="utf-8"))


def test_the_sources_are_the_cards_the_table_sees_in_each_language(made):
    for language in pictures.LANGUAGES:
        words = strings(language)
        side_a = html.escape(words["Dialog"]["Side"]["a"], quote=False)
        draft = made[f"roll20-draft-{language}.png"].text
        assert 'href="!surprise draft --token ' in draft and 'href="!surprise roll"' in draft, language
        assert f'<html lang="{language}">' in draft and side_a in draft, language
        result = made[f"roll20-result-{language}.png"].text
        dice = words["Roll20"]["DiceRoll"].format(count=1, sides=6, faces="")  # 1d6 (, or 1W6 ( in German
        dice_line = words["Format"]["Label"].format(label=html.escape(words["Roll20"]["Dice"], quote=False), value=dice[:-1])
        assert side_a in result and dice_line in result, language
    assert 'href="!surprise resolve --procedure partial"' in made["roll20-help-en.png"].text
    dialog = made["foundry-dialog.png"].text
    assert 'name="members.id2.iq" value="12"' in dialog and "Who gets the jump" in dialog
    assert "outside Foundry" in dialog
    assert "ambush-gurps-example-card" in made["foundry-chat.png"].text
    assert made["odds-gurps-partial.png"].text.startswith("<svg")


def test_the_table_page_shows_every_picture(made):
    text = TABLE.read_text(encoding="utf-8")
    missing = [name for name in made if f"(pictures/{name})" not in text]
    assert not missing, f"docs/table.md shows no {missing}"
