"""Retrograde analysis: equal to a brute-force expectimax on a tiny wall, and a win
probability computed by hand."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import pytest

from tenpai import tiles as T
from tenpai.mdp.settings import SearchTooLargeError
from tenpai.mdp.solver import Payoffs, build_edges, solve
from tenpai.mdp.space import build_space, shanten_of


def _counts(text: str) -> bytes:
    return bytes(T.parse_counts(text))


def _payoffs(n: int, nt: int, u: np.ndarray, a: np.ndarray, b: np.ndarray,
             tsumo: Callable[[int, int, bool], float], ron_c: np.ndarray, ron_v: np.ndarray,
             washout: np.ndarray) -> Payoffs:
    return Payoffs(u, a, b, tsumo, ron_c, ron_v, np.zeros(nt), np.zeros(nt), washout,
                   np.zeros(nt), 0.0, False)


def test_one_exchange_from_win_by_hand() -> None:
    # Ready on a single wait (5p, tanki).  With 3 of 40 unseen copies being 5p and two draws
    # left, the chance to win by self-draw is 1 - (37/40)^2 (no exchange keeps it ready better
    # inside a bound-0 space, so every miss is thrown back).
    hand = _counts("123m456m789m123p5p")
    assert shanten_of(hand) == 0
    unseen = [1] * 34
    unseen[T.parse_counts("5p").index(1)] = 3
    for k in range(34):
        if hand[k]:
            unseen[k] = 0 if k != 13 else unseen[k]
    total = sum(unseen)
    u = np.array(unseen, dtype=float) / total
    space = build_space([hand], 0, unseen, 100)
    assert len(space.hands) == 1
    edges = build_edges(space, unseen)
    pay = _payoffs(1, len(edges.tenpai), u, np.zeros(34), np.ones(34),
                   lambda i, c, r: 1.0, np.zeros(1), np.zeros(1), np.zeros(1))
    sol = solve(space, edges, pay, 2)
    w = 3 / total
    assert sol.c[1, 0] == pytest.approx(w)
    assert sol.c[2, 0] == pytest.approx(1 - (1 - w) ** 2)


def test_retrograde_equals_brute_force_on_a_tiny_wall() -> None:
    # Four-tile hands (three sets called): 1m2m5p9s needs a set and a pair.  Only five kinds
    # can be drawn, so the expectimax below enumerates everything.
    root = _counts("12m5p9s")
    kinds = [T.parse_counts(t).index(1) for t in ("3m", "5p", "9s", "1m", "7z")]
    unseen = [0] * 34
    for k, n in zip(kinds, (3, 2, 2, 1, 3)):
        unseen[k] = n
    u = np.array(unseen, dtype=float) / sum(unseen)
    rng = np.random.default_rng(5)
    a = rng.uniform(-0.4, 0.0, 34)
    b = rng.uniform(0.6, 1.0, 34)
    space = build_space([root], 2, unseen, 1000)
    n = len(space.hands)
    assert n > 3
    edges = build_edges(space, unseen)
    ron_c = rng.uniform(0, 0.2, n) * (np.array(space.shanten) == 0)
    ron_v = rng.uniform(1, 2, n)
    washout = rng.uniform(-1, 0, n)
    win_value = {c: float(rng.uniform(1, 3)) for c in range(34)}

    def tsumo(i: int, c: int, riichi: bool) -> float:
        return win_value[c] + 0.1 * i

    pay = _payoffs(n, len(edges.tenpai), u, a, b, tsumo, ron_c, ron_v, washout)
    horizon = 4
    sol = solve(space, edges, pay, horizon)

    @cache
    def c_value(h: bytes, r: int) -> float:
        i = space.index[h]
        if r == 0:
            return float(washout[i])
        return float(ron_c[i] * ron_v[i] + (1 - ron_c[i]) * d_value(h, r))

    def d_value(h: bytes, r: int) -> float:
        total = 0.0
        for c in range(34):
            if u[c] == 0 or h[c] >= 4:
                continue
            h14 = bytearray(h)
            h14[c] += 1
            options = []
            if shanten_of(bytes(h14)) == -1 or _complete(bytes(h14)):
                options.append(tsumo(space.index[h], c, False))
            for j in range(34):
                if not h14[j]:
                    continue
                h14[j] -= 1
                nxt = bytes(h14)
                h14[j] += 1
                if nxt in space.index:
                    options.append(a[j] + b[j] * c_value(nxt, r - 1))
            total += u[c] * max(options)
        return total

    for h in space.hands:
        for r in range(horizon + 1):
            assert sol.c[r, space.index[h]] == pytest.approx(c_value(h, r), abs=1e-12)


def _complete(b: bytes) -> bool:
    from tenpai.hand import is_complete

    return is_complete(list(b))


def test_space_bound_is_enforced() -> None:
    hand = _counts("13579m2468p1357s")
    with pytest.raises(SearchTooLargeError, match="max_states=50"):
        build_space([hand], 4, [4] * 34, 50)
