"""Where a player's discards part from the tile-efficiency rule: a diagnostic for policy gradient.

Why it exists: the MCR start model imitates the ``efficiency`` rule agent and still loses to it
by about 0.3 ranks, and playing ``efficiency``'s discards with the start's claims wins as much
again, so the gap is in the discards.  Whether policy gradient closes it is a question about
*which* discards change, and an arena needs thousands of games to see a small change in rank.
This counts, for every own-turn discard with at least two kinds to choose from, whether the
player's kind is the one ``efficiency`` would discard, and if not whether it leaves the hand
further from ready (higher shanten) or as close with fewer live tiles to improve it.  Riichi
discards made while another seat is in riichi are counted apart: ``efficiency`` never folds, so
a difference there is no mistake.

The player sits in all four seats (its own self-play); the comparison is made at decision time
inside the runner, so a shared network agent still answers all tables in one batch.  One
object serves every seat and table, so an agent that draws random numbers (``random``) plays
other games with another ``tables``; the greedy networks this is for do not.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tenpai import tiles as T
from tenpai.agents.efficiency import discard_measures, efficient_discard
from tenpai.engine.agent import Agent
from tenpai.events import Event
from tenpai.selfplay.spec import SeatSpec, SelfPlaySpec
from tenpai.selfplay.vector import VectorRunner

__all__ = ["KINDS", "GapCount", "classify", "efficiency_gap"]

#: What a compared discard can be: the efficiency kind; a higher shanten than it; the same
#: shanten with fewer live improving tiles; anything else (as good by both measures).
KINDS = ("same", "higher_shanten", "fewer_tiles", "other")


@dataclass(frozen=True, slots=True)
class _Verdict:
    kind: str  # one of KINDS, or "threatened"
    tiles_lost: int = 0


def _threatened(obs: Any) -> bool:
    riichi = getattr(obs, "riichi", ())
    return any(on for seat, on in enumerate(riichi) if seat != obs.seat)


def classify(obs: Any, legal: Sequence[Event], action: Event) -> _Verdict | None:
    """The verdict on ``action`` against the efficiency discard, or None when there is nothing
    to compare (not a discard, or every legal discard is one kind)."""
    if action.type != "dahai" or action.pai is None:
        return None
    candidates = [e for e in legal if e.type == "dahai"]
    if len({T.kind_of(e.pai) for e in candidates if e.pai is not None}) < 2:
        return None
    if _threatened(obs):
        return _Verdict("threatened")
    mine = T.kind_of(action.pai)
    best = efficient_discard(obs, candidates)
    assert best.pai is not None
    theirs = T.kind_of(best.pai)
    if mine == theirs:
        return _Verdict("same")
    (sh_mine, live_mine), (sh_best, live_best) = (discard_measures(obs, mine),
                                                  discard_measures(obs, theirs))
    if sh_mine > sh_best:
        return _Verdict("higher_shanten")
    if sh_mine == sh_best and live_mine < live_best:
        return _Verdict("fewer_tiles", live_best - live_mine)
    return _Verdict("other")


class _Judged:
    """The player, with each answer's verdict as the step's info (recorded per game)."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = getattr(agent, "name", "player")

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        return self.act_batch([(observation, legal)])[0]

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return self.agent.act_batch(requests)

    def act_batch_with_info(
        self, requests: Sequence[tuple[Any, Sequence[Event]]]
    ) -> list[tuple[Event, _Verdict | None]]:
        actions = self.agent.act_batch(requests)
        return [(a, classify(obs, legal, a)) for (obs, legal), a in zip(requests, actions)]


@dataclass(slots=True)
class GapCount:
    """Verdicts per game; shares are over the compared discards, intervals over games."""

    per_game: list[dict[str, int]] = field(default_factory=list)

    def add_game(self, verdicts: Sequence[_Verdict]) -> None:
        row = {k: 0 for k in (*KINDS, "threatened", "tiles_lost")}
        for v in verdicts:
            row[v.kind] += 1
            row["tiles_lost"] += v.tiles_lost
        self.per_game.append(row)

    @property
    def games(self) -> int:
        return len(self.per_game)

    def total(self, key: str) -> int:
        return sum(g[key] for g in self.per_game)

    @property
    def compared(self) -> int:
        return sum(self.total(k) for k in KINDS)

    def share(self, kind: str) -> tuple[float, float, float]:
        """Share of compared discards of ``kind`` with a 95 % interval over games (ratio
        estimator: a game's discards are not independent of each other)."""
        n = [sum(g[k] for k in KINDS) for g in self.per_game]
        a = [g[kind] for g in self.per_game]
        total = sum(n)
        if total == 0:
            return 0.0, 0.0, 0.0
        rate = sum(a) / total
        k = len(n)
        if k < 2:
            return rate, rate, rate
        mean_n = total / k
        var = sum((ai - rate * ni) ** 2 for ai, ni in zip(a, n)) / (k * (k - 1)) / mean_n ** 2
        half = 1.96 * math.sqrt(var)
        return rate, max(0.0, rate - half), min(1.0, rate + half)

    def report(self) -> dict[str, Any]:
        out: dict[str, Any] = {"games": self.games, "compared": self.compared,
                               "threatened": self.total("threatened")}
        for kind in KINDS:
            rate, low, high = self.share(kind)
            out[kind] = {"count": self.total(kind), "share": rate, "low": low, "high": high}
        fewer = self.total("fewer_tiles")
        out["mean_tiles_lost"] = self.total("tiles_lost") / fewer if fewer else 0.0
        return out


def efficiency_gap(
    agent: Agent,
    rules: str,
    options: dict[str, str],
    seeds: Sequence[int],
    tables: int = 16,
) -> GapCount:
    """Play ``agent`` against itself on ``seeds`` and judge every discard it had to choose."""
    judged = _Judged(agent)
    seat = SeatSpec(judged, name=judged.name)
    spec = SelfPlaySpec(rules, (seat, seat, seat, seat), tuple(seeds), options)
    count = GapCount()
    for game in VectorRunner(spec, tables=tables).run():
        count.add_game([s.info for s in game.steps if isinstance(s.info, _Verdict)])
    return count
