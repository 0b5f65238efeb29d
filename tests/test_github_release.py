"""`ambush release`: the files of a GitHub release, with Foundry's latest manifest and this release's download, each
Roll20 script and each web page"""

from __future__ import annotations

import json
import time
import tomllib
import zipfile
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from exporter.cli import main
from tests.conftest import ROOT

REPOSITORY = "https://github.com/gm/campaigns"
EXAMPLES = sorted((ROOT / "fixtures" / "campaigns").glob("*.toml"))
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
TAG = f"v{PROJECT['version']}"


def run(*args: object) -> click.testing.Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def camel(campaign_id: str) -> str:
    """The Roll20 script's name: the id in CamelCase (docs/dev/architecture.md, output layout)"""
    return "".join(part.capitalize() for part in campaign_id.replace("_", "-").split("-"))


def campaign(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def one_line_error(result: click.testing.Result, *parts: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    for part in parts:
        assert part in lines[0], lines[0]


def test_the_examples_are_released_with_ambush_and_leave_their_urls_to_the_release():
    for path in EXAMPLES:
        data = campaign(path)
        assert data["version"] == PROJECT["version"], f"{path.name}: Foundry updates only to a new version"
        assert "manifest" not in data.get("foundry", {}) and "download" not in data.get("foundry", {}), path.name


def test_a_release_holds_each_module_zip_and_manifest_each_script_and_each_page(examples, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    out, notes = tmp_path / "release", tmp_path / "notes.md"
    result = run("release", *EXAMPLES, "--repository", REPOSITORY, "--tag", TAG, "--out", out, "--notes", notes)
    assert result.exit_code == 0, result.output
    expected = set()
    for path in EXAMPLES:
        cid, version = campaign(path)["id"], campaign(path)["version"]
        expected |= {f"{cid}-{version}.zip", f"{cid}.json", f"{camel(cid)}.js", f"{cid}-{version}.html"}
    assert {p.name for p in out.iterdir()} == expected
    assert sorted(result.output.splitlines()) == sorted(f"wrote {out / name}" for name in expected)
    for path in EXAMPLES:
        cid, version = campaign(path)["id"], campaign(path)["version"]
        module = json.loads((out / f"{cid}.json").read_text(encoding="utf-8"))
        assert (module["id"], module["version"]) == (cid, version)
        assert module["manifest"] == f"{REPOSITORY}/releases/latest/download/{cid}.json"
        assert module["download"] == f"{REPOSITORY}/releases/download/{TAG}/{cid}-{version}.zip"
        with zipfile.ZipFile(out / f"{cid}-{version}.zip") as zipped:
            assert zipped.read("module.json") == (out / f"{cid}.json").read_bytes()
            assert {info.date_time for info in zipped.infolist()} == {time.gmtime(1700000000)[:6]}
        assert f"`{module['manifest']}`" in notes.read_text(encoding="utf-8")
        assert f"`{camel(cid)}.js`" in notes.read_text(encoding="utf-8")
        assert f"`{cid}-{version}.html`" in notes.read_text(encoding="utf-8")
        assert (out / f"{cid}-{version}.html").read_bytes() == (examples / cid / "web" / "index.html").read_bytes()


def test_two_releases_of_the_same_tag_are_byte_identical(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    for name in ("one", "two"):
        assert run("release", EXAMPLES[0], "--repository", REPOSITORY, "--tag", TAG, "--out",
                   tmp_path / name).exit_code == 0
    one = {p.name: p.read_bytes() for p in (tmp_path / "one").iterdir()}
    assert one == {p.name: p.read_bytes() for p in (tmp_path / "two").iterdir()} and len(one) == 4


def test_a_release_whose_second_build_differs_exits_1_and_writes_nothing(tmp_path, monkeypatch):
    stamps = iter(range(1_700_000_000, 1_800_000_000, 86_400))
    monkeypatch.setattr("exporter.dist.zip_date_time", lambda: time.gmtime(next(stamps))[:6])
    result = CliRunner().invoke(main, ["release", str(EXAMPLES[0]), "--repository", REPOSITORY, "--tag", TAG,
                                       "--out", str(tmp_path / "release")])
    assert result.exit_code == 1
    assert "not reproducible" in result.output and ".zip" in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_tag_that_is_not_the_campaigns_version_is_refused(tmp_path):
    result = run("release", *EXAMPLES, "--repository", REPOSITORY, "--tag", "v9.9.9", "--out", tmp_path / "release")
    one_line_error(result, f"{EXAMPLES[0]}: version: is {PROJECT['version']}", "tagged v9.9.9")
    assert list(tmp_path.iterdir()) == []


def test_a_tag_without_the_v_is_refused(tmp_path):
    # docs/release.md: the tag is v and the version; the release workflow runs on tags v* only
    result = run("release", EXAMPLES[0], "--repository", REPOSITORY, "--tag", PROJECT["version"], "--out",
                 tmp_path / "release")
    one_line_error(result, f"--tag: '{PROJECT['version']}' is the version without its v: tag {TAG}")
    assert list(tmp_path.iterdir()) == []


GOOD = 'id = "mine"\ntitle = "Mine"\nversion = "1.2.0"\nsystem = "adnd1e"\n'


@pytest.mark.parametrize(("field", "url"), [
    ("manifest", "https://example.org/{id}/module.json"),
    ("download", "https://example.org/{id}-{version}.zip"),
])
def test_a_campaign_url_that_points_elsewhere_is_refused(field, url, tmp_path):
    path = tmp_path / "campaign.toml"
    path.write_text(GOOD + f'[foundry]\n{field} = "{url}"\n', encoding="utf-8")
    result = run("release", path, "--repository", REPOSITORY, "--tag", "v1.2.0", "--out", tmp_path / "release")
    one_line_error(result, f"{path}: foundry.{field}: is https://example.org/mine", "leave it out")
    assert not (tmp_path / "release").exists()


def test_a_campaign_url_that_is_the_release_url_is_kept(tmp_path):
    path = tmp_path / "campaign.toml"
    path.write_text(GOOD + f'[foundry]\nmanifest = "{REPOSITORY}/releases/latest/download/{{id}}.json"\n'
                    f'download = "{REPOSITORY}/releases/download/v{{version}}/{{id}}-{{version}}.zip"\n',
                    encoding="utf-8")
    result = run("release", path, "--repository", REPOSITORY, "--tag", "v1.2.0", "--out", tmp_path / "release")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("repository", ["git@github.com:gm/campaigns.git", "https://github.com/gm",
                                        "https://github.com/gm/campaigns.git", "https://github.com/gm/campaigns/",
                                        "http://github.com/gm/campaigns", "https://github.com/gm/camp aigns"])
def test_a_repository_that_is_not_a_web_address_is_refused(repository, tmp_path):
    result = run("release", EXAMPLES[0], "--repository", repository, "--tag", TAG, "--out", tmp_path / "release")
    one_line_error(result, "--repository:", "https://github.com/OWNER/NAME")
    assert list(tmp_path.iterdir()) == []


def test_an_output_folder_that_holds_files_is_refused_and_kept(tmp_path):
    out = tmp_path / "release"
    out.mkdir()
    (out / "old.zip").write_text("old", encoding="utf-8")
    result = run("release", EXAMPLES[0], "--repository", REPOSITORY, "--tag", TAG, "--out", out)
    one_line_error(result, f"{out}: exists and is not an empty folder")
    assert [p.name for p in out.iterdir()] == ["old.zip"]


@pytest.mark.parametrize(("targets", "names"), [
    ('["roll20"]', {"Mine.js"}),
    ('["foundry"]', {"mine.json", "mine-1.2.0.zip"}),
    ('["web"]', {"mine-1.2.0.html"}),
    ('["roll20", "web"]', {"Mine.js", "mine-1.2.0.html"}),
])
def test_a_release_holds_only_the_files_of_the_campaigns_targets(targets, names, tmp_path):
    path = tmp_path / "campaign.toml"
    path.write_text(GOOD + f"targets = {targets}\n", encoding="utf-8")
    result = run("release", path, "--repository", REPOSITORY, "--tag", "v1.2.0", "--out", tmp_path / "release")
    assert result.exit_code == 0, result.output
    assert {p.name for p in (tmp_path / "release").iterdir()} == names


def test_a_web_only_release_is_the_page_named_in_the_notes(tmp_path):
    path = tmp_path / "campaign.toml"
    path.write_text(GOOD + 'targets = ["web"]\n', encoding="utf-8")
    out, notes = tmp_path / "release", tmp_path / "notes.md"
    result = run("release", path, "--repository", REPOSITORY, "--tag", "v1.2.0", "--out", out, "--notes", notes)
    assert (result.exit_code, result.output) == (0, f"wrote {out / 'mine-1.2.0.html'}\n")
    assert notes.read_text(encoding="utf-8") == (
        "Without a VTT: download the page and open it in a browser; it works offline, from the file:\n\n"
        "- Mine: `mine-1.2.0.html`\n")
    page = (out / "mine-1.2.0.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<title>Mine</title>" in page


def test_a_campaign_with_nothing_to_release_is_one_line_exit_2_and_nothing_written(tmp_path, monkeypatch):
    monkeypatch.setattr("exporter.release.release_names", lambda campaign: {})
    path = tmp_path / "campaign.toml"
    path.write_text(GOOD + 'targets = ["web"]\n', encoding="utf-8")
    result = run("release", path, "--repository", REPOSITORY, "--tag", "v1.2.0", "--out", tmp_path / "release",
                 "--notes", tmp_path / "notes.md")
    one_line_error(result, f"{path}: targets: web: no target with a file to release")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["campaign.toml"]


def test_two_campaigns_that_give_one_release_file_are_refused_before_building(tmp_path, monkeypatch):
    paths = []
    for campaign_id in ("my-mine", "my_mine"):  # one Roll20 script name: MyMine.js
        paths.append(tmp_path / f"{campaign_id}.toml")
        paths[-1].write_text(GOOD.replace('"mine"', f'"{campaign_id}"') + 'targets = ["roll20"]\n', encoding="utf-8")
    monkeypatch.setattr("exporter.build.build_campaigns", lambda *args, **kwargs: pytest.fail("built"))
    result = run("release", *paths, "--repository", REPOSITORY, "--tag", "v1.2.0", "--out", tmp_path / "release")
    one_line_error(result, f"{paths[1]}: id: gives the release file MyMine.js, as {paths[0]} does")
    assert not (tmp_path / "release").exists()


def test_without_campaigns_the_release_reads_campaign_toml_of_the_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("campaign.toml").write_text(GOOD, encoding="utf-8")
    result = CliRunner().invoke(main, ["release", "--repository", REPOSITORY, "--tag", "v1.2.0"])
    assert result.exit_code == 0, result.output
    assert {p.name for p in Path("release").iterdir()} == {"mine.json", "mine-1.2.0.zip", "Mine.js"}


def test_the_table_page_opens_with_the_manifest_url_script_and_page_of_each_example():
    text = (ROOT / "docs" / "table.md").read_text(encoding="utf-8")
    title, opening = text.split("\n## ", 2)[:2]
    assert title == "# At the table\n" and opening.startswith("Install the ready module from this manifest URL\n")
    latest = f"{PROJECT['urls']['Repository']}/releases/latest/download"
    for path in EXAMPLES:
        data = campaign(path)
        assert f"`{latest}/{data['id']}.json`" in opening, data["id"]
        assert f"`{latest}/{camel(data['id'])}.js`" in opening, data["id"]
        assert f"`{data['id']}-<version>.html`" in opening, data["id"]
    assert f"`{PROJECT['urls']['Repository']}/releases/latest`" in opening
