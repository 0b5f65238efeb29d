"""The table runtime is one piece of code: the Foundry module and the Roll20 script carry it word for word"""

from __future__ import annotations

import re
import textwrap

import pytest

from exporter.campaign import load_campaign
from exporter.targets.roll20 import script_name
from exporter.targets.rules_js import common_templates
from tests.conftest import CAMPAIGNS

EXAMPLES = [load_campaign(path) for path in CAMPAIGNS]
# What differs between the two forms: ES imports and the export list, or the closing return of a function body.
IMPORT = re.compile(r"^import \* as \w+ from \"\./\w+\.js\";\n", re.M)
CLOSING = re.compile(r"^(export|return) \{\n(  \w+,\n)+\};\n\Z", re.M)
COMMON = {"rules": "Rules", "odds": "Odds", "table": "Table", "inputs": "Inputs", "export": "Export",
          "runtime": "Runtime"}


def shared_body(text: str) -> tuple[str, str]:
    """Split a common file into the code both forms share and its closing export or return list"""
    text = IMPORT.sub("", text)
    closing = CLOSING.search(text)
    assert closing, "a common file ends with its export (module) or return (function body) list"
    return text[:closing.start()].strip("\n"), re.sub(r"^(export|return) ", "", closing.group(0))


def roll20_part(script: str, name: str) -> str:
    """Return one common part of the Roll20 script: the body of its `const Name = (() => { ... })();`, dedented"""
    found = re.search(rf"^  const {name} = \(\(\) => \{{\n(.*?)^  \}}\)\(\);\n", script, re.M | re.S)
    assert found, f"the script has no {name} part"
    return textwrap.dedent(found.group(1))


def test_every_system_renders_the_same_common_files():
    assert {frozenset(common_templates(c.system)) for c in EXAMPLES} == {frozenset(COMMON)}


@pytest.mark.parametrize("campaign", EXAMPLES, ids=lambda c: c.id)
@pytest.mark.parametrize("part", sorted(COMMON))
def test_foundry_and_roll20_share_the_common_code_word_for_word(examples, campaign, part):
    module = (examples / campaign.id / "foundry" / "scripts" / f"{part}.js").read_text(encoding="utf-8")
    script = (examples / campaign.id / "roll20" / f"{script_name(campaign.id)}.js").read_text(encoding="utf-8")
    module_body, module_exports = shared_body(module)
    script_body, script_exports = shared_body(roll20_part(script, COMMON[part]))
    assert script_body == module_body
    assert script_exports == module_exports
    assert len(module_body.splitlines()) > 20


@pytest.mark.parametrize("campaign", EXAMPLES, ids=lambda c: c.id)
def test_no_vtt_word_reaches_the_common_code(examples, campaign):
    for part in COMMON:
        module = (examples / campaign.id / "foundry" / "scripts" / f"{part}.js").read_text(encoding="utf-8")
        code = shared_body(module)[0]
        words = re.findall(r"\b(game|canvas|ui|Hooks|ChatMessage|CONFIG|sendChat|getObj|findObjs|Campaign|state)\.",
                           code)
        assert not words, f"{part}.js calls a VTT directly: {sorted(set(words))}"
