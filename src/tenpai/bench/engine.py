"""Full-game throughput of the Riichi engine against riichienv (Rust), in one process.

Every engine plays whole hanchan with uniformly random legal actions through its per-step
Python API: ours through :class:`RiichiGame` twice, on the compiled table (``engine="auto"``:
the compiled one where it is built and proven for the rules) and on the Python round (the
reference), and riichienv through its own.  The games alternate between the engines, the
order turning from game to game, so that machine noise hits all alike; each engine's CPU time
(``time.process_time``: the peer runs in this process too) is summed per block of games, the
ratio (ours / theirs) is taken per block, and the median and range of the blocks are
reported, so a difference of 10 % is told from the noise of a shared machine.  Warm-up games
(table building, imports) are not timed.

``players=3`` plays three-player hanchan: ours under ``tenhou_sanma``, riichienv in its
``3p-red-half`` mode (three seats, red fives, Norths set aside as ``kita``).  The two rule sets
are not the same in every detail (start and target points, riichienv's own sanma rules), so
that row compares the same work — random three-player hanchan through each per-step API — not
identical games.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from tenpai.engine import RandomAgent, play
from tenpai.rules.riichi.game import Engine, RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU, TENHOU_SANMA, RiichiRules

__all__ = ["EngineBench", "run_engine_bench"]


@dataclass(slots=True)
class EngineBench:
    games: int
    ours_s: float
    theirs_s: float | None
    peer: str | None
    ours_steps: int
    #: Which round the timed ``ours`` games ran on ("compiled" or "python").
    engine: str = "python"
    #: The Python round's time over the same games (None when ``ours`` is the Python round).
    python_s: float | None = None
    #: Per block of games: (ours, python or 0, theirs or 0) CPU seconds.
    blocks: list[tuple[float, float, float]] = field(default_factory=list)
    #: Seats at the table: 4 (``tenhou``), or 3 (``tenhou_sanma`` against ``3p-red-half``).
    players: int = 4

    @property
    def ours_per_s(self) -> float:
        return self.games / self.ours_s

    @property
    def theirs_per_s(self) -> float | None:
        return None if self.theirs_s is None else self.games / self.theirs_s

    def _ratios(self, i: int, j: int) -> list[float]:
        return [b[j] / b[i] for b in self.blocks if b[i] > 0 and b[j] > 0]

    def summary(self) -> dict[str, Any]:
        theirs = self.theirs_per_s
        out: dict[str, Any] = {
            "games": self.games,
            "players": self.players,
            "engine": self.engine,
            "hanchan_per_s": round(self.ours_per_s, 2),
            "peer": self.peer,
            "peer_hanchan_per_s": None if theirs is None else round(theirs, 2),
            "ratio": None,
            "decisions_per_s": round(self.ours_steps / self.ours_s),
            "ms_per_hanchan": round(1000 * self.ours_s / self.games, 2),
        }
        vs_peer = self._ratios(0, 2)
        if theirs is not None and vs_peer:
            out["ratio"] = round(statistics.median(vs_peer), 3)
            out["ratio_range"] = [round(min(vs_peer), 3), round(max(vs_peer), 3)]
            out["peer_ms_per_hanchan"] = round(1000 * (self.theirs_s or 0) / self.games, 2)
        if self.python_s is not None:
            out["python_hanchan_per_s"] = round(self.games / self.python_s, 2)
            speedup = self._ratios(0, 1)
            out["speedup_vs_python"] = round(statistics.median(speedup), 3) if speedup else None
            py_peer = [b[2] / b[1] for b in self.blocks if b[1] > 0 and b[2] > 0]
            if py_peer:
                out["python_ratio"] = round(statistics.median(py_peer), 3)
        return out


#: Our rules and riichienv's game mode per player count.
_RULES: dict[int, RiichiRules] = {4: TENHOU, 3: TENHOU_SANMA}
_PEER_MODE = {4: "4p-red-half", 3: "3p-red-half"}


def _ours(seed: int, engine: Engine, rules: RiichiRules = TENHOU) -> int:
    game = RiichiGame(rules, seed=seed, engine=engine)
    steps = 0
    agents = [RandomAgent(seed * 4 + i) for i in range(rules.players)]
    while not game.done:
        answers = {d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()}
        game.step(answers)
        steps += 1
    return steps


def _riichienv_game(seed: int, players: int = 4) -> None:
    from riichienv import RiichiEnv

    rng = random.Random(seed)
    env = RiichiEnv(game_mode=_PEER_MODE[players], skip_mjai_logging=True, seed=seed)
    obs = env.reset()
    while not env.done():
        obs = env.step({pid: rng.choice(o.legal_actions()) for pid, o in obs.items()})


def run_engine_bench(
    games: int = 20, seed: int = 0, vs: str | None = "riichienv", blocks: int = 5,
    players: int = 4,
) -> EngineBench:
    """Time ``games`` random hanchan on each engine, interleaved game by game, in ``blocks``
    blocks (at most one per game) whose ratios give the median and range; ``players`` 4 or 3."""
    if players not in _RULES:
        raise ValueError(f"bench engine plays 3 or 4 players, not {players}")
    rules = _RULES[players]
    peer_ok = False
    if vs == "riichienv":
        try:
            _riichienv_game(10_000, players)
            peer_ok = True
        except ImportError:
            peer_ok = False
    engine = "compiled" if RiichiGame(rules, seed=10_000, engine="auto").compiled else "python"
    both = engine == "compiled"
    seats = [RandomAgent(i) for i in range(players)]
    play(RiichiGame(rules, seed=10_000, engine="auto"), seats)
    play(RiichiGame(rules, seed=10_001), seats)
    n_blocks = max(1, min(blocks, games))
    per_block = [0.0, 0.0, 0.0]
    done: list[tuple[float, float, float]] = []
    steps = 0
    clock = time.process_time
    for g in range(games):
        # the engines' order turns game by game, so none always runs first (or last)
        for side in (0, 1, 2)[g % 3:] + (0, 1, 2)[:g % 3]:
            t0 = clock()
            if side == 0:
                steps += _ours(seed + g, "auto", rules)
            elif side == 1 and both:
                _ours(seed + g, "python", rules)
            elif side == 2 and peer_ok:
                _riichienv_game(seed + g, players)
            else:
                continue
            per_block[side] += clock() - t0
        if (g + 1) * n_blocks // games != g * n_blocks // games:
            done.append((per_block[0], per_block[1], per_block[2]))
            per_block = [0.0, 0.0, 0.0]
    ours = sum(b[0] for b in done)
    return EngineBench(
        games,
        ours,
        sum(b[2] for b in done) if peer_ok else None,
        "riichienv" if peer_ok else None,
        steps,
        engine=engine,
        python_s=sum(b[1] for b in done) if both else None,
        blocks=done,
        players=players,
    )
