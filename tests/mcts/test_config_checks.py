"""The training configurations' shared checks: one line naming the bad field, the same words
in every configuration that uses them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from tenpai.mcts.config_checks import check_counts, check_network
from tenpai.mcts.dropout import DropoutConfig
from tenpai.mcts.train import MCTSTrainConfig
from tenpai.mcts.warmstart import WarmStartConfig
from tenpai.rl.pg import PGConfig


@dataclass
class _Counts:
    games: int = 1
    steps: int = 0
    tables: int = -1


def test_the_first_count_below_one_is_named() -> None:
    check_counts(_Counts(), ("games",))
    with pytest.raises(ValueError, match=r"^steps must be at least 1, got 0$"):
        check_counts(_Counts(), ("games", "steps", "tables"))
    with pytest.raises(ValueError, match=r"^tables must be at least 1, got -1$"):
        check_counts(_Counts(), ("tables", "steps"))


def test_the_network_is_a_known_rule_set_size_and_access() -> None:
    check_network("suits108", "small", "removed")
    check_network("riichi", "tiny")
    with pytest.raises(ValueError, match="no rule set 'nope'"):
        check_network("nope", "small")
    with pytest.raises(ValueError, match=r"^unknown size 'huge'; known: "):
        check_network("suits108", "huge", "full")
    with pytest.raises(ValueError, match=r"^access must be full, removed or random, not 'x'$"):
        check_network("suits108", "small", "x")


@pytest.mark.parametrize("make", [
    lambda: MCTSTrainConfig(batch_size=0),
    lambda: WarmStartConfig(batch_size=0),
    lambda: DropoutConfig(batch_size=0),
])
def test_every_training_config_refuses_in_the_same_words(make: Callable[[], object]) -> None:
    with pytest.raises(ValueError, match=r"^batch_size must be at least 1, got 0$"):
        make()


def test_pg_counts_are_checked_too() -> None:
    with pytest.raises(ValueError, match=r"^minibatch must be at least 1, got 0$"):
        PGConfig(minibatch=0)
