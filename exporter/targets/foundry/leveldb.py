"""Write a LevelDB database as LevelDB itself leaves a fresh one: a manifest, and the writes in its log

LevelDB replays the log when it opens the database (the official CLI's extract and Foundry alike), so no table
file is needed. Written directly, without a LevelDB library: no file syncs and no compaction, and the same
documents give the same bytes. Formats: LevelDB's doc/log_format.md, db/version_edit.cc and db/write_batch.cc.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from pathlib import Path

BLOCK_SIZE = 32768
HEADER_SIZE = 7  # checksum (4), length (2), record type (1)
FULL, FIRST, MIDDLE, LAST = 1, 2, 3, 4
COMPARATOR = b"leveldb.BytewiseComparator"
# VersionEdit tags, and the value type of a put in a write batch.
TAG_COMPARATOR, TAG_LOG_NUMBER, TAG_NEXT_FILE, TAG_LAST_SEQUENCE = 1, 2, 3, 4
TYPE_VALUE = 1
MANIFEST, LOG = 1, 2  # file numbers: MANIFEST-000001 and 000002.log


def crc32c_table() -> list[int]:
    """Return the byte table of CRC-32C (Castagnoli, reflected polynomial 0x82F63B78)"""
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


CRC_TABLE = crc32c_table()


def crc32c(data: bytes) -> int:
    """Return the CRC-32C of data"""
    crc = 0xFFFFFFFF
    table = CRC_TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked(crc: int) -> int:
    """Mask a stored checksum as LevelDB does, so that a CRC of data holding CRCs stays meaningful"""
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def varint(value: int) -> bytes:
    """Encode an unsigned integer as a LevelDB varint"""
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def log_file(records: Iterable[bytes]) -> bytes:
    """Frame records in LevelDB's log format: 32 KiB blocks, each record whole or in fragments"""
    out = bytearray()
    for record in records:
        start, first = 0, True
        while True:
            left = BLOCK_SIZE - len(out) % BLOCK_SIZE
            if left < HEADER_SIZE:
                out += b"\0" * left  # a block's tail too short for a header is zero-filled
                left = BLOCK_SIZE
            fragment = record[start:start + left - HEADER_SIZE]
            start += len(fragment)
            last = start >= len(record)
            kind = FULL if first and last else FIRST if first else LAST if last else MIDDLE
            checksum = masked(crc32c(bytes([kind]) + fragment))
            out += struct.pack("<IHB", checksum, len(fragment), kind) + fragment
            first = False
            if last:
                break
    return bytes(out)


def version_edit() -> bytes:
    """Return the manifest's one edit: the comparator, the log to replay, the next file number, sequence 0"""
    return (varint(TAG_COMPARATOR) + varint(len(COMPARATOR)) + COMPARATOR + varint(TAG_LOG_NUMBER) + varint(LOG)
            + varint(TAG_NEXT_FILE) + varint(LOG + 1) + varint(TAG_LAST_SEQUENCE) + varint(0))


def write_batch(items: list[tuple[bytes, bytes]]) -> bytes:
    """Return one write batch putting every key and value, its first sequence number 1"""
    body = b"".join(bytes([TYPE_VALUE]) + varint(len(key)) + key + varint(len(value)) + value for key, value in items)
    return struct.pack("<QI", 1, len(items)) + body


def database_files(items: list[tuple[bytes, bytes]]) -> dict[str, bytes]:
    """Return the files of a new LevelDB database holding the items, by name"""
    return {f"{LOG:06d}.log": log_file([write_batch(items)]), f"MANIFEST-{MANIFEST:06d}": log_file([version_edit()]),
            "CURRENT": f"MANIFEST-{MANIFEST:06d}\n".encode()}


def write_database(folder: Path, items: list[tuple[bytes, bytes]]) -> None:
    """Write a new LevelDB database into an empty folder holding the items"""
    for name, data in database_files(items).items():
        (folder / name).write_bytes(data)
