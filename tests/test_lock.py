"""The build lock: one holder at a time, waiters wait, a killed build's stale lock is broken, nothing is left"""

from __future__ import annotations

import os
import threading
import time

import pytest

from exporter.build import build_campaigns
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

    def read_only(path, flags, *args):
        if flags & os.O_CREAT:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", read_only)
    assert build_campaigns([CAMPAIGN], tmp_path, make_zip=False, check=True).differences == []
