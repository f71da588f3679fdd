"""Weighted worlds: which discards are scored, the resampling, and that the network's
likelihood prefers the true hands to sampled ones."""

from __future__ import annotations

from collections import Counter

import pytest

from tenpai import tiles as T
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.events import Event
from tenpai.search.agent import SearchAgent
from tenpai.search.prior import AgentPrior
from tenpai.search.settings import SearchSettings
from tenpai.search.weights import (
    MAX_SCORED,
    DiscardLikelihood,
    effective_size,
    normalised,
    scored_discards,
    systematic_resample,
)
from tenpai.search.worlds import WorldSampler

from .helpers import find, play_last_hand


def _d(actor: int, tile: str, tsumogiri: bool) -> Event:
    return Event("dahai", actor=actor, pai=T.from_mjai(tile), tsumogiri=tsumogiri)


def _t(actor: int) -> Event:
    return Event("tsumo", actor=actor)


def test_the_walk_stops_at_the_first_hand_tile_discard() -> None:
    events = [_t(1), _d(1, "1m", False), _t(1), _d(1, "9p", False), _t(2), _d(2, "E", True),
              _t(1), _d(1, "2s", True)]
    # latest (tsumogiri) first, then the tedashi 9p; the 1m before it is not exact
    assert scored_discards(events, 1) == [7, 3]
    assert scored_discards(events, 2) == [5]
    assert scored_discards(events, 3) == []


def test_a_call_ends_the_walk_and_forced_riichi_discards_are_skipped() -> None:
    pon = Event("pon", actor=1, target=0, pai=T.from_mjai("5p"),
                consumed=(T.from_mjai("5p"), T.from_mjai("5p")))
    events = [_d(1, "1m", False), pon, _d(1, "N", False)]
    assert scored_discards(events, 1) == [2]
    riichi = [_d(2, "3m", False), _t(2), Event("reach", actor=2), _d(2, "7s", True),
              Event("reach_accepted", actor=2), _t(2), _d(2, "4p", True), _t(2),
              _d(2, "W", True)]
    # the declaration discard is scored (a tsumogiri, so the walk goes on to the 3m); the
    # forced discards after it are not
    assert scored_discards(riichi, 2) == [3, 0]


def test_a_long_tsumogiri_walk_keeps_its_first_and_last() -> None:
    events = [_d(1, "1m", False)] + [_d(1, "N", True)] * 5
    got = scored_discards(events, 1)
    assert len(got) == MAX_SCORED
    assert got == [5, 0]


def test_systematic_resampling_follows_the_weights() -> None:
    picks = systematic_resample([0.5, 0.0, 0.25, 0.25], 8, 0.3)
    assert Counter(picks) == {0: 4, 2: 2, 3: 2}
    assert systematic_resample([1.0, 1.0], 1, 0.99) == [1]
    with pytest.raises(ValueError):
        systematic_resample([0.0, 0.0], 4, 0.5)


def test_weights_normalise_and_effective_size() -> None:
    w = normalised([-1000.0, -1000.0])
    assert w == [0.5, 0.5]
    assert effective_size(w) == pytest.approx(2.0)
    assert effective_size(normalised([0.0, -50.0, -50.0])) == pytest.approx(1.0)


@pytest.fixture(scope="module")
def pg() -> object:
    pytest.importorskip("torch")
    from tenpai.agents.pg import PGAgent

    return PGAgent()


def test_the_true_hands_are_more_likely_than_sampled_ones(pg: object) -> None:
    likelihood = DiscardLikelihood(pg)
    sampler = WorldSampler()
    wins = total = 0
    for seed in range(3):
        rnd, d = find(lambda r, d: (r.phase == "act" and r.turn == d.seat
                                    and len(r.events) > 45), range(seed, seed + 1))
        events = rnd._observe(d.seat).events
        evidence = likelihood.evidence(events, d.seat, 4)
        assert evidence and all(e.seat != d.seat for e in evidence)
        true = likelihood.log_weights(evidence, [dict(enumerate(rnd.hands))])[0]
        pool = [sampler.sample_hands(rnd, d.seat, j).hands for j in range(16)]
        logw = likelihood.log_weights(evidence, pool)
        wins += sum(true > v for v in logw)
        total += len(logw)
    assert wins >= 0.8 * total


def test_one_weighted_decision_is_reproducible(pg: object) -> None:
    settings = SearchSettings(budget_ms=1e6, worlds=3, top_k=2, worlds_mode="weighted", pool=3)
    rnd, d = find(lambda r, d: (r.phase == "act" and r.turn == d.seat and len(r.events) > 45),
                  range(7, 8))
    picks = []
    for _ in range(2):
        agent = SearchAgent(AgentPrior(EfficiencyAgent(5), 0.5), settings=settings, seed=5,
                            weigher=DiscardLikelihood(pg))
        hands, ess = agent.weighted_pool(rnd, d.seat)
        assert len(hands) == 3 and 1.0 <= ess <= 9.0
        picks.append([h.hands for h in hands])
        action = agent.act(d.observation, d.legal)
        assert action in d.legal
        assert agent.log[-1].searched and agent.log[-1].effective_worlds == ess
    assert picks[0] == picks[1]


@pytest.mark.slow
def test_weighted_search_plays_a_reproducible_game(pg: object) -> None:
    settings = SearchSettings(budget_ms=1e6, worlds=2, top_k=2, worlds_mode="weighted", pool=2)

    def play() -> tuple[list[Event], SearchAgent]:
        agent = SearchAgent(AgentPrior(EfficiencyAgent(5), 0.5), settings=settings, seed=5,
                            weigher=DiscardLikelihood(pg))
        return play_last_hand(agent, 5), agent

    a, agent = play()
    b, _ = play()
    assert a == b
    searched = [s for s in agent.log if s.searched]
    assert searched and all(1.0 <= s.effective_worlds <= 4.0 for s in searched)


def test_weighted_worlds_need_a_network_prior() -> None:
    with pytest.raises(ValueError, match="needs a network prior"):
        SearchAgent(AgentPrior(EfficiencyAgent()),
                    settings=SearchSettings(worlds_mode="weighted"))
