"""The compiled policies count a tied discard's effective tiles only when it can win.

``_rollout.c`` takes the discards tied at the lowest shanten by an upper bound on their count
(the count with every candidate draw of the discarded group taken as effective) and skips the
count of one that cannot beat the best counted so far.  That must never change a choice: the
rows must be the ones of the core counting every tied discard (``_count_mode(1)``, the order of
``eff_less`` before the bound), and in ``_count_mode(2)`` every bound used is checked against
the exact count (a count above its bound fails the run with a ``RuntimeError``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tenpai.rules.riichi import rollout

from .rollout_worlds import PRESET_NAMES, after_calls, worlds

built = pytest.mark.skipif(not rollout.available(), reason="compiled rollout core not built")

#: Every compiled policy that chooses among tied discards.
POLICIES = ("greedy", "greedy-fold", "fast", "fast-fold", "fast-kan", "fast-kan-fold",
            "efficiency", "greedy-random")


@contextmanager
def count_mode(mode: int) -> Iterator[None]:
    module = rollout._need()
    before = module._count_mode(mode)
    try:
        yield
    finally:
        module._count_mode(before)


def _rows(states: list[tuple[object, ...]], presets: list[str], policy: str,
          seeds: list[int]) -> list[bytes]:
    return [rollout.run(st, p, policy, seeds).tobytes() for st, p in zip(states, presets)]


def _answers(states: list[tuple[object, ...]], presets: list[str], policy: str
             ) -> list[tuple[str, int]]:
    return [rollout.decide(st, p, policy) for st, p in zip(states, presets)]


def _worlds(n_seeds: int, every: int) -> tuple[list[tuple[object, ...]], list[str]]:
    states: list[tuple[object, ...]] = []
    presets: list[str] = []
    for seed in range(n_seeds):
        for preset in PRESET_NAMES:
            for world in worlds(preset, seed, every=every, mixed=seed % 3 == 2):
                states.append(rollout.export_state(world))
                presets.append(preset)
    return states, presets


@built
def test_bounded_counts_play_the_hands_of_every_count() -> None:
    states, presets = _worlds(6, every=9)
    assert len(states) > 600
    seeds = [0, 1, 2]
    for policy in POLICIES:
        with count_mode(1):
            want = _rows(states, presets, policy, seeds)
        with count_mode(2):  # every bound used checked against its count
            checked = _rows(states, presets, policy, seeds)
        got = _rows(states, presets, policy, seeds)
        assert got == want, policy
        assert checked == want, policy


@built
def test_bounded_counts_answer_as_every_count_after_calls() -> None:
    """The discards owed after a chi or pon (kuikae bans thin the ties) and ``decide``."""
    states: list[tuple[object, ...]] = []
    presets: list[str] = []
    for seed in range(4):
        for preset in PRESET_NAMES:
            for world in after_calls(preset, seed):
                states.append(rollout.export_state(world))
                presets.append(preset)
    assert len(states) > 100
    for policy in POLICIES:
        with count_mode(1):
            want = _answers(states, presets, policy), _rows(states, presets, policy, [5])
        with count_mode(2):
            checked = _answers(states, presets, policy), _rows(states, presets, policy, [5])
        got = _answers(states, presets, policy), _rows(states, presets, policy, [5])
        assert got == want, policy
        assert checked == want, policy


@built
def test_count_mode_refuses_what_it_does_not_know() -> None:
    module = rollout._need()
    with pytest.raises(ValueError):
        module._count_mode(3)
    assert module._count_mode(0) == 0
