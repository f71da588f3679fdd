"""The shipped shanten tables equal the builder's, and a bad file can only cost time.

``shanten_tables.bin`` is package data read at the first shanten query instead of building
the tables with numpy; if the builder changes and the file is not regenerated, the first test
fails.  A missing, truncated, corrupted or foreign-version file must be ignored (the tables are
then built), never read.
"""

from __future__ import annotations

import hashlib
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tenpai.hand import packed
from tenpai.hand.tables import get_tables


def _same(a: packed.PackedTables, b: packed.PackedTables) -> None:
    for name in ("suit", "honor", "mp_class", "sh_class", "final", "tiles", "mp_vectors",
                 "sh_vectors"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.format == y.format and x.shape == y.shape, name
        assert x.tobytes() == y.tobytes(), name


def test_shipped_file_equals_the_builder() -> None:
    shipped = packed.unpack(packed.PREBUILT.read_bytes())
    _same(shipped, packed.unpack(packed.pack(get_tables())))


def test_a_normal_import_reads_the_shipped_file() -> None:
    assert packed.source() == "prebuilt"


def _blob() -> bytes:
    return packed.PREBUILT.read_bytes()


def _other_version(blob: bytes) -> bytes:
    header = struct.Struct("<8sIQ32s")
    magic, _, length, digest = header.unpack_from(blob)
    return header.pack(magic, packed.FORMAT_VERSION + 1, length, digest) + blob[header.size :]


def _bad_checksum(blob: bytes) -> bytes:
    header = struct.Struct("<8sIQ32s")
    magic, version, length, _ = header.unpack_from(blob)
    return header.pack(magic, version, length, hashlib.sha256(b"x").digest()) + blob[header.size:]


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[: len(b) // 2],
        lambda b: b[:20],
        lambda b: b"NOTATABL" + b[8:],
        _other_version,
        _bad_checksum,
        lambda b: b[:60] + bytes([b[60] ^ 0xFF]) + b[61:],
        lambda b: b"",
    ],
    ids=["truncated", "header-only", "magic", "version", "checksum", "flipped-byte", "empty"],
)
def test_damaged_file_is_refused(damage: object) -> None:
    assert callable(damage)
    with pytest.raises(ValueError):
        packed.unpack(damage(_blob()))


def test_missing_or_damaged_file_falls_back_to_building(tmp_path: Path) -> None:
    missing = tmp_path / "absent.bin"
    tables, how = packed._load(missing)
    assert how == "built"
    _same(tables, packed.unpack(_blob()))
    broken = tmp_path / "broken.bin"
    broken.write_bytes(_blob()[:1000])
    tables, how = packed._load(broken)
    assert how == "built"
    _same(tables, packed.unpack(_blob()))


def test_write_is_atomic_and_readable(tmp_path: Path) -> None:
    target = tmp_path / "tables.bin"
    target.write_bytes(b"old")
    size = packed.write_prebuilt(target)
    assert target.stat().st_size == size
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tables.bin"]  # no temporary left
    _same(packed.unpack(target.read_bytes()), packed.unpack(_blob()))


def test_single_hand_queries_start_without_numpy() -> None:
    code = (
        "import sys\n"
        "from tenpai.hand import shanten, shanten_mcr, ukeire\n"
        "h = [1, 1, 1, 0, 0, 0, 0, 0, 0] * 3 + [2, 1, 1, 0, 0, 0, 0]\n"
        "assert shanten(h) == 1 and shanten_mcr(h) == 1 and ukeire(h).total > 0\n"
        "from tenpai.hand import packed\n"
        "print(packed.source(), 'numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["prebuilt", "False"]
