"""The edges a new GM meets on the command line: ambush alone, init into a new folder, a version
beyond what Foundry compares (fixtures/bad), zip entry names in German and Chinese; `publish --dry-run` is in
tests/test_publish.py, a tag
without its v in tests/test_github_release.py"""

from __future__ import annotations

import subprocess
import sys
import unicodedata
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from exporter.cli import main
from exporter.targets.foundry.packs import safe_name
from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)


def ambush(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ambush as a GM does, in a folder of his"""
    return subprocess.run([sys.executable, "-m", "exporter", *args], cwd=cwd, capture_output=True, text=True,
                          check=False, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=120)


def test_ambush_alone_shows_its_help_and_exits_0(tmp_path):
    done = ambush(cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout == ambush("--help", cwd=tmp_path).stdout
    assert done.stdout.startswith("Usage: ") and " [OPTIONS] COMMAND [ARGS]...\n" in done.stdout.splitlines(True)[0]
    assert "\nCommands:\n" in done.stdout and "Error" not in done.stdout


@pytest.mark.parametrize("typed", ["mycamp/", "mycamp", "deep/er/"])
def test_init_into_a_folder_that_does_not_exist_yet_writes_campaign_toml_in_it(typed, tmp_path):
    done = ambush("init", "--system", "adnd1e", typed, "--workflow", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / typed.rstrip("/")
    assert folder.is_dir()
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) == [
        ".github/workflows/release.yml", "campaign.toml"]
    assert done.stdout.splitlines()[0] == f"wrote {Path(typed.rstrip('/')) / 'campaign.toml'}"
    assert ambush("validate", str(folder / "campaign.toml"), cwd=tmp_path).returncode == 0


def test_init_to_a_toml_file_writes_that_file_and_never_overwrites(tmp_path):
    assert ambush("init", "--system", "gurps4e", "mine.toml", cwd=tmp_path).returncode == 0
    assert (tmp_path / "mine.toml").is_file()
    again = ambush("init", "--system", "gurps4e", "mine.toml", cwd=tmp_path)
    assert again.returncode == 2
    assert again.stderr.splitlines() == ["Error: mine.toml: already exists; choose another path"]


@pytest.mark.parametrize(("language", "expected"), [
    ("de", {"Überraschung__ermitteln", "Überraschung__zurücksetzen",
            "Überraschung__Erholungswurf_für_ausgewählte_Token"}),
    ("zh-CN", {"突袭_结算", "突袭_清除", "突袭_为所选指示物进行恢复检定"}),
])
def test_the_zip_names_the_macro_sources_with_their_letters(language, expected, tmp_path):
    (tmp_path / "c.toml").write_text(f'id = "mine"\ntitle = "T"\nversion = "1.0.0"\nsystem = "gurps4e"\n'
                                     f'default_language = "{language}"\ntargets = ["foundry"]\n', encoding="utf-8")
    done = ambush("build", "c.toml", "--out", "dist", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / "dist" / "mine" / "mine-1.0.0.zip") as archive:
        sources = [info for info in archive.infolist() if info.filename.startswith("packs/_source/")]
    names = {info.filename.removeprefix("packs/_source/surprise-macros/").rsplit("_", 1)[0] for info in sources}
    assert names == expected
    for info in sources:
        assert unicodedata.is_normalized("NFC", info.filename)
        assert info.flag_bits & 0x800, f"{info.filename}: the zip does not say the name is UTF-8"
    on_disk = {p.name for p in (tmp_path / "dist" / "mine" / "foundry" / "packs" / "_source" / "surprise-macros")
               .iterdir()}
    assert on_disk == {info.filename.rsplit("/", 1)[1] for info in sources}


def test_a_source_name_keeps_every_script_and_is_cut_in_bytes_at_a_character():
    assert safe_name("Überraschung: ermitteln") == "Überraschung__ermitteln"
    assert safe_name("U\u0308berraschung") == "Überraschung"  # decomposed, as macOS types it: one letter
    assert safe_name("Сюрприз 1") == "Сюрприз_1"
    long = safe_name("界" * 200)
    assert long == "界" * 33 and len(long.encode("utf-8")) == 99

