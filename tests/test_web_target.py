"""The web target as files: one index.html per campaign, the same bytes every build, nothing fetched from anywhere,
and a module that could end the inline script early refused"""

from __future__ import annotations

import base64
import hashlib
import re

import pytest

from exporter.build import build_campaigns
from exporter.campaign import load_campaign
from exporter.definitions import build_definitions
from exporter.targets.modules import ModuleError, read_module
from exporter.targets.web import WebWriter
from exporter.targets.web.page import page_html
from tests.conftest import CAMPAIGNS, ROOT


def test_target_web_writes_one_page_and_nothing_else(tmp_path):
    build_campaigns(CAMPAIGNS[:1], tmp_path / "one", target="web", make_zip=False)
    build_campaigns(CAMPAIGNS[:1], tmp_path / "two", target="web", make_zip=False)
    campaign = load_campaign(CAMPAIGNS[0]).id
    files = sorted(p.relative_to(tmp_path / "one").as_posix() for p in (tmp_path / "one").rglob("*") if p.is_file())
    assert files == [f"{campaign}/web/index.html"]
    first, second = (tmp_path / name / campaign / "web" / "index.html" for name in ("one", "two"))
    assert first.read_bytes() == second.read_bytes()


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
