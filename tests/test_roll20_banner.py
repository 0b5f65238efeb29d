"""The Roll20 console banner: the build date only when SOURCE_DATE_EPOCH gives one, never a made-up 1980"""

from __future__ import annotations

import json
import tomllib

import pytest

from exporter.build import build_campaigns
from tests.conftest import ROOT, run_node

CAMPAIGN = ROOT / "fixtures" / "campaigns" / "gurps4e.toml"
VERSION = tomllib.loads(CAMPAIGN.read_text(encoding="utf-8"))["version"]  # ambush's own, moving with each release
BANNER = """
import { createSandbox } from "./tools/harness/roll20/harness.mjs";
const sb = createSandbox({ players: [] });
await sb.load(process.argv[1]);
sb.ready();
await sb.settle();
console.log(JSON.stringify(sb.logs.filter((line) => typeof line === "string" && line.includes("<=-"))));
"""


@pytest.mark.parametrize(("epoch", "banner"), [
    (None, f"-=> AmbushGurpsExample v{VERSION} <=-"),
    ("1700000000", f"-=> AmbushGurpsExample v{VERSION} <=-  [built 2023-11-14]"),
])
def test_the_banner_shows_the_given_build_date_or_none(epoch, banner, tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    if epoch is not None:
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    build_campaigns([CAMPAIGN], tmp_path, "roll20", make_zip=False)
    script = tmp_path / "ambush-gurps-example" / "roll20" / "AmbushGurpsExample.js"
    done = run_node("--input-type=module", "-e", BANNER, str(script))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [banner]
