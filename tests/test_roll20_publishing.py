"""The Roll20 one-click repository and sandbox: script.json against the repository's schema, user ids, ES2020"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from exporter.build import build_campaigns
from exporter.cli import main
from exporter.targets.roll20.writer import script_name
from tests.conftest import CAMPAIGNS, ROOT, run_node

# A copy of Roll20/roll20-api-scripts script.json.schema at 2473bfd0d5b137e9747a2f0753b579b401fef37d (the last
# commit to change it; unchanged at 9d634d3149985dcf10333920b3f4c41f215f39fc): the repository's CI validates every
# script.json against it.
SCHEMA = json.loads((ROOT / "fixtures" / "roll20" / "script.json.schema").read_text(encoding="utf-8"))
SCRIPT_JSON_KEYS = ["name", "script", "version", "previousversions", "description", "authors", "roll20userid",
                    "useroptions", "dependencies", "modifies", "conflicts"]


def publishable_campaign(folder: Path, source: Path, user_ids: str) -> Path:
    """Copy an example campaign with [roll20] user_ids added"""
    text = source.read_text(encoding="utf-8")
    path = folder / source.name
    table = f"user_ids = {user_ids}\n"
    path.write_text(text.replace("[roll20]\n", "[roll20]\n" + table) if "[roll20]\n" in text
                    else text + "\n[roll20]\n" + table, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("published")
    campaigns = [publishable_campaign(folder, source, ids)
                 for source, ids in zip(CAMPAIGNS, ['["123456"]', '["45672", "145678"]', '["1", "2"]', '["987"]'],
                                        strict=True)]
    build_campaigns(campaigns, folder / "dist", target="roll20", make_zip=False)
    return folder / "dist"


def validator() -> jsonschema.Draft7Validator:
    """Return a validator of the repository's schema, checking the regex patterns as its CI does"""
    jsonschema.Draft7Validator.check_schema(SCHEMA)
    return jsonschema.Draft7Validator(SCHEMA)


def test_script_json_validates_against_the_repository_schema(published):
    folders = sorted(published.iterdir())
    assert len(folders) == len(CAMPAIGNS)
    seen = set()
    for folder in folders:
        data = json.loads((folder / "roll20" / "script.json").read_text(encoding="utf-8"))
        errors = [error.message for error in validator().iter_errors(data)]
        assert not errors, f"{folder.name}: {errors}"
        assert list(data) == SCRIPT_JSON_KEYS
        assert data["script"] == f"{script_name(folder.name)}.js" and (folder / "roll20" / data["script"]).is_file()
        seen.add(data["roll20userid"])
    assert seen == {"123456", "45672,145678", "1,2", "987"}


def test_the_schema_copy_rejects_what_the_repository_rejects():
    good = {"name": "x", "description": "d", "script": "x.js", "version": "1.0.0", "authors": "a",
            "roll20userid": "123"}
    assert not list(validator().iter_errors(good))
    for bad in ({"roll20userid": ""}, {"roll20userid": "12a"}, {"version": "v1"}, {"script": "x.ts"}):
        assert list(validator().iter_errors({**good, **bad})), bad
    missing = {key: value for key, value in good.items() if key != "roll20userid"}
    assert list(validator().iter_errors(missing))


def test_without_user_ids_no_script_json_is_written_and_the_readme_says_how_to_get_one(tmp_path):
    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path), "--target", "roll20", "--no-zip",
                                       str(CAMPAIGNS[0])])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    folder = next(tmp_path.iterdir()) / "roll20"
    assert not (folder / "script.json").exists() and any(folder.glob("*.js"))
    assert "[roll20] user_ids" in " ".join((folder / "README.md").read_text(encoding="utf-8").split())


@pytest.mark.parametrize("user_ids", ['[""]', '["12a"]', "[0]", "[123456]", '"123"'])
def test_bad_user_ids_are_refused_naming_the_field(tmp_path, user_ids):
    campaign = publishable_campaign(tmp_path, CAMPAIGNS[0], user_ids)
    result = CliRunner().invoke(main, ["validate", str(campaign)])
    assert result.exit_code == 2
    assert "roll20.user_ids" in result.output + result.stderr


def test_every_generated_script_parses_as_es2020(published, tmp_path):
    scripts = sorted(published.glob("*/roll20/*.js"))
    assert len(scripts) == len(CAMPAIGNS)
    done = run_node("tests/roll20/parse_es2020.mjs", *map(str, scripts))
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == len(CAMPAIGNS) and all(r["ok"] for r in results), results
    newer = tmp_path / "newer.js"
    newer.write_text("let a = null;\na ??= 1;\n", encoding="utf-8")
    caught = [json.loads(line) for line in run_node("tests/roll20/parse_es2020.mjs", str(newer)).stdout.splitlines()]
    assert caught[0]["ok"] is False, "a parser at ES2020 refuses ??="
