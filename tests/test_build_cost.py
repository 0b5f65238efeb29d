"""A build pays for its templates once per process, not once per campaign and target (issue 30, point 5)

The templates are counted as opened (an audit hook on "open", in a process of its own), not timed: the time is
benchmarks/run.py's (the three examples within 4x of importing click, jinja2 and pydantic; 100 campaigns at most 40 ms
each beyond the first).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from exporter._resources import templates_root
from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # a build of six campaigns in a process of its own

COUNT_OPENS = """
import json, sys
from collections import Counter
from pathlib import Path
from exporter._resources import templates_root
from exporter.build import build_campaigns

root, opened, counting = str(templates_root()), Counter(), [False]

def hook(event, args):
    if counting[0] and event == "open" and isinstance(args[0], str) and args[0].startswith(root):
        opened[args[0][len(root) + 1:]] += 1

sys.addaudithook(hook)
counting[0] = True
build_campaigns([Path(p) for p in sys.argv[2:]], Path(sys.argv[1]), make_zip=True)
print(json.dumps(opened))
"""


def copies(folder: Path, times: int) -> list[Path]:
    """Each example campaign, times over, each copy with an id of its own"""
    paths = []
    for example in sorted((ROOT / "fixtures" / "campaigns").glob("*.toml")):
        text = example.read_text(encoding="utf-8")
        for copy in range(times):
            path = folder / f"{example.stem}-{copy}.toml"
            path.write_text(re.sub(r'^id = "([^"]+)"', rf'id = "\1-{copy}"', text, count=1, flags=re.M),
                            encoding="utf-8")
            paths.append(path)
    return paths


def test_a_build_of_six_campaigns_opens_each_template_once(tmp_path):
    done = subprocess.run([sys.executable, "-c", COUNT_OPENS, str(tmp_path / "dist"), *map(str, copies(tmp_path, 2))],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    opened = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(opened) > 20, sorted(opened)  # the scripts, the Jinja templates and the page's style all counted
    assert {path: count for path, count in opened.items() if count > 1} == {}
    assert all((templates_root() / path).is_file() for path in opened)
