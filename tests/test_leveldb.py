"""The hand-written LevelDB packs read back with LevelDB itself (plyvel), records of every size"""

from __future__ import annotations

import shutil

import plyvel
import pytest

from exporter.targets.foundry.leveldb import BLOCK_SIZE, HEADER_SIZE, crc32c, write_database


def test_crc32c_check_value():
    assert crc32c(b"123456789") == 0xE3069283  # the standard check value of CRC-32C
    assert crc32c(b"") == 0


# A record that fills a block exactly, one that leaves less than a header, one spanning several blocks.
SIZES = [0, 1, BLOCK_SIZE - HEADER_SIZE - 12 - 20, BLOCK_SIZE - 20, 3 * BLOCK_SIZE + 5]


@pytest.mark.parametrize("size", SIZES)
def test_leveldb_reads_back_every_item(tmp_path, size):
    items = [(f"!macros!{index:04d}".encode(), (f"{index}:" + "é" * (size // 2)).encode()) for index in range(3)]
    written = tmp_path / "pack"
    written.mkdir()
    write_database(written, items)
    opened = tmp_path / "opened"  # LevelDB writes on open: read a copy, the written files stay as they are
    shutil.copytree(written, opened)
    database = plyvel.DB(str(opened))
    try:
        assert list(database) == sorted(items)
    finally:
        database.close()


def test_the_same_items_give_the_same_bytes(tmp_path):
    items = [(b"k", b"v")]
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        write_database(tmp_path / name, items)
    assert {p.name: p.read_bytes() for p in (tmp_path / "one").iterdir()} == {
        p.name: p.read_bytes() for p in (tmp_path / "two").iterdir()}
