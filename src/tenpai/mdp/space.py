"""The hand space of 001 §VI-D: hands on short paths from the current hand to tenpai.

A vertex is a concealed hand of 3k+1 tiles (kinds only), an edge one exchange (a tile out, a
tile in).  With the current hands ``roots`` at distance 0, a hand ``h`` reached after ``e``
exchanges is kept when ``e + max(shanten(h), 0) <= bound``: it lies on a path of at most
``bound`` exchanges that ends in a tenpai hand.  Draws of kinds with no unseen copy are never
followed.  Shanten numbers are memoised per process (the same hands come back decision after
decision).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tenpai.hand import HandError, shanten
from tenpai.mdp.settings import SearchTooLargeError

__all__ = ["HandSpace", "build_space", "shanten_of"]

_SHANTEN: dict[bytes, int] = {}
_MEMO_LIMIT = 2_000_000


def shanten_of(b: bytes) -> int:
    """Riichi shanten of a count vector (bytes), memoised."""
    s = _SHANTEN.get(b)
    if s is None:
        try:
            s = shanten(tuple(b))  # a tuple takes the compiled fast path when it is built
        except HandError as err:
            raise ValueError(f"not a valid hand: {list(b)} ({err})") from None
        if len(_SHANTEN) > _MEMO_LIMIT:
            _SHANTEN.clear()
        _SHANTEN[b] = s
    return s


@dataclass(frozen=True, slots=True)
class HandSpace:
    hands: tuple[bytes, ...]
    index: dict[bytes, int]
    shanten: tuple[int, ...]
    distance: tuple[int, ...]
    bound: int


def build_space(
    roots: Sequence[bytes], bound: int, drawable: Sequence[int], max_states: int
) -> HandSpace:
    """Breadth-first over exchanges from ``roots`` (see the module docstring)."""
    hands: list[bytes] = []
    index: dict[bytes, int] = {}
    dist: list[int] = []
    shs: list[int] = []
    for r in roots:
        if r not in index:
            index[r] = len(hands)
            hands.append(r)
            dist.append(0)
            shs.append(shanten_of(r))
    head = 0
    can_draw = [k for k in range(34) if drawable[k] > 0]
    while head < len(hands):
        h = hands[head]
        e = dist[head]
        head += 1
        if e >= bound:
            continue
        limit = bound - e - 1
        work = bytearray(h)
        for j in range(34):
            if not work[j]:
                continue
            work[j] -= 1
            for c in can_draw:
                if c == j or work[c] >= 4:
                    continue
                work[c] += 1
                nb = bytes(work)
                work[c] -= 1
                if nb in index:
                    continue
                s = shanten_of(nb)
                if max(s, 0) <= limit:
                    index[nb] = len(hands)
                    hands.append(nb)
                    dist.append(e + 1)
                    shs.append(s)
                    if len(hands) > max_states:
                        raise SearchTooLargeError(
                            f"hand space above max_states={max_states} at bound {bound}"
                        )
            work[j] += 1
    return HandSpace(tuple(hands), index, tuple(shs), tuple(dist), bound)
