"""Seeded mid-hand tables for the compiled-rollout tests, and the Python reference outcome.

Worlds come from whole games of rule agents (``efficiency`` in every seat, or ``efficiency``
and ``random`` alternating, so open hands, kans, Norths set aside and pending kan dora occur),
taken at draws and claim windows, the two phases the compiled core starts from.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import SupportsInt

from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.engine.agent import Agent, RandomAgent
from tenpai.engine.snapshot import clone
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import PRESETS
from tenpai.search.policies import FastPolicy

#: Presets the worlds are drawn from, four- and three-player.
PRESET_NAMES = ("tenhou", "mahjong_soul", "tenhou_sanma")

#: (kind, winners, final scores, deposits left, tenpai seats at a draw)
Outcome = tuple[str, tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]


def worlds(preset: str, seed: int, *, every: int = 7, mixed: bool = False
           ) -> Iterator[RiichiRound]:
    """Copies of the round at every ``every``-th draw or claim window of a seeded game."""
    rules = PRESETS[preset]
    game = RiichiGame(rules, seed=seed)
    agents: list[Agent] = [
        RandomAgent(seed * 8 + s) if mixed and s % 2 else EfficiencyAgent(seed * 8 + s)
        for s in range(rules.players)
    ]
    steps = 0
    while not game.done and steps < 4000:
        rnd = game.round
        assert rnd is not None
        if rnd.phase in ("act", "claim") and steps % every == seed % every:
            yield clone(rnd)
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()})
        steps += 1


def after_calls(preset: str, seed: int) -> Iterator[RiichiRound]:
    """Copies of the round at every discard owed after a chi or pon in a seeded game of
    ``random`` agents (who call whatever they may, so kuikae bans often decide)."""
    rules = PRESETS[preset]
    game = RiichiGame(rules, seed=seed)
    agents = [RandomAgent(seed * 8 + s) for s in range(rules.players)]
    steps = 0
    while not game.done and steps < 4000:
        rnd = game.round
        assert rnd is not None
        if rnd.phase == "discard" and rnd.reach_pending is None:
            yield clone(rnd)
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()})
        steps += 1


def reference_agents(policy: str, players: int, yaku: str = "off") -> list[FastPolicy]:
    """The Python reference of a compiled policy in every seat: ``greedy``/``greedy-fold``
    never call, ``fast``/``fast-fold`` call as the ``efficiency`` agent does,
    ``fast-kan``/``fast-kan-fold`` also declare kans and set Norths aside; ``yaku`` adds the
    open-hand yaku rule."""
    fold = policy in ("greedy-fold", "fast-fold", "fast-kan-fold")
    calls = policy in ("fast", "fast-fold")
    kans = policy in ("fast-kan", "fast-kan-fold")
    return [FastPolicy(s, fold=fold, calls=calls, kans=kans, yaku=yaku) for s in range(players)]


def played(world: RiichiRound, policy: str, yaku: str = "off") -> RiichiRound:
    """A copy of the hand played to its end by the Python engine with the policy's reference."""
    rnd = clone(world)
    agents = reference_agents(policy, rnd.players, yaku)
    steps = 0
    while not rnd.done:
        steps += 1
        assert steps < 2000
        rnd.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in rnd.pending()})
    return rnd


def mangled(state: tuple[object, ...], rng: random.Random,
            junk: list[object]) -> tuple[object, ...]:
    """An exported state with one to three fields (or items of a field) replaced by junk: what
    the fuzz tests feed the core, which must refuse it with a typed error or play it."""
    out = list(state)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(out))
        field = out[i]
        if rng.random() < 0.5 and isinstance(field, tuple) and field:
            items = list(field)
            items[rng.randrange(len(items))] = rng.choice(junk)
            out[i] = tuple(items)
        else:
            out[i] = rng.choice(junk)
    return tuple(out)


def reference(world: RiichiRound, policy: str, yaku: str = "off") -> Outcome:
    """The hand played to its end by the Python engine with the policy's Python reference."""
    rnd = played(world, policy, yaku)
    r = rnd.result
    assert r is not None
    tenpai = tuple(s for s in range(rnd.players) if r.kind == "exhaustive" and r.tenpai[s])
    return (r.kind, tuple(sorted(r.winners)), tuple(rnd.scores), rnd.kyotaku, tenpai)


def compiled(row: Iterable[SupportsInt], players: int) -> Outcome:
    """The same facts from one result row of :func:`tenpai.rules.riichi.rollout.run`."""
    from tenpai.rules.riichi import rollout

    r = [int(x) for x in row]
    kind = rollout.KINDS[r[0]]
    winners = tuple(s for s in range(players) if r[1] >> s & 1)
    tenpai = tuple(s for s in range(players) if kind == "exhaustive" and r[2] >> s & 1)
    return (kind, winners, tuple(r[5 + s] for s in range(players)), r[4], tenpai)


def crafted(hands: list[str], draws: str, preset: str = "tenhou", *,
            scores: tuple[int, ...] | None = None, honba: int = 0, kyotaku: int = 0
            ) -> RiichiRound:
    """A hand whose deal and first draws are given (mjai-like tile strings); the rest of the
    wall is the leftovers, as the engine's scenario tests build it."""
    from tenpai import tiles as T
    from tenpai.rules.riichi.flow.scoring import score_win
    from tenpai.rules.riichi.flow.wall import RoundWall

    rules = PRESETS[preset]
    wall = RoundWall.from_record(RiichiGame.tileset_for(rules), [T.parse(h) for h in hands],
                                 T.parse(draws), [], [], [])
    n = rules.players
    return RiichiRound(rules, wall, bakaze=0, kyoku=0, honba=honba, kyotaku=kyotaku,
                       scores=scores or (rules.starting_points,) * n, scorer=score_win)
