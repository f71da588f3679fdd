"""Worlds: tile conservation, nothing seen reused, consistency with riichi, determinism, and
that only the seat's own view is read."""

from __future__ import annotations

from collections import Counter

from tenpai import tiles as T
from tenpai.hand import waits
from tenpai.rules.riichi.game import RiichiGame
from tenpai.search.worlds import WorldSampler, seen_tiles, unseen_tiles

from .helpers import decisions, find, fingerprint, swap_hidden_tiles
from .helpers import hidden as hidden_tiles


def test_worlds_conserve_tiles_and_never_reuse_a_seen_copy() -> None:
    sampler = WorldSampler("shaped")
    checked = 0
    for rnd, d in decisions(3, limit=150):
        if checked > 40:
            break
        world = sampler.sample(rnd, d.seat, seed=checked).round
        checked += 1
        full = Counter(RiichiGame.tileset_for(rnd.rules))
        seen = seen_tiles(rnd, d.seat)
        hidden = hidden_tiles(world, d.seat)
        # every copy is either seen by the seat or hidden in the world, never both
        assert seen + hidden == full
        assert hidden == Counter(unseen_tiles(rnd, d.seat))
        # what the seat knows is untouched
        assert world.hands[d.seat] == rnd.hands[d.seat]
        assert world.rivers == rnd.rivers and world.melds == rnd.melds
        assert world.dora_markers == rnd.dora_markers
        assert [len(h) for h in world.hands] == [len(h) for h in rnd.hands]
        assert world.counts == [T.counts34(h) for h in world.hands]
    assert checked > 40


def test_the_world_depends_only_on_what_the_seat_has_seen() -> None:
    rnd, d = find(lambda r, d: len(r.events) > 30 and r.phase == "act")
    other = swap_hidden_tiles(rnd, d.seat)
    assert fingerprint(other) != fingerprint(rnd)
    sampler = WorldSampler()
    for seed in range(5):
        a = sampler.sample(rnd, d.seat, seed).round
        b = sampler.sample(other, d.seat, seed).round
        assert fingerprint(a) == fingerprint(b)


def test_worlds_are_seeded() -> None:
    rnd, d = find(lambda r, d: len(r.events) > 20)
    sampler = WorldSampler()
    a = fingerprint(sampler.sample(rnd, d.seat, 7).round)
    assert a == fingerprint(sampler.sample(rnd, d.seat, 7).round)
    assert a != fingerprint(sampler.sample(rnd, d.seat, 8).round)


def test_riichi_opponents_get_ready_hands_with_waits_the_table_allows() -> None:
    rnd, d = find(lambda r, d: any(r.riichi[s] for s in range(4) if s != d.seat)
                  and r.phase == "act", range(60))
    sampler = WorldSampler()
    for seed in range(10):
        world = sampler.sample(rnd, d.seat, seed)
        assert world.riichi_fallbacks == 0
        for s in range(4):
            if s == d.seat or not rnd.riichi[s]:
                continue
            w = waits(T.counts34(world.round.hands[s]))
            assert w, "a riichi hand must be ready"
            own_river = {T.kind_of(t) for t in rnd.rivers[s]}
            assert not set(w) & own_river


def test_a_claim_window_is_rebuilt_from_the_sampled_hands() -> None:
    rnd, d = find(lambda r, d: r.phase == "claim")
    world = WorldSampler().sample(rnd, d.seat, 1).round
    mine = [x for x in world.pending() if x.seat == d.seat]
    assert [x.legal for x in mine] == [d.legal]
    discarder, tile = world.last_discard  # type: ignore[misc]
    for x in world.pending():
        if x.seat != d.seat:
            assert x.legal[:-1] == tuple(world._claims(x.seat, tile, discarder))
