"""The static environment of the one-player MDPs at one decision (001 §V, §VI-C).

Everything the other three players do is folded into numbers fixed for the whole search:
the probability that a discarded kind deals in (eq. 20: P(opponent tenpai) × P(kind is a wait
| tenpai)) and what that costs, the per-turn chance that another player wins, the washout
payments, and the payoff of any final score vector through the final-rank model (eq. 1).
Payoffs are expected rank payoffs (``Settings.rank_payoffs``; by default minus the rank, so
the greedy player maximises -E[rank]).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product

import numpy as np

from tenpai import tiles as T
from tenpai.mdp.settings import Settings
from tenpai.reading.features import deal_in_features, rank_features, tenpai_bucket, tenpai_features
from tenpai.reading.models import OpponentModels
from tenpai.reading.table import TableState

__all__ = ["Environment"]


@dataclass(slots=True)
class Environment:
    """Per-decision parameters of the MDPs, computed once and shared by every action."""

    seat: int
    state: TableState
    models: OpponentModels
    settings: Settings
    #: Own concealed 34-count vector at the decision.
    counts: list[int]
    #: Copies of each kind still unseen by the deciding player (the draw distribution).
    unseen: list[int]
    p_tenpai: list[float] = field(default_factory=list)
    #: lose[k]: probability that discarding kind k deals in; lose_value[k] its payoff.
    lose: list[float] = field(default_factory=list)
    lose_value: list[float] = field(default_factory=list)
    other_win: float = 0.0
    other_value: float = 0.0
    washout_tenpai: float = 0.0
    washout_noten: float = 0.0
    horizon: int = 0
    ratio: float = 1.0
    _rank_cache: dict[tuple[tuple[int, ...], int, bool], float] = field(default_factory=dict)

    @classmethod
    def build(cls, seat: int, state: TableState, counts: list[int], models: OpponentModels,
              settings: Settings) -> Environment:
        visible = state.visible()
        unseen = [max(0, 4 - v - c) for v, c in zip(visible, counts)]
        env = cls(seat, state, models, settings, list(counts), unseen)
        env._opponents()
        return env

    # ------------------------------------------------------------------ payoffs
    def hands_left(self, dealer_keeps: bool) -> int:
        end = 3 if self.settings.game_length == "tonpuu" else 7
        left = end - self.state.round_index()
        return left if dealer_keeps else left - 1

    def payoff(self, deltas: Sequence[int], dealer_keeps: bool) -> float:
        """Expected rank payoff after the hand ends with these score changes (eq. 1)."""
        scores = tuple(s + d for s, d in zip(self.state.scores, deltas))
        left = self.hands_left(dealer_keeps)
        key = (scores, left, dealer_keeps)
        hit = self._rank_cache.get(key)
        if hit is not None:
            return hit
        pay = self.settings.rank_payoffs
        if left < 0 or min(scores) < 0:
            order = sorted(range(4), key=lambda s: (-scores[s], s))
            value = float(pay[order.index(self.seat)])
        else:
            next_oya = self.state.oya if dealer_keeps else (self.state.oya + 1) % 4
            x = rank_features(scores, self.seat, left, self.seat == next_oya, 0)
            probs = self.models.rank.predict(np.asarray(x))[0]
            value = float(sum(p * v for p, v in zip(probs, pay)))
        self._rank_cache[key] = value
        return value

    def win_payoff(self, points: int, tsumo: bool, riichi: bool) -> float:
        """Payoff of winning ``points`` (honba and deposits added here); a ron is averaged over
        the three possible discarders."""
        me, oya = self.seat, self.state.oya
        honba = 300 * self.state.honba
        deposit = 1000 * (self.state.kyotaku + (1 if riichi else 0))
        base_riichi = [-1000 if (riichi and s == me) else 0 for s in range(4)]
        dealer = me == oya
        if tsumo:
            d = list(base_riichi)
            for s in range(4):
                if s == me:
                    continue
                share = points // 3 if dealer else (points // 2 if s == oya else points // 4)
                share = -(-share // 100) * 100
                d[s] -= share + honba // 3
                d[me] += share + honba // 3
            d[me] += deposit
            return self.payoff(d, dealer)
        total = 0.0
        for payer in range(4):
            if payer == me:
                continue
            d = list(base_riichi)
            d[payer] -= points + honba
            d[me] += points + honba + deposit
            total += self.payoff(d, dealer)
        return total / 3.0

    # ------------------------------------------------------------------ opponents
    def _opponents(self) -> None:
        st, m, me = self.state, self.models, self.seat
        self.p_tenpai = [0.0] * 4
        for s in range(4):
            if s == me:
                continue
            if st.in_riichi(s):
                self.p_tenpai[s] = 1.0
            else:
                self.p_tenpai[s] = m.p_tenpai(tenpai_bucket(st, s), tenpai_features(st, s))
        seen = [4 - u for u in self.unseen]
        lose_by: list[list[float]] = []
        value_by: list[float] = []
        for s in range(4):
            if s == me:
                continue
            probs = [self.p_tenpai[s] * m.p_wait(deal_in_features(st, s, k, seen))
                     for k in range(34)]
            lose_by.append(probs)
            value_by.append(self._lose_value(s))
        self.lose = [min(0.95, sum(p[k] for p in lose_by)) for k in range(34)]
        self.lose_value = [
            (sum(p[k] * v for p, v in zip(lose_by, value_by)) / sum(p[k] for p in lose_by))
            if sum(p[k] for p in lose_by) > 0 else float(np.mean(value_by))
            for k in range(34)
        ]
        others = [s for s in range(4) if s != me]
        riichi_others = sum(st.in_riichi(s) for s in others)
        hz = [float(riichi_others),
              sum(self.p_tenpai[s] for s in others if not st.in_riichi(s)),
              st.wall / 70.0]
        self.other_win = m.p_other_win(hz) * self.settings.other_win_scale
        self.ratio = m.horizon_ratio(hz)
        self.horizon = max(0, st.wall // 4)
        self.other_value = self._other_value()
        self.washout_tenpai, self.washout_noten = self._washout()

    def _ron_bins(self, s: int) -> list[tuple[int, float]]:
        st = self.state
        cat = self.models.ron_category(s == st.oya, st.in_riichi(s), st.calls[s] > 0)
        return self.models.ron_points.get(cat, [(8000, 1.0)])

    def _lose_value(self, s: int) -> float:
        """Expected payoff of dealing into seat ``s`` (ron payment histogram of its category)."""
        me, st = self.seat, self.state
        total = 0.0
        for pts, q in self._ron_bins(s):
            d = [0, 0, 0, 0]
            pay = pts + 300 * st.honba
            d[me] -= pay
            d[s] += pay + 1000 * st.kyotaku
            total += q * self.payoff(d, s == st.oya)
        return total

    def _other_value(self) -> float:
        """Expected payoff when another player wins without the deciding player dealing in:
        self-drawn with the fitted share, else a ron off a third player."""
        me, st = self.seat, self.state
        others = [s for s in range(4) if s != me]
        weights = [self.p_tenpai[s] + 1e-3 for s in others]
        tsumo = self.models.tsumo_share
        total = 0.0
        for s, w in zip(others, weights):
            v = 0.0
            for pts, q in self._ron_bins(s):
                d = [0, 0, 0, 0]
                for t in range(4):
                    if t != s:
                        share = pts // 3 if s == st.oya else (pts // 2 if t == st.oya else pts // 4)
                        d[t] -= share
                        d[s] += share
                d[s] += 1000 * st.kyotaku
                v_tsumo = self.payoff(d, s == st.oya)
                v_ron = 0.0
                payers = [t for t in others if t != s]
                for t in payers:
                    d2 = [0, 0, 0, 0]
                    d2[t] -= pts
                    d2[s] += pts + 1000 * st.kyotaku
                    v_ron += self.payoff(d2, s == st.oya) / len(payers)
                v += q * (tsumo * v_tsumo + (1 - tsumo) * v_ron)
            total += w * v
        return total / sum(weights)

    def _washout(self) -> tuple[float, float]:
        """Payoffs of the exhaustive draw with the deciding player tenpai / noten: noten
        payments over the 8 readiness patterns of the others, weighted by P(tenpai)."""
        me, st = self.seat, self.state
        others = [s for s in range(4) if s != me]
        out = []
        for mine in (True, False):
            total = 0.0
            for pattern in product((True, False), repeat=3):
                w = 1.0
                ready = {me: mine}
                for s, r in zip(others, pattern):
                    p = self.p_tenpai[s]
                    w *= p if r else 1 - p
                    ready[s] = r
                if w <= 0:
                    continue
                n = sum(ready.values())
                d = [0, 0, 0, 0]
                if 0 < n < 4:
                    for s in range(4):
                        d[s] = 3000 // n if ready[s] else -3000 // (4 - n)
                total += w * self.payoff(d, ready[st.oya])
            out.append(total)
        return out[0], out[1]

    def draw_probs(self) -> list[float]:
        total = sum(self.unseen)
        return [u / total if total else 0.0 for u in self.unseen]

    def dora_count(self, kinds: Sequence[int]) -> int:
        dora = self.state.dora_kinds()
        return sum(kinds.count(d) for d in dora) if isinstance(kinds, list) else 0

    def kind_name(self, k: int) -> str:
        return T.to_mjai(k)
