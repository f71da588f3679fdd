"""Tenhou's packed meld integer (the ``m`` attribute of ``<N>``), decoded and encoded.

Layout (bit 0 is the lowest):

* bits 0-1: where the claimed tile came from, relative to the caller
  (0 self, 1 next seat, 2 opposite, 3 previous seat);
* chi (bit 2 set): bits 3-4, 5-6, 7-8 pick the copy of each of the three tiles; bits 10+ hold
  ``base * 3 + called`` where ``base`` numbers the 21 possible runs (7 per suit) and ``called``
  (0-2) says which of the three tiles was claimed;
* pon (bit 3) and added kan (bit 4): bits 5-6 name the copy left out of the pon (the added
  tile of a kan); bits 9+ hold ``kind * 3 + called``;
* nukidora (bit 5): bits 8+ hold the tile id (a North);
* otherwise a kan: bits 8+ hold a tile id; from-self means a closed kan, otherwise an open kan
  whose claimed copy is that id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Meld", "MeldKind", "decode_meld", "encode_meld"]

MeldKind = Literal["chi", "pon", "kakan", "daiminkan", "ankan", "nukidora"]


@dataclass(frozen=True, slots=True)
class Meld:
    """A decoded call.  ``tiles`` are physical ids; ``called`` is the claimed (or added) id."""

    kind: MeldKind
    from_rel: int
    tiles: tuple[int, ...]
    called: int | None
    added: int | None = None


def decode_meld(m: int) -> Meld:
    """Decode ``m``; raises ValueError on a value no Tenhou client could produce."""
    if not 0 <= m < 1 << 16:
        raise ValueError(f"meld code {m} out of range")
    rel = m & 3
    if m & 0x4:
        t = m >> 10
        called = t % 3
        run = t // 3
        if run >= 21:
            raise ValueError(f"chi code {m} names run {run}")
        base = (run // 7) * 9 + run % 7
        copies = ((m >> 3) & 3, (m >> 5) & 3, (m >> 7) & 3)
        tiles = tuple((base + i) * 4 + copies[i] for i in range(3))
        return Meld("chi", rel, tiles, tiles[called])
    if m & 0x18:
        unused = (m >> 5) & 3
        t = m >> 9
        called = t % 3
        kind = t // 3
        if kind >= 34:
            raise ValueError(f"pon code {m} names kind {kind}")
        pon = tuple(kind * 4 + i for i in range(4) if i != unused)
        if m & 0x8:
            return Meld("pon", rel, pon, pon[called])
        return Meld("kakan", rel, (*pon, kind * 4 + unused), pon[called], kind * 4 + unused)
    if m & 0x20:
        tile = m >> 8
        if tile >= 136:
            raise ValueError(f"nukidora code {m} names tile {tile}")
        return Meld("nukidora", 0, (tile,), tile)
    tile = m >> 8
    if tile >= 136:
        raise ValueError(f"kan code {m} names tile {tile}")
    kind = tile // 4
    tiles = tuple(kind * 4 + i for i in range(4))
    if rel == 0:
        return Meld("ankan", 0, tiles, None)
    return Meld("daiminkan", rel, tiles, tile)


def encode_meld(kind: MeldKind, from_rel: int, tiles: tuple[int, ...], called: int | None) -> int:
    """The ``m`` value of a call; ``tiles`` are physical ids (for kakan, the pon's three plus
    the added id last), ``called`` the claimed id (ignored for closed kan and nukidora)."""
    if kind == "chi":
        ids = sorted(tiles)
        k0 = ids[0] // 4
        run = (k0 // 9) * 7 + k0 % 9
        assert called is not None
        c = ids.index(called)
        m = ((run * 3 + c) << 10) | 0x4 | from_rel
        for i, tid in enumerate(ids):
            m |= (tid % 4) << (3 + 2 * i)
        return m
    if kind in ("pon", "kakan"):
        assert called is not None
        pon = sorted(tiles[:3])
        k = pon[0] // 4
        unused = ({0, 1, 2, 3} - {t % 4 for t in pon}).pop()
        c = pon.index(called)
        flag = 0x8 if kind == "pon" else 0x10
        return ((k * 3 + c) << 9) | (unused << 5) | flag | from_rel
    if kind == "nukidora":
        return (tiles[0] << 8) | 0x20
    if kind == "ankan":
        return (tiles[0] << 8)
    assert called is not None
    return (called << 8) | from_rel
