"""The tile-efficiency baseline: lower shanten first, then more effective tiles.

It plays a Riichi hand the way a careful beginner does: win whenever it can, declare riichi
when ready with a closed hand, discard the tile that keeps the hand closest to ready with the
most live tiles to improve it, and call only when the call makes the hand strictly closer to
ready while a yaku stays in reach (a yakuhai pon, or tanyao).  It never folds; the defensive
agent builds on it for that.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tenpai import tiles as T
from tenpai.engine.wall import SplitMix64
from tenpai.events import Event
from tenpai.hand import shanten, ukeire

__all__ = ["EfficiencyAgent", "best_discard"]


def best_discard(counts: list[int], candidates: Sequence[Event], visible: Sequence[int]) -> Event:
    """The discard that minimises shanten, then maximises live effective tiles.

    Ties prefer isolated honours and terminals, a common human heuristic that keeps flexible
    middle tiles.
    """
    best: Event | None = None
    best_key: tuple[int, int, int] | None = None
    cache: dict[int, tuple[int, int]] = {}
    for e in candidates:
        assert e.pai is not None
        k = T.kind_of(e.pai)
        if k not in cache:
            counts[k] -= 1
            sh = shanten(counts)
            _, total = ukeire(counts, visible)
            counts[k] += 1
            cache[k] = (sh, total)
        sh, total = cache[k]
        edge = 0 if T.is_terminal_or_honor(k) else (1 if T.number_of(k) in (2, 8) else 2)
        key = (sh, -total, edge + (1 if T.is_red(e.pai) else 0))
        if best_key is None or key < best_key:
            best, best_key = e, key
    assert best is not None
    return best


class EfficiencyAgent:
    """Greedy hand-efficiency player (see the module docstring)."""

    def __init__(self, seed: int = 0, name: str = "efficiency") -> None:
        self.name = name
        self._rng = SplitMix64(seed ^ 0xEFF1)

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        types = {e.type for e in legal}
        for e in legal:
            if e.type == "hora":
                return e
        if "dahai" in types or "reach" in types:
            return self._own_turn(observation, legal)
        if types & {"chi", "pon", "daiminkan"}:
            return self._claim(observation, legal)
        return next((e for e in legal if e.type == "none"), legal[0])

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]

    def _own_turn(self, obs: Any, legal: Sequence[Event]) -> Event:
        reach = next((e for e in legal if e.type == "reach"), None)
        if reach is not None:
            return reach
        discards = [e for e in legal if e.type == "dahai"]
        counts = obs.counts
        for e in legal:
            if e.type == "ankan" and self._kan_keeps_shanten(counts, e):
                return e
        return best_discard(counts, discards, obs.visible_counts())

    @staticmethod
    def _kan_keeps_shanten(counts: list[int], e: Event) -> bool:
        """Declare a closed kan when it costs nothing: shanten no worse than the best discard."""
        k = T.kind_of(e.consumed[0])
        best = min(_sh_after_discard(counts, j) for j in range(34) if counts[j])
        counts[k] -= 4
        after = shanten(counts)
        counts[k] += 4
        return after <= best

    def _claim(self, obs: Any, legal: Sequence[Event]) -> Event:
        counts = obs.counts
        before = shanten(counts)
        best: Event | None = None
        best_sh = before
        for e in legal:
            if e.type not in ("chi", "pon"):
                continue
            if not self._keeps_a_yaku(obs, e):
                continue
            after = counts.copy()
            for c in e.consumed:
                after[T.kind_of(c)] -= 1
            # After the call one tile is discarded: take the best resulting shanten.
            sh = min((_sh_after_discard(after, k) for k in range(34) if after[k]), default=before)
            if sh < best_sh:
                best, best_sh = e, sh
        return best if best is not None else next(e for e in legal if e.type == "none")

    @staticmethod
    def _keeps_a_yaku(obs: Any, e: Event) -> bool:
        assert e.pai is not None
        k = T.kind_of(e.pai)
        if e.type == "pon" and (k >= 31 or k == obs.seat_wind or k == 27 + obs.bakaze):
            return True
        own = [T.kind_of(t) for t in obs.hand] + [
            T.kind_of(t) for m in obs.melds[obs.seat] for t in m.tiles
        ]
        return all(T.is_simple(x) for x in (*own, k)) and all(
            not T.is_terminal_or_honor(T.kind_of(c)) for c in e.consumed
        )


def _sh_after_discard(counts: list[int], k: int) -> int:
    counts[k] -= 1
    sh = shanten(counts)
    counts[k] += 1
    return sh
