"""``OPPONENTS=read``: the worlds deal an opponent outside riichi a ready hand as often as 001's
fitted readiness model expects, read only from the deciding seat's view."""

from __future__ import annotations

import pytest

from tenpai import tiles as T
from tenpai.hand import shanten, waits
from tenpai.reading.models import load_models
from tenpai.search.readiness import Readiness, default_readiness
from tenpai.search.settings import SearchSettings
from tenpai.search.worlds import WorldSampler

from .helpers import decisions, swap_hidden_tiles


class _Fixed(Readiness):
    """The shipped model's file with one probability for everyone: what the sampler does with
    a probability is tested apart from what the model says."""

    def __init__(self, p: float) -> None:
        super().__init__(load_models())
        self.p = p

    def probabilities(self, events, seats):  # type: ignore[no-untyped-def]
        return {s: self.p for s in seats}


def _tables(seed: int, want: int = 25):  # type: ignore[no-untyped-def]
    """Own-turn decisions of a seeded efficiency game, a few discards in (copies)."""
    from tenpai.engine.snapshot import clone

    out = []
    for rnd, d in decisions(seed, limit=400):
        if rnd.phase == "act" and rnd.turn == d.seat and len(rnd.rivers[d.seat]) >= 4:
            out.append((clone(rnd), d.seat))
            if len(out) >= want:
                break
    return out


def test_certain_readiness_deals_ready_hands_waiting_outside_their_river() -> None:
    sampler = WorldSampler("read", readiness=_Fixed(1.0))
    checked = 0
    for rnd, seat in _tables(5):
        w = sampler.sample(rnd, seat, seed=checked).round
        for s in range(rnd.players):
            if s == seat or rnd.riichi[s]:
                continue
            counts = T.counts34(w.hands[s])
            assert shanten(counts) == 0
            river = {T.kind_of(t) for t in rnd.rivers[s]}
            assert not set(waits(counts)) & river
            checked += 1
    assert checked > 40


def test_no_readiness_deals_hands_that_are_not_ready() -> None:
    sampler = WorldSampler("read", readiness=_Fixed(0.0))
    checked = 0
    for rnd, seat in _tables(6):
        w = sampler.sample(rnd, seat, seed=checked).round
        for s in range(rnd.players):
            if s != seat and not rnd.riichi[s] and len(w.hands[s]) >= 4:
                assert shanten(T.counts34(w.hands[s])) > 0
                checked += 1
    assert checked > 40


def test_the_share_of_ready_worlds_follows_the_probability() -> None:
    sampler = WorldSampler("read", readiness=_Fixed(0.3))
    (rnd, seat), = _tables(7, want=1)
    prep = sampler.prepare(rnd, seat)
    ready = total = 0
    for i in range(400):
        hands = sampler.hands(prep, i).hands
        for s, h in hands.items():
            if not rnd.riichi[s] and len(h) >= 4:
                total += 1
                ready += shanten(T.counts34(h)) == 0
    assert total >= 400 and abs(ready / total - 0.3) < 0.06


def test_the_model_reads_only_what_the_seat_has_seen() -> None:
    """The probabilities come from the seat's masked events: swapping every tile the seat
    cannot see leaves them unchanged."""
    reader = default_readiness()
    for rnd, seat in _tables(8, want=6):
        others = [s for s in range(rnd.players) if s != seat]
        a = reader.probabilities(rnd._observe(seat).events, others)
        b = reader.probabilities(swap_hidden_tiles(rnd, seat)._observe(seat).events, others)
        assert a == b
        assert all(0.0 < p < 1.0 for p in a.values())


def test_readiness_rises_through_a_hand() -> None:
    """The shipped model expects few ready opponents after four discards and more late in a
    hand: the average over a game's decisions, early against late."""
    reader = default_readiness()
    early: list[float] = []
    late: list[float] = []
    for seed in range(9, 13):
        for rnd, d in decisions(seed, limit=2000):
            n = len(rnd.rivers[d.seat])
            if rnd.phase != "act" or rnd.turn != d.seat or 5 < n < 10:
                continue
            others = [s for s in range(rnd.players) if s != d.seat and not rnd.riichi[s]]
            ps = reader.probabilities(rnd._observe(d.seat).events, others).values()
            (early if n <= 5 else late).extend(ps)
    assert len(early) > 100 and len(late) > 30
    assert 3 * sum(early) / len(early) < sum(late) / len(late)


def test_uniform_worlds_do_not_read_the_model() -> None:
    assert WorldSampler().readiness is None
    assert WorldSampler("shaped").readiness is None
    assert WorldSampler("read").readiness is default_readiness()


def test_the_setting_is_known_and_refused_beside_the_instrument() -> None:
    assert SearchSettings(opponents="read").opponents == "read"
    with pytest.raises(ValueError, match="OPPONENTS would be ignored"):
        SearchSettings(opponents="read", sight="hands")
    with pytest.raises(ValueError, match="TENPAI_SEARCH_OPPONENTS"):
        SearchSettings(opponents="psychic")


def test_read_waits_choose_ready_shapes_by_the_deal_in_model() -> None:
    """With every kind's odds but one tiny, the chosen ready hands wait on that kind far more
    often than the first ready shape found does; the worlds stay ready and outside the river."""

    class _Favour(_Fixed):
        kind = 0

        def wait_probabilities(self, events, hand, seats):  # type: ignore[no-untyped-def]
            return {s: [0.5 if k == self.kind else 0.001 for k in range(34)] for s in seats}

    plain = WorldSampler("read", readiness=_Fixed(1.0))
    favour = _Favour(1.0)
    read = WorldSampler("read", readiness=favour, read_waits=True)
    hits = {"plain": 0, "read": 0}
    total = 0
    for rnd, seat in _tables(5):
        for s in range(rnd.players):
            if s == seat or rnd.riichi[s]:
                continue
            river = {T.kind_of(t) for t in rnd.rivers[s]}
            favour.kind = next(k for k in (4, 13, 22, 5, 14) if k not in river)
            for i in range(4):
                total += 1
                for name, sampler in (("plain", plain), ("read", read)):
                    counts = T.counts34(sampler.sample(rnd, seat, seed=i).round.hands[s])
                    w = set(waits(counts))
                    assert w and not w & river
                    hits[name] += favour.kind in w
    assert total > 100
    assert hits["read"] > 2 * hits["plain"] + 10, hits


def test_read_waits_are_refused_where_no_world_has_a_ready_hand() -> None:
    with pytest.raises(ValueError, match=r"READ_WAITS=1 .* deals none"):
        SearchSettings(read_waits=True, riichi_ready=False)
    assert SearchSettings(read_waits=True, riichi_ready=False, opponents="read").read_waits
    with pytest.raises(ValueError, match="READ_WAITS would be ignored"):
        SearchSettings(read_waits=True, sight="hands")


def test_the_read_worlds_play_behind_the_mjai_bot() -> None:
    """The model reads only the seat's events, so the setting works where the table is
    rebuilt from them (mjai, the Tenhou client), unlike the SIGHT instrument."""
    from tenpai.agents.efficiency import EfficiencyAgent
    from tenpai.search.agent import SearchAgent
    from tenpai.search.prior import AgentPrior

    from .helpers import play_through_mjai_bot

    settings = SearchSettings(budget_ms=1e6, worlds=2, top_k=2, threshold=1.0,
                              opponents="read", read_waits=True)
    agent = SearchAgent(AgentPrior(EfficiencyAgent(3), 0.5), settings=settings, seed=3)
    assert play_through_mjai_bot(agent, seed=3) > 5
    assert sum(s.searched for s in agent.log) >= 3


def test_read_yaku_deals_ready_hands_that_can_win_by_ron() -> None:
    """Under "read" about half the closed ready hands have no yaku (they could only win by
    tsumo); under "read-yaku" every ready hand dealt outside riichi can win by ron on one of its
    waits, judged by the world's own engine."""
    ron = {"read": [0, 0], "read-yaku": [0, 0]}
    for model in ron:
        sampler = WorldSampler(model, readiness=_Fixed(1.0))  # type: ignore[arg-type]
        for seed in (5, 6):
            for i, (rnd, seat) in enumerate(_tables(seed, want=20)):
                w = sampler.sample(rnd, seat, seed=i).round
                for s in range(rnd.players):
                    if s == seat or rnd.riichi[s]:
                        continue
                    kinds = waits(T.counts34(w.hands[s]))
                    assert kinds
                    ron[model][0] += any(w._score(s, seat, k, tsumo=False) is not None
                                         for k in kinds)
                    ron[model][1] += 1
    assert ron["read-yaku"][1] > 60 and ron["read-yaku"][0] == ron["read-yaku"][1]
    assert ron["read"][0] < 0.9 * ron["read"][1]


def test_can_ron_asks_for_a_yaku_and_reads_no_hidden_tile() -> None:
    from tenpai.search.worlds import can_ron

    from .helpers import swap_hidden_tiles

    simples = T.parse("234m567p345s678s6s")  # all simples, waiting on 6s alone
    plain = T.parse("123m567p345s678s9s")  # no yaku without riichi, waiting on 9s alone
    checked = 0
    for rnd, seat in _tables(7, want=10):
        other = swap_hidden_tiles(rnd, seat)
        for s in range(rnd.players):
            if s == seat or rnd.melds[s]:
                continue
            for table in (rnd, other):
                assert can_ron(table, s, seat, simples, [T.kind_of(simples[-1])])
                assert not can_ron(table, s, seat, plain, [T.kind_of(plain[-1])])
            checked += 1
    assert checked > 10


def test_can_ron_skips_a_fifth_copy() -> None:
    """A concealed hand waiting alone on the kind its pon already holds three of waits on a
    fifth copy: no ron, and no error from the scorer."""
    from tenpai.search.worlds import can_ron

    from .helpers import find

    rnd, d = find(lambda r, d: any(m.type == "pon" for s in range(r.players) if s != d.seat
                                   for m in r.melds[s]))
    s = next(s for s in range(rnd.players) if s != d.seat
             and any(m.type == "pon" for m in rnd.melds[s]))
    pon = next(m for m in rnd.melds[s] if m.type == "pon")
    k = T.kind_of(pon.tiles[0])
    sets = [t for t in T.parse("234m456p678s345p") if T.kind_of(t) != k][:len(rnd.hands[s]) - 1]
    hand = [k, *sets]
    assert k in waits(T.counts34(hand))
    assert not can_ron(rnd, s, d.seat, hand, [k])
