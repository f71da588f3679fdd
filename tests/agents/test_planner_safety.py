"""The planner's ``safety`` tie-break (``TIE_BREAK=safety``): among discards keeping equally
valuable targets and the same speed, the one least likely to deal in; never a slower one."""

from __future__ import annotations

import pytest

from tenpai import tiles as T
from tenpai.agents.planner import SAFETY_TOLERANCE, discard_danger, planned_discard
from tenpai.agents.planner_settings import PlannerSettings
from tenpai.events import Event

# three sets, a pair of East and three lone honours (South, White, Red): any honour goes at
# the same speed
_HAND = T.counts34(T.parse("123m456p789s11257z"))
_S, _WHITE, _RED, _ONE_M = (T.parse(x)[0] for x in ("2z", "5z", "7z", "1m"))


def _discards() -> list[Event]:
    return [Event("dahai", actor=0, pai=k) for k in range(34) if _HAND[k]]


def _pick(values: dict[int, float], danger: dict[int, float] | None) -> int:
    e = planned_discard(list(_HAND), _discards(), [0] * 34, {}, values, None, danger)
    assert e.pai is not None
    return T.kind_of(e.pai)


def test_the_safest_of_equally_fast_tied_discards_is_played() -> None:
    tied = {_S: 1.0, _WHITE: 1.0, _RED: 1.0}
    plain = _pick(tied, None)
    assert _pick(tied, {_S: 0.05, _WHITE: 0.0, _RED: 0.03}) == _WHITE
    assert _pick(tied, {_S: 0.03, _WHITE: 0.05, _RED: 0.0}) == _RED
    # differences below the tolerance leave efficiency's order
    near = {k: SAFETY_TOLERANCE / 2 if k != plain else 0.0 for k in tied}
    assert _pick(tied, near) == plain
    near[plain] = SAFETY_TOLERANCE / 4
    assert _pick(tied, near) == plain


def test_safety_never_buys_a_slower_hand_or_a_lesser_target() -> None:
    # breaking the 123m set is slower: the dangerous honour still goes
    assert _pick({_ONE_M: 1.0, _RED: 1.0}, {_ONE_M: 0.0, _RED: 0.06}) == _RED
    # a more valuable target is kept whatever the danger
    assert _pick({_WHITE: 2.0, _RED: 1.0}, {_WHITE: 0.06, _RED: 0.0}) == _WHITE


def test_no_reading_before_anyone_may_be_ready() -> None:
    class _Obs:
        def __init__(self, events: list[Event]) -> None:
            self.seat, self.events, self.counts = 0, events, list(_HAND)

        @staticmethod
        def visible_counts() -> list[int]:
            return [0] * 34

    assert discard_danger(_Obs([Event("start_kyoku")]), _discards()) == {}
    # after many discards an opponent may be ready: every kind in hand gets a reading
    late = [Event("start_kyoku"), *(Event("dahai", actor=1 + i % 3, pai=(i * 5) % 27)
                                    for i in range(36))]
    danger = discard_danger(_Obs(late), _discards())
    assert set(danger) == {k for k in range(34) if _HAND[k]}
    assert all(0.0 <= p <= 1.0 for p in danger.values()) and max(danger.values()) > 0.0


def test_the_setting_is_read_and_checked() -> None:
    assert PlannerSettings.from_env({"TENPAI_PLANNER_TIE_BREAK": "safety"}).tie_break == "safety"
    with pytest.raises(ValueError, match="VALUE=best"):
        PlannerSettings.from_env({"TENPAI_PLANNER_TIE_BREAK": "safety",
                                  "TENPAI_PLANNER_VALUE": "union"})
