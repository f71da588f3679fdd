"""Full-game throughput of the Riichi engine against riichienv (Rust), in one process.

Both engines play whole hanchan with uniformly random legal actions; the games alternate
between the engines so that machine noise hits both alike, and the ratio (ours / theirs) is the
figure to compare across machines.  Warm-up games (table building, imports) are not timed.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from tenpai.engine import RandomAgent, play
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU

__all__ = ["EngineBench", "run_engine_bench"]


@dataclass(slots=True)
class EngineBench:
    games: int
    ours_s: float
    theirs_s: float | None
    peer: str | None
    ours_steps: int

    @property
    def ours_per_s(self) -> float:
        return self.games / self.ours_s

    @property
    def theirs_per_s(self) -> float | None:
        return None if self.theirs_s is None else self.games / self.theirs_s

    def summary(self) -> dict[str, Any]:
        theirs = self.theirs_per_s
        return {
            "games": self.games,
            "hanchan_per_s": round(self.ours_per_s, 2),
            "peer": self.peer,
            "peer_hanchan_per_s": None if theirs is None else round(theirs, 2),
            "ratio": None if theirs is None else round(self.ours_per_s / theirs, 3),
            "decisions_per_s": round(self.ours_steps / self.ours_s),
        }


def _ours(seed: int) -> int:
    game = RiichiGame(TENHOU, seed=seed)
    steps = 0
    agents = [RandomAgent(seed * 4 + i) for i in range(4)]
    while not game.done:
        answers = {d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()}
        game.step(answers)
        steps += 1
    return steps


def _riichienv_game(seed: int) -> None:
    from riichienv import RiichiEnv

    rng = random.Random(seed)
    env = RiichiEnv(game_mode="4p-red-half", skip_mjai_logging=True, seed=seed)
    obs = env.reset()
    while not env.done():
        obs = env.step({pid: rng.choice(o.legal_actions()) for pid, o in obs.items()})


def run_engine_bench(games: int = 20, seed: int = 0, vs: str | None = "riichienv") -> EngineBench:
    """Time ``games`` random hanchan on each engine, interleaved."""
    peer_ok = False
    if vs == "riichienv":
        try:
            _riichienv_game(10_000)
            peer_ok = True
        except ImportError:
            peer_ok = False
    play(RiichiGame(TENHOU, seed=10_000), [RandomAgent(i) for i in range(4)])
    ours = theirs = 0.0
    steps = 0
    for g in range(games):
        t0 = time.perf_counter()
        steps += _ours(seed + g)
        t1 = time.perf_counter()
        ours += t1 - t0
        if peer_ok:
            _riichienv_game(seed + g)
            theirs += time.perf_counter() - t1
    return EngineBench(
        games, ours, theirs if peer_ok else None, "riichienv" if peer_ok else None, steps
    )
