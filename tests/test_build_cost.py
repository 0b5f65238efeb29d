"""A build pays for its templates once per process, not once per campaign and target (issue 30, point 5)

The templates are counted as opened (an audit hook on "open", in a process of its own), not timed: the time is
benchmarks/run.py's (the examples within 4x of importing click, jinja2 and pydantic; 100 campaigns at most 40 ms
each beyond the first).
"""

from __future__ import annotations

import json
import os
import re
import stat
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


COUNT_FILE_CALLS = """
import json, os, sys
from collections import Counter
from pathlib import Path
from exporter.build import STAGING_HOLDER, STAGING_PREFIX, build_campaigns

out, calls, counting = Path(sys.argv[1]), Counter(), [False]
WRITING = os.O_WRONLY | os.O_RDWR

def hook(event, args):
    if not counting[0] or event not in ("open", "os.mkdir", "os.scandir", "os.listdir"):
        return
    if not isinstance(args[0], (str, os.PathLike)) or not Path(args[0]).is_relative_to(out):
        return
    parts = Path(args[0]).relative_to(out).parts  # a campaign's files: <staging>/<id>/...
    if len(parts) >= 2 and parts[0].startswith(STAGING_PREFIX) and parts[1] != STAGING_HOLDER:
        kind = "read" if event == "open" and not args[2] & WRITING else event
        calls[f"{kind}:{'/'.join(parts[1:])}"] += 1

sys.addaudithook(hook)
counting[0] = True
build_campaigns([Path(p) for p in sys.argv[2:]], out, make_zip=True)
print(json.dumps(calls))
"""


def test_a_build_writes_each_file_once_and_neither_reads_back_nor_lists_what_it_wrote(tmp_path):
    out = tmp_path / "dist"
    done = subprocess.run([sys.executable, "-c", COUNT_FILE_CALLS, str(out), *map(str, copies(tmp_path, 1))],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    calls = json.loads(done.stdout.strip().splitlines()[-1])
    written = {path.relative_to(out).as_posix() for path in out.glob("*/**/*") if path.is_file()}
    assert len(written) > 150, len(written)  # three campaigns: the scripts, the pack, the pages, the zips
    assert {key: count for key, count in calls.items() if count > 1} == {}  # each file opened, each folder made, once
    assert sorted(key for key in calls if key.split(":")[0] not in ("open", "os.mkdir")) == []  # no read, no listing
    assert {key.split(":", 1)[1] for key in calls if key.startswith("open:")} == written


def test_every_file_and_folder_a_build_writes_has_the_fixed_mode_and_time(tmp_path, monkeypatch):
    from exporter.build import build_campaigns

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    old = os.umask(0o077)  # the fixed modes hold whatever the umask
    try:
        build_campaigns(copies(tmp_path, 1), tmp_path / "dist", make_zip=True)
    finally:
        os.umask(old)
    found = [path for path in (tmp_path / "dist").rglob("*") if path.name != ".ambush.lock"]
    assert len(found) > 60
    wrong = {path.relative_to(tmp_path).as_posix(): (oct(stat.S_IMODE(path.stat().st_mode)), path.stat().st_mtime)
             for path in found
             if (stat.S_IMODE(path.stat().st_mode), path.stat().st_mtime) != (0o755 if path.is_dir() else 0o644,
                                                                               1700000000)}
    assert wrong == {}
