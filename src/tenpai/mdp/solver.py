"""Retrograde analysis of the solitary-mahjong MDPs over a hand space (001 §VI-A, §VI-D).

States are (hand of 3k+1 tiles, draws left r).  Values are computed from r = 0 (the hand ends
in a washout) upwards, each layer from the one below, so every state is solved exactly once:

    C_r(h)  value before the opponents' discards with r own draws left:
            C_r(h) = rho(h) * Ron(h) + (1 - rho(h)) * D_r(h)            (ron branch, eq. 8)
    D_r(h)  value of drawing:  sum_c u_c * max( Tsumo(h + c),                       (eq. 6)
                                               max_j Q_{r-1}(h + c - j, j),        (eq. 7)
                                               max_j QR_{r-1}(h + c - j, j) )     (riichi)
    Q_r(h', j) = a_j + b_j * C_r(h')         discard j: deal in, another wins, or go on
        a_j = L_j * VL_j + (1 - L_j) * O * VO,   b_j = (1 - L_j) * (1 - O)
    C_0(h) = washout payoff (tenpai or noten)

and a riichi hand follows its own chain R_r (tsumogiri, wins only).  The same code solves
Inclusive Policy Solitary Mahjong (every term on), Winning Solitary Mahjong (payoff 1 for a
win, L = O = 0, nothing else) and Tenpai Solitary Mahjong (payoff 1 for a tenpai washout, no
win action).  Discards leading outside the space are ignored, as in 001.

The edge structure depends only on the space and the drawable kinds, so it is built once per
space and memoised; the per-decision numbers enter as vectors, and each layer is a handful of
numpy operations over all edges.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from tenpai.mdp.space import HandSpace, shanten_of

__all__ = ["Edges", "Payoffs", "Solution", "build_edges", "solve"]


@dataclass(frozen=True, slots=True)
class Edges:
    """Explicit (hand, draw) groups: those with a win or a discard into another hand."""

    group_hand: np.ndarray  # int, per group
    group_draw: np.ndarray  # int, per group
    edge_group: np.ndarray  # int, per edge (sorted by group)
    edge_dest: np.ndarray
    edge_kind: np.ndarray
    group_start: np.ndarray  # first edge of each group
    win_groups: np.ndarray  # indices of groups whose draw completes the hand
    tenpai: np.ndarray  # indices of tenpai hands
    tenpai_waits: np.ndarray  # tenpai hands × 34 bool


_EDGE_CACHE: OrderedDict[tuple[object, ...], Edges] = OrderedDict()


def build_edges(space: HandSpace, drawable: Sequence[int]) -> Edges:
    """Every (hand, draw) with a win or an exchange inside the space (see module docstring)."""
    key = (space.hands, space.bound, tuple(k for k in range(34) if drawable[k] > 0))
    hit = _EDGE_CACHE.get(key)
    if hit is not None:
        _EDGE_CACHE.move_to_end(key)
        return hit
    hands = space.hands
    # 3k tiles "parents" -> [(kind added, hand)]
    parents: dict[bytes, list[tuple[int, int]]] = {}
    for d, h in enumerate(hands):
        work = bytearray(h)
        for c in range(34):
            if work[c]:
                work[c] -= 1
                parents.setdefault(bytes(work), []).append((c, d))
                work[c] += 1
    groups: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for i, h in enumerate(hands):
        work = bytearray(h)
        for j in range(34):
            if not work[j]:
                continue
            work[j] -= 1
            for c, d in parents.get(bytes(work), ()):
                if c != j and drawable[c] > 0:
                    groups.setdefault((i, c), []).append((d, j))
            work[j] += 1
    tenpai = [i for i, s in enumerate(space.shanten) if s == 0]
    waits = np.zeros((len(tenpai), 34), dtype=bool)
    for t, i in enumerate(tenpai):
        work = bytearray(hands[i])
        for c in range(34):
            if work[c] < 4:
                work[c] += 1
                if shanten_of(bytes(work)) == -1:
                    waits[t, c] = True
                    if drawable[c] > 0:
                        groups.setdefault((i, c), [])
                work[c] -= 1
    keys = sorted(groups)
    gh = np.array([k[0] for k in keys], dtype=np.int64)
    gd = np.array([k[1] for k in keys], dtype=np.int64)
    eg: list[int] = []
    ed: list[int] = []
    ek: list[int] = []
    start: list[int] = []
    for g, k in enumerate(keys):
        start.append(len(eg))
        i, c = k
        eg.append(g)  # tsumogiri: the drawn tile goes back out, the hand is unchanged
        ed.append(i)
        ek.append(c)
        for d, j in groups[k]:
            eg.append(g)
            ed.append(d)
            ek.append(j)
    tw = {i: t for t, i in enumerate(tenpai)}
    win_groups = np.array([g for g, (i, c) in enumerate(keys) if i in tw and waits[tw[i], c]],
                          dtype=np.int64)
    out = Edges(gh, gd, np.array(eg, dtype=np.int64), np.array(ed, dtype=np.int64),
                np.array(ek, dtype=np.int64), np.array(start, dtype=np.int64), win_groups,
                np.array(tenpai, dtype=np.int64), waits)
    _EDGE_CACHE[key] = out
    if len(_EDGE_CACHE) > 64:
        _EDGE_CACHE.popitem(last=False)
    return out


@dataclass(frozen=True, slots=True)
class Payoffs:
    """The per-decision numbers of one MDP (see the module docstring for the symbols)."""

    draw: np.ndarray  # u_c, 34, sums to 1
    a: np.ndarray  # 34
    b: np.ndarray  # 34
    #: Payoff of a self-drawn win per explicit win group (dama, riichi); NaN = not allowed.
    tsumo: Callable[[int, int, bool], float] | None
    #: Ron: (chance, payoff) per hand of the space for dama and riichi play.
    ron_chance: np.ndarray
    ron_value: np.ndarray
    ron_chance_riichi: np.ndarray
    ron_value_riichi: np.ndarray
    washout: np.ndarray  # per hand, C_0
    washout_riichi: np.ndarray  # per tenpai hand
    riichi_shift: float  # payoff of the deposit, added to non-win riichi endings
    riichi: bool
    #: a, b of the riichi chain's discards (None: the same as ``a``, ``b``).  001 §VI-E: the
    #: others tend to fold after a riichi, which lowers the lose and other-win chances there.
    riichi_a: np.ndarray | None = None
    riichi_b: np.ndarray | None = None


@dataclass(frozen=True, slots=True)
class Solution:
    """C_r (and the riichi chain R_r) for r = 0..horizon."""

    c: np.ndarray  # (horizon + 1) × hands
    r: np.ndarray  # (horizon + 1) × tenpai hands; NaN where riichi is not allowed

    def after_discard(self, space: HandSpace, edges: Edges, hand: bytes, kind: int, a: np.ndarray,
                      b: np.ndarray, draws_left: int, riichi: bool = False) -> float:
        """Q of discarding ``kind`` into ``hand`` with ``draws_left`` own draws to come."""
        i = space.index[hand]
        r = min(draws_left, len(self.c) - 1)
        if riichi:
            t = np.searchsorted(edges.tenpai, i)
            if t >= len(edges.tenpai) or edges.tenpai[t] != i or np.isnan(self.r[r, t]):
                return float("nan")
            return float(a[kind] + b[kind] * self.r[r, t])
        return float(a[kind] + b[kind] * self.c[r, i])


def solve(space: HandSpace, edges: Edges, pay: Payoffs, horizon: int) -> Solution:
    """Retrograde analysis from r = 0 to ``horizon``."""
    n = len(space.hands)
    u, a, b = pay.draw, pay.a, pay.b
    g_prob = u[edges.group_draw]
    # Draws handled implicitly (no explicit group): tsumogiri, a_c + b_c * C(h).
    pa = np.full(n, float(u @ a))
    pb = np.full(n, float(u @ b))
    np.subtract.at(pa, edges.group_hand, g_prob * a[edges.group_draw])
    np.subtract.at(pb, edges.group_hand, g_prob * b[edges.group_draw])
    ea, eb = a[edges.edge_kind], b[edges.edge_kind]
    # Win values per group (NaN: no win), dama and riichi.
    win_dama = np.full(len(edges.group_hand), -np.inf)
    tenpai = edges.tenpai
    t_of = {int(i): t for t, i in enumerate(tenpai)}
    if pay.tsumo is not None:
        for g in edges.win_groups:
            v = pay.tsumo(int(edges.group_hand[g]), int(edges.group_draw[g]), False)
            if not np.isnan(v):
                win_dama[g] = v
    # Riichi chain data per tenpai hand.
    nt = len(tenpai)
    r_allowed = np.zeros(nt, dtype=bool)
    r_win = np.zeros(nt)
    r_miss_a = np.zeros(nt)
    r_miss_b = np.zeros(nt)
    ra = a if pay.riichi_a is None else pay.riichi_a
    rb = b if pay.riichi_b is None else pay.riichi_b
    if pay.riichi and pay.tsumo is not None and nt:
        for t, i in enumerate(tenpai):
            w = edges.tenpai_waits[t]
            vals = []
            for c in np.nonzero(w)[0]:
                if u[c] > 0:
                    vals.append((u[c], pay.tsumo(int(i), int(c), True)))
            if any(np.isnan(v) for _, v in vals):
                continue
            r_allowed[t] = True
            r_win[t] = sum(p * v for p, v in vals)
            miss = ~w
            r_miss_a[t] = float(u[miss] @ (ra[miss] + pay.riichi_shift * (1 - rb[miss])))
            r_miss_b[t] = float(u[miss] @ rb[miss])
    # Riichi edges: discards into a tenpai hand where riichi is allowed.
    dest_t = np.full(n, -1, dtype=np.int64)
    for t, i in enumerate(tenpai):
        if r_allowed[t]:
            dest_t[i] = t
    re_mask = dest_t[edges.edge_dest] >= 0
    c_layers = np.empty((horizon + 1, n))
    r_layers = np.full((horizon + 1, nt), np.nan)
    c_layers[0] = pay.washout
    r_layers[0, r_allowed] = pay.washout_riichi[r_allowed] + pay.riichi_shift
    for r in range(1, horizon + 1):
        c_prev = c_layers[r - 1]
        ev = ea + eb * c_prev[edges.edge_dest]
        if re_mask.any():
            rv = ea[re_mask] + eb[re_mask] * r_layers[r - 1][dest_t[edges.edge_dest[re_mask]]]
            ev = ev.copy()
            ev[re_mask] = np.maximum(ev[re_mask], rv)
        best = np.maximum.reduceat(ev, edges.group_start) if len(ev) else np.zeros(0)
        best = np.maximum(best, win_dama)
        d = pa + pb * c_prev
        np.add.at(d, edges.group_hand, g_prob * best)
        c_layers[r] = pay.ron_chance * pay.ron_value + (1 - pay.ron_chance) * d
        if nt:
            rp = r_layers[r - 1]
            dr = r_win + r_miss_a + r_miss_b * rp
            r_layers[r] = pay.ron_chance_riichi * pay.ron_value_riichi + (
                1 - pay.ron_chance_riichi) * dr
            r_layers[r, ~r_allowed] = np.nan
    _ = t_of
    return Solution(c_layers, r_layers)
