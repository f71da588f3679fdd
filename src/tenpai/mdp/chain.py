"""Winning / Tenpai Solitary Mahjong at shanten 2-3 on the shanten abstraction (001 §VI-A3).

The exact WS / TS hand spaces took 5-270 s per decision in pure Python at shanten 2-3, so the
player evaluates them on a chain over shanten levels: from level ``s`` a draw moves one level
down with probability (live effective tiles at that level) / (unseen tiles).  What matters is
where those rates come from:

* level ``s`` (the hand itself) is measured exactly;
* level ``s - 1`` is measured by a one-step look-ahead when ``Settings.chain_measured_levels``
  is 2 (the default): the unseen-weighted mean, over the draws that lower the shanten, of the
  best effective-tile count after the best discard that keeps the new shanten;
* deeper levels use ``Settings.typical_ukeire`` times the ratio measured / typical at level
  ``s - 1`` (a hand whose next level is narrow stays narrower than typical further down).

Why the look-ahead: with typical numbers for every level below the first, a hand that breaks a
block to become one shanten *worse* but *wider* (say 71 effective tiles at shanten 3 against
16 at shanten 2) was credited with a typical, wide next level (40 tiles) it does not have:
after the first draw it is back to the narrow shape it gave up.  Measured over 16 seeded
tonpuu games, that made ``mdp`` break shanten in 23 of the 30 quiet shanten 2-3 discards
where it disagreed with ``efficiency``, and paired rollouts of those decisions won a third
less often (docs/mdp_search.md, "Strength").
"""

from __future__ import annotations

from collections.abc import Sequence

from tenpai.mdp.space import shanten_of

__all__ = ["chain_probs", "improving_kinds", "solitary_probs"]

_IMPROVING: dict[bytes, tuple[int, tuple[int, ...]]] = {}
_MEMO_LIMIT = 200_000


_YAOCHU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _candidates(hand: bytes) -> list[int] | range:
    """Kinds whose draw can lower the shanten of ``hand``: for the standard form a drawn tile
    must join a kind held or one within two in its suit; for thirteen orphans it is a terminal
    or honour; seven pairs can gain from a new kind only while fewer than seven kinds are held
    (then every kind is tried)."""
    held = [k for k in range(34) if hand[k]]
    if len(held) < 7:
        return range(34)
    out = set(_YAOCHU)
    for k in held:
        out.add(k)
        if k < 27:
            base = k - k % 9
            for d in (-2, -1, 1, 2):
                if base <= k + d < base + 9:
                    out.add(k + d)
    return sorted(out)


def improving_kinds(hand: bytes) -> tuple[int, tuple[int, ...]]:
    """(shanten, kinds whose draw lowers it) of a 3k+1-tile hand, memoised: the kinds do not
    depend on what is unseen, only their copies do (counted by the caller)."""
    hit = _IMPROVING.get(hand)
    if hit is not None:
        return hit
    now = shanten_of(hand)
    work = bytearray(hand)
    good: list[int] = []
    for c in _candidates(hand):
        if work[c] < 4:
            work[c] += 1
            if shanten_of(bytes(work)) < now:
                good.append(c)
            work[c] -= 1
    out = (now, tuple(good))
    if len(_IMPROVING) > _MEMO_LIMIT:
        _IMPROVING.clear()
    _IMPROVING[hand] = out
    return out


def _live(kinds: Sequence[int], unseen: Sequence[int]) -> int:
    return sum(unseen[c] for c in kinds)


def next_level_tiles(hand: bytes, unseen: Sequence[int]) -> float | None:
    """Expected live effective tiles one level down: over the improving draws ``c`` (weighted
    by their unseen copies), the largest count after the best shanten-keeping discard of
    ``hand + c``.  ``None`` when no improving tile is left unseen."""
    now, good = improving_kinds(hand)
    total = 0
    acc = 0.0
    work = bytearray(hand)
    for c in good:
        w = unseen[c]
        if w <= 0:
            continue
        work[c] += 1
        best = 0
        for j in range(34):
            if not work[j] or j == c:
                continue
            work[j] -= 1
            after = bytes(work)
            work[j] += 1
            if shanten_of(after) < now:
                best = max(best, _live(improving_kinds(after)[1], unseen))
        work[c] -= 1
        acc += w * best
        total += w
    return acc / total if total else None


def chain_probs(rates: Sequence[float], horizon: int) -> list[float]:
    """P(the chain has passed level i within ``horizon`` draws), for every level i.

    Level i is left with probability ``rates[i]`` per draw (a draw of a live effective tile).
    """
    dist = [1.0] + [0.0] * len(rates)
    for _ in range(horizon):
        nxt = [0.0] * len(dist)
        for i, p in enumerate(dist):
            if p == 0.0:
                continue
            if i == len(rates):
                nxt[i] += p
                continue
            nxt[i + 1] += p * rates[i]
            nxt[i] += p * (1 - rates[i])
        dist = nxt
    return [sum(dist[i + 1 :]) for i in range(len(rates))]


def solitary_probs(hand: bytes, unseen: Sequence[int], horizon: int,
                   typical: Sequence[int], measured_levels: int = 2) -> tuple[float, float]:
    """(p_W, p_T): the probabilities of Winning / Tenpai Solitary Mahjong on the chain (module
    docstring) over ``horizon`` own draws."""
    now, good = improving_kinds(hand)
    sh = max(0, now)
    total = sum(unseen)
    if total <= 0:
        return 0.0, float(sh == 0)
    rates = [_live(good, unseen) / total]
    scale = 1.0
    for k, lvl in enumerate(range(sh - 1, -1, -1)):
        base = typical[min(lvl, len(typical) - 1)]
        tiles: float | None = None
        if k == 0 and measured_levels >= 2:
            tiles = next_level_tiles(hand, unseen)
            if tiles is not None and base > 0:
                scale = tiles / base
        if tiles is None:
            tiles = base * scale
        rates.append(min(1.0, tiles / total))
    passed = chain_probs(rates, horizon)
    p_t = passed[sh - 1] if sh > 0 else 1.0
    return passed[-1], p_t
