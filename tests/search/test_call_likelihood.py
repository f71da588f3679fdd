"""World weights from the opponents' calls and passes on calls: which decisions are scored
exactly, what a hand may claim, and that the prior network's claim heads move the weights."""

from __future__ import annotations

import pytest

from tenpai import tiles as T
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.events import Event
from tenpai.search.agent import SearchAgent
from tenpai.search.call_likelihood import CallLikelihood, ClaimWindow, claim_options, claim_window
from tenpai.search.prior import AgentPrior
from tenpai.search.settings import SearchSettings
from tenpai.search.weights import DiscardLikelihood, SummedLikelihood

from .helpers import HAND0, dahai, find, tile, tiles, tsumo


def _start() -> Event:
    return Event("start_kyoku", bakaze=0, kyoku=1, honba=0, kyotaku=0, oya=0,
                 scores=(25000,) * 4, dora_marker=tile("2p"),
                 tehais=(HAND0, None, None, None))


def test_the_window_starts_after_the_last_hand_tile_discard() -> None:
    events = [_start(), tsumo(1), dahai(1, "1p"), tsumo(1), dahai(1, "N", True), tsumo(2),
              dahai(2, "9m", True)]
    assert claim_window(events, 1) == ClaimWindow(3)   # after its tedashi 1p
    assert claim_window(events, 2) == ClaimWindow(1)   # only tsumogiri: the whole hand
    assert claim_window(events, 3) == ClaimWindow(1)   # nothing played yet


def test_a_call_followed_by_its_discard_is_scored_with_that_discard() -> None:
    pon = Event("pon", actor=1, target=3, pai=tile("C"), consumed=tiles("C", "C"))
    events = [_start(), tsumo(3), dahai(3, "C"), pon, dahai(1, "9m"), tsumo(2), dahai(2, "W", True)]
    assert claim_window(events, 1) == ClaimWindow(5, 3, (tile("9m"),))
    kan = Event("daiminkan", actor=1, target=3, pai=tile("C"), consumed=tiles("C", "C", "C"))
    events = [_start(), tsumo(3), dahai(3, "C"), kan, tsumo(1), dahai(1, "9m", True)]
    assert claim_window(events, 1) == ClaimWindow(4, 3, ())
    ankan = Event("ankan", actor=1, consumed=tiles("N", "N", "N", "N"))
    events = [_start(), tsumo(1), ankan, tsumo(1), dahai(1, "9m", True)]
    assert claim_window(events, 1) == ClaimWindow(3)


def test_claim_options_follow_the_table_rules() -> None:
    hand = T.counts34(list(tiles("3m", "4m", "6m", "C", "C", "1p", "2p", "3p", "7s", "8s",
                                 "9s", "E", "E")))
    assert claim_options(hand, tile("C"), chi_open=False, kan_open=True) == (True, False, ())
    assert claim_options(hand, tile("5m"), chi_open=True, kan_open=True) == (False, False, (2, 3))
    assert claim_options(hand, tile("5m"), chi_open=False, kan_open=True) == (False, False, ())
    # kuikae: a pon that would leave only the called kind to discard is not offered
    pair_and_one = T.counts34(list(tiles("C", "C", "C", "E")))
    assert claim_options(pair_and_one, tile("C"), False, True) == (True, True, ())
    only_kind = T.counts34(list(tiles("C", "C", "C")))
    assert claim_options(only_kind, tile("C"), False, False) == (False, False, ())


@pytest.fixture(scope="module")
def pg() -> object:
    pytest.importorskip("torch")
    from tenpai.agents.pg import PGAgent

    return PGAgent()


#: Seat 1 throws a white dragon; seats 2 and 3 pass (seat 2 draws next).
PASS_STREAM = [_start(), tsumo(0, "N"), dahai(0, "N", True), tsumo(1), dahai(1, "P"), tsumo(2)]
REST = tiles("1m", "4m", "7m", "2p", "5p", "8p", "3s", "6s", "9s", "S", "W")


def _world(seat2: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    return {1: tiles("1s", "4s", "7s", "1p", "4p", "7p", "2m", "5m", "8m", "F", "F", "N", "N"),
            2: seat2, 3: tiles("2s", "5s", "8s", "3p", "6p", "9p", "3m", "6m", "9m", "1s",
                                "4s", "7s", "S")}


def test_kans_of_an_earlier_hand_do_not_close_the_open_kan(pg: object) -> None:
    kans = [Event("ankan", actor=a, consumed=tiles(k, k, k, k))
            for a, k in ((1, "1m"), (2, "2m"), (3, "3m"), (1, "4m"))]
    earlier = [_start(), *kans, Event("ryukyoku")]
    evidence = CallLikelihood(pg).evidence([*earlier, *PASS_STREAM], 0, 4)
    assert evidence and all(e.kan_open for e in evidence)
    assert not any(e.kan_open for e in CallLikelihood(pg).evidence(
        [PASS_STREAM[0], *kans, *PASS_STREAM[1:]], 0, 4))


def test_no_chi_is_scored_at_three_seats(pg: object) -> None:
    """Three-player Riichi has no chi: the next seat's pass on a suited tile is no evidence
    there (it was scored as a passed chi before)."""
    def stream(players: int) -> list[Event]:
        start = Event("start_kyoku", bakaze=0, kyoku=1, honba=0, kyotaku=0, oya=0,
                      scores=(35000,) * players if players == 3 else (25000,) * 4,
                      dora_marker=tile("2p"), tehais=(HAND0, *(None,) * (players - 1)))
        return [start, tsumo(0, "N"), dahai(0, "N", True), tsumo(1), dahai(1, "5p"), tsumo(2)]

    four = {e.seat: e.chi_open for e in CallLikelihood(pg).evidence(stream(4), 0, 4)}
    three = {e.seat: e.chi_open for e in CallLikelihood(pg).evidence(stream(3), 0, 3)}
    assert four[2] and not four[3]
    assert set(three) == {2} and not three[2]


def test_a_pass_on_a_pair_weighs_the_world_down(pg: object) -> None:
    likelihood = CallLikelihood(pg)
    evidence = likelihood.evidence(PASS_STREAM, 0, 4)
    assert {(e.seat, e.answer) for e in evidence} == {(2, "none"), (3, "none")}
    with_pair = _world((*REST, tile("P"), tile("P")))
    without = _world((*REST, tile("C"), tile("F")))
    logw = likelihood.log_weights(evidence, [with_pair, without])
    # the world without a pair of white dragons faced no decision: nothing to score
    assert logw[1] == 0.0
    # holding the pair and passing is what the network finds unlikely
    assert logw[0] < -0.1
    assert likelihood.log_weights(evidence, [with_pair, without]) == logw  # deterministic


def test_a_call_moves_the_weights_by_the_hand_it_was_made_with(pg: object) -> None:
    pon = Event("pon", actor=1, target=0, pai=tile("E"), consumed=tiles("E", "E"))
    events = [_start(), tsumo(0, "N"), dahai(0, "E"), pon, dahai(1, "9m"), tsumo(2)]
    likelihood = CallLikelihood(pg)
    evidence = likelihood.evidence(events, 0, 4)
    call = [e for e in evidence if e.seat == 1]
    assert len(call) == 1 and call[0].answer == "pon"
    assert call[0].extra == tiles("9m", "E", "E")
    # seat 1 now holds 10 tiles; two hands for it, the others' hands hold nothing claimable
    honours = tiles("1m", "9m", "1p", "9p", "1s", "9s", "S", "W", "N", "P")
    tanyao = tiles("3m", "4m", "5m", "4p", "5p", "6p", "6s", "7s", "2s", "2s")
    quiet = tiles("2m", "5m", "8m", "3p", "6p", "9p", "4s", "7s", "1s", "S", "W", "N", "F")
    worlds = [{1: h, 2: quiet, 3: quiet} for h in (honours, tanyao)]
    logw = likelihood.log_weights(call, worlds)
    assert all(v < 0.0 for v in logw)
    assert logw[0] != logw[1]
    # no call observed, no call scored: the same worlds weigh the same
    assert likelihood.log_weights([], worlds) == [0.0, 0.0]


def test_temperature_divides_the_log_likelihood(pg: object) -> None:
    evidence = CallLikelihood(pg).evidence(PASS_STREAM, 0, 4)
    world = _world((*REST, tile("P"), tile("P")))
    one = CallLikelihood(pg).log_weights(evidence, [world])[0]
    four = CallLikelihood(pg, 4.0).log_weights(evidence, [world])[0]
    assert four == pytest.approx(one / 4.0)


def test_bad_values_are_refused(pg: object) -> None:
    with pytest.raises(ValueError, match="temperature must be > 0"):
        CallLikelihood(pg, 0.0)

    from types import SimpleNamespace

    no_claims = SimpleNamespace(bundle=SimpleNamespace(heads={"discard": None}))
    with pytest.raises(ValueError, match="no pon head"):
        CallLikelihood(no_claims)
    with pytest.raises(ValueError, match="needs at least one part"):
        SummedLikelihood([])


def test_true_hands_explain_real_calls_better_than_sampled_ones(pg: object) -> None:
    """In efficiency games (which call by a rule, not like pg) the calls' likelihood still
    varies over sampled worlds, and the sum with the discards' is what the agent uses."""
    from tenpai.search.worlds import WorldSampler

    rnd, d = find(lambda r, d: (r.phase == "act" and r.turn == d.seat and len(r.events) > 60
                                and any(e.type in ("pon", "chi") for e in r.events)),
                  range(0, 10))
    events = rnd._observe(d.seat).events
    calls = CallLikelihood(pg)
    evidence = calls.evidence(events, d.seat, 4)
    assert any(e.answer in ("pon", "chi") for e in evidence)
    pool = [WorldSampler().sample_hands(rnd, d.seat, j).hands for j in range(16)]
    logw = calls.log_weights(evidence, pool)
    assert len(set(logw)) > 1
    summed = SummedLikelihood([DiscardLikelihood(pg), calls])
    both = summed.log_weights(summed.evidence(events, d.seat, 4), pool)
    discards = DiscardLikelihood(pg)
    alone = discards.log_weights(discards.evidence(events, d.seat, 4), pool)
    assert both == pytest.approx([a + b for a, b in zip(alone, logw)])


def test_search_weighs_calls_when_asked_and_stays_reproducible(pg: object) -> None:
    settings = SearchSettings(budget_ms=1e6, worlds=3, top_k=2, worlds_mode="weighted", pool=3,
                              weight_calls=True)
    rnd, d = find(lambda r, d: (r.phase == "act" and r.turn == d.seat and len(r.events) > 60
                                and any(e.type in ("pon", "chi") for e in r.events)),
                  range(0, 10))
    picks = []
    for _ in range(2):
        weigher = SummedLikelihood([DiscardLikelihood(pg), CallLikelihood(pg)])
        agent = SearchAgent(AgentPrior(EfficiencyAgent(5), 0.5), settings=settings, seed=5,
                            weigher=weigher)
        hands, ess = agent.weighted_pool(rnd, d.seat)
        picks.append(([h.hands for h in hands], ess))
        action = agent.act(d.observation, d.legal)
        assert action in d.legal
    assert picks[0] == picks[1]


def test_the_registered_agent_builds_the_call_weights_from_its_prior() -> None:
    pytest.importorskip("torch")
    from tenpai.search.agent import make_search_agent

    agent = make_search_agent(0, {"TENPAI_SEARCH_WORLDS_MODE": "weighted",
                                  "TENPAI_SEARCH_WEIGHT_CALLS": "1"})
    assert isinstance(agent.weigher, SummedLikelihood)
    assert [type(p) for p in agent.weigher.parts] == [DiscardLikelihood, CallLikelihood]
    plain = make_search_agent(0, {"TENPAI_SEARCH_WORLDS_MODE": "weighted"})
    assert isinstance(plain.weigher, DiscardLikelihood)
    assert "weight_calls=True" in agent.settings.describe()
