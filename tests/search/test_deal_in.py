"""``DEAL_IN=model``: a candidate discard's immediate deal-in to the opponents outside riichi,
valued in closed form from 001's models and folded into every world's value."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.reading.models import load_models
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.search.deal_in import Danger, DealInModel, adjusted, world_hits
from tenpai.search.playout import PointsValue
from tenpai.search.prior import Candidate
from tenpai.search.readiness import Readiness, default_readiness
from tenpai.search.settings import SearchSettings

from .helpers import decisions, swap_hidden_tiles


class _Waiting(Readiness):
    """Every opponent asked about is ready with probability ``ready`` and waits on ``kind``
    alone: what the search does with the odds is tested apart from what the model says."""

    def __init__(self, ready: float, kind: int) -> None:
        super().__init__(load_models())
        self.ready, self.kind = ready, kind
        self.asked: list[int] = []

    def dangers(self, events: Sequence[Event], hand: Sequence[int], seats: Iterable[int],
                kinds: Iterable[int]) -> dict[int, tuple[float, dict[int, float]]]:
        seats = list(seats)
        self.asked = seats
        return {s: (self.ready, {k: 1.0 if k == self.kind else 0.0 for k in kinds})
                for s in seats}


def _discard_decisions(seed: int, want: int = 6) -> list[tuple[RiichiRound, int, list[Event]]]:
    """Own-turn decisions of a seeded efficiency game with three different kinds to discard
    (copies of the table), a few discards in."""
    from tenpai.engine.snapshot import clone

    out = []
    for rnd, d in decisions(seed, limit=600):
        if rnd.phase != "act" or rnd.turn != d.seat or len(rnd.rivers[d.seat]) < 4:
            continue
        by_kind: dict[int, Event] = {}
        for e in d.legal:
            if e.type == "dahai" and e.pai is not None:
                by_kind.setdefault(T.kind_of(e.pai), e)
        if len(by_kind) >= 3:
            out.append((clone(rnd), d.seat, list(by_kind.values())[:3]))
            if len(out) >= want:
                break
    return out


def _cands(actions: Sequence[Event]) -> list[Candidate]:
    return [Candidate(a, 1.0 / len(actions)) for a in actions]


def test_a_certain_wait_deals_in_and_the_others_are_safe() -> None:
    value = PointsValue()
    for rnd, seat, actions in _discard_decisions(3):
        kind = T.kind_of(actions[1].pai or 0)
        model = DealInModel("quiet", _Waiting(1.0, kind))
        got = model.dangers(rnd, seat, _cands(actions), value, rnd._observe(seat).events)
        assert got is not None
        quiet = [s for s in range(rnd.players) if s != seat and not rnd.riichi[s]]
        assert sorted(model.readiness.asked) == quiet  # type: ignore[attr-defined]
        if not quiet:
            continue
        assert got[1].odds == 1.0 and got[0].odds == got[2].odds == 0.0
        worst = min(model.ron_value(rnd, seat, s, value) for s in quiet)
        assert got[1].value <= max(model.ron_value(rnd, seat, s, value) for s in quiet)
        assert got[1].value >= worst and got[1].value < 0


def test_the_odds_of_several_opponents_combine_as_independent_chances() -> None:
    rnd, seat, actions = _discard_decisions(4, want=1)[0]
    quiet = [s for s in range(rnd.players) if s != seat and not rnd.riichi[s]]
    kind = T.kind_of(actions[0].pai or 0)
    got = DealInModel("quiet", _Waiting(0.3, kind)).dangers(
        rnd, seat, _cands(actions), PointsValue(), rnd._observe(seat).events)
    assert got is not None
    assert got[0].odds == pytest.approx(1 - 0.7 ** len(quiet))


def test_a_deal_in_is_valued_by_the_payment_histogram() -> None:
    """Under the raw-points value a deal-in is worth minus the fitted mean payment of the
    winner's category, the honba added: the payment and the leaf value are wired right."""
    rnd, seat, _ = _discard_decisions(5, want=1)[0]
    models = load_models()
    model = DealInModel("quiet", Readiness(models))
    for s in range(rnd.players):
        if s == seat:
            continue
        cat = models.ron_category(s == rnd.oya, False, any(m.is_open for m in rnd.melds[s]))
        mean = sum(p * q for p, q in models.ron_points[cat])
        want = -(mean + 300 * rnd.honba) / 1000.0
        assert model.ron_value(rnd, seat, s, PointsValue()) == pytest.approx(want)


def test_a_dealer_win_is_worth_more_to_the_dealer_than_a_child_win() -> None:
    """Sanity of the placement value of a deal-in: paying the dealer's larger histogram costs
    the deciding seat more rank utility than paying a child's."""
    from tenpai.search.agent import _leaf_values

    value = _leaf_values(SearchSettings())[4]
    # every category of dealer pays more on average than every child's outside riichi
    rnd, seat, _ = next((r, s, a) for r, s, a in _discard_decisions(6, want=12) if s != r.oya)
    model = DealInModel("quiet")
    child = next(s for s in range(4) if s not in (seat, rnd.oya))
    assert model.ron_value(rnd, seat, rnd.oya, value) < model.ron_value(rnd, seat, child, value)


def test_decisions_with_a_candidate_that_is_not_a_discard_are_left_alone() -> None:
    rnd, seat, actions = _discard_decisions(7, want=1)[0]
    other = Event("reach", actor=seat)
    got = DealInModel("quiet", _Waiting(1.0, 0)).dangers(
        rnd, seat, _cands([actions[0], other]), PointsValue(), rnd._observe(seat).events)
    assert got is None


def test_the_shipped_model_reads_only_what_the_seat_has_seen() -> None:
    """The odds come from the seat's masked events and its own hand: swapping every tile it
    cannot see leaves them unchanged; they are small probabilities, not zero."""
    model = DealInModel("quiet", default_readiness())
    value = PointsValue()
    seen = 0
    for rnd, seat, actions in _discard_decisions(8, want=4):
        a = model.dangers(rnd, seat, _cands(actions), value, rnd._observe(seat).events)
        twin = swap_hidden_tiles(rnd, seat)
        b = model.dangers(twin, seat, _cands(actions), value, twin._observe(seat).events)
        assert a == b and a is not None
        seen += sum(0.0 < d.odds < 0.5 for d in a)
    assert seen >= 4


def test_the_adjustment_shifts_every_world_by_the_same_rule() -> None:
    values = [[1.0, 2.0], [3.0, -1.0]]
    dangers = [Danger(0.0, -50.0), Danger(0.25, -40.0)]
    assert adjusted(values, dangers) == [[1.0, 0.75 * 2.0 - 10.0], [3.0, -0.75 - 10.0]]


def test_the_search_leaves_a_discard_the_model_marks_as_a_wait() -> None:
    """A search whose worlds see no danger keeps the prior's choice; told that the choice is
    every quiet opponent's certain wait, it leaves it (the shift is the same in every world, so
    the paired rule sees it without noise)."""
    from tenpai.agents.efficiency import EfficiencyAgent
    from tenpai.search.agent import SearchAgent
    from tenpai.search.prior import AgentPrior, PriorAnswer

    for rnd, seat, actions in _discard_decisions(9, want=8):
        if all(rnd.riichi[s] for s in range(rnd.players) if s != seat):
            continue
        cands = _cands(actions)
        pa = PriorAnswer(actions[0], tuple(cands))
        kind = T.kind_of(actions[0].pai or 0)
        settings = SearchSettings(budget_ms=1e6, worlds=6, threshold=1.0, value="points",
                                  deal_in="quiet", policy="fast")
        agent = SearchAgent(AgentPrior(EfficiencyAgent(1), 0.5), settings=settings, seed=1)
        agent.deal_in = None
        if agent._search(rnd, seat, pa) != actions[0]:
            continue  # the worlds alone leave the choice here
        agent.deal_in = DealInModel("quiet", _Waiting(1.0, kind))
        assert agent._search(rnd, seat, pa) != actions[0]
        return
    raise AssertionError("no decision where the worlds alone keep the prior's choice")


def test_the_setting_is_checked() -> None:
    for mode in ("quiet", "riichi", "all", "riichi-model", "model"):
        assert SearchSettings(deal_in=mode).deal_in == mode
        with pytest.raises(ValueError, match="DEAL_IN would be ignored"):
            SearchSettings(deal_in=mode, sight="hands")
    with pytest.raises(ValueError, match=r"DEAL_IN must be worlds, quiet, riichi, all, "
                                         r"riichi-model, model, got .magic"):
        SearchSettings(deal_in="magic")
    with pytest.raises(ValueError, match="OPPONENTS=read already deals them ready hands"):
        SearchSettings(deal_in="quiet", opponents="read")
    assert SearchSettings(deal_in="riichi", opponents="read").deal_in == "riichi"
    with pytest.raises(ValueError, match=r"DEAL_IN=all counts .*RIICHI_READY=0 deals none"):
        SearchSettings(deal_in="all", riichi_ready=False)
    with pytest.raises(ValueError, match=r"DEAL_IN=riichi counts .*WORLDS_MODE=uniform"):
        SearchSettings(deal_in="riichi", worlds_mode="weighted")
    with pytest.raises(ValueError, match="values quiet, riichi, all, riichi-model, model, not"):
        DealInModel("worlds")
    # the wait model needs no ready hand in the worlds, nor unweighted ones
    assert SearchSettings(deal_in="riichi-model", riichi_ready=False,
                          worlds_mode="weighted").deal_in == "riichi-model"
    with pytest.raises(ValueError, match="OPPONENTS=read already deals them ready hands"):
        SearchSettings(deal_in="model", opponents="read")


def _riichi_decisions(want: int = 4) -> list[tuple[RiichiRound, int, list[Event]]]:
    """Own-turn discard decisions with an opponent in riichi (copies), from seeded games."""
    out = []
    for seed in range(20, 60):
        for rnd, seat, actions in _discard_decisions(seed, want=40):
            if any(rnd.riichi[s] for s in range(rnd.players) if s != seat):
                out.append((rnd, seat, actions))
                break
        if len(out) >= want:
            return out
    raise AssertionError("too few decisions with a riichi opponent")


def test_the_riichi_census_counts_the_waits_of_the_worlds_ready_hands() -> None:
    """The census's share of hands waiting on a kind is the worlds' own: it is 0 on the riichi
    player's river (a furiten wait is never dealt), and it matches the share of the worlds
    themselves whose hands win at once on the kind."""
    from tenpai.search.worlds import WorldSampler

    sampler = WorldSampler()
    model = DealInModel("riichi", census=200)
    for rnd, seat, _ in _riichi_decisions(3):
        prep = sampler.prepare(rnd, seat)
        kinds = list(range(34))
        census = model.riichi_census(sampler, prep, kinds, seed=1)
        riichi = [s for s in range(rnd.players) if s != seat and rnd.riichi[s]]
        assert sorted(census) == riichi
        worlds = [world_hits(sampler.sample(rnd, seat, 5000 + j).round, seat)
                  for j in range(200)]
        for s in riichi:
            river = {T.kind_of(t) for t in rnd.rivers[s]}
            assert all(census[s][k] == 0.0 for k in river)
            assert 1.0 <= sum(census[s].values()) <= 6.0  # one to a few waits per hand
        if len(riichi) == 1:
            (s,) = riichi
            for k in kinds:
                share = sum(k in h for h in worlds) / len(worlds)
                assert abs(share - census[s][k]) < 0.12, (k, share, census[s][k])


@pytest.mark.parametrize(("mode", "quiet_read", "riichi_read"), [
    ("quiet", True, False), ("riichi-model", False, True), ("model", True, True)])
def test_the_wait_model_reads_riichi_players_as_ready(mode: str, quiet_read: bool,
                                                      riichi_read: bool) -> None:
    """Under ``riichi-model`` and ``model`` a riichi opponent's odds are the wait model's
    alone (it is ready), without the census; ``quiet`` leaves riichi opponents to the worlds."""
    rnd, seat, actions = _riichi_decisions(1)[0]
    kind = T.kind_of(actions[0].pai or 0)
    reader = _Waiting(0.25, kind)
    model = DealInModel(mode, reader)
    assert not model.riichi_census_used
    got = model.dangers(rnd, seat, _cands(actions), PointsValue(), rnd._observe(seat).events)
    assert got is not None
    others = [s for s in range(rnd.players) if s != seat]
    riichi = [s for s in others if rnd.riichi[s]]
    quiet = [s for s in others if not rnd.riichi[s]]
    assert sorted(reader.asked) == sorted((quiet if quiet_read else [])
                                          + (riichi if riichi_read else []))
    safe = (0.75 ** len(quiet) if quiet_read else 1.0) * (0.0 if riichi_read else 1.0)
    assert got[0].odds == pytest.approx(1.0 - safe)
    assert got[1].odds == got[2].odds == 0.0


def test_a_world_whose_riichi_hand_wins_at_once_takes_the_other_worlds_mean() -> None:
    values = [[1.0, 10.0], [2.0, -40.0], [3.0, 20.0]]
    dangers = [Danger(0.0, -50.0), Danger(0.5, -30.0)]
    got = adjusted(values, dangers, kinds=[4, 7], hits=[frozenset(), frozenset({7}),
                                                        frozenset({1})])
    # candidate 1's world 1 dealt in: its value is the mean of worlds 0 and 2 (15)
    assert got == [[1.0, 0.5 * 10.0 - 15.0], [2.0, 0.5 * 15.0 - 15.0], [3.0, 0.5 * 20.0 - 15.0]]
    # every world dealt in: the deal-in value itself
    assert adjusted([[5.0]], [Danger(1.0, -30.0)], [7], [frozenset({7})]) == [[-30.0]]


def test_a_riichi_decision_is_searched_with_the_census() -> None:
    """End to end: at a decision with a riichi opponent the search records which worlds win
    at once and folds the census in; its values keep the raw values' scale."""
    from tenpai.agents.efficiency import EfficiencyAgent
    from tenpai.search.agent import SearchAgent
    from tenpai.search.prior import AgentPrior, PriorAnswer

    rnd, seat, actions = _riichi_decisions(1)[0]
    cands = _cands(actions)
    settings = SearchSettings(budget_ms=1e6, worlds=8, threshold=1.0, value="points",
                              deal_in="riichi", policy="fast")
    agent = SearchAgent(AgentPrior(EfficiencyAgent(1), 0.5), settings=settings, seed=1)
    assert agent.deal_in is not None and agent.deal_in.reads_riichi
    hits: list[frozenset[int]] = []
    raw, _, _ = agent.world_values(rnd, seat, cands, hits=hits)
    assert len(hits) == len(raw) == 8
    kinds = [T.kind_of(a.pai or 0) for a in actions]
    folded = agent.fold_deal_in(agent.deal_in, agent.sampler.prepare(rnd, seat), cands, kinds,
                                raw, hits)
    assert len(folded) == 8 and all(len(r) == len(cands) for r in folded)
    assert all(abs(v) < 60 for r in folded for v in r)
    pa = PriorAnswer(actions[0], tuple(cands))
    assert agent._search(rnd, seat, pa) in actions
