"""Worlds drawn straight into the compiled core's state (``tenpai.search.mcr.exported_worlds``)
are the Python sampler's worlds, tuple for tuple, and the search values and plays exactly as
it did when every world was a copy of the round."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from itertools import chain
from typing import Any

import pytest

from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.agents.planner import PlannerAgent
from tenpai.engine.agent import RandomAgent
from tenpai.events import Event
from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.rules.mcr.flow.rules import BOTZONE, MCR_OFFICIAL
from tenpai.rules.mcr.game import MCRGame
from tenpai.search.mcr import compiled
from tenpai.search.mcr.agent import MCRSearchAgent
from tenpai.search.mcr.compiled import CompiledMCRPlayout, MCRRolloutStateError, export_state
from tenpai.search.mcr.exported_worlds import ExportedWorldPlayouts, ExportedWorlds, exports
from tenpai.search.mcr.playout import MCRPlayout, hand_value
from tenpai.search.mcr.settings import MCRSearchSettings
from tenpai.search.mcr.worlds import MCRWorldSampler, draw_hidden

from .test_mcr_rollout import _rob_round

needs_core = pytest.mark.skipif(not compiled.available(),
                                reason="the compiled MCR rollout core is not built")

#: Worlds cap binding long before the budget: searches are reproducible.
CAPPED = MCRSearchSettings(budget_ms=1e6, clock="cpu", worlds=3, top_k=3, close=0.0,
                           policy="greedy")


class _Konger:
    """Declares every kong and pung it is offered (concealed kongs of the others and added
    kongs' rob windows are what seeded efficiency games rarely reach), else efficiency."""

    def __init__(self, seed: int) -> None:
        self.base = EfficiencyAgent(seed)

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        for kind in ("ankan", "kakan", "daiminkan", "pon"):
            for e in legal:
                if e.type == kind:
                    return e
        return self.base.act(observation, legal)


def _agents(g: int) -> list[Any]:
    rng = random.Random(g)
    out: list[Any] = []
    for s in range(4):
        pick = rng.random()
        out.append(_Konger(g * 4 + s) if pick < 0.4 else EfficiencyAgent(g * 4 + s)
                   if pick < 0.8 else RandomAgent(g * 4 + s))
    return out


def decisions(games: int, seed0: int, every: int = 1) -> Iterator[tuple[MCRRound, Any]]:
    """Every ``every``-th pending decision of seeded botzone games (the table is the live
    round: use it before the next step)."""
    n = 0
    for g in range(seed0, seed0 + games):
        agents = _agents(g)
        game = MCRGame(BOTZONE, seed=g)
        while not game.done:
            pending = game.pending()
            assert game.round is not None
            for d in pending:
                if n % every == 0:
                    yield game.round, d
                n += 1
            game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in pending})


def _others_kong(rnd: MCRRound, seat: int) -> bool:
    return any(m.type == "ankan" for s in range(4) if s != seat for m in rnd.melds[s])


@needs_core
def test_an_exported_world_is_the_python_world_exported() -> None:
    """Many decisions of seeded games (draws, claim windows, the discard owed after a call,
    rob windows, the others' concealed kongs): the same state tuple for the same seed."""
    sampler = MCRWorldSampler()
    seen: Counter[str] = Counter()
    robbed = _rob_round(True)
    (d,) = robbed.pending()
    robbed.step({0: next(e for e in d.legal if e.type == "kakan")})
    crafted = [(robbed, d) for d in robbed.pending()]  # the robber's window
    for i, (rnd, d) in enumerate(chain(crafted, decisions(16, 4308, every=2))):
        worlds = ExportedWorlds(rnd, d.seat)
        for w in range(2):
            seed = 1000 * i + w
            want = export_state(sampler.sample(rnd, d.seat, seed).round)
            got = worlds.state(draw_hidden(worlds.view, seed))
            assert got == want, f"{rnd._where()} phase {rnd.phase} seat {d.seat}"
        seen[rnd.phase] += 1
        seen["others' concealed kong"] += _others_kong(rnd, d.seat)
    assert min(seen[p] for p in ("act", "claim", "discard", "rob")) > 0, seen
    assert seen["others' concealed kong"] > 0, seen


@needs_core
@pytest.mark.parametrize(("policy", "value"), [("c:greedy", "points"),
                                               ("c:greedy-fold", "place")])
def test_every_candidate_is_valued_as_on_the_copied_world(policy: str, value: str) -> None:
    """Every legal answer of a position (discards, passes with and without a win on offer,
    calls, kongs, wins), valued on exported worlds and on copied ones: the same values, and
    each way of playing a candidate is taken."""
    settings = replace(CAPPED, policy=policy, value=value)
    fast = MCRSearchAgent(settings, seed=3)
    slow = MCRSearchAgent(settings, seed=3, exported_worlds=False)
    routes: Counter[str] = Counter()
    for rnd, d in decisions(6, 4310, every=5):
        cands = list(d.legal)
        assert fast.values(rnd, d.seat, cands, d.legal) == slow.values(rnd, d.seat, cands)
        may_win = any(e.type == "hora" for e in d.legal)
        run = ExportedWorldPlayouts(fast.playout, fast.sampler, rnd,  # type: ignore[arg-type]
                                    d.seat, cands, may_win)
        routes.update(r for r, _t in run.routes)
    assert min(routes[r] for r in ("discard", "window", "round")) > 0, routes
    assert fast.playout.exported > 0 and fast.playout.copied > 0  # type: ignore[union-attr]


@needs_core
def test_a_pass_where_the_position_may_win_is_stepped_in_python() -> None:
    """Greedy would win where the candidate passes: that pass cannot start in the core."""
    playout = CompiledMCRPlayout()
    for rnd, d in decisions(40, 4320):
        if rnd.phase == "claim" and any(e.type == "hora" for e in d.legal):
            npass = next(e for e in d.legal if e.type == "none")
            run = ExportedWorldPlayouts(playout, MCRWorldSampler(), rnd, d.seat, [npass], True)
            assert run.routes == [("round", None)]
            slow = MCRPlayout("greedy").play_out(
                MCRWorldSampler().sample(rnd, d.seat, 7).round, {d.seat: npass}, 7)
            assert [hand_value(e, d.seat, "points") for e in run.play_world(7)] == [
                hand_value(slow, d.seat, "points")]
            return
    pytest.fail("no claim window with a win on offer in 40 seeded games")


@needs_core
def test_a_searched_game_is_the_same_with_or_without_the_copy() -> None:
    """search_mcr with c:greedy plays the same game, event for event and decision for
    decision, with worlds drawn into the core's state and with copied worlds (and the copied
    ones play as the Python greedy playouts: test_mcr_rollout)."""
    games = []
    for policy, exported in (("c:greedy", True), ("c:greedy", False)):
        search = MCRSearchAgent(replace(CAPPED, policy=policy), seed=4,
                                exported_worlds=exported)
        planners = [PlannerAgent(s) for s in range(4)]
        game = MCRGame(BOTZONE, seed=43)
        while not game.done:
            game.step({d.seat: (search if d.seat == 2 else planners[d.seat]).act(
                d.observation, d.legal) for d in game.pending()})
        assert sum(d.searched for d in search.log) > 3
        games.append((game.events, [(d.searched, d.worlds, d.changed) for d in search.log]))
        assert (search.playout.exported > 0) == exported  # type: ignore[union-attr]
    assert games[0] == games[1]


@needs_core
def test_other_presets_keep_the_copy_and_are_refused_in_one_line() -> None:
    game = MCRGame(MCR_OFFICIAL, seed=1)
    assert game.round is not None
    why = exports(game.round)
    assert why is not None and "botzone" in why and "\n" not in why
    with pytest.raises(MCRRolloutStateError, match="botzone"):
        ExportedWorlds(game.round, 0)
    agent = MCRSearchAgent(replace(CAPPED, policy="c:greedy"), seed=0)
    d = game.pending()[0]
    with pytest.raises(MCRRolloutStateError, match="botzone"):
        agent.values(game.round, d.seat, d.legal[:2], d.legal)
