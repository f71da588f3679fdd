"""``game.round`` on the compiled table: the Python round built on demand.

When the compiled table steps a hand, readers that want the Python :class:`RiichiRound`
(search worlds, the MCTS features, the record rebuild) get one built from the same wall and
replayed through the answers the table applied.  It must be the Python engine's round at that
point — state, events, decisions and observations — and a game nobody reads must build none.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from tenpai.agents.registry import make_agent
from tenpai.engine import RandomAgent
from tenpai.events import Event
from tenpai.rules.riichi import compiled_round
from tenpai.rules.riichi.compiled_round import CompiledRound, python_table, reference_rounds_built
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import MAHJONG_SOUL, TENHOU, RiichiRules

built = pytest.mark.skipif(not compiled_round.available(), reason="compiled table not built")
TONPUU = TENHOU.with_(length="tonpuu")
#: State the on-demand round is compared on: everything but the callbacks (the emit hook,
#: the scorer), a cache, the pending decisions (compared by seat and legal actions) and the wall
#: (compared by its fields).
_SKIP = frozenset({"_emit_hook", "scorer", "_pending", "wall", "_waits_cache"})
_BOLD = {"hora": 0, "ryukyoku": 1, "ankan": 2, "kakan": 2, "daiminkan": 2, "pon": 3, "reach": 3}


class _Bold:
    """Takes wins, kans, calls and riichi when offered (the rarer paths), else ``efficiency``."""

    def __init__(self, seed: int) -> None:
        self.inner = make_agent("efficiency", seed)

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        best = min(legal, key=lambda e: _BOLD.get(e.type, 9))
        if best.type in _BOLD:
            return best
        return self.inner.act(observation, legal)


def _agents(seed: int) -> list[Any]:
    names = ["random", "efficiency", "defensive", "bold"]
    return [_Bold(seed * 4 + i) if names[(seed + i) % 4] == "bold"
            else make_agent(names[(seed + i) % 4], seed * 4 + i) for i in range(4)]


def _state(rnd: RiichiRound) -> dict[str, Any]:
    out = {k: v for k, v in vars(rnd).items() if k not in _SKIP}
    w = rnd.wall
    out["wall"] = (w.hands, w.live, w.dora, w.ura, w.rinshan, w._next, w._end, w._kans)
    out["pending"] = [(d.seat, d.legal) for d in rnd.pending()]
    return out


def _observed(obs: Any) -> tuple[Any, ...]:
    return (obs.seat, obs.hand, obs.counts, obs.drawn, obs.melds, obs.rivers,
            obs.visible_counts(), obs.events, obs.riichi, obs.dora_markers, obs.scores,
            obs.wall_remaining, obs.kyotaku, obs.seat_wind)


def _compare_games(seed: int, rules: RiichiRules, rate: float) -> int:
    """Play one seeded game on both engines with the same answers; at random points the
    compiled game's on-demand round must be the Python game's round.  Returns the checks."""
    py = RiichiGame(rules, seed=seed, engine="python")
    co = RiichiGame(rules, seed=seed, engine="compiled")
    agents = _agents(seed)
    rng = random.Random(seed)
    checks = 0
    while not py.done:
        assert isinstance(co.current, CompiledRound)
        # the phase the replay reads of the compiled table, at every step
        assert co.current.phase == py.current.phase  # type: ignore[union-attr]
        if rng.random() < rate:
            want, got = py.round, co.round
            assert isinstance(want, RiichiRound) and isinstance(got, RiichiRound)
            assert got is not want
            assert _state(got) == _state(want), f"seed {seed}, event {len(want.events)}"
            for a, b in zip(want.pending(), got.pending()):
                assert _observed(a.observation) == _observed(b.observation)
            checks += 1
        answers = {d.seat: agents[d.seat].act(d.observation, d.legal) for d in py.pending()}
        py.step(answers)
        co.step(answers)
    assert co.done and co.events == py.events and co.round is None
    return checks


@built
def test_the_round_on_demand_is_the_python_round() -> None:
    checks = sum(_compare_games(seed, TONPUU, 0.08) for seed in range(6))
    checks += sum(_compare_games(seed, MAHJONG_SOUL.with_(length="tonpuu"), 0.08)
                  for seed in range(6, 9))
    assert checks > 150


@built
def test_a_game_nobody_reads_builds_no_python_round() -> None:
    before = reference_rounds_built()
    game = RiichiGame(TENHOU, seed=11, engine="compiled")
    agents = [RandomAgent(i) for i in range(4)]
    while not game.done:
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()})
    assert len(game.results) > 4 and reference_rounds_built() == before


@built
def test_a_reader_at_every_step_builds_one_round_per_hand() -> None:
    game = RiichiGame(TONPUU, seed=12, engine="compiled")
    agents = [RandomAgent(i) for i in range(4)]
    before = reference_rounds_built()
    seen: list[RiichiRound] = []
    while not game.done:
        rnd = game.round
        assert rnd is not None and rnd.events == game.current.events  # type: ignore[union-attr]
        if not seen or seen[-1] is not rnd:
            seen.append(rnd)
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()})
    assert reference_rounds_built() - before == len(seen) == len(game.results)


@built
def test_the_round_a_reader_holds_moves_with_the_game() -> None:
    # as the Python engine's own round does: a reader may keep it across steps
    game = RiichiGame(TONPUU, seed=15, engine="compiled")
    agents = [RandomAgent(i) for i in range(4)]
    held = game.round
    assert held is not None
    while not held.done:
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()})
        if not held.done:
            assert held.events == game.current.events  # type: ignore[union-attr]
            assert held.scores == game.current.scores  # type: ignore[union-attr]
    assert held.result == game.results[0] and held.events[-1].type == "end_kyoku"


@built
def test_a_reader_that_steps_the_round_gets_a_fresh_one() -> None:
    game = RiichiGame(TENHOU, seed=13, engine="compiled")
    agents = [RandomAgent(i) for i in range(4)]
    for _ in range(6):
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()})
    stepped = game.round
    assert stepped is not None
    (d,) = stepped.pending()
    stepped.step({d.seat: d.legal[-1]})  # a reader that should not have
    again = game.round
    assert again is not stepped and again is not None
    assert again.events == game.current.events  # type: ignore[union-attr]


def test_python_table_passes_other_tables_through() -> None:
    game = RiichiGame(TENHOU, seed=1, engine="python")
    assert python_table(game.current) is game.round
    assert python_table(None) is None
    if compiled_round.available():
        co = RiichiGame(TENHOU, seed=1, engine="compiled")
        assert isinstance(python_table(co.current), RiichiRound)


@built
def test_a_snapshot_of_a_compiled_game_plays_on_by_itself() -> None:
    from tenpai.engine.snapshot import Snapshot

    game = RiichiGame(TONPUU, seed=14, engine="compiled")
    agents = [RandomAgent(i) for i in range(4)]
    for _ in range(40):
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()})
    snap = Snapshot.take(game)
    copy = snap.restore()
    assert copy.events == game.events and copy.current is not game.current
    assert isinstance(copy.current, CompiledRound)
    # the copy steps alone: the original and the snapshot do not move
    before = list(game.events)
    (d,) = copy.pending()
    copy.step({d.seat: d.legal[0]})
    assert game.events == before and snap.restore().events == before
    # and both play on to the same end when given the same answers
    twin = snap.restore()
    again = [RandomAgent(i + 10) for i in range(4)]
    same = [RandomAgent(i + 10) for i in range(4)]
    while not game.done:
        game.step({d.seat: again[d.seat].act(d.observation, d.legal) for d in game.pending()})
        twin.step({d.seat: same[d.seat].act(d.observation, d.legal) for d in twin.pending()})
    assert twin.done and twin.events == game.events
    assert isinstance(twin.round, type(None)) and twin.final_scores == game.final_scores
