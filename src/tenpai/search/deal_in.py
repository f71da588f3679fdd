"""The immediate deal-in of a candidate discard, in closed form (``DEAL_IN``).

Why: a world either holds the wait a discard runs into or does not, so the danger of one tile
is carried by the few of 64 worlds that happen to hold it.  That is noise in the paired
difference the search chooses by, and where the worlds cannot know a danger at all it is
missing: the shipped worlds deal an opponent outside riichi a uniform hand, almost never ready.
At the decisions ``search`` searches, the search that sees the opponents' hands
(``SIGHT=hands``) earns most of its lead where someone has declared riichi, and much of the
rest where an opponent outside riichi is ready (docs/search_runs.md, "The judge").

This module takes the immediate deal-in out of the worlds' luck.  For a discard of kind ``k``
by the deciding seat, each opponent ``o`` wins on it with a probability ``x_o``:

* outside riichi (``quiet``): ``x_o = P(o ready) × P(k is a wait of o | ready)``, 001's two
  fitted models (:meth:`~tenpai.search.readiness.Readiness.dangers`);
* in riichi, either the share of :attr:`DealInModel.census` ready hands, drawn by the
  search's own world sampler for this decision, that wait on ``k`` (``riichi``: the worlds'
  own probability, counted on many more hands than the worlds played), or 001's fitted
  ``P(k is a wait of o | ready)`` (``riichi-model``: the riichi player's discards read for
  suji, genbutsu, the tiles passed since the declaration; the worlds' random ready shapes
  read them hardly better than a constant rate, docs/search_runs.md).

``all`` is ``quiet`` with ``riichi``, ``model`` is ``quiet`` with ``riichi-model``.

The discard deals in with ``q = 1 − Π (1 − x_o)`` and a deal-in is worth ``U``: the leaf value
of the hand ending on that ron, the payment drawn from the fitted histogram of what a
discarder pays a winner of that kind (dealer or not; riichi, open or dama) plus the honba and
the sticks, valued by the search's own leaf value, averaged over the opponents by ``x_o``.
In every world the candidate's value becomes ``(1 − q) · c + q · U``, where ``c`` is its
played-out value when that world's sampled hands do not win on ``k`` at once, and, in a world
whose riichi hand does (the value is then that deal-in), the mean ``c`` of the worlds where
they do not.  The expected value is the same estimate, without the luck of which worlds hold
the wait; and the shift is the same in every world, so a clearly safer discard wins by a margin
the paired rule can see.

Only decisions whose candidates are all discards are changed: a riichi declaration, a call, a
pass or a kan discards later or not at all, and charging only the discards would tilt the
choice toward those.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.hand import waits
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.search.hand_end import settle_hand
from tenpai.search.playout import LeafValue
from tenpai.search.prior import Candidate
from tenpai.search.readiness import Readiness, default_readiness
from tenpai.search.worlds import Prepared, WorldSampler

__all__ = ["DEAL_IN_MODES", "Danger", "DealInModel", "adjusted", "discard_kinds", "world_hits"]

#: How a candidate's immediate deal-in is valued: by the worlds alone (the default), or in
#: closed form for the opponents outside riichi, those in riichi (by the census of the
#: worlds' ready hands or by 001's wait model), or both.
DEAL_IN_MODES = ("worlds", "quiet", "riichi", "all", "riichi-model", "model")


@dataclass(frozen=True, slots=True)
class Danger:
    """One candidate discard's immediate deal-in: its probability and the leaf value of it."""

    odds: float
    value: float


def discard_kinds(cands: Sequence[Candidate]) -> list[int] | None:
    """The kind each candidate discards, or None unless every candidate is a discard."""
    kinds = []
    for c in cands:
        if c.action.type != "dahai" or c.action.pai is None:
            return None
        kinds.append(T.kind_of(c.action.pai))
    return kinds or None


def world_hits(rnd: RiichiRound, seat: int) -> frozenset[int]:
    """The kinds a discard by ``seat`` would deal in on at once to a riichi hand of world
    ``rnd`` (its sampled hands' waits: the sampler deals no riichi hand a furiten wait)."""
    hit: set[int] = set()
    for s in range(rnd.players):
        if s != seat and rnd.riichi[s]:
            hit.update(waits(T.counts34(rnd.hands[s])))
    return frozenset(hit)


class DealInModel:
    """Closed-form immediate deal-in of candidate discards (see the module docstring)."""

    def __init__(self, mode: str = "all", readiness: Readiness | None = None,
                 census: int = 256) -> None:
        if mode not in DEAL_IN_MODES[1:]:
            raise ValueError(f"a deal-in model values {', '.join(DEAL_IN_MODES[1:])}, "
                             f"not {mode!r}")
        self.mode = mode
        self.readiness = readiness or default_readiness()
        #: Ready hands drawn per riichi opponent and decision (``riichi`` and ``all``).
        self.census = census

    @property
    def reads_riichi(self) -> bool:
        """Whether riichi opponents' immediate deal-in is taken out of the worlds."""
        return self.mode != "quiet"

    @property
    def riichi_census_used(self) -> bool:
        """Whether the riichi odds are the census's (else 001's wait model)."""
        return self.mode in ("riichi", "all")

    @property
    def reads_quiet(self) -> bool:
        return self.mode in ("quiet", "all", "model")

    def dangers(self, table: RiichiRound, seat: int, cands: Sequence[Candidate],
                value: LeafValue, events: Sequence[Event],
                riichi_odds: dict[int, dict[int, float]] | None = None) -> list[Danger] | None:
        """Each candidate's :class:`Danger` at ``seat``'s decision, read from ``events`` (the
        seat's own view), the public facts of ``table`` and, for the riichi opponents, their
        wait odds per kind (``riichi_odds``, from :meth:`riichi_census`); None unless every
        candidate is a discard (the module docstring says why)."""
        kinds = discard_kinds(cands)
        if kinds is None:
            return None
        others = [s for s in range(table.players) if s != seat]
        quiet = [s for s in others if not table.riichi[s]] if self.reads_quiet else []
        riichi = ([s for s in others if table.riichi[s]]
                  if self.reads_riichi and not self.riichi_census_used else [])
        each: dict[int, dict[int, float]] = {}
        if quiet or riichi:
            odds = self.readiness.dangers(events, table.hands[seat], quiet + riichi, kinds)
            # a riichi player is ready: only its waits are read
            each.update({s: {k: (1.0 if s in riichi else ready) * w for k, w in by_kind.items()}
                         for s, (ready, by_kind) in odds.items()})
        if self.riichi_census_used and riichi_odds:
            each.update(riichi_odds)
        worth = {s: self.ron_value(table, seat, s, value) for s in each}
        out = []
        for k in kinds:
            safe = 1.0
            total = weighted = 0.0
            for s, by_kind in each.items():
                x = by_kind.get(k, 0.0)
                safe *= 1.0 - x
                total += x
                weighted += x * worth[s]
            out.append(Danger(1.0 - safe, weighted / total if total > 0 else 0.0))
        return out

    def riichi_census(self, sampler: WorldSampler, prep: Prepared, kinds: Sequence[int],
                      seed: int) -> dict[int, dict[int, float]]:
        """For each riichi opponent of the decision ``prep``, the share of :attr:`census`
        hands drawn by ``sampler`` (seeds ``seed``, ``seed + 1``, …) whose waits hold each of
        ``kinds``: the worlds' own odds of an immediate deal-in."""
        table, seat = prep.table, prep.seat
        riichi = [s for s in range(table.players) if s != seat and table.riichi[s]]
        if not riichi or self.census <= 0:
            return {}
        wanted = set(kinds)
        hits = {s: dict.fromkeys(wanted, 0) for s in riichi}
        for j in range(self.census):
            hands = sampler.hands(prep, seed + j).hands
            for s in riichi:
                for k in wanted.intersection(waits(T.counts34(hands[s]))):
                    hits[s][k] += 1
        return {s: {k: n / self.census for k, n in by.items()} for s, by in hits.items()}

    def ron_value(self, table: RiichiRound, seat: int, winner: int, value: LeafValue) -> float:
        """The leaf value for ``seat`` of dealing into ``winner`` now: the fitted histogram
        of what a discarder pays a winner of its kind, each payment settled as the hand's end
        (honba to the winner, the sticks on the table too; the dealer keeps the deal)."""
        models = self.readiness.models
        open_hand = any(m.is_open for m in table.melds[winner])
        bins = models.ron_points.get(
            models.ron_category(winner == table.oya, bool(table.riichi[winner]), open_hand),
            [(8000, 1.0)])
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


def adjusted(values: Sequence[Sequence[float]], dangers: Sequence[Danger],
             kinds: Sequence[int] | None = None,
             hits: Sequence[frozenset[int]] | None = None) -> list[list[float]]:
    """``values[w][i]`` with candidate i's immediate deal-in folded in, world by world:
    ``(1 − q_i) · c + q_i · U_i``.  ``c`` is the world's value, except where world w's riichi
    hands win on candidate i's kind at once (``kinds[i] in hits[w]``): there it is the mean
    value of candidate i over the worlds where they do not (or ``U_i`` if none is left)."""
    rows = [list(row) for row in values]
    if kinds is not None and hits is not None:
        for i, k in enumerate(kinds):
            hit = [w for w, kinds_hit in enumerate(hits) if k in kinds_hit]
            if not hit:
                continue
            clean = [row[i] for row, kinds_hit in zip(values, hits) if k not in kinds_hit]
            fill = sum(clean) / len(clean) if clean else dangers[i].value
            for w in hit:
                rows[w][i] = fill
    return [[(1.0 - d.odds) * v + d.odds * d.value for v, d in zip(row, dangers)]
            for row in rows]
