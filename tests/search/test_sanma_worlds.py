"""Worlds, playouts and the table rebuild at three seats (``tenhou_sanma``): the 108-tile set
(no 2m-8m), the Norths set aside counted as seen and kept, nothing seen handed out again,
only the seat's view read, every compiled policy ending its hands with points conserved, the
compiled playout equal to its Python reference, seeded repeats, and the rebuilt table equal to
the real one."""

from __future__ import annotations

from collections import Counter

import pytest

from tenpai import tiles as T
from tenpai.rules.riichi import rollout
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU_SANMA
from tenpai.search.playout import PythonPlayout
from tenpai.search.rebuild import RebuildError, rebuild_table
from tenpai.search.worlds import WorldSampler, seen_tiles, unseen_tiles

from .sanma_helpers import (
    NORTH,
    find_sanma,
    fingerprint,
    hidden,
    sanma_decisions,
    swap_hidden,
)

needs_core = pytest.mark.skipif(not rollout.available(), reason="compiled rollout core not built")


def test_sanma_worlds_conserve_the_108_tiles_and_keep_the_norths() -> None:
    sampler = WorldSampler("shaped")
    full = Counter(RiichiGame.tileset_for(TENHOU_SANMA))
    assert sum(full.values()) == 108 and not any(1 <= T.kind_of(t) <= 7 for t in full)
    checked = norths = 0
    for seed in (2, 5):
        for rnd, d in sanma_decisions(seed, limit=200):
            if checked % 3 == 0:
                world = sampler.sample(rnd, d.seat, seed=checked).round
                seen = seen_tiles(rnd, d.seat)
                got = hidden(world, d.seat)
                assert seen + got == full  # each copy seen or hidden, never both
                assert got == Counter(unseen_tiles(rnd, d.seat))
                assert world.hands[d.seat] == rnd.hands[d.seat]
                assert world.rivers == rnd.rivers and world.melds == rnd.melds
                assert world.nukidora == rnd.nukidora
                assert world.dora_markers == rnd.dora_markers
                assert [len(h) for h in world.hands] == [len(h) for h in rnd.hands]
                assert world.counts == [T.counts34(h) for h in world.hands]
                norths += sum(len(x) for x in rnd.nukidora)
            checked += 1
    assert checked > 150
    assert norths > 0, "no North set aside in the checked tables"


def test_a_north_set_aside_is_seen_and_never_dealt_again() -> None:
    rnd, d = find_sanma(lambda r, d: sum(len(x) for x in r.nukidora) >= 2 and r.phase == "act")
    aside = Counter(t for x in rnd.nukidora for t in x)
    assert all(T.kind_of(t) == NORTH for t in aside)
    norths_seen = sum(c for t, c in seen_tiles(rnd, d.seat).items() if T.kind_of(t) == NORTH)
    assert norths_seen >= sum(aside.values())
    for seed in range(6):
        world = WorldSampler().sample(rnd, d.seat, seed).round
        held = sum(1 for t in hidden(world, d.seat).elements() if T.kind_of(t) == NORTH)
        assert held + norths_seen == 4


def test_the_sanma_world_depends_only_on_what_the_seat_has_seen() -> None:
    rnd, d = find_sanma(lambda r, d: len(r.events) > 30 and r.phase == "act")
    other = swap_hidden(rnd, d.seat)
    assert fingerprint(other) != fingerprint(rnd)
    sampler = WorldSampler()
    for seed in range(4):
        assert (fingerprint(sampler.sample(rnd, d.seat, seed).round)
                == fingerprint(sampler.sample(other, d.seat, seed).round))


def test_sanma_worlds_are_seeded() -> None:
    rnd, d = find_sanma(lambda r, d: len(r.events) > 20)
    sampler = WorldSampler()
    a = fingerprint(sampler.sample(rnd, d.seat, 7).round)
    assert a == fingerprint(sampler.sample(rnd, d.seat, 7).round)
    assert a != fingerprint(sampler.sample(rnd, d.seat, 8).round)


def _points(scores: tuple[int, ...], kyotaku: int) -> int:
    return sum(scores) + 1000 * kyotaku


@needs_core
@pytest.mark.parametrize("policy", ["greedy-fold", "fast-kan-fold", "fast", "tsumogiri"])
def test_every_compiled_policy_ends_sanma_hands_with_points_conserved(policy: str) -> None:
    from tenpai.search.compiled_playout import CompiledPlayout

    backend = CompiledPlayout(policy)
    sampler = WorldSampler()
    ends = 0
    for i, (rnd, d) in enumerate(sanma_decisions(4, limit=120)):
        if i % 9:
            continue
        world = sampler.sample(rnd, d.seat, i).round
        rows = backend.play_out_many(world, [{d.seat: a} for a in d.legal[:3]], [i, i + 1])
        for row in rows:
            for end in row:
                assert len(end.scores) == 3
                assert _points(end.scores, end.kyotaku) == _points(tuple(world.scores),
                                                                   world.kyotaku)
                assert (end.next_position is None) == (end.final is not None)
                ends += 1
        # seeded: the same world and seeds give the same hand ends
        again = backend.play_out_many(world, [{d.seat: a} for a in d.legal[:3]], [i, i + 1])
        assert again == rows
    assert ends > 20


@pytest.mark.parametrize("policy", ["greedy-fold", "fast-kan-fold"])
def test_python_sanma_playouts_end_with_points_conserved_and_repeat(policy: str) -> None:
    backend = PythonPlayout(policy)
    sampler = WorldSampler()
    ends = 0
    for i, (rnd, d) in enumerate(sanma_decisions(8, limit=100)):
        if i % 13:
            continue
        world = sampler.sample(rnd, d.seat, i).round
        for a in d.legal[:2]:
            end = backend.play_out(world, {d.seat: a}, i)
            assert len(end.scores) == 3
            assert _points(end.scores, end.kyotaku) == _points(tuple(world.scores),
                                                               world.kyotaku)
            assert backend.play_out(world, {d.seat: a}, i) == end
            ends += 1
    assert ends > 8


@needs_core
@pytest.mark.parametrize("policy", ["greedy-fold", "fast-kan-fold"])
def test_compiled_sanma_playouts_equal_their_python_reference(policy: str) -> None:
    from tenpai.search.compiled_playout import CompiledPlayout

    compiled, python = CompiledPlayout(policy), PythonPlayout(policy)
    sampler = WorldSampler()
    compared = 0
    for i, (rnd, d) in enumerate(sanma_decisions(6, limit=150)):
        if i % 11:
            continue
        world = sampler.sample(rnd, d.seat, i).round
        for a in d.legal[:2]:
            assert compiled.play_out(world, {d.seat: a}, i) == python.play_out(
                world, {d.seat: a}, i), (i, a)
            compared += 1
    assert compared > 10


def test_the_rebuilt_sanma_table_shows_the_seat_what_the_real_one_does() -> None:
    checked = norths = 0
    for rnd, d in sanma_decisions(2, limit=150):
        table = rebuild_table(d.observation.events, d.seat, d.legal, TENHOU_SANMA)
        assert table.players == 3
        assert list(table._observe(d.seat).events) == list(d.observation.events)
        assert table.hands[d.seat] == rnd.hands[d.seat]
        assert table.nukidora == rnd.nukidora
        assert seen_tiles(table, d.seat) == seen_tiles(rnd, d.seat)
        assert (table.phase, table.turn, table.wall.remaining) == (
            rnd.phase, rnd.turn, rnd.wall.remaining)
        mine = next(x for x in table.pending() if x.seat == d.seat)
        assert set(mine.legal) == set(d.legal)
        norths += sum(len(x) for x in rnd.nukidora)
        checked += 1
    assert checked > 60 and norths > 0


def test_a_three_player_stream_under_four_player_rules_is_refused() -> None:
    _rnd, d = find_sanma(lambda r, d: len(r.events) > 10)
    with pytest.raises(RebuildError, match="3-player stream under 4-player rules"):
        rebuild_table(d.observation.events, d.seat, d.legal)
