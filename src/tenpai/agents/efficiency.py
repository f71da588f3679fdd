"""The tile-efficiency baseline: lower shanten first, then more effective tiles.

It plays a Riichi hand the way a careful beginner does: win whenever it can, declare riichi
when ready with a closed hand, discard the tile that keeps the hand closest to ready with the
most live tiles to improve it, and call only when the call makes the hand strictly closer to
ready while a yaku stays in reach (a yakuhai pon, or tanyao).  It never folds; the defensive
agent builds on it for that.

On an MCR observation it plays by MCR's own measures instead: shanten over every MCR winning
form (:func:`tenpai.hand.shanten_mcr`: standard, seven pairs, thirteen orphans, knitted
straight, honours and knitted tiles), effective tiles counted with that shanten, and a call
only when it lowers that shanten and an 8-fan plan stays in reach
(:func:`mcr_plan_in_reach`).  Riichi (and 108-tile) play is unchanged.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from itertools import permutations
from typing import Any

from tenpai import tiles as T
from tenpai.engine.wall import SplitMix64
from tenpai.events import Event
from tenpai.hand import shanten, shanten_mcr, ukeire

__all__ = [
    "MCR_CHOW_PLANS",
    "EfficiencyAgent",
    "best_discard",
    "best_discard_mcr",
    "discard_measures",
    "efficient_discard",
    "is_mcr_observation",
    "mcr_plan_in_reach",
    "mcr_ukeire",
]


_NORTH = 30


def _visible(obs: Any) -> list[int]:
    """Visible copies per kind; at a three-player table 2m-8m count as all gone (not in the
    set), so no effective tile is counted on them."""
    seen: list[int] = list(obs.visible_counts())
    if getattr(obs, "players", 4) == 3:
        for k in range(1, 8):
            seen[k] = 4
    return seen


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
        mcr = is_mcr_observation(observation)
        if "dahai" in types or "reach" in types:
            if mcr:
                return self._own_turn_mcr(observation, legal)
            return self._own_turn(observation, legal)
        if types & {"chi", "pon", "daiminkan"}:
            if mcr:
                return self._claim_mcr(observation, legal)
            return self._claim(observation, legal)
        return next((e for e in legal if e.type == "none"), legal[0])

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]

    def _own_turn(self, obs: Any, legal: Sequence[Event]) -> Event:
        counts = obs.counts
        for e in legal:
            # Three players: a North set aside is a dora and a fresh tile, always better
            # than discarding it when the hand does not need it.
            if e.type == "nukidora" and self._kita_keeps_shanten(counts):
                return e
        reach = next((e for e in legal if e.type == "reach"), None)
        if reach is not None:
            return reach
        discards = [e for e in legal if e.type == "dahai"]
        for e in legal:
            if e.type == "ankan" and self._kan_keeps_shanten(counts, e):
                return e
        return best_discard(counts, discards, _visible(obs))

    @staticmethod
    def _kita_keeps_shanten(counts: list[int]) -> bool:
        best = min(_sh_after_discard(counts, j) for j in range(34) if counts[j])
        return _sh_after_discard(counts, _NORTH) <= best

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


    # ------------------------------------------------------------------ MCR
    def _own_turn_mcr(self, obs: Any, legal: Sequence[Event]) -> Event:
        counts = obs.counts
        for e in legal:
            if e.type == "ankan":
                k = T.kind_of(e.consumed[0])
                best = min(_sh_mcr_after_discard(counts, j) for j in range(34) if counts[j])
                counts[k] -= 4
                after = shanten_mcr(counts)
                counts[k] += 4
                if after <= best:
                    return e
        discards = [e for e in legal if e.type == "dahai"]
        return best_discard_mcr(counts, discards, obs.visible_counts())

    def _claim_mcr(self, obs: Any, legal: Sequence[Event]) -> Event:
        """Chi or pon when MCR shanten drops and an 8-fan plan stays in reach."""
        counts = obs.counts
        before = shanten_mcr(counts)
        held = [(m.type, tuple(T.kind_of(t) for t in m.tiles)) for m in obs.melds[obs.seat]]
        best: Event | None = None
        best_sh = before
        for e in legal:
            if e.type not in ("chi", "pon"):
                continue
            assert e.pai is not None
            after = counts.copy()
            for c in e.consumed:
                after[T.kind_of(c)] -= 1
            sh = min((_sh_mcr_after_discard(after, k) for k in range(34) if after[k]),
                     default=before)
            if sh >= best_sh:
                continue
            meld = (e.type, tuple(sorted(T.kind_of(t) for t in (*e.consumed, e.pai))))
            if mcr_plan_in_reach([*held, meld], after):
                best, best_sh = e, sh
        return best if best is not None else next(e for e in legal if e.type == "none")


def _sh_after_discard(counts: list[int], k: int) -> int:
    counts[k] -= 1
    sh = shanten(counts)
    counts[k] += 1
    return sh


def _sh_mcr_after_discard(counts: list[int], k: int) -> int:
    counts[k] -= 1
    sh = shanten_mcr(counts)
    counts[k] += 1
    return sh


def is_mcr_observation(obs: Any) -> bool:
    """True for an MCR observation.  Checked without importing the MCR rules: if their
    observation module was never loaded, no MCR game can have produced ``obs``."""
    mod = sys.modules.get("tenpai.rules.mcr.flow.observation")
    return mod is not None and isinstance(obs, mod.MCRObservation)


def mcr_ukeire(counts: list[int], visible: Sequence[int]) -> int:
    """Live tiles whose draw lowers the MCR shanten of a 3k+1-tile hand (every MCR form)."""
    now = shanten_mcr(counts)
    total = 0
    for k in range(34):
        left = 4 - counts[k] - visible[k]
        if left <= 0:
            continue
        counts[k] += 1
        if shanten_mcr(counts) < now:
            total += left
        counts[k] -= 1
    return total


def best_discard_mcr(
    counts: list[int], candidates: Sequence[Event], visible: Sequence[int]
) -> Event:
    """MCR version of :func:`best_discard`: lowest MCR shanten, then most live effective tiles
    (counted only for the discards that reach the lowest shanten, to save time)."""
    sh: dict[int, int] = {}
    for e in candidates:
        assert e.pai is not None
        k = T.kind_of(e.pai)
        if k not in sh:
            sh[k] = _sh_mcr_after_discard(counts, k)
    low = min(sh.values())
    live: dict[int, int] = {}
    for k, v in sh.items():
        if v == low:
            counts[k] -= 1
            live[k] = mcr_ukeire(counts, visible)
            counts[k] += 1
    best: Event | None = None
    best_key: tuple[int, int] | None = None
    for e in candidates:
        assert e.pai is not None
        k = T.kind_of(e.pai)
        if k not in live:
            continue
        edge = 0 if T.is_terminal_or_honor(k) else (1 if T.number_of(k) in (2, 8) else 2)
        key = (-live[k], edge)
        if best_key is None or key < best_key:
            best, best_key = e, key
    assert best is not None
    return best


def efficient_discard(obs: Any, candidates: Sequence[Event]) -> Event:
    """The discard this agent plays from ``obs`` among ``candidates`` (MCR or Riichi measures,
    by the observation's rule set), for comparing another player's discards with it."""
    if is_mcr_observation(obs):
        return best_discard_mcr(obs.counts, candidates, obs.visible_counts())
    return best_discard(obs.counts, candidates, _visible(obs))


def discard_measures(obs: Any, kind: int) -> tuple[int, int]:
    """Shanten after discarding one tile of ``kind`` from the hand in ``obs``, and the live
    tiles that would then lower it: the two measures :func:`efficient_discard` ranks by."""
    counts = obs.counts  # a copy
    counts[kind] -= 1
    if is_mcr_observation(obs):
        return shanten_mcr(counts), mcr_ukeire(counts, obs.visible_counts())
    return shanten(counts), ukeire(counts, _visible(obs))[1]


def _chows(starts: Sequence[int]) -> tuple[tuple[int, int, int], ...]:
    return tuple((s, s + 1, s + 2) for s in starts)


#: Three-chow plans worth 8 fans or more on their own: pure straight (一气通贯, 16) in each
#: suit, mixed straight (花龙, 8) for each assignment of 123/456/789 to the suits, and mixed
#: triple chow (三色三同顺, 8) for each starting number.
MCR_CHOW_PLANS: tuple[tuple[tuple[int, int, int], ...], ...] = (
    *(_chows((9 * s, 9 * s + 3, 9 * s + 6)) for s in range(3)),
    *(_chows((9 * a, 9 * b + 3, 9 * c + 6)) for a, b, c in permutations(range(3))),
    *(_chows((n, 9 + n, 18 + n)) for n in range(7)),
)

#: Tiles (melds counted three each) of one suit a full-flush plan needs already in hand.
FLUSH_TILES = 10
#: Of a chow plan's nine tiles, how many must already be held or melded.
CHOW_PLAN_TILES = 7


def mcr_plan_in_reach(
    melds: Sequence[tuple[str, tuple[int, ...]]], concealed: Sequence[int]
) -> bool:
    """A deliberately simple test that an open MCR hand can still make 8 fans.

    ``melds`` are ``(type, kinds)`` with the call being considered included; ``concealed`` is
    the 34-count vector left after it.  In reach means one of two plans fits:

    * **full flush** (清一色, 24): every meld in one suit and at least
      :data:`FLUSH_TILES` tiles of that suit (three per meld) in the hand;
    * a **chow plan** from :data:`MCR_CHOW_PLANS`: every chi meld is a different chow of the
      plan, at most one meld lies outside it (the fourth set), and at least
      :data:`CHOW_PLAN_TILES` of its nine tiles are melded or held.

    Value honours, all pungs or half flush plus extras are not looked at, so the test errs on
    the side of not calling.
    """
    for suit in range(3):
        lo, hi = 9 * suit, 9 * suit + 9
        one_suit = all(all(lo <= k < hi for k in kinds) for _, kinds in melds)
        if one_suit and 3 * len(melds) + sum(concealed[lo:hi]) >= FLUSH_TILES:
            return True
    for plan in MCR_CHOW_PLANS:
        used: set[tuple[int, ...]] = set()
        outside = 0
        fits = True
        for kind, kinds in melds:
            chow = tuple(sorted(kinds))
            if kind == "chi" and chow in plan and chow not in used:
                used.add(chow)
            else:
                outside += 1
                if outside > 1:
                    fits = False
                    break
        if not fits:
            continue
        covered = 3 * len(used) + sum(
            1 for chow in plan if chow not in used for k in chow if concealed[k]
        )
        if covered >= CHOW_PLAN_TILES:
            return True
    return False
