"""``TENPAI_SEARCH_CALL_OFFERS``: offers to call searched whatever the prior's certainty.

Off (the default), a call offer is searched like any decision, only when the prior gives its
own answer less than the threshold; on, every offer of a pon, chi or open kan is searched with
the pass and the prior's likeliest call among the candidates, and nothing else changes.  A
call candidate's playout continues with the caller's discard as the playout policy chooses it,
in the compiled core as in the Python engine.
"""

from __future__ import annotations

import pytest

from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.engine.flow import Decision
from tenpai.events import Event
from tenpai.rules.riichi import rollout
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.search.agent import SearchAgent, is_call_offer, make_search_agent
from tenpai.search.prior import AgentPrior, Candidate, PriorAnswer
from tenpai.search.settings import SearchSettings

from .helpers import decisions, find, play_last_hand

PON = Event("pon", actor=1, target=0, pai=5, consumed=(5, 5))
CHI_LOW = Event("chi", actor=1, target=0, pai=5, consumed=(6, 7))
CHI_MID = Event("chi", actor=1, target=0, pai=5, consumed=(4, 6))
PASS = Event("none")
DISCARD = Event("dahai", actor=1, pai=5)


def _sure_agent(call_offers: bool, seed: int = 0) -> SearchAgent:
    """A search whose prior (``efficiency``) is sure of every answer (0.99 > threshold 0.9):
    without the setting it searches nothing."""
    settings = SearchSettings(budget_ms=1e6, worlds=2, top_k=2, call_offers=call_offers)
    return SearchAgent(AgentPrior(EfficiencyAgent(seed), 0.99), settings=settings, seed=seed)


def _call_offer(rnd: RiichiRound, d: Decision) -> bool:
    return is_call_offer(d.legal) and rnd.wall.remaining > 20


def test_a_call_offer_is_what_has_a_call_and_a_pass() -> None:
    assert is_call_offer([PON, PASS]) and is_call_offer([CHI_LOW, CHI_MID, PASS])
    assert is_call_offer([Event("daiminkan", actor=1, target=0, pai=5, consumed=(5, 5, 5)),
                          PON, PASS])
    assert not is_call_offer([DISCARD, Event("reach", actor=1)])
    assert not is_call_offer([Event("hora", actor=1, target=0, pai=5), PASS])
    assert not is_call_offer([PON])  # nothing to weigh the call against


def test_a_sure_prior_leaves_call_offers_unsearched_without_the_setting() -> None:
    _rnd, d = find(_call_offer)
    agent = _sure_agent(call_offers=False)
    assert agent.act(d.observation, d.legal) == EfficiencyAgent(0).act(d.observation, d.legal)
    (stat,) = agent.log
    assert stat.call_offer and not stat.searched


def test_the_setting_searches_a_call_offer_with_the_pass_and_the_call() -> None:
    _rnd, d = find(_call_offer)
    agent = _sure_agent(call_offers=True)
    seen: list[list[Event]] = []
    search = agent._search

    def spy(table: RiichiRound, seat: int, pa: PriorAnswer, call_offer: bool = False) -> Event:
        seen.append([c.action for c in agent.candidates(pa, call_offer)])
        return search(table, seat, pa, call_offer)

    agent._search = spy  # type: ignore[method-assign]
    assert agent.act(d.observation, d.legal) in d.legal
    (stat,) = agent.log
    assert stat.call_offer and stat.searched and stat.worlds == 2
    (cands,) = seen
    assert any(e.type == "none" for e in cands)
    assert any(e.type in ("pon", "chi", "daiminkan") for e in cands)
    assert stat.candidates == len(cands)


@pytest.mark.parametrize("seed", [0, 2])
def test_the_setting_searches_exactly_the_call_offers(seed: int) -> None:
    """Through a seeded game with a sure prior: off, nothing is searched; on, every call
    offer and nothing else (the discards, riichi and kans stay the prior's)."""
    off, on = _sure_agent(False, seed), _sure_agent(True, seed)
    play_last_hand(off, seed)
    play_last_hand(on, seed)
    assert not any(s.searched for s in off.log)
    offers = [s for s in on.log if s.call_offer]
    assert offers and all(s.searched for s in offers)
    assert not any(s.searched for s in on.log if not s.call_offer)
    assert sum(s.call_offer for s in off.log) > 0


def _answer(choice: Event, *probs: tuple[Event, float]) -> PriorAnswer:
    return PriorAnswer(choice, tuple(Candidate(e, p) for e, p in probs))


def test_candidates_of_an_offer_keep_the_pass_and_the_likeliest_call() -> None:
    agent = _sure_agent(call_offers=True)
    sure_pass = _answer(PASS, (PASS, 0.97), (CHI_LOW, 0.02), (CHI_MID, 0.006), (PON, 0.004))
    assert [c.action for c in agent.candidates(sure_pass, True)] == [PASS, CHI_LOW]
    # the prior calls a chi and ranks the pass last: the pass is kept, top_k or not
    calling = _answer(CHI_LOW, (CHI_LOW, 0.4), (CHI_MID, 0.3), (PON, 0.2), (PASS, 0.1))
    assert [c.action for c in agent.candidates(calling, True)] == [CHI_LOW, PASS]
    # the prior's chi below a likelier pon (its pon head said no): all three are weighed
    chi_below_pon = _answer(CHI_MID, (PON, 0.45), (CHI_MID, 0.33), (PASS, 0.22))
    assert [c.action for c in agent.candidates(chi_below_pon, True)] == [PON, CHI_MID, PASS]
    # without the setting, or at a decision that is no call offer, the old cut: top_k
    plain = _sure_agent(call_offers=False)
    assert [c.action for c in plain.candidates(calling, True)] == [CHI_LOW, CHI_MID]
    assert [c.action for c in agent.candidates(calling, False)] == [CHI_LOW, CHI_MID]


@pytest.mark.parametrize(("value", "expected"), [("1", True), ("on", True), ("0", False),
                                                  ("", False)])
def test_the_variable_reads_as_a_switch(value: str, expected: bool) -> None:
    settings = SearchSettings.from_env({"TENPAI_SEARCH_CALL_OFFERS": value})
    assert settings.call_offers is expected
    assert ("call_offers=True" in settings.describe()) is expected


def test_a_bad_value_is_one_line() -> None:
    with pytest.raises(ValueError, match=r"^TENPAI_SEARCH_CALL_OFFERS: cannot read 'often'"):
        make_search_agent(0, {"TENPAI_SEARCH_CALL_OFFERS": "often"})


def _call_worlds(limit: int) -> list[tuple[RiichiRound, Decision, Event]]:
    """Claim windows of seeded efficiency games with a chi or pon on offer, and the call."""
    from tenpai.engine.snapshot import clone

    out = []
    for seed in range(30):
        for rnd, d in decisions(seed):
            call = next((e for e in d.legal if e.type in ("pon", "chi")), None)
            if call is not None and rnd.wall.remaining > 10:
                out.append((clone(rnd), d, call))
                if len(out) == limit:
                    return out
    return out


@pytest.mark.skipif(not rollout.available(), reason="compiled rollout core not built")
@pytest.mark.parametrize("policy", ["greedy-fold", "fast-fold"])
def test_a_call_is_played_out_with_the_policy_discard_in_both_backends(policy: str) -> None:
    """A call candidate is stepped in Python; the discard it owes is the core's policy's in
    ``CompiledPlayout`` and ``FastPolicy``'s in ``PythonPlayout``: the same hand end."""
    from tenpai.search.compiled_playout import CompiledPlayout
    from tenpai.search.playout import PythonPlayout

    fast, slow = CompiledPlayout(policy), PythonPlayout(policy)
    worlds = _call_worlds(12)
    assert len(worlds) == 12
    for rnd, d, call in worlds:
        passing = next(e for e in d.legal if e.type == "none")
        for first in ({d.seat: call}, {d.seat: passing}):
            for seed in (3, 4):
                assert fast.play_out(rnd, first, seed) == slow.play_out(rnd, first, seed)



def test_the_setting_searches_call_offers_behind_the_mjai_bot() -> None:
    """Over mjai the table is rebuilt from the stream: the offers are searched there too, and
    every answer the bot sends is legal (checked by the helper)."""
    from .helpers import play_through_mjai_bot

    agent = _sure_agent(call_offers=True, seed=2)
    assert play_through_mjai_bot(agent, seed=2) > 0
    offers = [s for s in agent.log if s.call_offer]
    assert offers and all(s.searched for s in offers) and agent.rebuild_failures == 0
    assert not any(s.searched for s in agent.log if not s.call_offer)
