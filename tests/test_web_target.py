"""The web target as files: one index.html per campaign and its README, the same bytes every build, nothing fetched
from anywhere, and a module that could end the inline script early refused"""

from __future__ import annotations

import base64
import hashlib
import json
import re

import pytest
from click.testing import CliRunner

from exporter.build import build_campaigns
from exporter.campaign import load_campaign
from exporter.cli import main
from exporter.definitions import build_definitions
from exporter.targets.modules import ModuleError, read_module
from exporter.targets.strings import build_keys
from exporter.targets.web.page import page_html
from exporter.targets.web.writer import WebWriter
from tests.conftest import CAMPAIGNS, ROOT


def test_target_web_writes_the_page_and_its_readme_and_nothing_else(tmp_path):
    build_campaigns(CAMPAIGNS[:1], tmp_path / "one", target="web", make_zip=False)
    build_campaigns(CAMPAIGNS[:1], tmp_path / "two", target="web", make_zip=False)
    campaign = load_campaign(CAMPAIGNS[0]).id
    files = sorted(p.relative_to(tmp_path / "one").as_posix() for p in (tmp_path / "one").rglob("*") if p.is_file())
    assert files == [f"{campaign}/web/README.md", f"{campaign}/web/index.html"]
    for name in ("index.html", "README.md"):
        first, second = (tmp_path / folder / campaign / "web" / name for folder in ("one", "two"))
        assert first.read_bytes() == second.read_bytes(), name


def page_constant(page: str, name: str) -> object:
    """Read one plain constant of the page's configuration module"""
    return json.loads(re.search(rf"^    const {name} = (.+);$", page, re.M).group(1))


def test_the_readme_tells_a_gm_how_to_open_the_page_where_it_keeps_the_encounter_and_how_it_rolls(examples):
    for campaign in map(load_campaign, CAMPAIGNS):
        folder = examples / campaign.id / "web"
        readme = (folder / "README.md").read_text(encoding="utf-8")
        page = (folder / "index.html").read_text(encoding="utf-8")
        assert readme.startswith(f"# {campaign.id} {campaign.version}: "), campaign.id
        assert "Open `index.html` in a browser, from the file" in readme and "no server" in readme
        assert f"`localStorage`, under `{page_constant(page, 'STORAGE_KEY')}`" in readme
        assert "clearing the browser's site data loses it" in readme and "*Export scenario file*" in readme
        assert "`crypto.getRandomValues`" in readme and "*I roll at the table and type the dice in*" in readme
        assert "run `ambush build` again" in readme
        assert f"`{page_constant(page, 'DEFAULT_LANGUAGE')}` until you pick another" in readme


def test_every_label_the_readme_quotes_is_one_the_page_shows_in_english(examples):
    campaign = load_campaign(CAMPAIGNS[0])
    defs = build_definitions(campaign)
    shown = {defs.catalogue["en"][key] for key in build_keys(defs, WebWriter().modules(defs))}
    readme = " ".join((examples / campaign.id / "web" / "README.md").read_text(encoding="utf-8").split())
    quoted = re.findall(r"(?<![*\w])\*\*?([^*`]+?)\*\*?(?![*\w])", readme)
    assert len(quoted) >= 8
    assert [label for label in quoted if label not in shown] == []


HOSTILE = "<img src=x onerror=alert(1)> *bold* [link](javascript:x) `tick` # {{ x }} \\ &amp; </script>"


def test_no_free_text_of_the_campaign_reaches_the_readme(built_text):
    plain = 'id = "readme-check"\ntitle = "Plain"\nversion = "1.0.0"\nsystem = "gurps4e"\ntargets = ["web"]\n'
    hostile = (f"id = \"readme-check\"\ntitle = {json.dumps(HOSTILE)}\nversion = \"1.0.0\"\nsystem = \"gurps4e\"\n"
               f"targets = [\"web\"]\ndescription = {json.dumps(HOSTILE)}\n[[authors]]\nname = {json.dumps(HOSTILE)}\n"
               f"[strings.en]\n\"Export.Button\" = {json.dumps(HOSTILE)}\n\"Web.Next\" = {json.dumps(HOSTILE)}\n")
    readmes = [(built_text(text, target="web") / "readme-check" / "web" / "README.md").read_bytes()
               for text in (plain, hostile)]
    assert readmes[0] == readmes[1]
    page = (built_text(hostile, target="web") / "readme-check" / "web" / "index.html").read_text(encoding="utf-8")
    assert "&lt;img src=x onerror=alert(1)&gt;" in page  # the hostile campaign was built with its text


def test_check_lists_a_missing_or_changed_readme_of_the_page(tmp_path):
    out = tmp_path / "dist"
    campaign = load_campaign(CAMPAIGNS[0]).id
    assert CliRunner().invoke(main, ["build", str(CAMPAIGNS[0]), "--out", str(out)]).exit_code == 0
    readme = out / campaign / "web" / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(CAMPAIGNS[0]), "--out", str(out), "--check"])
    assert (result.exit_code, result.output) == (1, f"out of date:\nchanged: {campaign}/web/README.md\n")
    readme.unlink()
    result = CliRunner().invoke(main, ["build", str(CAMPAIGNS[0]), "--out", str(out), "--check"])
    assert (result.exit_code, result.output) == (1, f"out of date:\nmissing: {campaign}/web/README.md\n")


def test_the_page_loads_nothing_and_allows_only_its_own_script_and_style(examples):
    for campaign in map(load_campaign, CAMPAIGNS):
        page = (examples / campaign.id / "web" / "index.html").read_text(encoding="utf-8")
        code = re.sub(r"^\s*//.*$", "", page, flags=re.M)  # the comments may cite a source
        assert not re.search(r"https?://", code), campaign.id
        assert not re.search(r"\b(?:src|href)=", page), campaign.id
        script = page.split("<script>", 1)[1].rsplit("</script>", 1)[0]
        style = page.split("<style>", 1)[1].split("</style>", 1)[0]
        digest = {name: base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
                  for name, text in (("script", script), ("style", style))}
        assert (f"default-src &#39;none&#39;; script-src &#39;sha256-{digest['script']}&#39;; "
                f"style-src &#39;sha256-{digest['style']}&#39;") in page
        assert f'lang="{campaign.default_language}"' in page
        assert style == (ROOT / "templates" / "web" / "style.css").read_text(encoding="utf-8")


@pytest.mark.parametrize("text", ['const a = "</script>";\n', "// <!-- a comment\n", 'const b = "</STYLE";\n'])
def test_a_module_that_would_end_the_script_is_refused(text):
    writer = WebWriter()
    defs = build_definitions(load_campaign(CAMPAIGNS[0]))
    modules = [*writer.modules(defs), read_module("web/extra.js", text)]
    with pytest.raises(ModuleError, match="end it early"):
        page_html(writer.env.get_template("index.html"), defs, modules, "", "web/main.js")
