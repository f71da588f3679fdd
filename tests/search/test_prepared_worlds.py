"""Worlds drawn from a prepared decision (:meth:`WorldSampler.prepare`, one round reused) are
the worlds the per-seed entry points give at the same seeds, field by field — at riichi
opponents, claim windows, calls and Norths set aside, four and three players — and the ones
the sampler drew before the preparation existed (a digest recorded with the sampler of commit
5d158e9, before this change; a deliberate change of the worlds must update it and say why)."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from tenpai.engine.flow import Decision
from tenpai.events import Event
from tenpai.rules.riichi import rollout
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.search.agent import SearchAgent
from tenpai.search.hand_end import HandEnd
from tenpai.search.playout import PlayoutBackend, PointsValue, PythonPlayout
from tenpai.search.prior import AgentPrior
from tenpai.search.settings import SearchSettings
from tenpai.search.worlds import World, WorldSampler

from .helpers import find, fingerprint
from .sanma_helpers import find_sanma
from .world_state import first_difference

SEEDS = range(6)


def _opponent_in_riichi(r: RiichiRound, d: Decision) -> bool:
    return any(r.riichi[s] for s in range(r.players) if s != d.seat)


@functools.cache
def tables() -> dict[str, tuple[RiichiRound, Decision]]:
    """Seeded decisions of every kind a world's build treats apart (copies: kept as found)."""
    return {
        "riichi opponent, own turn": find(
            lambda r, d: _opponent_in_riichi(r, d) and r.phase == "act", range(60)),
        "offer to call": find(
            lambda r, d: r.phase == "claim" and any(e.type in ("pon", "chi") for e in d.legal)),
        "claim window, riichi opponent, calls made": find(
            lambda r, d: r.phase == "claim" and _opponent_in_riichi(r, d) and r.any_call,
            range(60)),
        "three players, Norths set aside": find_sanma(
            lambda r, d: sum(len(x) for x in r.nukidora) >= 2 and r.phase == "act"),
        "three players, riichi opponent": find_sanma(
            lambda r, d: _opponent_in_riichi(r, d) and r.phase == "act"),
    }


def _backend() -> PlayoutBackend:
    if rollout.available():
        from tenpai.search.compiled_playout import CompiledPlayout

        return CompiledPlayout("greedy-fold")
    return PythonPlayout("greedy-fold")


@pytest.mark.parametrize("model", ["uniform", "shaped"])
def test_prepared_worlds_are_the_per_seed_worlds_field_by_field(model: str) -> None:
    backend = _backend()
    for rnd, d in tables().values():
        sampler = WorldSampler(model)  # type: ignore[arg-type]
        prep = sampler.prepare(rnd, d.seat, reuse_round=True)
        for seed in SEEDS:
            world = sampler.world(prep, seed)
            fresh = sampler.sample(rnd, d.seat, seed)
            assert first_difference(fresh.round, world.round) is None, (seed, first_difference(
                fresh.round, world.round))
            assert (world.seed, world.riichi_fallbacks) == (fresh.seed, fresh.riichi_fallbacks)
            # played out as the search plays it before building the next world in the round
            for e in d.legal[:3]:
                backend.play_out(world.round, {d.seat: e}, seed)


def test_prepared_hands_and_their_worlds_are_the_per_seed_ones() -> None:
    for rnd, d in tables().values():
        sampler = WorldSampler()
        prep = sampler.prepare(rnd, d.seat, reuse_round=True)
        for seed in SEEDS:
            hands = sampler.hands(prep, 100 + seed)
            assert hands == sampler.sample_hands(rnd, d.seat, 100 + seed)
            built = sampler.world_with(prep, hands, seed)
            assert first_difference(sampler.build(rnd, d.seat, hands, seed).round,
                                    built.round) is None


def test_the_table_is_left_as_it_was() -> None:
    for rnd, d in tables().values():
        before = fingerprint(rnd), list(rnd.events), list(rnd.furiten_temp), rnd._pending
        sampler = WorldSampler()
        prep = sampler.prepare(rnd, d.seat, reuse_round=True)
        for seed in SEEDS:
            sampler.world(prep, seed)
        assert (fingerprint(rnd), list(rnd.events), list(rnd.furiten_temp), rnd._pending) == before


def round_rows(rnd: RiichiRound) -> tuple[object, ...]:
    """What a world's round holds that a seed decides: hands, wall, furiten, the pending
    decisions."""
    return (fingerprint(rnd), tuple(rnd.furiten_temp), tuple(rnd.furiten_riichi),
            tuple((x.seat, x.legal) for x in rnd._pending))


def world_digest_rows(world: World) -> tuple[object, ...]:
    """:func:`round_rows` and the riichi fallbacks."""
    return (*round_rows(world.round), world.riichi_fallbacks)


def worlds_digest(draw: Callable[[str, RiichiRound, int, int], World]) -> str:
    """The digest of the worlds ``draw(model, table, seat, seed)`` gives at :func:`tables`."""
    rows = [world_digest_rows(draw(model, rnd, d.seat, seed))
            for rnd, d in tables().values() for model in ("uniform", "shaped") for seed in SEEDS]
    return hashlib.sha256(repr(rows).encode()).hexdigest()


#: :func:`worlds_digest` of the sampler before the preparation (commit 5d158e9).
BEFORE = "b527b718b63038844f3b4409e0ff1a12cdb295cce7b4732b1158b22ba80f7794"


def test_the_worlds_are_those_drawn_before_the_preparation() -> None:
    preps: dict[tuple[str, int], Any] = {}

    def draw(model: str, rnd: RiichiRound, seat: int, seed: int) -> World:
        sampler = WorldSampler(model)  # type: ignore[arg-type]
        key = (model, id(rnd))
        if key not in preps:
            preps[key] = sampler.prepare(rnd, seat, reuse_round=True)
        return sampler.world(preps[key], seed)

    assert worlds_digest(draw) == BEFORE
    assert worlds_digest(lambda m, r, s, k: WorldSampler(m).sample(r, s, k)) == BEFORE  # type: ignore[arg-type]


class _Recorder:
    """A playout backend that remembers each world it is given, then plays it."""

    name = "recorder"

    def __init__(self) -> None:
        self.inner = _backend()
        self.seen: list[tuple[tuple[object, ...], int]] = []

    def play_out(self, world: RiichiRound, first: Mapping[int, Event], seed: int) -> HandEnd:
        self.seen.append((round_rows(world), seed))
        return self.inner.play_out(world, first, seed)


def test_the_search_plays_the_worlds_the_per_seed_entry_gives() -> None:
    from tenpai.agents.efficiency import EfficiencyAgent

    for rnd, d in tables().values():
        backend = _Recorder()
        agent = SearchAgent(AgentPrior(EfficiencyAgent(), 0.4), backend=backend,
                            value=PointsValue(),
                            settings=SearchSettings(budget_ms=1e6, worlds=4, top_k=2))
        agent.act(d.observation, d.legal)
        assert agent.log[-1].searched and len(backend.seen) >= 8
        for rows, seed in backend.seen:
            assert rows == round_rows(agent.sampler.sample(rnd, d.seat, seed).round)
