"""The table's JS is one set of plain ES modules: Foundry ships them as they are, the Roll20 script bundles the same
ones, and none of the common ones knows a VTT"""

from __future__ import annotations

import json
import re
from dataclasses import asdict

import pytest

from exporter._resources import templates_root
from exporter.campaign import load_campaign
from exporter.definitions import build_definitions
from exporter.rules.systems import SYSTEM_IDS
from exporter.targets.config_js import CONFIG_MODULE
from exporter.targets.foundry.writer import SCRIPTS_DIR, FoundryWriter
from exporter.targets.modules import bundle, module_source
from exporter.targets.roll20.writer import Roll20Writer, script_name
from tests.conftest import CAMPAIGNS, run_node
from tests.js_tree import write_common_tree

EXAMPLES = [load_campaign(path) for path in CAMPAIGNS]
TEMPLATES = templates_root()
COMMON = sorted(path.relative_to(TEMPLATES).as_posix() for path in (TEMPLATES / "common").rglob("*.js"))
JINJA = re.compile(r"\{%|\{\{\s|\{#")  # a Jinja tag, expression or comment
VTT_WORDS = re.compile(r"(?<![\w$.])(game|canvas|ui|Hooks|ChatMessage|CONFIG|foundry|sendChat|getObj|findObjs|createObj"
                       r"|Campaign|state|log|on|randomInteger|playerIsGM)\s*[.(]")


def test_the_common_modules_carry_no_template_code_but_the_configuration():
    assert len(COMMON) > 15
    templated = [path for path in COMMON if JINJA.search((TEMPLATES / path).read_text(encoding="utf-8"))]
    assert templated == [CONFIG_MODULE]


def test_the_host_modules_carry_no_template_code():
    hosts = sorted((TEMPLATES / "foundry").glob("*.js")) + sorted((TEMPLATES / "roll20").glob("*.js"))
    assert len(hosts) > 15
    assert [path.name for path in hosts if JINJA.search(path.read_text(encoding="utf-8"))] == []


@pytest.mark.parametrize("path", [path for path in COMMON if path != CONFIG_MODULE])
def test_no_vtt_word_reaches_the_common_code(path):
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", (TEMPLATES / path).read_text(encoding="utf-8"), flags=re.S)
    assert not VTT_WORDS.findall(code), f"{path} calls a VTT directly"


@pytest.mark.parametrize("campaign", EXAMPLES, ids=lambda c: c.id)
def test_foundry_ships_the_modules_as_they_are(examples, campaign):
    scripts = examples / campaign.id / "foundry" / SCRIPTS_DIR
    shipped = sorted(path.relative_to(scripts).as_posix() for path in scripts.rglob("*.js"))
    others = set(SYSTEM_IDS) - {campaign.system}
    # The rules systems' modules are common/'s; a game system's adapter (foundry/game-systems/) may share an id
    assert not [path for path in shipped if path.startswith("common/") and any(other in path for other in others)], \
        "another system's modules"
    for path in shipped:
        if path != CONFIG_MODULE:
            assert (scripts / path).read_text(encoding="utf-8") == module_source(TEMPLATES, path), path
    assert {path for path in COMMON if not any(other in path for other in others)} <= set(shipped)


@pytest.mark.parametrize("campaign", EXAMPLES, ids=lambda c: c.id)
def test_the_roll20_script_bundles_the_same_modules_with_the_same_configuration(examples, campaign):
    writer, defs = Roll20Writer(), build_definitions(campaign)
    script = (examples / campaign.id / "roll20" / f"{script_name(campaign.id)}.js").read_text(encoding="utf-8")
    modules = writer.modules(defs)
    assert bundle(modules) in script, "the script holds its modules as the bundler writes them"
    foundry = {module.path: module.text for module in FoundryWriter().modules(defs)}
    common = [module for module in modules if module.path.startswith("common/") and module.path != CONFIG_MODULE]
    assert {module.path: module.text for module in common}.items() <= foundry.items()
    changed = [module.path for module in common if module_source(TEMPLATES, module.path) != module.text]
    assert changed == []


def test_every_common_and_roll20_module_parses_at_es2020():
    files = [TEMPLATES / path for path in COMMON if path != CONFIG_MODULE] + sorted((TEMPLATES / "roll20").glob("*.js"))
    done = run_node("tests/roll20/parse_es2020.mjs", "--module", *map(str, files))
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == len(files)
    assert [result for result in results if not result["ok"]] == []


@pytest.mark.parametrize(("system", "options"), [("gurps4e", {}), ("adnd1e", {"side_best_rating": True,
                                                 "dex_encumbrance_gate": True}), ("fallout-ttrpg", {})])
def test_the_js_reads_every_input_whole_as_the_definitions_give_it(tmp_path, system, options):
    tree = write_common_tree(tmp_path, system, options)
    draft = (tree / "common" / "draft.js").as_uri()
    script = (f"import {{ procedureDef }} from {json.dumps(draft)}; import {{ PROCEDURES }} from "
              f"{json.dumps((tree / CONFIG_MODULE).as_uri())};"
              "console.log(JSON.stringify(PROCEDURES.map((p) => procedureDef(p.id))));")
    done = run_node("--input-type=module", "-e", script)
    assert done.returncode == 0, done.stderr
    defs = build_definitions(load_campaign(tree / "campaign.toml"))
    assert json.loads(done.stdout) == json.loads(json.dumps([asdict(p) for p in defs.procedures]))
