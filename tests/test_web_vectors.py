"""Every conformance vector played through the web page in headless Chromium, the dice typed in as the page asks for
them, the outcome rebuilt from what the page showed and kept, and compared with the vector's

One page per group of vectors that share rules options (one campaign built for each), every vector of the group played
in it one after the other (New encounter between them); each vector is then one test.
"""

from __future__ import annotations

import json

import pytest

from tests.conformance import option_groups
from tests.conftest import VECTORS, run_node
from tests.web_pages import page_player
from tools.web_pages import build_pages, campaign_text, scenario_toml

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

PLAYER = page_player()
COMPARE = "tests/web/compare_vectors.mjs"


@pytest.fixture(scope="module")
def results(browser, tmp_path_factory) -> dict[str, dict]:
    root = tmp_path_factory.mktemp("web-vectors")
    groups = list(option_groups().items())
    pages = build_pages(root, [campaign_text(index, system, json.loads(options))
                               for index, ((system, options), _) in enumerate(groups)])
    played = []
    # One tab for every group: each campaign keeps its state under its own id, so each group starts on an empty page.
    context = browser.new_context()
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    for index, (page_path, (_, vectors)) in enumerate(zip(pages, groups, strict=True)):
        page.goto(page_path.as_uri())
        for path in vectors:
            vector = json.loads(path.read_text(encoding="utf-8"))
            outcome = page.evaluate(PLAYER, {"key": f"ambush:web-{index}", "toml": scenario_toml(vector["scenario"]),
                                             "dice": vector["dice"], "scenario": vector["scenario"]})
            played.append({"vector": str(path), "played": outcome})
    context.close()
    listing = root / "played.json"
    listing.write_text(json.dumps(played), encoding="utf-8")
    done = run_node(COMPARE, str(listing))
    assert done.returncode == 0, done.stderr
    return {report["vector"]: report for report in map(json.loads, done.stdout.splitlines())}


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector_in_the_page(path, results):
    record = results.get(json.loads(path.read_text(encoding="utf-8"))["name"])
    assert record is not None, "the page played nothing for this vector"
    assert record["ok"], json.dumps(record, indent=2)
