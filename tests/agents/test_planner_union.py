"""The planner's union value (``TENPAI_PLANNER_VALUE=union``): a discard worth the expected
value of the best kept target the draws complete (:mod:`tenpai.rules.mcr.plan.union`)."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence

import numpy as np
import pytest

from tenpai.agents import make_agent
from tenpai.agents.planner import PlannerAgent
from tenpai.agents.planner_settings import PlannerSettings
from tenpai.arena.games import make_game
from tenpai.engine.agent import Agent
from tenpai.events import Event
from tenpai.rules.mcr.plan import (
    PlanError,
    PlanState,
    Target,
    best_by_discard,
    completion_probability,
    decision_seed,
    draw_samples,
    expected_best,
    plan,
    union_by_discard,
    union_value,
)

#: Hands about to discard (nothing else seen): far ones keep hundreds of targets per
#: discard, near ones a single target for most discards.
_HANDS = ("1333556789p15s36z", "12345678m234s55p7z", "1122m3344p5566s7z1s", "123m456p789s123z55m")


@pytest.mark.parametrize("text", _HANDS)
@pytest.mark.parametrize("draws", [6, 12])
def test_union_is_never_below_the_single_best_target(
        text: str, draws: int, hand_state: Callable[..., PlanState]) -> None:
    state = hand_state(text, draws=draws)
    best = best_by_discard(state)
    union = union_by_discard(state)
    assert union.keys() == best.keys()
    targets = plan(state)
    if any(sum(t.keeps(k) for t in targets) > 1 for k in best):
        assert any(union[k] > best[k].value + 1e-9 for k in best)  # several targets add
    for k, t in best.items():
        assert union[k] >= t.value - 1e-12, (text, k)


def test_union_equals_the_single_best_when_one_target_is_kept(
        hand_state: Callable[..., PlanState]) -> None:
    state = hand_state("12345678m234s55p7z")
    targets = plan(state)
    best = best_by_discard(state)
    union = union_by_discard(state)
    single = [k for k in best if sum(t.keeps(k) for t in targets) == 1]
    several = [k for k in best if sum(t.keeps(k) for t in targets) > 1]
    assert single and several
    for k in single:
        assert union[k] == best[k].value


def _target(needed: tuple[tuple[int, int], ...], points: int, probability: float,
            self_draw_only: bool = False) -> Target:
    """A target with the given needs (its hand and fans do not enter the union value)."""
    return Target("test", (0,) * 34, needed, (), (("test", points),), points, needed[0][0],
                  self_draw_only, probability)


def test_two_disjoint_targets_match_inclusion_exclusion() -> None:
    # A needs two 5m, B one 3p and one 7s; 3 copies of 5m live, 3 of 3p, 4 of 7s, 100 unseen
    live = [0] * 34
    live[4], live[11], live[24], live[30] = 3, 3, 4, 90
    unseen, draws = sum(live), 20
    need_a, need_b = ((4, 2),), ((11, 1), (24, 1))
    p_a = completion_probability(need_a, live, unseen, draws)
    p_b = completion_probability(need_b, live, unseen, draws)
    p_ab = completion_probability(need_a + need_b, live, unseen, draws)
    a = _target(need_a, 16, p_a)
    b = _target(need_b, 40, p_b, self_draw_only=True)
    v_a, v_b = 24 + 16, (24 + 40) * 0.4
    assert a.value == pytest.approx(p_a * v_a) and b.value == pytest.approx(p_b * v_b)
    # E[max] = v_a P(A) + v_b P(B) - min(v_a, v_b) P(A and B)
    exact = v_a * p_a + v_b * p_b - min(v_a, v_b) * p_ab
    samples = 20_000
    counts = draw_samples(live, draws, samples, seed=7)
    got, only_a, only_b = expected_best([a, b], [[0, 1], [0], [1]], counts)
    assert only_a == a.value and only_b == b.value
    # the sampled part is v_b 1{B and not A}: its standard error bounds the distance
    p_gain = p_b - p_ab
    sigma = v_b * math.sqrt(p_gain * (1 - p_gain) / samples)
    assert abs(got - exact) < 4 * sigma
    # summing the two (ignoring that both may complete) would be 8 sigma off
    assert min(v_a, v_b) * p_ab > 8 * sigma
    assert got > max(a.value, b.value)


def test_draw_samples_draw_without_replacement_from_the_unseen_tiles() -> None:
    live = [4 - (k % 5) for k in range(34)]
    counts = draw_samples(live, 15, 500, seed=3)
    assert counts.shape == (500, 34)
    assert (counts.sum(axis=1) == 15).all()
    assert (counts <= np.array(live)[None, :]).all()
    # every kind's mean count is draws × live / unseen (hypergeometric), within sampling error
    expected = 15 * np.array(live) / sum(live)
    assert np.abs(counts.mean(axis=0) - expected).max() < 0.25
    assert (draw_samples(live, 500, 2, seed=3) == np.array(live)[None, :]).all()
    assert not draw_samples(live, 0, 2, seed=3).any()
    with pytest.raises(PlanError, match="draw_samples"):
        draw_samples(live, 5, 0, seed=3)


def test_the_union_value_is_deterministic_and_seeded_by_the_position(
        hand_state: Callable[..., PlanState]) -> None:
    state = hand_state("1333556789p15s36z")
    again = hand_state("1333556789p15s36z")
    assert decision_seed(state) == decision_seed(again)
    assert union_by_discard(state) == union_by_discard(again)
    assert decision_seed(hand_state("1333556789p15s36z", draws=11)) != decision_seed(state)
    other = union_by_discard(state, seed=decision_seed(state) + 1)
    assert other != union_by_discard(state)  # the seed does choose the draw sets
    waiting = hand_state("1333556789p15s3z")
    assert union_value(waiting) == union_value(hand_state("1333556789p15s3z"))
    assert union_value(waiting) >= max(t.value for t in plan(waiting))


def test_the_union_value_refuses_the_models_it_does_not_sample(
        hand_state: Callable[..., PlanState]) -> None:
    with pytest.raises(PlanError, match="claim rate 0"):
        union_by_discard(hand_state("1333556789p15s36z", claim_rate=0.3))
    with pytest.raises(PlanError, match="race"):
        union_value(hand_state("1333556789p15s3z", race=(1.0, 0.9)))


def test_the_value_setting_reads_its_two_rules() -> None:
    assert PlannerSettings.from_env({}).value == "best"
    assert PlannerSettings.from_env({"TENPAI_PLANNER_VALUE": ""}).value == "best"
    union = PlannerSettings.from_env({"TENPAI_PLANNER_VALUE": " Union "})
    assert union.value == "union" and union.describe() == "value=union"


@pytest.mark.parametrize("value", ["any", "2", "best,union"])
def test_a_bad_value_setting_is_one_line(
        value: str, bad_setting_is_one_line: Callable[[str, str], None]) -> None:
    bad_setting_is_one_line("TENPAI_PLANNER_VALUE", value)


def test_union_with_claims_or_race_is_one_line() -> None:
    for other in ({"TENPAI_PLANNER_CLAIMS": "0.3"}, {"TENPAI_PLANNER_RACE": "bots"}):
        with pytest.raises(ValueError, match="TENPAI_PLANNER_VALUE=union") as err:
            PlannerSettings.from_env({"TENPAI_PLANNER_VALUE": "union", **other})
        assert "\n" not in str(err.value)


def test_the_arena_refuses_a_bad_value_setting(arena_refuses: Callable[..., None],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    arena_refuses("TENPAI_PLANNER_VALUE", "fast")
    monkeypatch.setenv("TENPAI_PLANNER_CLAIMS", "0.3")
    arena_refuses("TENPAI_PLANNER_VALUE", "union")


def _games_hash(agents: Callable[[int], Sequence[Agent]], seeds: Sequence[int]) -> str:
    h = hashlib.sha256()
    for seed in seeds:
        game = make_game("mcr", seed, ["a", "b", "c", "d"], {"preset": "botzone"})
        players = agents(seed)
        while not game.done:
            game.step({d.seat: players[d.seat].act(d.observation, d.legal)
                       for d in game.pending()})
        h.update("\n".join(repr(e) for e in game.events).encode())
    return h.hexdigest()


def test_the_default_planner_plays_the_games_it_played_before_the_setting() -> None:
    # hash of these three games played by the code of 7c56338, before VALUE existed
    # (unchanged when the pass-value cache went, a4d6771: it never hit in these games)
    before = "187ca60ea43bf07d69593e644166a556fbaca4d185ca96804afd3d0249a9856c"
    assert _games_hash(lambda s: [make_agent("planner", s + i) for i in range(4)],
                       (4301, 4302, 4303)) == before


def test_the_union_planner_plays_legal_reproducible_hands(
        first_hand: Callable[..., list[Event]]) -> None:
    settings = PlannerSettings(value="union")
    assert PlannerAgent(0, settings=settings).identity == "value=union"

    def agents() -> list[Agent]:
        return [PlannerAgent(i, settings=settings) for i in range(4)]

    one = first_hand(agents(), 4302)
    assert one == first_hand(agents(), 4302)
    assert one != first_hand([make_agent("planner", i) for i in range(4)], 4302)
