"""Hostile text in every free-text field of campaign.toml: nothing breaks, nothing injects, everything round-trips"""

from __future__ import annotations

import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from exporter.build import build_campaigns
from exporter.campaign import load_campaign
from exporter.errors import ExportError
from exporter.limits import STRING_CHARACTERS, TITLE_CHARACTERS
from exporter.rules.shared import CONTROL_CHARACTER, FORMAT_CHARACTER
from exporter.targets.roll20.writer import script_name
from tests.conftest import NODE, NODE_FLAGS, ROOT, run_node

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

HOSTILE = ['"', "'", "`", "\\", "\\n", "</script>", "<img src=x onerror=alert(1)>", "${alert(1)}", "{{", "}}", "|",
           ",", "&#125;", "&amp;", "@{selected|hp}", "[[1d6]]", "?{Query|1}", "%{a|b}", "#macro", "\n", "\r\n", "\t",
           "\u2028", "\u2029", "\u202eעברית", "中文字符", "😲🎲", "*/", "/*", "<!--", "]]>", "\\u0000"]
pieces = st.one_of(st.sampled_from(HOSTILE), st.text(min_size=1, max_size=8))
hostile = st.lists(pieces, min_size=1, max_size=8).map("".join).filter(lambda s: s.strip() != "")


def long_text(pieces: list[str], limit: int) -> st.SearchStrategy[str]:
    """A piece repeated (with an x after it) up to a field's length limit (exporter/limits.py)"""
    return st.sampled_from(pieces).map(lambda piece: (piece + "x") * (limit // (len(piece) + 1)))


text = st.one_of(hostile, long_text(HOSTILE, 10_000))
# A name, a title or a marker is one line of visible text: control and invisible format characters are refused there
# (tests/test_one_line_fields.py), so those fields get every other hostile piece.
LINE_PIECES = [p for p in HOSTILE if not CONTROL_CHARACTER.search(p) and not FORMAT_CHARACTER.search(p)]
line_pieces = st.one_of(st.sampled_from(LINE_PIECES),
                        st.text(st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zl", "Zp")), min_size=1,
                                max_size=8))
one_line = st.lists(line_pieces, min_size=1, max_size=8).map("".join).filter(lambda s: s.strip() != "")
line_text = st.one_of(one_line, long_text(LINE_PIECES, TITLE_CHARACTERS))
# An override of a string is a message (exporter/lang/messages.py): {name} and {name, ...} are its syntax, and one that
# reads a placeholder its string is not given is refused (tests/test_campaign.py). Every other piece stays hostile text.
PLACEHOLDER_SHAPE = re.compile(r"\{[A-Za-z0-9_]+(?:\}|[ \t\r\n]*,)")
override_text = st.one_of(hostile, long_text(HOSTILE, STRING_CHARACTERS)).filter(
    lambda s: not PLACEHOLDER_SHAPE.search(s))
# Strings a GM may override, each shown in a different place: token HUD, macro pack, chat, Roll20 help, macros.
OVERRIDES = ["Status.Surprised", "Macro.Surprise", "Pack.Macros", "Chat.NobodySurprised", "Roll20.Help.Intro",
             "Dialog.Side.a", "RollMacro.Gurps.Initiative", "Gurps.Modifier.tactics"]
# The ones the Roll20 script shows itself and so carries, and those the Foundry module shows at the table and so
# carries in its lang files; the pack's and the macros' names are written into the pack and the macros.
IN_ROLL20_SCRIPT = {"Chat.NobodySurprised", "Roll20.Help.Intro", "Dialog.Side.a", "Gurps.Modifier.tactics"}
IN_FOUNDRY_LANG = {"Status.Surprised", "Chat.NobodySurprised", "Dialog.Side.a", "Gurps.Modifier.tactics"}


def toml_string(value: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, and TOML also wants DEL escaped"""
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")


def campaign_text(title: str, description: str, author: str, marker: str, overrides: dict[str, str]) -> str:
    lines = ['id = "hostile"', f"title = {toml_string(title)}", 'version = "1.0.0"', 'system = "gurps4e"',
             'targets = ["foundry", "roll20", "web"]',
             f"description = {toml_string(description)}", "[[authors]]", f"name = {toml_string(author)}",
             "[roll20]", f"marker = {toml_string(marker)}", 'user_ids = ["12345"]', "[strings.en]"]
    lines += [f"{toml_string(k)} = {toml_string(v)}" for k, v in overrides.items()]
    lines += ["[strings.de]", f'"Status.Surprised" = {toml_string(overrides["Status.Surprised"])}']
    return "\n".join(lines) + "\n"


def flat(tree: dict, prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in tree.items():
        out.update(flat(value, f"{prefix}{key}.") if isinstance(value, dict) else {f"{prefix}{key}": value})
    return out


# One Node process per build: tests/js/check_output.mjs on the folder, tests/roll20/parse_macros.mjs on its macros.
CHECK = """
import { check } from "./tests/js/check_output.mjs";
import { checkMacros } from "./tests/roll20/parse_macros.mjs";
const [root, ...macros] = process.argv.slice(1);
console.log(JSON.stringify([await check(root), await checkMacros(macros)]));
"""


def check_built(out: Path, title: str, description: str, author: str, marker: str, overrides: dict[str, str]) -> None:
    """Every check of one hostile build"""
    root = out / "hostile"
    macros = sorted((root / "roll20" / "macros").glob("*.txt"))
    done = subprocess.run([NODE, *NODE_FLAGS, "--input-type=module", "-e", CHECK,
                           str(root), *map(str, macros)], cwd=ROOT, capture_output=True, text=True, check=True)
    report, parsed = json.loads(done.stdout)
    assert report["problems"] == []
    strings = report["roll20"]["STRINGS"]
    assert set(strings["en"]) & set(overrides) == IN_ROLL20_SCRIPT
    for key in IN_ROLL20_SCRIPT:
        assert strings["en"][key] == overrides[key], key
    assert report["roll20"]["MARKERS"]["surprised"] == marker
    for path in root.rglob("*.json"):
        json.loads(path.read_text(encoding="utf-8"))
    manifest = json.loads((root / "foundry" / "module.json").read_text(encoding="utf-8"))
    assert (manifest["title"], manifest["description"], manifest["authors"]) == (title, description, [{"name": author}])
    assert manifest["packs"][0]["label"] == overrides["Pack.Macros"]
    english = flat(json.loads((root / "foundry" / "lang" / "en.json").read_text(encoding="utf-8"))["hostile"])
    assert set(english) & set(overrides) == IN_FOUNDRY_LANG
    for key in IN_FOUNDRY_LANG:
        assert english[key] == overrides[key], key
    german = flat(json.loads((root / "foundry" / "lang" / "de.json").read_text(encoding="utf-8"))["hostile"])
    assert german["Status.Surprised"] == overrides["Status.Surprised"]
    macro_names = {json.loads(p.read_text(encoding="utf-8"))["name"]
                   for p in (root / "foundry" / "packs" / "_source").rglob("*.json")}
    assert overrides["Macro.Surprise"] in macro_names
    script_meta = json.loads((root / "roll20" / "script.json").read_text(encoding="utf-8"))
    assert (script_meta["name"], script_meta["description"]) == (title, description)
    readme = (root / "roll20" / "README.md").read_text(encoding="utf-8")
    assert "<img" not in readme and "</script>" not in readme
    check_page((root / "web" / "index.html").read_text(encoding="utf-8"), title)
    assert parsed and all(result["ok"] for result in parsed), parsed


class PageElements(HTMLParser):
    """Collect a page's elements as the browser's parser sees them, and the text of its title"""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.title = ""
        self.inside: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)
        self.inside.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.inside and self.inside[-1] == tag:
            self.inside.pop()

    def handle_data(self, data: str) -> None:
        if self.inside and self.inside[-1] == "title":
            self.title += data


def check_page(page: str, title: str) -> None:
    """The web page holds exactly its own elements, one script and one stylesheet, and the title as text"""
    parsed = PageElements()
    parsed.feed(page)
    assert parsed.tags == ["html", "head", "meta", "meta", "meta", "meta", "title", "style", "body", "noscript", "div",
                           "script"]
    assert parsed.title == title.replace("\r\n", "\n").replace("\r", "\n")  # read_text reads newlines as \n


# Each example is a whole build checked by Node, so few examples and no shrinking: a failure still prints its input.
@settings(max_examples=15, deadline=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(title=line_text, description=text, author=line_text, marker=one_line.filter(lambda s: len(s) <= 100),
       values=st.lists(override_text, min_size=len(OVERRIDES), max_size=len(OVERRIDES)))
def test_hostile_text_never_breaks_or_injects(tmp_path_factory, title, description, author, marker, values):
    overrides = dict(zip(OVERRIDES, values, strict=True))
    folder = tmp_path_factory.mktemp("hostile")
    path = folder / "campaign.toml"
    path.write_text(campaign_text(title, description, author, marker, overrides), encoding="utf-8")
    build_campaigns([path], folder / "dist")
    check_built(folder / "dist", title, description, author, marker, overrides)


@pytest.mark.parametrize("url", ['https://x.org/a"b', "https://x.org/<script>", "javascript:alert(1)",
                                 "https://x.org/a b", "https://x.org/\\u2028"])
def test_hostile_urls_are_refused_with_a_clear_error(tmp_path, url):
    path = tmp_path / "campaign.toml"
    path.write_text(campaign_text("t", "", "a", "yellow", dict.fromkeys(OVERRIDES, "x"))
                    + f"\n[foundry]\nmanifest = {toml_string(url)}\n", encoding="utf-8")
    with pytest.raises(ExportError, match=r"foundry\.manifest: must be an http"):
        load_campaign(path)


@pytest.mark.parametrize("bad_id", ["Hostile", "a b", "a/b", "../x", "con", "<x>", "x" * 65])
def test_identifiers_are_validated_not_escaped(tmp_path, bad_id):
    path = tmp_path / "campaign.toml"
    path.write_text(campaign_text("t", "", "a", "yellow", dict.fromkeys(OVERRIDES, "x")).replace(
        'id = "hostile"', f"id = {toml_string(bad_id)}"), encoding="utf-8")
    with pytest.raises(ExportError, match="id: must be a Foundry package id"):
        load_campaign(path)


class TagCollector(HTMLParser):
    """Collect the tags and the text of an HTML fragment"""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attributes: set[str] = set()
        self.text = ""

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes |= {name for name, _ in attrs}

    def handle_data(self, data):
        self.text += data


HOSTILE_RUNTIME = "<img src=x onerror=alert(1)> ${alert(1)} {{ x }} }}{{ |,@{selected|hp} [[1d6]] #x \"quotes' 中文 😲"


def test_hostile_strings_reach_chat_as_text_in_both_runtimes(tmp_path):
    overrides = {key: f"{key} {HOSTILE_RUNTIME}" for key in OVERRIDES}
    path = tmp_path / "campaign.toml"
    path.write_text(campaign_text(HOSTILE_RUNTIME, "", "a", "yellow", overrides), encoding="utf-8")
    build_campaigns([path], tmp_path / "dist", make_zip=False)
    root = tmp_path / "dist" / "hostile"
    done = run_node("tests/js/hostile_cards.mjs", str(root / "foundry"),
                    str(root / "roll20" / f"{script_name('hostile')}.js"))
    assert done.returncode == 0, done.stderr
    cards = json.loads(done.stdout.strip().splitlines()[-1])
    foundry = TagCollector()
    foundry.feed(cards["foundry"])
    assert foundry.tags <= {"div", "h3", "p"} and foundry.attributes <= {"class"}
    assert overrides["Chat.NobodySurprised"] in foundry.text
    roll20 = TagCollector()
    roll20.feed(cards["roll20"])
    assert roll20.tags <= {"div", "a", "b", "span", "br"} and roll20.attributes <= {"style", "href"}
    # Roll20 reads entities back as the characters; the text a GM sees is the string unchanged.
    assert overrides["Roll20.Help.Intro"] in roll20.text
    assert f"{HOSTILE_RUNTIME} 1.0.0" in roll20.text  # the campaign's title heads the help card, as text
