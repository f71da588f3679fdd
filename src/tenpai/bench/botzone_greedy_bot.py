#!/usr/bin/env python3
"""A shanten-greedy Botzone bot for Chinese-Standard-Mahjong, in plain Python (no tenpai).

The kind of bot a contest newcomer writes first: it discards the tile that leaves the fewest
tiles to a ready hand (ties: the most useful draws still unseen), pongs or chows only when that
brings it closer, never kongs, and declares a win whenever its hand is complete — it has no fan
counter, so a complete hand under 8 fans is a false win, which a judge refuses.

It speaks Botzone's simple interaction: per turn (``n``, then ``2n-1`` lines, answer the last)
or, with ``--keep-running``, a first full input and then one request per line.  Its state comes
from the requests alone (the judge echoes every move, its own included).

It runs on Botzone's Python 3.6, so its hints use ``typing``'s names and no
``from __future__ import annotations`` (tests/serve_botzone/test_package.py runs it on the
oldest Python found).
"""

import sys
from typing import Dict, List, Optional, Set, Tuple

NAMES = ([f"W{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)]
         + [f"T{i}" for i in range(1, 10)] + [f"F{i}" for i in range(1, 5)]
         + [f"J{i}" for i in range(1, 4)])
INDEX = {n: i for i, n in enumerate(NAMES)}
KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


_CACHE: Dict[Tuple[Tuple[int, ...], int], int] = {}
#: Per-suit answers: the (sets, partial sets, pair) a suit's tiles can be split into.
_SUIT_CACHE: Dict[Tuple[int, ...], List[Tuple[int, int, int]]] = {}


def shanten(c: List[int], melds: int) -> int:
    """Tiles short of a ready hand: four sets and a pair (and seven pairs with no melds)."""
    key = (tuple(c), melds)
    got = _CACHE.get(key)
    if got is None:
        got = _CACHE[key] = _shanten(key[0], melds)
    return got


def _shanten(c: Tuple[int, ...], melds: int) -> int:
    """The best split of the whole hand, built from the best splits of each suit.

    A split never crosses a suit, so the hand's splits are every choice of one split per
    suit (at most one of them holding the pair); each suit's are counted once and cached,
    which is what makes the bot cheap enough for long arena runs.
    """
    combos = [(0, 0, 0)]
    for lo, runs in ((0, True), (9, True), (18, True), (27, False)):
        part = _suit_splits(c[lo:lo + 9] if runs else c[27:34], runs)
        combos = _pareto([(s + s2, p + p2, q + q2) for s, p, q in combos
                          for s2, p2, q2 in part if q + q2 <= 1])
    out = 8
    for sets, parts, pair in combos:
        s = sets + melds
        value = 8 - 2 * s - min(parts, 4 - s) - pair
        if value < out:
            out = value
    if melds == 0:
        pairs = sum(1 for x in c if x >= 2)
        kinds = sum(1 for x in c if x)
        out = min(out, 6 - pairs + max(0, 7 - kinds))
    return out


def _pareto(splits: List[Tuple[int, int, int]]) -> List[Tuple[int, int, int]]:
    """The splits not beaten in both sets and partial sets by another with the same pair.

    More sets or more partial sets never make a hand farther from ready, and a sum of
    splits keeps that order, so a beaten split can never give the best answer."""
    out: List[Tuple[int, int, int]] = []
    for s, p, q in sorted(set(splits), reverse=True):
        if not any(q == q2 and s <= s2 and p <= p2 for s2, p2, q2 in out):
            out.append((s, p, q))
    return out


def _suit_splits(seg: Tuple[int, ...], runs: bool) -> List[Tuple[int, int, int]]:
    """Every (sets, partial sets, pair) one suit's tiles can be split into (honours: no runs
    or two-tile runs), as the whole-hand search would split them."""
    key = seg + ((1,) if runs else ())
    got = _SUIT_CACHE.get(key)
    if got is not None:
        return got
    c = list(seg)
    n = len(c)
    found: Set[Tuple[int, int, int]] = set()

    def rec(i: int, sets: int, parts: int, pair: int) -> None:
        while i < n and c[i] == 0:
            i += 1
        if i == n:
            found.add((sets, parts, pair))
            return
        if c[i] >= 3:
            c[i] -= 3
            rec(i, sets + 1, parts, pair)
            c[i] += 3
        if runs and i <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            rec(i, sets + 1, parts, pair)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if c[i] >= 2:
            c[i] -= 2
            if not pair:
                rec(i, sets, parts, 1)
            rec(i, sets, parts + 1, pair)
            c[i] += 2
        if runs:
            for d in (1, 2):
                if i + d <= 8 and c[i + d]:
                    c[i] -= 1
                    c[i + d] -= 1
                    rec(i, sets, parts + 1, pair)
                    c[i] += 1
                    c[i + d] += 1
        c[i] -= 1
        rec(i + 1, sets, parts, pair)
        c[i] += 1

    rec(0, 0, 0, 0)
    got = _SUIT_CACHE[key] = _pareto(list(found))
    return got


class Bot:
    def __init__(self) -> None:
        self.me = 0
        self.hand = [0] * 34
        self.melds = 0
        self.seen = [0] * 34  # tiles in view outside the hand: discards and melds
        #: (player, tile) of the last discard or added kong
        self.last: Optional[Tuple[int, int]] = None

    def useful(self, c: List[int]) -> int:
        base = shanten(c, self.melds)
        n = 0
        for t in range(34):
            left = 4 - self.seen[t] - c[t]
            if left <= 0:
                continue
            c[t] += 1
            if shanten(c, self.melds) < base:
                n += left
            c[t] -= 1
        return n

    def best_discard(self, c: List[int], melds: int) -> Tuple[int, int, int]:
        """(shanten after, -useful draws, tile) of the best discard from counts ``c``."""
        saved, self.melds = self.melds, melds
        scored = []
        for t in range(34):
            if c[t]:
                c[t] -= 1
                scored.append((shanten(c, melds), t))
                c[t] += 1
        low = min(s for s, _ in scored)
        best: Optional[Tuple[int, int, int]] = None
        for s, t in scored:
            if s == low:
                c[t] -= 1
                key = (s, -self.useful(c), t)
                c[t] += 1
                if best is None or key < best:
                    best = key
        self.melds = saved
        assert best is not None  # a hand always has a tile to discard
        return best

    def wins_with(self, t: int) -> bool:
        self.hand[t] += 1
        done = shanten(self.hand, self.melds) == -1
        self.hand[t] -= 1
        return done

    # -- requests: update the state, and say what to answer
    def step(self, line: str) -> str:
        w = line.split()
        if w[0] == "0":
            self.me = int(w[1])
            return "PASS"
        if w[0] == "1":
            for name in w[5:18]:
                self.hand[INDEX[name]] += 1
            return "PASS"
        if w[0] == "2":
            t = INDEX[w[1]]
            self.hand[t] += 1
            if shanten(self.hand, self.melds) == -1:
                return "HU"
            return "PLAY " + NAMES[self.best_discard(self.hand, self.melds)[2]]
        p, verb = int(w[1]), w[2]
        if verb == "PLAY":
            t = INDEX[w[3]]
            if p == self.me:
                self.hand[t] -= 1
            self.seen[t] += 1
            self.last = (p, t)
            return "PASS" if p == self.me else self.claim(p, t)
        if verb in ("PENG", "CHI"):
            assert self.last is not None  # a call always follows a discard
            d = self.last[1]
            if verb == "PENG":
                used = [d, d]
            else:
                mid = INDEX[w[3]]
                used = [x for x in (mid - 1, mid, mid + 1) if x != d]
            out = INDEX[w[-1]]
            for x in used:
                self.seen[x] += 1
                if p == self.me:
                    self.hand[x] -= 1
            if p == self.me:
                self.melds += 1
                self.hand[out] -= 1
            self.seen[out] += 1
            self.last = (p, out)
            return "PASS" if p == self.me else self.claim(p, out)
        if verb == "GANG":
            if self.last is not None and self.last[0] != p and p != self.me:
                self.seen[self.last[1]] += 3
            self.last = None
            return "PASS"
        if verb == "BUGANG":
            t = INDEX[w[3]]
            self.seen[t] += 1
            if p != self.me and self.wins_with(t):
                return "HU"
            return "PASS"
        return "PASS"  # DRAW, BUHUA

    def claim(self, p: int, t: int) -> str:
        if self.wins_with(t):
            return "HU"
        now = shanten(self.hand, self.melds)
        options: List[Tuple[str, List[int], Optional[int]]] = []
        if self.hand[t] >= 2:
            options.append(("PENG", [t, t], None))
        if t < 27 and p == (self.me + 3) % 4:
            n = t % 9
            for a, b in ((-2, -1), (-1, 1), (1, 2)):
                if n + a >= 0 and n + b <= 8 and self.hand[t + a] and self.hand[t + b]:
                    options.append(("CHI", [t + a, t + b], sorted((t, t + a, t + b))[1]))
        best: Optional[Tuple[Tuple[int, int, int], str, Optional[int]]] = None
        for verb, used, mid in options:
            c = list(self.hand)
            for x in used:
                c[x] -= 1
            after = self.best_discard(c, self.melds + 1)
            if after[0] < now and (best is None or after < best[0]):
                best = (after, verb, mid)
        if best is None:
            return "PASS"
        (_, _, out), verb, mid = best
        if verb == "PENG":
            return "PENG " + NAMES[out]
        assert mid is not None  # a chow names its middle tile
        return "CHI " + NAMES[mid] + " " + NAMES[out]


def main() -> None:
    keep = "--keep-running" in sys.argv[1:]
    bot: Optional[Bot] = None
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        line = line.strip()
        if not line:
            continue
        if line.isdigit():
            n = int(line)
            msgs = [sys.stdin.readline().strip() for _ in range(2 * n - 1)]
            bot = Bot()
            for r in msgs[0:-1:2]:
                bot.step(r)
            answer = bot.step(msgs[-1])
        else:
            answer = bot.step(line) if bot is not None else "PASS"
        sys.stdout.write(answer + "\n")
        if not keep:
            sys.stdout.flush()
            return
        sys.stdout.write(KEEP + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
