"""Reproducible output (exporter/dist.py): the zip written from memory is the zip Python's zipfile writes"""

from __future__ import annotations

import io
import os
import zipfile

import pytest

from exporter.dist import zip_bytes, zip_date_time


def zipfile_bytes(files: dict[str, bytes]) -> bytes:
    """The reference: zipfile's own writing of the entries, as builds wrote the Foundry zip before"""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(files):
            entry = zipfile.ZipInfo(name, date_time=zip_date_time())
            entry.create_system = 3
            entry.external_attr = 0o100644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, files[name], compresslevel=9)
    return buffer.getvalue()


FILES = {
    "module.json": b'{"id": "x"}\n',
    "scripts/common/rules.js": b"export const a = 1;\n" * 400,
    "packs/surprise-macros/000002.log": os.urandom(3000),  # incompressible: stored deflate blocks
    "lang/zh-CN.json": "{\"标题\": \"突袭\"}\n".encode(),
    "empty.txt": b"",
    "scripts/überall.js": b"// a name that is not ASCII\n",
}


@pytest.mark.parametrize("epoch", [None, "1700000000"])
def test_the_zip_is_the_one_zipfile_writes(epoch, monkeypatch):
    if epoch:
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    else:
        monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert zip_bytes(FILES) == zipfile_bytes(FILES)
    assert zip_bytes({}) == zipfile_bytes({})


def test_the_zip_reads_back_whole():
    with zipfile.ZipFile(io.BytesIO(zip_bytes(FILES))) as archive:
        assert archive.testzip() is None
        assert {info.filename: archive.read(info) for info in archive.infolist()} == FILES
        assert [info.filename for info in archive.infolist()] == sorted(FILES)
