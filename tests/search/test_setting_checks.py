"""The searches' shared setting checks: each refuses a bad value (NaN included) with one line
naming the variable, and lets a good one through; the three settings keep their words."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from tenpai.mcts.pg_settings import MCTSPGSettings
from tenpai.search import setting_checks as check
from tenpai.search.mcr.settings import MCRSearchSettings
from tenpai.search.settings import SearchSettings


class _Core:
    def __init__(self, built: bool) -> None:
        self.built = built

    def available(self) -> bool:
        return self.built

    def unavailable_reason(self) -> str:
        return "not built here"


@pytest.mark.parametrize(("check", "message"), [
    (lambda: check.budget("P_", 0, "wall"), "P_BUDGET_MS must be > 0, got 0"),
    (lambda: check.budget("P_", math.nan, "wall"), "P_BUDGET_MS must be > 0, got nan"),
    (lambda: check.budget("P_", 5, "sun"), "P_CLOCK must be wall or cpu, got 'sun'"),
    (lambda: check.at_least("P_", "N", 0, 1), "P_N must be >= 1, got 0"),
    (lambda: check.at_least("P_", "N", 1, 2, "a pair"), "P_N must be >= 2 (a pair), got 1"),
    (lambda: check.at_least("P_", "Z", math.nan, 0), "P_Z must be >= 0, got nan"),
    (lambda: check.within("P_", "T", 0, 0, 1, open_low=True), "P_T must be in (0, 1], got 0"),
    (lambda: check.within("P_", "T", 1.5, 0, 1), "P_T must be in [0, 1], got 1.5"),
    (lambda: check.within("P_", "T", math.nan, 0, 1), "P_T must be in [0, 1], got nan"),
    (lambda: check.one_of("P_", "V", "x", ("a", "b")), "P_V must be a or b, got 'x'"),
    (lambda: check.one_of("P_", "V", "x", ("a", "b", "c"), sep=", "),
     "P_V must be a, b, c, got 'x'"),
    (lambda: check.known("P_", "POLICY", "playout policy", "x", ("a", "b")),
     "P_POLICY: unknown playout policy 'x'; known: a, b"),
    (lambda: check.compiled_core("P_", "c:fast", _Core(built=False)),
     "P_POLICY=c:fast: not built here; or use its Python reference fast"),
])
def test_a_bad_value_is_one_line_naming_the_variable(check: Callable[[], None],
                                                     message: str) -> None:
    with pytest.raises(ValueError) as err:
        check()
    assert str(err.value) == message


def test_a_good_value_passes() -> None:
    check.budget("P_", 1, "cpu")
    check.at_least("P_", "N", 2, 2)
    check.within("P_", "T", 1, 0, 1, open_low=True)
    check.within("P_", "T", 0, 0, 1)
    check.one_of("P_", "V", "b", ("a", "b"))
    check.known("P_", "POLICY", "playout policy", "a", ("a", "b"))
    check.compiled_core("P_", "c:fast", _Core(built=True))


@pytest.mark.parametrize(("make", "message"), [
    (lambda: SearchSettings(worlds=0), "TENPAI_SEARCH_WORLDS must be >= 1, got 0"),
    (lambda: SearchSettings(threshold=0.0),
     "TENPAI_SEARCH_THRESHOLD must be in (0, 1], got 0.0"),
    (lambda: SearchSettings(worlds_mode="x"),
     "TENPAI_SEARCH_WORLDS_MODE: unknown worlds mode 'x'; known: uniform, weighted"),
    (lambda: SearchSettings(playout_yaku="x"),
     "TENPAI_SEARCH_PLAYOUT_YAKU must be off, strict, ties, got 'x'"),
    (lambda: MCTSPGSettings(top_k=1),
     "TENPAI_MCTS_PG_TOPK must be >= 2 (one candidate is no search), got 1"),
    (lambda: MCTSPGSettings(c1=-1), "TENPAI_MCTS_PG_C1 must be >= 0, got -1"),
    (lambda: MCTSPGSettings(opponents="x"),
     "TENPAI_MCTS_PG_OPPONENTS must be uniform, shaped, read, read-yaku, got 'x'"),
    (lambda: MCRSearchSettings(worlds=1), "TENPAI_SEARCH_MCR_WORLDS must be >= 2 (the paired "
                                          "rule needs a standard error), got 1"),
    (lambda: MCRSearchSettings(close=1.1), "TENPAI_SEARCH_MCR_CLOSE must be in [0, 1], got 1.1"),
    (lambda: MCRSearchSettings(policy="fast"), "TENPAI_SEARCH_MCR_POLICY: unknown playout "
     "policy 'fast'; known: efficiency, greedy, greedy-fold, c:greedy, c:greedy-fold"),
    (lambda: MCRSearchSettings(value="x"),
     "TENPAI_SEARCH_MCR_VALUE must be points or place, got 'x'"),
])
def test_each_search_keeps_its_words(make: Callable[[], object], message: str) -> None:
    with pytest.raises(ValueError) as err:
        make()
    assert str(err.value) == message
