"""campaign.toml: validation with one-line errors, init, validate, and the build command's file handling"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from exporter.campaign import TARGETS, load_campaign
from exporter.cli import main
from exporter.definitions import build_definitions
from exporter.rules.shared import SIDE_KEYS, TAIL_CUT
from exporter.rules.systems import SYSTEM_IDS
from exporter.targets.foundry import section as foundry
from exporter.targets.roll20 import section as roll20
from tests.conftest import CAMPAIGNS, modules_imported, relative_files

GOOD = '''id = "my-campaign"
title = "My Campaign"
version = "1.2.3"
system = "gurps4e"
'''


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize("path", CAMPAIGNS, ids=lambda p: p.stem)
def test_example_campaigns_validate(path):
    code, output = run("validate", str(path))
    assert code == 0 and output.startswith(f"{path}: ok")


def test_loading_a_campaign_imports_no_definitions():
    imported = modules_imported("from pathlib import Path\nfrom exporter.campaign import load_campaign\n"
                                f"for path in {[str(p) for p in CAMPAIGNS]!r}:\n    load_campaign(Path(path))")
    assert not sorted(m for m in imported if m.startswith("exporter.definitions"))


def test_defaults_come_from_the_system():
    campaign = load_campaign_text(GOOD)
    assert campaign.languages == ["en", "de", "zh-CN"] and campaign.targets == ["foundry", "roll20"]
    assert foundry.system_id(campaign) == "gurps"
    assert foundry.attributes(campaign)["iq"] == {"path": "system.attributes.IQ.value"}
    assert foundry.attributes(campaign)["combat_reflexes"] == {"advantage": "Combat Reflexes"}
    assert roll20.attributes(campaign)["iq"] == {"attribute": "intelligence"}
    assert roll20.attributes(campaign)["tactics"] == {"section": "repeating_skills", "name": "Tactics",
                                                     "value": ["level", "level_mirror"], "points": "points",
                                                     "name_field": "name"}
    assert campaign.rules_options.stun_roll_timing == "start"


def test_the_options_are_validated_once_and_the_definitions_hold_them_with_every_default():
    campaign = load_campaign_text(GOOD + '[options]\nfreeze_roll_scope = "individual"\n')
    assert campaign.rules_options is campaign.rules_options
    assert build_definitions(campaign).options == {"stun_roll_timing": "start", "freeze_roll_scope": "individual",
                                                   "leaderless_iq_bonus": False}


def test_the_definitions_hold_the_odds_tail_cut_and_the_side_keys_of_the_rules_core():
    defs = build_definitions(load_campaign_text(GOOD))
    assert defs.tail_cut == (TAIL_CUT.numerator, TAIL_CUT.denominator) == (1, 10**12)
    assert defs.side_keys == SIDE_KEYS == ("a", "b")


def test_another_game_system_drops_the_default_readers():
    campaign = load_campaign_text(GOOD + '[foundry]\nsystem_id = ""\n')
    assert foundry.system_id(campaign) is None and foundry.attributes(campaign) == {}
    assert roll20.user_ids(load_campaign_text(GOOD + '[roll20]\nuser_ids = ["12", "34"]\n')) == ["12", "34"]


def test_release_urls_fill_id_and_version():
    campaign = load_campaign_text(GOOD + '[foundry]\ndownload = "https://x.org/{id}/{id}-{version}.zip"\n')
    assert campaign.release_url(campaign.foundry.download) == "https://x.org/my-campaign/my-campaign-1.2.3.zip"


def load_campaign_text(text: str, tmp: Path | None = None):
    import tempfile

    folder = Path(tmp or tempfile.mkdtemp())
    path = folder / "campaign.toml"
    path.write_text(text, encoding="utf-8")
    return load_campaign(path)


BAD = {
    "bad-id": (GOOD.replace('"my-campaign"', '"My Campaign!"'), "id: must be a Foundry package id"),
    "reserved-id": (GOOD.replace('"my-campaign"', '"con"'), "id: must be a Foundry package id"),
    "bad-version": (GOOD.replace('"1.2.3"', '"one"'), "version: must be a version like 1.2.0"),
    "unknown-system": (GOOD.replace('"gurps4e"', '"pf2e"'), "system: unknown system 'pf2e'"),
    "option-of-other-system": (GOOD + '[options]\ndex_unsurprised_may_act = true\n',
                               "options.dex_unsurprised_may_act: is a field of adnd1e, not of gurps4e"),
    "bad-option-value": (GOOD + '[options]\nstun_roll_timing = "later"\n', "options.stun_roll_timing: Input should be"),
    "no-english": (GOOD + 'languages = ["de"]\n', "languages: must include en"),
    "unknown-language": (GOOD + 'languages = ["en", "fr"]\n', "languages[1]: Input should be"),
    "default-not-shipped": (GOOD + 'languages = ["en", "de"]\ndefault_language = "zh-CN"\n',
                            "default_language: is zh-CN, which languages does not list (en, de)"),
    "default-unknown": (GOOD + 'default_language = "fr"\n', "default_language: Input should be"),
    "default-left-to-the-order": (GOOD + 'languages = ["de", "en"]\n',
                                  'default_language: is not given and languages lists de first: set default_language '
                                  '= "de" or "en"'),
    "unknown-key": (GOOD + 'colour = "red"\n', "colour: unknown field"),
    "attribute-not-an-input": (GOOD + '[foundry.attributes]\ndex = "system.dex"\n',
                               "foundry.attributes.dex: is not an input of gurps4e"),
    "reader-of-another-type": (GOOD + '[foundry.attributes]\ncombat_reflexes = { skill = "Combat Reflexes" }\n',
                               "foundry.attributes.combat_reflexes: is a boolean input; a number reader"),
    "unknown-reader": (GOOD + '[foundry.attributes]\ntactics = { talent = "Tactics" }\n',
                       "foundry.attributes.tactics"),
    "bad-section": (GOOD + '[roll20.attributes]\ntactics = { section = "skills", name = "Tactics", value = "level" }\n',
                    "roll20.attributes.tactics"),
    "points-without-level": (GOOD + '[roll20.attributes]\ncombat_reflexes = { section = "repeating_traits", '
                             'name = "Combat Reflexes", points = "points" }\n',
                             "roll20.attributes.combat_reflexes.points: needs a value"),
    "agrees-with-no-input": (GOOD + '[roll20.attributes]\niq = { set = ["iq"], agrees = { input = "dex", '
                             'table = "dex_adjustment" } }\n',
                             "roll20.attributes.iq.agrees.input: must be another input"),
    "agrees-with-itself": (GOOD + '[roll20.attributes]\niq = { set = ["iq"], agrees = { input = "iq", '
                           'table = "x" } }\n', "roll20.attributes.iq.agrees.input: must be another input"),
    "agrees-by-no-table": (GOOD + '[roll20.attributes]\niq = { set = ["iq"], agrees = { input = "per", '
                           'table = "dex_adjustment" } }\n', "roll20.attributes.iq.agrees.table: must be a table"),
    "requires-no-number": (GOOD + '[roll20.attributes]\niq = { set = ["iq"], requires = { attribute = "die", '
                           'constant = "dice" } }\n', "roll20.attributes.iq.requires.constant: must be a number of the "
                           "gurps4e rules"),
    "plus-a-table": (GOOD.replace("gurps4e", "adnd1e") + '[options]\nside_best_rating = true\n[roll20.attributes]\n'
                     'surprises_on = { set = ["mod"], plus = "dex_adjustment" }\n',
                     "roll20.attributes.surprises_on.plus: must be a number of the adnd1e rules; one of default_rating"),
    "gated-reader": (GOOD.replace("gurps4e", "adnd1e") + '[roll20.attributes]\nsurprised_on = { set = ["surprise"] }\n',
                     "roll20.attributes.surprised_on: is read only with options.side_best_rating = true"),
    "choice-of-an-agreement": (GOOD + '[roll20.attributes]\niq = { when = "npc", then = { set = ["iq"], agrees = { '
                               'input = "per", table = "x" } }, otherwise = "iq" }\n',
                               "roll20.attributes.iq.then.agrees: is not read inside a when/then/otherwise reader"),
    "choice-checks-its-readers": (GOOD + '[roll20.attributes]\niq = { when = "npc", then = "iq", otherwise = { set = '
                                  '["iq"], plus = "nope" } }\n',
                                  "roll20.attributes.iq.otherwise.plus: must be a number of the gurps4e rules"),
    "choice-without-otherwise": (GOOD + '[roll20.attributes]\niq = { when = "npc", then = "iq" }\n',
                                 "roll20.attributes.iq.otherwise: missing"),
    "phrase-that-is-code": (GOOD + '[roll20.attributes]\niq = { set = ["senses"], after = "IQ\\"); x(" }\n',
                            "roll20.attributes.iq.after"),
    "bad-user-id": (GOOD + '[roll20]\nuser_ids = ["me"]\n', "roll20.user_ids[0]"),
    "bad-url": (GOOD + '[foundry]\nmanifest = "javascript:alert(1)"\n', "foundry.manifest: must be an http(s) URL"),
    "unknown-string": (GOOD + '[strings.de]\n"Nope.Key" = "x"\n',
                       "strings.de.Nope.Key: is not a string the module shows"),
    "plural-by-a-text": (GOOD + '[strings.en]\n"Gurps.Freeze" = "{name, plural, one {x} other {y}} {seconds}"\n',
                         "strings.en.Gurps.Freeze: chooses a plural form by {name}, which is a text, not a number"),
    "plural-branch-twice": (GOOD + '[strings.de]\n"Tracking.Stunned" = "{turns, plural, one {a} one {b} other {c}}"\n',
                            "strings.de.Tracking.Stunned: {turns, plural, ...} gives one twice"),
    "plural-not-plural": (GOOD + '[strings.de]\n"Tracking.Stunned" = "{turns, select, other {c}}"\n',
                          "strings.de.Tracking.Stunned: {turns, ...} is no plural choice"),
    "placeholder-not-given": (GOOD + '[strings.en]\n"Dialog.Title" = "{{x}}"\n',
                              "strings.en.Dialog.Title: has the placeholder {x}, which the string it overrides has "
                              "not (none)"),
    "toml": ('id = "x\n', "not valid TOML"),
    "missing-title": (GOOD.replace('title = "My Campaign"\n', ""), "title: missing"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_campaigns_exit_2_naming_file_and_field_and_write_nothing(case, tmp_path):
    text, expected = BAD[case]
    path = tmp_path / "campaign.toml"
    path.write_text(text, encoding="utf-8")
    for command in (["validate", str(path)], ["build", str(path), "--out", str(tmp_path / "dist")]):
        code, output = run(*command)
        assert code == 2, output
        lines = output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"Error: {path}: ") and expected in lines[0], output
    assert not (tmp_path / "dist").exists() or not any((tmp_path / "dist").iterdir())


def test_a_failed_build_leaves_the_previous_output_intact(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text(GOOD, encoding="utf-8")
    out = tmp_path / "dist"
    assert run("build", str(good), "--out", str(out))[0] == 0
    before = {rel: (out / rel).read_bytes() for rel in relative_files(out)}
    good.write_text(GOOD + "broken = true\n", encoding="utf-8")
    assert run("build", str(good), "--out", str(out))[0] == 2
    assert {rel: (out / rel).read_bytes() for rel in relative_files(out)} == before


def test_check_passes_after_a_build_and_lists_stale_files_after_a_change(tmp_path):
    path = tmp_path / "campaign.toml"
    path.write_text(GOOD, encoding="utf-8")
    out = tmp_path / "dist"
    assert run("build", str(path), "--out", str(out))[0] == 0
    code, output = run("build", str(path), "--out", str(out), "--check")
    assert code == 0, output
    path.write_text(GOOD.replace('"My Campaign"', '"Renamed"'), encoding="utf-8")
    code, output = run("build", str(path), "--out", str(out), "--check")
    assert code == 1
    assert "changed: my-campaign/foundry/module.json" in output
    (out / "my-campaign" / "foundry" / "extra.txt").write_text("x", encoding="utf-8")
    assert "extra: my-campaign/foundry/extra.txt" in run("build", str(path), "--out", str(out), "--check")[1]


def test_two_campaigns_with_one_id_are_refused(tmp_path):
    for name in ("a.toml", "b.toml"):
        (tmp_path / name).write_text(GOOD, encoding="utf-8")
    code, output = run("build", str(tmp_path / "a.toml"), str(tmp_path / "b.toml"), "--out", str(tmp_path / "d"))
    assert code == 2 and "id: 'my-campaign' is also the id of" in output


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_init_writes_a_campaign_that_validates_and_builds(system, tmp_path):
    path = tmp_path / "campaign.toml"
    code, output = run("init", "--system", system, str(path))
    assert code == 0, output
    assert "# House rules" in path.read_text(encoding="utf-8")
    assert run("validate", str(path))[0] == 0
    assert run("build", str(path), "--out", str(tmp_path / "dist"))[0] == 0
    campaign = load_campaign(path)
    assert campaign.targets == list(TARGETS)
    assert {"web/index.html", "web/README.md"} <= set(relative_files(tmp_path / "dist" / campaign.id))


def test_the_comment_on_the_targets_init_writes_names_each_one(tmp_path):
    path = tmp_path / "campaign.toml"
    assert run("init", "--system", "gurps4e", str(path))[0] == 0
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next(index for index, line in enumerate(lines) if line.startswith("targets = "))
    comment = " ".join(itertools.takewhile(lambda line: line.startswith("#"), reversed(lines[:at])))
    assert [target for target in TARGETS if not re.search(rf"\b{target} \(", comment)] == [], comment


def test_init_refuses_to_overwrite(tmp_path):
    path = tmp_path / "campaign.toml"
    path.write_text("x", encoding="utf-8")
    code, output = run("init", "--system", "adnd1e", str(path))
    assert code == 2 and "already exists" in output
    assert path.read_text(encoding="utf-8") == "x"
