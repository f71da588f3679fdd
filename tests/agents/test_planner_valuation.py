"""The planner's Botzone-minded settings: a fan weight in the target's value and a margin a
call must gain (``TENPAI_PLANNER_FAN_WEIGHT``, ``TENPAI_PLANNER_CALL_MARGIN``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from tenpai.agents import make_agent
from tenpai.agents.planner import PlannerAgent
from tenpai.agents.planner_settings import PlannerSettings
from tenpai.engine.agent import Agent
from tenpai.events import Event
from tenpai.rules.mcr.plan import (
    DEFAULT_VALUATION,
    FAN_CAP,
    PlanError,
    PlanState,
    Target,
    Valuation,
    best_by_discard,
    best_target,
    plan,
)

#: 1333556789p + 15s + 36z, about to discard, nothing else seen, 12 draws left.  Letting 3s
#: go keeps a pure straight (22 fans, needs 2p 4p 2s 3s); letting 5s go keeps a full flush
#: with it (44 fans, needs 2p 4p 6p 7p): the same four tiles to draw, a little less likely.
_FLUSH_HAND = "1333556789p15s36z"


def _best(targets: Mapping[int, Target]) -> int:
    return max(targets, key=lambda k: targets[k].value)


def test_a_bigger_target_is_chosen_when_it_costs_no_distance(
        hand_state: Callable[..., PlanState]) -> None:
    state = hand_state(_FLUSH_HAND)
    plain = best_by_discard(state)
    botzone = best_by_discard(state, Valuation(fan_weight=3.0))
    k_plain, k_botzone = _best(plain), _best(botzone)
    assert k_plain != k_botzone
    small, big = plain[k_plain], botzone[k_botzone]
    assert big.missing == small.missing == 4
    assert big.points > small.points
    assert "Full Flush" in {name for name, _ in big.fans}
    # weighed as a discard win pays, the likelier small hand is worth more; as a self-draw
    # pays fans, the big one, and only letting 5s go keeps it
    assert big.probability < small.probability
    assert big.probability * (24 + big.points) < small.value
    assert plain[k_botzone].value <= small.value
    assert botzone[k_plain].value < big.value


def test_the_default_valuation_is_the_shipped_one(hand_state: Callable[..., PlanState]) -> None:
    state = hand_state(_FLUSH_HAND)
    for t in plan(state)[:20]:
        share = 0.4 if t.self_draw_only else 1.0
        assert t.value == t.probability * (24 + t.points) * share
        assert t.valuation == DEFAULT_VALUATION
    assert make_agent("planner", 0).valuation == DEFAULT_VALUATION  # type: ignore[attr-defined]


@pytest.mark.parametrize("weight", [0.0, 3.0])
def test_best_by_discard_matches_scoring_everything_under_any_fan_weight(
        weight: float, hand_state: Callable[..., PlanState]) -> None:
    valuation = Valuation(fan_weight=weight)
    for text in ("12345678m234s55p7z", "1122m3344p5566s7z1s", "123m456p789s123z55m"):
        state = hand_state(text)
        targets = plan(state, valuation=valuation)
        assert all(t.points <= FAN_CAP for t in targets)
        fast = best_by_discard(state, valuation)
        for k in range(34):
            if state.concealed[k]:
                keeping = [t.value for t in targets if t.keeps(k)]
                if keeping:
                    assert fast[k].value == pytest.approx(max(keeping)), (text, k)
                else:
                    assert k not in fast
    waiting = hand_state("12345678m234s55p")
    top = best_target(waiting, valuation)
    assert top is not None
    assert top.value == pytest.approx(plan(waiting, valuation=valuation)[0].value)


def test_a_negative_valuation_is_refused() -> None:
    with pytest.raises(PlanError, match="fan_weight"):
        Valuation(fan_weight=-1.0)


def test_settings_are_read_and_reach_the_agent() -> None:
    s = PlannerSettings.from_env({"TENPAI_PLANNER_FAN_WEIGHT": "1.8",
                                  "TENPAI_PLANNER_CALL_MARGIN": "-0.25"})
    assert s.fan_weight == 1.8 and s.call_margin == -0.25
    assert s.describe() == "call_margin=-0.25,fan_weight=1.8"
    agent = PlannerAgent(0, settings=s)
    assert agent.valuation == Valuation(fan_weight=1.8)
    assert agent.identity == "call_margin=-0.25,fan_weight=1.8"
    assert PlannerSettings.from_env({}) == PlannerSettings()


@pytest.mark.parametrize(("var", "value"), [
    ("TENPAI_PLANNER_FAN_WEIGHT", "-1"),
    ("TENPAI_PLANNER_FAN_WEIGHT", "11"),
    ("TENPAI_PLANNER_FAN_WEIGHT", "heavy"),
    ("TENPAI_PLANNER_FAN_WEIGHT", "nan"),
    ("TENPAI_PLANNER_CALL_MARGIN", "-1.5"),
    ("TENPAI_PLANNER_CALL_MARGIN", "nan"),
    ("TENPAI_PLANNER_CALL_MARGIN", "some"),
])
def test_bad_settings_are_one_line_errors(
        var: str, value: str, bad_setting_is_one_line: Callable[[str, str], None]) -> None:
    bad_setting_is_one_line(var, value)


@pytest.mark.parametrize("var", ["TENPAI_PLANNER_FAN_WEIGHT", "TENPAI_PLANNER_CALL_MARGIN"])
def test_the_arena_refuses_a_bad_setting_with_exit_2(var: str,
                                                     arena_refuses: Callable[..., None]) -> None:
    arena_refuses(var, "-7")


def _calls(events: list[Event], seats: set[int]) -> int:
    return sum(1 for e in events if e.type in ("chi", "pon") and e.actor in seats)


def test_the_call_margin_calls_less_above_zero_and_more_below(
        first_hand: Callable[..., list[Event]]) -> None:
    def table(call_margin: float) -> list[Agent]:
        s = PlannerSettings(call_margin=call_margin)
        return [PlannerAgent(0, settings=s), make_agent("efficiency", 1),
                PlannerAgent(2, settings=s), make_agent("efficiency", 3)]

    counts = {}
    for margin in (-1.0, 0.0, 10.0):
        counts[margin] = sum(_calls(first_hand(table(call_margin=margin), seed), {0, 2})
                             for seed in range(4))
    assert counts[10.0] < counts[0.0] < counts[-1.0]


def test_botzone_settings_play_legal_and_deterministic_games(
        first_hand: Callable[..., list[Event]]) -> None:
    def table() -> list[Agent]:
        s = PlannerSettings(defense=True, fan_weight=1.8, call_margin=0.2)
        return [PlannerAgent(0, settings=s), make_agent("efficiency", 1),
                PlannerAgent(2, settings=s), make_agent("planner", 3)]

    first = first_hand(table(), 11)
    assert first == first_hand(table(), 11)
    assert any(e.type in ("hora", "ryukyoku") for e in first)
