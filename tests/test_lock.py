"""The build lock: one holder at a time, waiters wait, a killed build's lock is taken, nothing of it is left"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from exporter.build import STAGING_PREFIX, build_campaigns, staging_root
from exporter.lock import LOCK_FILE, folder_lock
from tests.conftest import ROOT

CAMPAIGN = ROOT / "fixtures" / "campaigns" / "adnd1e.toml"


def test_the_lock_file_is_removed_after_the_block(tmp_path):
    with folder_lock(tmp_path):
        assert (tmp_path / LOCK_FILE).exists()
    assert list(tmp_path.iterdir()) == []


def test_the_lock_file_is_removed_when_the_block_fails(tmp_path):
    with pytest.raises(RuntimeError), folder_lock(tmp_path):
        raise RuntimeError("boom")
    assert list(tmp_path.iterdir()) == []


def test_a_build_leaves_no_lock_file(tmp_path):
    build_campaigns([CAMPAIGN], tmp_path, make_zip=False)
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(LOCK_FILE)]


def test_a_second_holder_waits_for_the_first(tmp_path):
    order: list[str] = []

    def second() -> None:
        with folder_lock(tmp_path):
            order.append("second")

    with folder_lock(tmp_path):
        waiter = threading.Thread(target=second)
        waiter.start()
        time.sleep(0.3)
        order.append("first")
    waiter.join(timeout=10)
    assert order == ["first", "second"]
    assert list(tmp_path.iterdir()) == []


def test_a_fresh_foreign_lock_makes_the_build_wait(tmp_path):
    lock = tmp_path / LOCK_FILE
    lock.write_text("1 elsewhere 0", encoding="utf-8")
    done = threading.Event()
    worker = threading.Thread(target=lambda: (build_campaigns([CAMPAIGN], tmp_path, make_zip=False), done.set()))
    worker.start()
    assert not done.wait(1.0), "the build moved its tree into place while another build held the lock"
    assert not (tmp_path / "ambush-adnd-example").exists()
    lock.unlink()
    worker.join(timeout=60)
    assert done.is_set() and (tmp_path / "ambush-adnd-example" / "roll20").is_dir()
    assert not lock.exists()


def test_a_stale_lock_left_by_a_killed_build_is_broken(tmp_path):
    lock = tmp_path / LOCK_FILE
    lock.write_text("1 elsewhere 0", encoding="utf-8")
    an_hour_ago = time.time() - 3600
    os.utime(lock, (an_hour_ago, an_hour_ago))
    build_campaigns([CAMPAIGN], tmp_path, make_zip=False)
    assert (tmp_path / "ambush-adnd-example" / "roll20").is_dir()
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(LOCK_FILE)]


def test_a_holder_removes_only_its_own_lock(tmp_path):
    with folder_lock(tmp_path):
        (tmp_path / LOCK_FILE).write_text("someone else broke it and holds it now", encoding="utf-8")
    assert (tmp_path / LOCK_FILE).read_text(encoding="utf-8") == "someone else broke it and holds it now"


def test_check_waits_while_a_build_holds_the_lock(tmp_path):
    build_campaigns([CAMPAIGN], tmp_path, make_zip=False)
    lock = tmp_path / LOCK_FILE
    lock.write_text("1 elsewhere 0", encoding="utf-8")
    reports = []
    worker = threading.Thread(target=lambda: reports.append(build_campaigns([CAMPAIGN], tmp_path, make_zip=False,
                                                                            check=True)))
    worker.start()
    worker.join(timeout=1.0)
    assert worker.is_alive(), "--check compared the folder while a build held its lock"
    lock.unlink()
    worker.join(timeout=60)
    assert reports and reports[0].differences == []
    assert not lock.exists()


def test_check_of_a_folder_where_no_lock_can_be_taken_compares_without_one(tmp_path, monkeypatch):
    build_campaigns([CAMPAIGN], tmp_path, make_zip=False)
    real_open = os.open

    def read_only(path, flags, *args):  # the output folder only: the check writes its own build elsewhere
        if flags & os.O_CREAT and Path(path).is_relative_to(tmp_path):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", read_only)
    assert build_campaigns([CAMPAIGN], tmp_path, make_zip=False, check=True).differences == []


# --- builds that die (issue 30): SIGKILL in the middle of a build, then another build ------------------------------

KILLED_BUILD = """
import os, signal, sys
from pathlib import Path
import exporter.build as build

def killed(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)

if sys.argv[2] == "writing":
    build.write_campaign = killed  # dies with its staging folder made, before a tree is written
else:
    real_rename = Path.rename
    def rename(self, target):  # dies holding the lock, the old tree set aside and the new one not yet in place
        real_rename(self, target)
        if Path(target).name.endswith(".old"):
            killed()
    Path.rename = rename
build.build_campaigns([Path(sys.argv[3])], Path(sys.argv[1]), make_zip=False)
"""
# A build of one campaign takes about a second; a lock left behind made the next build wait the full STALE_SECONDS.
NEXT_BUILD_SECONDS = 20


def kill_a_build(out: Path, when: str) -> None:
    """Run a build into out in a process of its own and kill it (SIGKILL) while it is writing or moving into place"""
    done = subprocess.run([sys.executable, "-c", KILLED_BUILD, str(out), when, str(CAMPAIGN)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr[-500:]


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.name.startswith("."))


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_the_staging_folders_of_killed_builds_are_removed_by_the_next_build(tmp_path):
    for _ in range(2):
        kill_a_build(tmp_path, "writing")
        assert [name for name in leftovers(tmp_path) if name.startswith(STAGING_PREFIX)]
    build_campaigns([CAMPAIGN], tmp_path, make_zip=False)
    assert leftovers(tmp_path) == []
    assert (tmp_path / "ambush-adnd-example" / "roll20").is_dir()


def test_the_staging_folder_of_a_build_under_way_is_kept(tmp_path):
    running = staging_root(tmp_path)  # this process's own: a build that is still writing
    build_campaigns([CAMPAIGN], tmp_path, make_zip=False)
    assert running.is_dir()


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
@pytest.mark.parametrize("check", [False, True], ids=["build", "check"])
def test_a_lock_left_by_a_killed_build_is_taken_at_once(check, tmp_path):
    build_campaigns([CAMPAIGN], tmp_path, make_zip=False)
    kill_a_build(tmp_path, "moving")
    assert {".ambush-adnd-example.old", LOCK_FILE} <= set(leftovers(tmp_path))  # the dead build held the lock
    started = time.monotonic()
    worker = threading.Thread(target=lambda: build_campaigns([CAMPAIGN], tmp_path, make_zip=False, check=check))
    worker.start()
    worker.join(timeout=NEXT_BUILD_SECONDS)
    assert not worker.is_alive(), f"the next build still waited for a dead build's lock after {NEXT_BUILD_SECONDS} s"
    assert time.monotonic() - started < NEXT_BUILD_SECONDS
    if not check:
        assert leftovers(tmp_path) == []
        assert (tmp_path / "ambush-adnd-example" / "roll20").is_dir()


def test_the_lock_names_its_holder(tmp_path):
    with folder_lock(tmp_path):
        named = json.loads((tmp_path / LOCK_FILE).read_text(encoding="utf-8"))
    assert (named["pid"], named["host"]) == (os.getpid(), socket.gethostname())
    assert abs(named["since"] - time.time()) < 60
    if sys.platform.startswith("linux"):
        assert named["start"] == Path(f"/proc/{os.getpid()}/stat").read_text().rsplit(")", 1)[1].split()[19]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a process's start time from /proc")
def test_a_lock_whose_process_id_now_belongs_to_another_process_is_taken_at_once(tmp_path):
    lock = tmp_path / LOCK_FILE  # this process's id, but a start that is not this process's: the holder died
    lock.write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "start": "1", "since": 0,
                                "token": "x"}), encoding="utf-8")
    started = time.monotonic()
    with folder_lock(tmp_path, stale_after=30):
        assert time.monotonic() - started < 5


def test_a_live_holder_on_this_host_is_waited_for_however_old_its_lock(tmp_path):
    with folder_lock(tmp_path):
        lock = tmp_path / LOCK_FILE
        an_hour_ago = time.time() - 3600
        os.utime(lock, (an_hour_ago, an_hour_ago))
        taken = threading.Event()

        def wait_for_it() -> None:
            with folder_lock(tmp_path, stale_after=1):
                taken.set()

        waiter = threading.Thread(target=wait_for_it)
        waiter.start()
        assert not taken.wait(1.5), "a live build's lock was broken"
    waiter.join(timeout=10)
    assert taken.is_set()


def test_a_build_finishing_a_killed_builds_moves_leaves_the_users_own_dot_old_files(tmp_path):
    (tmp_path / ".notes.old").write_text("mine", encoding="utf-8")
    (tmp_path / ".drafts.old" / "web").mkdir(parents=True)  # named like a tree set aside, but holding more
    (tmp_path / ".drafts.old" / "todo.txt").write_text("mine", encoding="utf-8")
    build_campaigns([CAMPAIGN], tmp_path, make_zip=False)
    assert (tmp_path / ".notes.old").read_text(encoding="utf-8") == "mine"
    assert (tmp_path / ".drafts.old" / "todo.txt").read_text(encoding="utf-8") == "mine"
    assert not (tmp_path / "drafts").exists()


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_a_tree_a_killed_build_set_aside_goes_back_when_its_place_is_empty(tmp_path):
    other = ROOT / "fixtures" / "campaigns" / "gurps4e.toml"
    build_campaigns([CAMPAIGN], tmp_path, make_zip=False)
    kill_a_build(tmp_path, "moving")  # ambush-adnd-example set aside, its new tree not yet in place
    assert not (tmp_path / "ambush-adnd-example").exists()
    build_campaigns([other], tmp_path, make_zip=False)  # another campaign into the same folder
    assert (tmp_path / "ambush-adnd-example" / "roll20").is_dir()
    assert leftovers(tmp_path) == []
