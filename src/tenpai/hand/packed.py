"""The shanten tables in the compact form the hot paths read, shipped prebuilt.

Building the tables (:mod:`tenpai.hand.tables`) takes numpy and about a quarter of a second,
and importing numpy takes about as long again: every process paid both at its first shanten
query, every arena worker included.  The same numbers are shipped as package data
(``shanten_tables.bin``, about 100 kB) and loaded here with the standard library only, in a few
milliseconds.

Safety: the file carries a magic, a format version, the payload's length and its SHA-256; a
file that is missing, of another version or corrupt in any way is ignored and the tables are
built in memory exactly as before (:func:`source` says which happened), so a bad file can cost
time but never give a wrong number.  ``tests/hand/test_hand_packed_tables.py`` checks that the
shipped file equals the builder's output, so the two can never drift apart silently.
Regenerate it with
``python -c "from tenpai.hand.packed import write_prebuilt; write_prebuilt()"`` after changing
the builder (it is written
atomically: a temporary file, then a rename).

Layout (all little-endian): the 8-byte magic, ``u32`` version, ``u64`` payload length, the
32-byte SHA-256 of the payload, then the zlib-compressed payload: four ``u32`` class counts
(numbered suit, honour, man x pin, sou x honours) followed by the tables in
:data:`_FIELDS` order.
"""

from __future__ import annotations

import hashlib
import struct
import sys
import threading
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:
    from tenpai.hand.tables import ShantenTables

__all__ = [
    "FORMAT_VERSION",
    "PREBUILT",
    "PackedTables",
    "pack",
    "packed_tables",
    "source",
    "unpack",
    "write_prebuilt",
]

#: Raise when the layout or the meaning of any table changes.
FORMAT_VERSION: Final = 1
#: The shipped file.
PREBUILT: Final = Path(__file__).with_name("shanten_tables.bin")

_MAGIC: Final = b"TENPAISH"
_HEADER: Final = struct.Struct("<8sIQ32s")
_DIMS: Final = struct.Struct("<4I")
_SUIT_KEYS: Final = 5**9
_HONOR_KEYS: Final = 5**7
#: Entries per distance vector: ``2 * sets + pair`` for 0-4 sets.
VECTOR: Final = 10


@dataclass(frozen=True)
class PackedTables:
    """Every table a shanten query needs, as flat buffers (see :mod:`tenpai.hand.tables`).

    ``suit`` / ``honor`` hold one byte per base-5 pattern key: its class, 255 for a pattern of
    more than 14 tiles.  ``mp_class`` (``n_suit`` x ``n_suit``) and ``sh_class`` (``n_suit`` x
    ``n_honor``) are int16, ``final`` and ``tiles`` (``n_mp`` x ``n_sh``) int8, the vectors
    int16 rows of :data:`VECTOR`; each is a C-contiguous ``memoryview`` of that format and
    shape, so the C extension reads them as buffers and Python as nested lists.
    """

    suit: memoryview
    honor: memoryview
    mp_class: memoryview
    sh_class: memoryview
    final: memoryview
    tiles: memoryview
    mp_vectors: memoryview
    sh_vectors: memoryview

    @property
    def n_pin(self) -> int:
        return int(self.mp_class.shape[1]) if self.mp_class.shape else 0

    @property
    def n_honor(self) -> int:
        return int(self.sh_class.shape[1]) if self.sh_class.shape else 0

    @property
    def n_sh(self) -> int:
        return int(self.final.shape[1]) if self.final.shape else 0


_Format = Literal["B", "b", "h"]
# (field, struct format, rows, columns) with the class counts named as in the payload header.
_FIELDS: Final[tuple[tuple[str, _Format, str | int, str | int], ...]] = (
    ("suit", "B", "suit_keys", 1),
    ("honor", "B", "honor_keys", 1),
    ("mp_class", "h", "n_suit", "n_suit"),
    ("sh_class", "h", "n_suit", "n_honor"),
    ("final", "b", "n_mp", "n_sh"),
    ("tiles", "b", "n_mp", "n_sh"),
    ("mp_vectors", "h", "n_mp", VECTOR),
    ("sh_vectors", "h", "n_sh", VECTOR),
)


def pack(t: ShantenTables) -> bytes:
    """The file bytes for tables built by :func:`tenpai.hand.tables.get_tables`."""
    import numpy as np

    suit = np.where(t.suit_class < 0, 255, t.suit_class).astype(np.uint8)
    honor = np.where(t.honor_class < 0, 255, t.honor_class).astype(np.uint8)
    arrays = (
        suit,
        honor,
        t.mp_class.astype("<i2"),
        t.sh_class.astype("<i2"),
        t.final.astype(np.int8),
        t.tiles.astype(np.int8),
        t.mp_vectors.astype("<i2"),
        t.sh_vectors.astype("<i2"),
    )
    if max(int(suit[suit < 255].max()), int(honor[honor < 255].max())) >= 255:
        raise ValueError("pattern classes no longer fit in a byte")
    dims = _DIMS.pack(t.mp_class.shape[0], t.sh_class.shape[1], t.final.shape[0],
                      t.final.shape[1])
    payload = dims + b"".join(np.ascontiguousarray(a).tobytes() for a in arrays)
    digest = hashlib.sha256(payload).digest()
    return _HEADER.pack(_MAGIC, FORMAT_VERSION, len(payload), digest) + zlib.compress(payload, 9)


def unpack(blob: bytes) -> PackedTables:
    """Read file bytes; ``ValueError`` for anything but an intact file of this version."""
    if len(blob) < _HEADER.size:
        raise ValueError("shanten tables: file too short")
    magic, version, length, digest = _HEADER.unpack_from(blob)
    if magic != _MAGIC:
        raise ValueError("shanten tables: not a tables file")
    if version != FORMAT_VERSION:
        raise ValueError(f"shanten tables: format {version}, this code reads {FORMAT_VERSION}")
    try:
        payload = zlib.decompress(blob[_HEADER.size :])
    except zlib.error as err:
        raise ValueError(f"shanten tables: {err}") from None
    if len(payload) != length or hashlib.sha256(payload).digest() != digest:
        raise ValueError("shanten tables: checksum mismatch")
    if sys.byteorder != "little":  # the int16 tables are stored little-endian
        raise ValueError("shanten tables: big-endian machine, building instead")
    n_suit, n_honor, n_mp, n_sh = _DIMS.unpack_from(payload)
    sizes = {"suit_keys": _SUIT_KEYS, "honor_keys": _HONOR_KEYS, "n_suit": n_suit,
             "n_honor": n_honor, "n_mp": n_mp, "n_sh": n_sh}
    view = memoryview(payload)
    offset = _DIMS.size
    out: dict[str, memoryview] = {}
    for name, fmt, rows, cols in _FIELDS:
        r = sizes[rows] if isinstance(rows, str) else rows
        c = sizes[cols] if isinstance(cols, str) else cols
        width = struct.calcsize(fmt)
        end = offset + r * c * width
        if end > len(view):
            raise ValueError("shanten tables: payload too short")
        shape = [r] if c == 1 else [r, c]
        out[name] = view[offset:end].cast("B").cast(fmt, shape)
        offset = end
    if offset != len(view):
        raise ValueError("shanten tables: payload too long")
    return PackedTables(**out)


_lock = threading.Lock()
_loaded: list[PackedTables] = []
_source: list[str] = []


def _load(path: Path) -> tuple[PackedTables, str]:
    try:
        return unpack(path.read_bytes()), "prebuilt"
    except (OSError, ValueError):
        from tenpai.hand.tables import get_tables

        return unpack(pack(get_tables())), "built"


def packed_tables() -> PackedTables:
    """The tables, loaded from the shipped file (or built if it is unusable), once a process."""
    if not _loaded:
        with _lock:
            if not _loaded:
                tables, how = _load(PREBUILT)
                _source.append(how)
                _loaded.append(tables)
    return _loaded[0]


def source() -> str:
    """``"prebuilt"`` when the shipped file was used, ``"built"`` when it was rebuilt."""
    packed_tables()
    return _source[0]


def write_prebuilt(path: Path = PREBUILT) -> int:
    """Build the tables and write them to ``path`` atomically; returns the file size."""
    from tenpai.atomic import atomic_path
    from tenpai.hand.tables import get_tables

    blob = pack(get_tables())
    unpack(blob)  # never write what cannot be read back
    with atomic_path(path, mode=0o644) as tmp:  # shipped in the package: 0644 whoever builds it
        tmp.write_bytes(blob)
    return len(blob)

