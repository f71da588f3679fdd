"""The immediate deal-in of a candidate discard, in closed form (``DEAL_IN=model``).

Why: the shipped worlds deal an opponent outside riichi a uniform hand, almost never ready, so
the playouts see no danger in a discard to a quiet-looking dama or open hand.  Dealing ready
hands into the worlds as often as 001's readiness model expects (``OPPONENTS=read``) read the
table well and still did not move the search's choices toward those of the search that sees
the hands: the danger of one tile sits in the few of 64 worlds that happen to hold its wait,
too few for the paired rule (docs/search.md, "How far can reading take the search?").

This module values that danger without sampling it.  For a discard of kind ``k`` by the
deciding seat, each opponent ``o`` outside riichi wins on it with probability
``q_o = P(o ready) × P(k is a wait of o | ready)`` (001's two fitted models,
:meth:`~tenpai.search.readiness.Readiness.dangers`); the discard deals in with
``q = 1 − Π (1 − q_o)``, and a deal-in is worth ``U``, the leaf value of the hand ending on
that ron — the payment drawn from the fitted histogram of what a discarder pays an opponent of
that kind (dealer or not, open or dama) plus the honba and the sticks, valued by the search's
own leaf value (placement by default), averaged over the opponents by ``q_o``.  In every world
the candidate's played-out value ``v`` (the hand going on as if nobody won on the discard)
becomes ``(1 − q) · v + q · U``.

The change is the same in every world, so it moves the paired difference between two
candidates by a fixed amount and adds no noise: a clearly safer discard now wins by a margin
the paired rule can see.  Riichi opponents are left to the worlds, which already deal them
ready hands.  Only decisions whose candidates are all discards are changed: a riichi
declaration, a call, a pass or a kan discards later or not at all, and charging only the
discards would tilt the choice toward those.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.search.hand_end import settle_hand
from tenpai.search.playout import LeafValue
from tenpai.search.prior import Candidate
from tenpai.search.readiness import Readiness, default_readiness

__all__ = ["DEAL_IN_MODES", "Danger", "DealInModel", "adjusted"]

#: How a candidate's immediate deal-in is valued: by the worlds alone, or in closed form.
DEAL_IN_MODES = ("worlds", "model")


@dataclass(frozen=True, slots=True)
class Danger:
    """One candidate discard's immediate deal-in: its probability and the leaf value of it."""

    odds: float
    value: float


class DealInModel:
    """Closed-form immediate deal-in of candidate discards (see the module docstring)."""

    def __init__(self, readiness: Readiness | None = None) -> None:
        self.readiness = readiness or default_readiness()

    def dangers(self, table: RiichiRound, seat: int, cands: Sequence[Candidate],
                value: LeafValue, events: Sequence[Event]) -> list[Danger] | None:
        """Each candidate's :class:`Danger` at ``seat``'s decision, read from ``events`` (the
        seat's own view) and the public facts of ``table``; None unless every candidate is a
        discard (the module docstring says why)."""
        actions = [c.action for c in cands]
        if not actions or any(a.type != "dahai" or a.pai is None for a in actions):
            return None
        kinds = [T.kind_of(a.pai) for a in actions if a.pai is not None]
        quiet = [s for s in range(table.players) if s != seat and not table.riichi[s]]
        if not quiet:
            return [Danger(0.0, 0.0) for _ in cands]
        odds = self.readiness.dangers(events, table.hands[seat], quiet, kinds)
        worth = {s: self.ron_value(table, seat, s, value) for s in quiet}
        out = []
        for k in kinds:
            each = {s: odds[s][0] * odds[s][1][k] for s in quiet}
            safe = 1.0
            for q in each.values():
                safe *= 1.0 - q
            total = sum(each.values())
            u = sum(q * worth[s] for s, q in each.items()) / total if total > 0 else 0.0
            out.append(Danger(1.0 - safe, u))
        return out

    def ron_value(self, table: RiichiRound, seat: int, winner: int, value: LeafValue) -> float:
        """The leaf value for ``seat`` of dealing into ``winner`` now: the fitted histogram
        of what a discarder pays a winner of its kind, each payment settled as the hand's end
        (honba to the winner, the sticks on the table too; the dealer keeps the deal)."""
        models = self.readiness.models
        open_hand = any(m.is_open for m in table.melds[winner])
        bins = models.ron_points.get(
            models.ron_category(winner == table.oya, False, open_hand), [(8000, 1.0)])
        start = tuple(table.scores)
        deposit = table.rules.riichi_deposit * table.kyotaku
        total = 0.0
        for points, p in bins:
            pay = points + 300 * table.honba
            scores = list(start)
            scores[seat] -= pay
            scores[winner] += pay + deposit
            end = settle_hand(table.rules, tuple(scores), 0, table.bakaze, table.kyoku,
                              table.honba, "hora", winner == table.oya, start)
            total += p * value.value(end, seat)
        return total


def adjusted(values: Sequence[Sequence[float]], dangers: Sequence[Danger]
             ) -> list[list[float]]:
    """``values[w][i]`` with candidate i's immediate deal-in folded in, world by world:
    ``(1 − q_i) · v + q_i · U_i``."""
    return [[(1.0 - d.odds) * v + d.odds * d.value for v, d in zip(row, dangers)]
            for row in values]
