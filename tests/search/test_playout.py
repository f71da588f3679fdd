"""Playouts: hand ends agree with the game's own progression; common random numbers."""

from __future__ import annotations

from collections.abc import Mapping

from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.events import Event
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.game import RiichiGame
from tenpai.search.agent import SearchAgent
from tenpai.search.hand_end import HandEnd, hand_end
from tenpai.search.playout import PointsValue, PythonPlayout
from tenpai.search.prior import AgentPrior
from tenpai.search.settings import SearchSettings

from .helpers import TONPUU, find


def test_hand_end_agrees_with_the_game() -> None:
    ends = 0
    for seed in range(6):
        game = RiichiGame(TONPUU, seed=seed)
        agent = EfficiencyAgent(seed)
        while not game.done:
            rnd = game.round
            assert rnd is not None
            start = tuple(rnd.scores)
            game.step({d.seat: agent.act(d.observation, d.legal) for d in game.pending()})
            if rnd.done:
                end = hand_end(rnd, start)
                ends += 1
                if game.done:
                    assert end.next_position is None and end.final is not None
                    order = sorted(range(4), key=lambda s: (-game.final_scores[s], s))
                    assert [end.final[s].index(1.0) for s in range(4)] == [
                        order.index(s) for s in range(4)]
                else:
                    pos = end.next_position
                    assert pos is not None and game.round is not None
                    nxt = game.round
                    assert (pos.bakaze, pos.kyoku, pos.honba, pos.kyotaku) == (
                        nxt.bakaze, nxt.kyoku, nxt.honba, nxt.kyotaku)
                    assert pos.scores == tuple(nxt.scores)
    assert ends > 20


class _Recording:
    """A playout backend that remembers what each playout was given, then plays it."""

    name = "recording"

    def __init__(self) -> None:
        self.inner = PythonPlayout("fast-fold")
        self.seen: list[tuple[int, tuple[object, ...], int]] = []

    def play_out(self, world: RiichiRound, first: Mapping[int, Event], seed: int) -> HandEnd:
        w = world.wall
        key = (tuple(tuple(h) for h in world.hands), tuple(w.live), tuple(w.ura))
        self.seen.append((id(world), key, seed))
        return self.inner.play_out(world, first, seed)


def test_candidates_of_one_world_share_the_world_and_the_seed() -> None:
    _rnd, d = find(lambda r, d: r.phase == "act" and len(d.legal) > 5 and len(r.events) > 20)
    backend = _Recording()
    agent = SearchAgent(AgentPrior(EfficiencyAgent(), 0.4), backend=backend, value=PointsValue(),
                        settings=SearchSettings(budget_ms=1e6, worlds=3, top_k=3))
    agent.act(d.observation, d.legal)
    assert len(backend.seen) == 9
    for w in range(3):
        group = backend.seen[w * 3:(w + 1) * 3]
        assert len({(k, s) for _i, k, s in group}) == 1
        assert len({i for i, _k, _s in group}) == 1
    assert len({s for _i, _k, s in backend.seen}) == 3


def test_the_same_playout_twice_gives_the_same_end() -> None:
    rnd, d = find(lambda r, d: r.phase == "act" and len(r.events) > 10)
    pb = PythonPlayout("fast-fold")
    a = pb.play_out(rnd, {d.seat: d.legal[0]}, 5)
    b = pb.play_out(rnd, {d.seat: d.legal[0]}, 5)
    assert a == b
    assert not rnd.done  # the world itself is never stepped
