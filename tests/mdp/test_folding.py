"""Folding Solitary Mahjong: the closed form (eqs. 11-13) against brute-force dynamic
programming over every discard order, and the eq. 12 order on a hand where it is known."""

from __future__ import annotations

from functools import cache
from itertools import product

import pytest

from tenpai.mdp.folding import folding_index, folding_order, solve_folding


def brute_force(counts: tuple[int, ...], p: tuple[float, ...], q: float, v_lose: tuple[float, ...],
                v_other: float) -> float:
    """Optimal value by recursion over (tiles left, kinds already broken) — no index rule."""

    @cache
    def value(left: tuple[int, ...], broken: frozenset[int]) -> float:
        if sum(left) == 0:
            return v_other
        best = float("-inf")
        for k, c in enumerate(left):
            if not c:
                continue
            risk = 0.0 if k in broken else p[k]
            nxt = list(left)
            nxt[k] -= 1
            go_on = value(tuple(nxt), broken | {k})
            v = risk * v_lose[k] + (1 - risk) * (q * v_other + (1 - q) * go_on)
            best = max(best, v)
        return best

    return value(counts, frozenset())


CASES = [
    ((2, 1, 1), (0.1, 0.3, 0.05), 0.1),
    ((1, 3, 2), (0.2, 0.25, 0.01), 0.0),
    ((2, 2, 1, 1), (0.05, 0.4, 0.15, 0.0), 0.2),
    ((3, 1, 1, 2), (0.3, 0.1, 0.12, 0.2), 0.05),
]


@pytest.mark.parametrize(("counts", "p", "q"), CASES)
def test_closed_form_equals_brute_force(counts: tuple[int, ...], p: tuple[float, ...],
                                        q: float) -> None:
    v_lose = tuple(-3.5 + 0.1 * k for k in range(len(counts)))
    closed = solve_folding(counts, p, q, v_lose, -2.4)
    assert closed.value == pytest.approx(brute_force(counts, p, q, v_lose, -2.4), abs=1e-12)


def test_closed_form_equals_brute_force_on_a_grid() -> None:
    for c0, c1, c2 in product((1, 2, 3), repeat=3):
        counts = (c0, c1, c2)
        p = (0.08 * c0, 0.3 / c1, 0.15)
        closed = solve_folding(counts, p, 0.07, (-4.0,) * 3, -2.5)
        assert closed.value == pytest.approx(brute_force(counts, p, 0.07, (-4.0,) * 3, -2.5),
                                             abs=1e-12)


def test_order_of_eq12_on_a_known_hand() -> None:
    # A safe kind first, then the pair whose single risk buys two safe discards, then the
    # riskier singles.  With q = 0.2: index(pair, p=.10, c=2) = .10/(1-.9*.64) = .2336;
    # index(single, .06) = .06/(1-.94*.8) = .2419; index(single, .20) = .20/(1-.8*.8) = .5556.
    counts = [0] * 34
    counts[0], counts[5], counts[9], counts[27] = 2, 1, 1, 1
    p = [0.0] * 34
    p[0], p[5], p[9], p[27] = 0.10, 0.06, 0.20, 0.0
    assert folding_index(0.10, 2, 0.2) == pytest.approx(0.10 / (1 - 0.9 * 0.64))
    assert folding_order(counts, p, 0.2) == [27, 0, 5, 9]
    # The pair goes before the single of lower risk only because of its second, safe copy.
    assert folding_order(counts, p, 0.0) == [27, 5, 0, 9]


def test_lose_probability_eq14() -> None:
    r = solve_folding((1, 1), (0.2, 0.5), 0.1, (-4.0, -4.0), -2.0)
    # Order 0 then 1: 0.2 + 0.8 * 0.9 * 0.5.
    assert r.order == (0, 1)
    assert r.p_lose == pytest.approx(0.2 + 0.8 * 0.9 * 0.5)
    assert r.value == pytest.approx(r.p_lose * -4.0 + (1 - r.p_lose) * -2.0)
