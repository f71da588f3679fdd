"""Bounded, safe loading of record bytes and atomic writing of outputs.

Reading goes through one function so that the size limit, gzip detection and UTF-8 decoding
are enforced for every format the same way (a gzip bomb is cut off at the limit, not after
it has filled memory).  Writing goes through a temp file in the target directory followed by
``os.replace`` (``tenpai.atomic``), so a crash or an error never leaves a half-written record
behind.
"""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

from tenpai.atomic import write_bytes_atomic, write_files_atomic
from tenpai.records.errors import RecordSyntaxError, RecordTooLargeError

__all__ = [
    "DEFAULT_MAX_BYTES",
    "decode_bytes",
    "read_text",
    "write_text_atomic",
    "write_texts_atomic",
]

#: Generous default: the largest real single-game record is well under 1 MB and the largest
#: multi-game file (100 Botzone judge logs) 4 MB; a reader holds a few times its input in
#: memory, so 64 MiB let one hostile file take ~2 GB and most of a minute.
DEFAULT_MAX_BYTES = 16 * 1024 * 1024

_GZIP_MAGIC = b"\x1f\x8b"


def decode_bytes(data: bytes, source: str | Path, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """Decompress (when gzipped) and decode UTF-8, enforcing ``max_bytes`` on both sides."""
    if len(data) > max_bytes:
        raise RecordTooLargeError(f"input is {len(data)} bytes, limit is {max_bytes}", source)
    if data[:2] == _GZIP_MAGIC:
        dec = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            out = dec.decompress(data, max_bytes + 1)
        except zlib.error as exc:
            raise RecordSyntaxError(f"corrupt gzip data: {exc}", source) from exc
        if len(out) > max_bytes:
            raise RecordTooLargeError(f"decompressed input exceeds {max_bytes} bytes", source)
        if not dec.eof:
            raise RecordSyntaxError("gzip data ends early (truncated file)", source)
        data = out
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordSyntaxError(f"not UTF-8 text at byte {exc.start}", source) from exc
    return text.lstrip("\ufeff")


def read_text(path: str | Path, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """The text of a record file (gzip allowed); the size is checked before reading."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > max_bytes:
            raise RecordTooLargeError(f"file is {size} bytes, limit is {max_bytes}", p)
        with p.open("rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise RecordSyntaxError(f"cannot read file: {exc.strerror or exc}", p) from exc
    return decode_bytes(data, p, max_bytes)


def write_text_atomic(path: str | Path, text: str, *, compress: bool = False) -> None:
    """Write ``text`` (UTF-8, gzipped when ``compress``) to ``path`` atomically
    (``tenpai.atomic``)."""
    data = text.encode("utf-8")
    if compress:
        data = gzip.compress(data, mtime=0)
    write_bytes_atomic(path, data)


def write_texts_atomic(files: list[tuple[str | Path, str]]) -> None:
    """Write several files that belong together (a Botzone export's lite + metadata pair).

    Every file is first written in full to a temp file beside its target; only when all of
    them are on disk are they moved into place, in the order given, so an error while writing
    leaves no target touched.  The moves themselves are separate ``os.replace`` calls: put the
    file that makes the set a record last (readers ignore the others without it).
    """
    write_files_atomic([(path, text.encode("utf-8")) for path, text in files])
