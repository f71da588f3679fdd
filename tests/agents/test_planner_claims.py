"""The planner's draws-and-claims probability (``TENPAI_PLANNER_CLAIMS``): the opponents'
discards counted for sets and the winning tile (model in ``tenpai.rules.mcr.plan.odds``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from tenpai.agents import make_agent
from tenpai.agents.planner import PlannerAgent
from tenpai.agents.planner_settings import PlannerSettings
from tenpai.engine.agent import Agent
from tenpai.events import Event
from tenpai.rules.mcr.plan import (
    OddsError,
    PlanError,
    PlanState,
    claim_completion_probability,
    completion_probability,
    plan,
    target_probability,
)
from tenpai.rules.mcr.plan.targets import set_claims
from tenpai.tiles import parse_counts

_A, _B = 0, 1


def _six_unseen() -> list[int]:
    """Six unseen tiles, one copy each of kinds a and b (the worked cases below)."""
    live = [0] * 34
    live[_A] = live[_B] = 1
    return live


def test_one_winning_tile_worked_by_hand() -> None:
    live = _six_unseen()
    # own draws: 3 of 6 tiles hold the one copy of a with 1 - C(5,3)/C(6,3) = 1/2
    assert completion_probability(((_A, 1),), live, 6, 3) == pytest.approx(0.5)
    # claims at rate 1: 3 opponents x 3 discards, each a uniform pick of the 6 unseen
    w = 1 - (5 / 6) ** 9
    got = claim_completion_probability(((_A, 1),), live, 6, 3, 1.0)
    assert got == pytest.approx(0.5 + 0.5 * w)
    # rate 1/2: half the discards are picks of the pool
    half = claim_completion_probability(((_A, 1),), live, 6, 3, 0.5)
    assert half == pytest.approx(0.5 + 0.5 * (1 - (5 / 6) ** 4.5))
    # no winning discard (a self-draw-only target) and no set claim: the draws only
    assert claim_completion_probability(((_A, 1),), live, 6, 3, 1.0, win_claim=False) == 0.5


def test_a_pung_claim_worked_by_hand() -> None:
    live = _six_unseen()
    q = 1 - (5 / 6) ** 9  # a pung from any of 3 opponents, 3 discards each
    got = claim_completion_probability(((_A, 1),), live, 6, 3, 1.0, set_claims=((_A, 3),),
                                       win_claim=False)
    assert got == pytest.approx(q + (1 - q) * 0.5)


def test_a_chow_claim_and_the_winning_tile_worked_by_hand() -> None:
    live = _six_unseen()
    q = 1 - (5 / 6) ** 3  # a chow: the left player's 3 discards only
    w = 1 - (5 / 6) ** 9  # the winning tile: anyone's 9
    # a claimed: only b is left (drawn with 1/2, else a discard gives it);
    # a not claimed: both drawn (4 of C(6,3) = 20 draws), or one of them short (b alone is
    # drawn in 10 - 4 = 6 draws of 20, likewise a) and that one discarded
    expected = q * (0.5 + 0.5 * w) + (1 - q) * (0.2 + 0.3 * w + 0.3 * w)
    got = claim_completion_probability(((_A, 1), (_B, 1)), live, 6, 3, 1.0,
                                       set_claims=((_A, 1),))
    assert got == pytest.approx(expected)


def test_claims_stay_between_the_draws_only_figure_and_one() -> None:
    rng = random.Random(43)
    for _ in range(300):
        live = [rng.randint(0, 4) for _ in range(34)]
        unseen = sum(live) + rng.randint(0, 40)
        kinds = rng.sample([k for k in range(34) if live[k]], rng.randint(1, 4))
        needed = tuple((k, rng.randint(1, live[k])) for k in kinds)
        claims = tuple((k, rng.choice((1, 3))) for k in kinds if rng.random() < 0.5)
        draws = rng.randint(0, 25)
        base = completion_probability(needed, live, unseen, draws)
        previous = base
        for rate in (0.0, 0.2, 0.5, 1.0):
            p = claim_completion_probability(needed, live, unseen, draws, rate, claims)
            assert 0.0 <= base <= p <= 1.0
            assert p >= previous - 1e-12  # more discards from the pool never hurt
            previous = p
        assert claim_completion_probability(needed, live, unseen, draws, 0.0, claims) == base


def test_impossible_targets_and_bad_rates() -> None:
    live = _six_unseen()
    assert claim_completion_probability(((_A, 2),), live, 6, 3, 1.0, ((_A, 3),)) == 0.0
    assert claim_completion_probability((), live, 6, 3, 1.0) == 1.0
    for rate in (-0.1, 1.5, float("nan")):
        with pytest.raises(OddsError, match="rate"):
            claim_completion_probability(((_A, 1),), live, 6, 3, rate)
    with pytest.raises(PlanError, match="claim_rate"):
        PlanState(tuple(parse_counts("12345678m234s55p")), claim_rate=2.0)


def test_which_needed_kinds_a_discard_can_bring() -> None:
    hand = parse_counts("55m")
    target = parse_counts("555m")
    assert set_claims("free", tuple(target), hand, ((4, 1),)) == ((4, 3),)
    hand = parse_counts("46p")
    target = parse_counts("456p")
    five_p = 9 + 4
    assert set_claims("free", tuple(target), hand, ((five_p, 1),)) == ((five_p, 1),)
    # a concealed shape never claims a set (only its winning tile)
    assert set_claims("seven pairs", tuple(parse_counts("55m")), parse_counts("55m"),
                      ((4, 1),)) == ()
    # honours never make a chow
    assert set_claims("free", tuple(parse_counts("111z")), parse_counts("1z"), ((27, 2),)) == ()


@pytest.mark.parametrize("text", ["12345678m234s55p7z", "1122m3344p5566s7z1s",
                                  "113355m2468p99s12z"])
def test_every_target_is_at_least_as_likely_with_claims(text: str) -> None:
    counts = parse_counts(text)
    state = PlanState(tuple(counts), live=tuple(4 - c for c in counts), draws=10)
    plain = {(t.family, t.hand): t for t in plan(state)}
    with_claims = plan(replace(state, claim_rate=0.5))
    assert with_claims and {(t.family, t.hand) for t in with_claims} == set(plain)
    raised = 0
    for t in with_claims:
        p0 = plain[(t.family, t.hand)].probability
        assert p0 <= t.probability <= 1.0
        raised += t.probability > p0
    assert raised > 0
    assert with_claims == plan(replace(state, claim_rate=0.5))  # deterministic


def test_a_self_draw_only_target_gets_no_winning_discard() -> None:
    # a random deal (seed 5) whose targets include hands that reach 8 only self-drawn
    counts = parse_counts("258m1278p13789s26z")
    state = PlanState(tuple(counts), live=tuple(4 - c for c in counts), draws=12,
                      claim_rate=0.3)
    targets = plan(state)
    self_only = [t for t in targets if t.self_draw_only]
    assert self_only and len(self_only) < len(targets)
    for t in targets:
        without = target_probability(state, t.family, t.hand, t.needed, state.unseen, False)
        with_win = target_probability(state, t.family, t.hand, t.needed, state.unseen, True)
        assert t.probability == (without if t.self_draw_only else with_win)
        assert without < with_win


def test_the_claims_planner_plays_legal_deterministic_games_of_its_own(
        first_hand: Callable[..., list[Event]]) -> None:
    def table(claims: float) -> list[Agent]:
        s = PlannerSettings(claims=claims)
        return [PlannerAgent(0, settings=s), make_agent("efficiency", 1),
                PlannerAgent(2, settings=s), make_agent("efficiency", 3)]

    games = [first_hand(table(0.5), seed) for seed in range(3)]
    assert games[0] == first_hand(table(0.5), 0)
    assert any(e.type in ("hora", "ryukyoku") for e in games[0])
    # the setting changes play somewhere (else it would measure nothing)
    assert any(g != first_hand(table(0.0), seed) for seed, g in enumerate(games))


def test_the_setting_is_read_and_named() -> None:
    s = PlannerSettings.from_env({"TENPAI_PLANNER_CLAIMS": "0.4"})
    assert s.claims == 0.4 and s.describe() == "claims=0.4"
    assert PlannerSettings.from_env({"TENPAI_PLANNER_CLAIMS": "0"}) == PlannerSettings()
    assert PlannerAgent(0, settings=s).identity == "claims=0.4"


@pytest.mark.parametrize("value", ["-0.1", "1.5", "nan", "lots"])
def test_a_bad_claims_setting_is_one_line(
        value: str, bad_setting_is_one_line: Callable[[str, str], None]) -> None:
    bad_setting_is_one_line("TENPAI_PLANNER_CLAIMS", value)


def test_the_arena_refuses_a_bad_claims_setting_with_exit_2(
        arena_refuses: Callable[..., None]) -> None:
    arena_refuses("TENPAI_PLANNER_CLAIMS", "2")
