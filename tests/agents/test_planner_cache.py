"""The planner's complete hands are remembered by tiles: the same answers, cheaper on a hand met
again (a search's playouts meet the same hands in many worlds)."""

from __future__ import annotations

from collections.abc import Callable

from tenpai.rules.mcr import Meld
from tenpai.rules.mcr.plan import FAMILIES, PlanState
from tenpai.rules.mcr.plan import targets as plan_targets
from tenpai.tiles import parse_counts

_HANDS = ("12345678m234s55p", "1122m3344p5566s7z", "19m19p19s1234567z", "258m369p147s11z44p",
          "1357m2468p159s12z")


def _kind(text: str) -> int:
    return parse_counts(text).index(1)


def test_remembered_hands_answer_as_a_fresh_search(
        hand_state: Callable[..., PlanState]) -> None:
    open_hand = hand_state("123p78p55s", melds=(Meld.chow(_kind("2m")), Meld.pung(_kind("9s"))))
    for state in (*(hand_state(t) for t in _HANDS), open_hand):
        fresh = plan_targets.candidates(state, tuple(FAMILIES))  # another tuple: not remembered
        assert plan_targets.candidates(state) == fresh
        assert plan_targets.candidates(state) == fresh  # and again, from what was remembered


def test_a_hand_met_again_is_not_searched_again_but_its_table_still_counts(
        hand_state: Callable[..., PlanState]) -> None:
    plan_targets._complete_hands_cached.cache_clear()
    text = "12345678m234s55p"
    first = plan_targets.candidates(hand_state(text))
    before = plan_targets._complete_hands_cached.cache_info()
    # the same tiles at another table: every 9m seen elsewhere, fewer draws left
    counts = parse_counts(text)
    live = [4 - c for c in counts]
    live[_kind("9m")] = 0
    other = PlanState(tuple(counts), live=tuple(live), draws=3)
    second = plan_targets.candidates(other)
    after = plan_targets._complete_hands_cached.cache_info()
    assert after.hits == before.hits + 1 and after.misses == before.misses
    # what depends on the table is computed afresh: no target needing a 9m survives
    nine = _kind("9m")
    assert any(nine in dict(c.needed) for c in first)
    assert not any(nine in dict(c.needed) for c in second)
    assert second == plan_targets.candidates(other, tuple(FAMILIES))
