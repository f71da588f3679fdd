"""History worlds: each opponent's hand picked by how well it explains all its discards.

The ``weighted`` and ``speed`` worlds (:mod:`tenpai.search.mcr.reading`) score at most four
discards per opponent, the ones its current hand explains exactly: back from the latest
through tiles thrown as drawn, up to the first thrown from the hand.  Everything an opponent
threw before that is unread, and it is most of its play.  The ``history`` worlds read it all.

**Walking a hand back.**  Just after an opponent threw ``x`` its hand is ``H``; just before,
it held ``H + x`` — whatever it drew, the drawn tile is either ``x`` or still in ``H``.  So the
speed player's probability of that discard (:meth:`ShantenReading.discard_log_p`) needs only
the hand after it, and the hand one turn earlier is ``H + x`` minus the tile drawn that turn:

* thrown as drawn (tsumogiri): the drawn tile was ``x``, and the hand before is ``H``;
* thrown from the hand: the drawn tile is one of ``H``'s tiles; under a fairly dealt wall
  every one of them is equally likely to be the one drawn last (each order of the same tiles
  is dealt with the same chance), so one is taken at random;
* not known (the Botzone protocol does not say which discards were tsumogiri; a view with no
  discard of another seat marked tsumogiri is read so): one of ``H + x`` at random;
* right after a chow or pung there was no draw: the hand before the call is ``H + x`` plus
  the two tiles the call took from it.

The walk goes back discard by discard to the start of the hand and stops at a kong (its
replacement draw and hidden tiles are not followed).  One walk is one random path of draws,
so a hand's log weight is a one-path estimate of its likelihood, unbiased in the likelihood
itself; the variance is the price of reading every discard.

**Passed claims.**  While it held each of those hands, the opponent let other seats' discards
go.  A speed player — the greedy bots' rule — pungs any discard, or chows its left neighbour's,
when the call's best discard lowers its shanten; a hand that would have called and did not
costs a factor ``miss``, as a discard that gives a step of shanten away does.  A discard still
waiting for its answers, or taken by a pung or kong, says nothing (no one could take it from
them); one chowed by another seat still tells that no pung was wanted.

**Picking the hands.**  Weighing whole worlds by three opponents' long histories at once
leaves one world carrying the pool.  So the hands are picked seat by seat: for a world, each
opponent in a random order gets ``candidates`` speed players' hands drawn from the tiles the
seats before it left (:func:`~tenpai.search.mcr.reading.draw_speed_hidden`'s improvement
over its turns), one of which is kept with probability proportional to its weight; the rest
go to the wall, shuffled.  Like ``speed``, a proposal reweighted, not an exact posterior: the
proposal's own density is not divided out, and the seats are picked one after another.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Final

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.hand import shanten_mcr
from tenpai.search.mcr.reading import ShantenReading, speed_turns
from tenpai.search.mcr.worlds import HiddenDraw, WorldView, draw_hidden
from tenpai.search.weights import effective_size, normalised

__all__ = ["HistoryWalk", "draw_history_hidden", "tsumogiri_known"]

#: What a walk follows: draws, discards and the calls that change a concealed hand.
_WALKED: Final = ("tsumo", "dahai", "chi", "pon", "daiminkan", "ankan", "kakan")
_KONGS: Final = ("daiminkan", "ankan", "kakan")
#: At most this many discards scored per opponent (a hand of MCR has fewer than 40).
MAX_SCORED: Final = 40


def tsumogiri_known(events: Sequence[Event], seat: int) -> bool:
    """Whether the view says which of the other seats' discards were thrown as drawn: some
    discard of another seat is marked so (the Botzone seat state marks none)."""
    return any(e.type == "dahai" and e.actor != seat and e.tsumogiri for e in events)


class HistoryWalk:
    """One opponent's discards, latest first, with what each says about the hand before it."""

    def __init__(self, events: Sequence[Event], seat: int, known: bool) -> None:
        walked = [i for i, e in enumerate(events) if e.actor == seat and e.type in _WALKED]
        #: (kind thrown, origin, kinds a call took from the hand, the claims passed while the
        #: hand after this discard was held), latest first; origin is "drawn" (tsumogiri),
        #: "hand", "unknown" or "call" (the discard followed a chow or pung), or "start"
        #: (nothing walkable before it); a passed claim is (kind, whether a chow was open).
        self.steps: list[tuple[int, str, tuple[int, ...], tuple[tuple[int, bool], ...]]] = []
        for p in range(len(walked) - 1, -1, -1):
            e = events[walked[p]]
            if e.type in _KONGS:
                break
            if e.type != "dahai" or e.pai is None:
                continue
            prev = events[walked[p - 1]] if p > 0 else None
            taken: tuple[int, ...] = ()
            if prev is None or prev.type in _KONGS:
                origin = "start"
            elif prev.type in ("chi", "pon"):
                origin, taken = "call", tuple(T.kind_of(t) for t in prev.consumed)
            elif e.tsumogiri:
                origin = "drawn"
            else:
                origin = "hand" if known else "unknown"
            end = walked[p + 1] if p + 1 < len(walked) else len(events)
            passed = _passed(events, walked[p] + 1, end, seat)
            self.steps.append((T.kind_of(e.pai), origin, taken, passed))
            if origin == "start" or len(self.steps) >= MAX_SCORED:
                break

    def log_weight(self, reading: ShantenReading, hand: Sequence[int],
                   rng: random.Random) -> float:
        """A one-path estimate of the log likelihood of the discards given the current
        concealed ``hand`` (tiles; module docstring)."""
        counts = T.counts34(hand)
        total = 0.0
        for kind, origin, taken, passed in self.steps:
            for claim, may_chow in passed:
                if _would_call(reading, counts, claim, may_chow):
                    total += math.log(reading.miss)
            if counts[kind] >= 4:
                return total  # the world cannot have held a fifth copy: stop reading
            counts[kind] += 1
            total += reading.discard_log_p(counts, kind)
            if origin == "start":
                break
            if origin == "call":
                for k in taken:
                    counts[k] += 1
                continue
            if origin == "drawn":
                counts[kind] -= 1
                continue
            weights = list(counts)
            if origin == "hand":
                weights[kind] -= 1
            if sum(weights) <= 0:
                break
            counts[rng.choices(range(34), weights)[0]] -= 1
        return total


def _passed(events: Sequence[Event], start: int, stop: int, seat: int
            ) -> tuple[tuple[int, bool], ...]:
    """The other seats' discards in ``events[start:stop]`` that ``seat`` let pass when it
    could have claimed them: the next event is a draw (everyone passed) or another seat's
    chow (a pung was still open); a discard still waiting for its answers, or taken by a
    pung or kong, says nothing.  With each, whether ``seat`` could have chowed it."""
    out = []
    for k in range(start, min(stop, len(events) - 1)):
        e, nxt = events[k], events[k + 1]
        if e.type != "dahai" or e.actor == seat or e.actor is None or e.pai is None:
            continue
        if nxt.type == "tsumo" or (nxt.type == "chi" and nxt.actor != seat):
            out.append((T.kind_of(e.pai), nxt.type == "tsumo" and (e.actor + 1) % 4 == seat))
    return tuple(out)


def _would_call(reading: ShantenReading, counts: list[int], kind: int, may_chow: bool) -> bool:
    """Whether a speed player holding ``counts`` would have punged (or, where it could,
    chowed) a discard of ``kind``: some call whose best discard after it lowers the shanten
    (the greedy bots' rule)."""
    options = []
    if counts[kind] >= 2:
        options.append((kind, kind))
    if may_chow and kind < 27:
        n = kind % 9
        for a, b in ((-2, -1), (-1, 1), (1, 2)):
            if n + a >= 0 and n + b <= 8 and counts[kind + a] and counts[kind + b]:
                options.append((kind + a, kind + b))
    if not options:
        return False
    now = shanten_mcr(counts)
    for x, y in options:
        counts[x] -= 1
        counts[y] -= 1
        best = min(reading.after(counts))
        counts[x] += 1
        counts[y] += 1
        if best < now:
            return True
    return False


def draw_history_hidden(view: WorldView, seed: int, walks: Mapping[int, HistoryWalk],
                        turns: Mapping[int, int], reading: ShantenReading,
                        candidates: int, sizes_out: list[float] | None = None) -> HiddenDraw:
    """Hidden tiles of world ``seed`` whose opponents' hands are picked seat by seat by their
    discard histories (module docstring).  ``sizes_out`` collects each pick's effective number
    of candidates."""
    base = draw_hidden(view, seed)  # the concealed kongs, drawn as every mode draws them
    rng = random.Random(seed ^ 0x4157)
    left = [t for t in base.wall if not T.is_flower(t)]
    for h in base.hands.values():
        left.extend(h)
    left.sort()
    rng.shuffle(left)
    order = list(zip(view.others, view.sizes))
    rng.shuffle(order)
    hands: dict[int, list[int]] = {}
    for s, size in order:
        options: list[tuple[list[int], list[int]]] = []
        for _ in range(candidates):
            picked = rng.sample(range(len(left)), size)
            chosen = set(picked)
            hand = [left[i] for i in picked]
            rest = [t for i, t in enumerate(left) if i not in chosen]
            speed_turns(hand, rest, range(len(rest)), turns.get(s, 0), reading, rng)
            options.append((hand, rest))
        walk = walks.get(s)
        if walk is None or not walk.steps or candidates == 1:
            hand, left = options[0]
        else:
            weights = normalised([walk.log_weight(reading, h, rng) for h, _r in options])
            if sizes_out is not None:
                sizes_out.append(effective_size(weights))
            hand, left = options[rng.choices(range(candidates), weights)[0]]
        hands[s] = hand
    wall = left + list(view.flowers)
    rng.shuffle(wall)
    return HiddenDraw({s: hands[s] for s in view.others}, base.kong_tiles, wall)

