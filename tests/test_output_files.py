"""Every file the example campaigns build into is locked once

- the modules a build copies from templates/ are the templates themselves, byte for byte (tests/test_common_js.py):
  git locks them;
- every file ambush writes is snapshotted, and a file that is the same in every campaign but for the campaign's id
  (or script name) is snapshotted once, the id written as <id>;
- the Roll20 script and the web page are snapshotted as the bundler lays them out: the frame and the configuration as
  they are, each other module as one line naming it, since its body is the module's own translated by the bundler
  (tests/test_modules.py); the page's stylesheet is templates/web/style.css as it is (tests/test_web_target.py), and
  the policy's hashes of its script and stylesheet follow from those: both are shown as placeholders.

Update on purpose with `pytest tests/test_output_files.py --snapshot-update` and read the diff.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from exporter.campaign import load_campaign
from exporter.targets.config_js import CONFIG_MODULE
from exporter.targets.foundry.writer import SCRIPTS_DIR
from exporter.targets.roll20.writer import script_name
from tests.conftest import CAMPAIGNS, relative_files, text_files

IDS = [load_campaign(path).id for path in CAMPAIGNS]
CSP_HASH = re.compile(r"sha256-[A-Za-z0-9+/=]+")
PAGE_STYLE = re.compile(r"<style>.*?</style>", re.S)
MODULE_BLOCK = re.compile(r"^(  // --- (?P<path>\S+)\n  const \w+ = \(\(\) => \{\n)(?P<body>.*?)(^  \}\)\(\);\n)",
                          re.M | re.S)


@pytest.fixture(scope="module")
def dist(examples) -> Path:
    return examples


def copied(rel: str) -> bool:
    """Tell whether a built file is a template module copied as it is"""
    prefix = f"foundry/{SCRIPTS_DIR}/"
    return rel.startswith(prefix) and rel.endswith(".js") and rel.removeprefix(prefix) != CONFIG_MODULE


def bundle_layout(script: str) -> str:
    """Return a Roll20 script with each module but the configuration shown as the one line that names it"""
    def shown(found: re.Match[str]) -> str:
        if found["path"] == CONFIG_MODULE:
            return found.group(0)
        return f"  // --- {found['path']}: the module, as the bundler translates it\n"
    return MODULE_BLOCK.sub(shown, script)


def generated_texts(dist: Path, campaign_id: str) -> dict[str, str]:
    """Return every text ambush writes for a campaign, by path, the campaign's id and script name written as such"""
    name = script_name(campaign_id)
    out = {}
    for rel, text in text_files(dist / campaign_id).items():
        if copied(rel):
            continue
        shown = bundle_layout(text) if rel == f"roll20/{name}.js" else text
        if rel == "web/index.html":
            styled = PAGE_STYLE.sub("<style><templates/web/style.css></style>", text)
            shown = CSP_HASH.sub("sha256-<hash>", bundle_layout(styled))
        out[rel.replace(name, "<ScriptName>").replace(campaign_id, "<id>")] = (
            shown.replace(name, "<ScriptName>").replace(campaign_id, "<id>"))
    return out


def locked_once(dist: Path) -> dict[str, str]:
    """Return each distinct generated text once, named by the campaigns that write it (every one: all) and its path"""
    found: dict[tuple[str, str], list[str]] = defaultdict(list)
    for campaign_id in IDS:
        for rel, text in generated_texts(dist, campaign_id).items():
            found[rel, text].append(campaign_id)
    named = {}
    for (rel, text), campaigns in sorted(found.items()):
        owner = "all" if len(campaigns) == len(IDS) else "+".join(campaigns)
        named[f"{owner}__{rel.replace('/', '__')}"] = text
    return named


@pytest.mark.parametrize("campaign_id", IDS)
def test_every_file_of_a_build_is_listed(dist, campaign_id, snapshot):
    assert relative_files(dist / campaign_id) == snapshot(name="file-list")


def test_every_generated_file_is_locked_once(dist, snapshot, file_snapshot):
    texts = locked_once(dist)
    assert list(texts) == snapshot(name="locked")
    for name, text in texts.items():
        assert text == file_snapshot(name=name)


def test_a_file_the_same_in_every_campaign_is_locked_once(dist):
    names = list(locked_once(dist))
    assert "all__foundry__styles__ambush.css" in names
    assert not [name for name in names if name.endswith("ambush.css") and not name.startswith("all__")]


def test_the_bundle_layout_keeps_the_configuration_and_names_every_other_module(dist):
    script = (dist / IDS[0] / "roll20" / f"{script_name(IDS[0])}.js").read_text(encoding="utf-8")
    layout = bundle_layout(script)
    modules = MODULE_BLOCK.findall(script)
    assert len(modules) > 20
    assert layout.count(": the module, as the bundler translates it\n") == len(modules) - 1
    assert "const SCRIPT_NAME = " in layout and "function " not in layout.split("// --- common/config.js")[1]
