"""Property tests (hypothesis) for the hand kernel, plus a brute-force oracle for small hands."""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tenpai.hand import (
    SEQUENCE,
    decompositions,
    discard_ukeire,
    is_complete,
    is_standard_form_complete,
    shanten,
    shanten_batch,
    shanten_mcr,
    shanten_standard,
    ukeire,
    waits,
)


@st.composite
def hands(
    draw: st.DrawFn, sizes: tuple[int, ...] = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)
) -> list[int]:
    """A legal hand: tiles drawn from the 136-tile wall, or from few kinds to get shapes."""
    size = draw(st.sampled_from(sizes))
    narrow = draw(st.booleans())
    pool = draw(st.lists(st.integers(0, 33), min_size=3, max_size=6, unique=True)) if narrow \
        else list(range(34))
    wall = [k for k in pool for _ in range(4)]
    if len(wall) < size:
        wall = [k for k in range(34) for _ in range(4)]
    picks = draw(st.lists(st.integers(0, len(wall) - 1), min_size=size, max_size=size,
                          unique=True))
    counts = [0] * 34
    for i in picks:
        counts[wall[i]] += 1
    return counts


SETS = [("s", k) for s in range(3) for k in range(9 * s, 9 * s + 7)] + [("t", k) for k in range(34)]


def brute_force_standard(counts: list[int]) -> int:
    """Fewest tiles to fetch so the hand holds k sets + a pair (four copies max), minus one."""
    k = sum(counts) // 3
    best = 99
    for sets in combinations_with_replacement(SETS, k):
        base = [0] * 34
        for form, t in sets:
            if form == "s":
                base[t] += 1
                base[t + 1] += 1
                base[t + 2] += 1
            else:
                base[t] += 3
        if max(base) > 4:
            continue
        for pair in range(34):
            if base[pair] > 2:
                continue
            need = sum(max(0, b - c) for b, c in zip(base, counts)) + max(0, base[pair] + 2
                                                                        - counts[pair])
            best = min(best, need)
    return best - 1


@settings(max_examples=200, deadline=None)
@given(hands(sizes=(1, 2, 4, 5)))
def test_standard_equals_brute_force_on_small_hands(counts: list[int]) -> None:
    assert shanten_standard(counts) == brute_force_standard(counts)


@settings(max_examples=12, deadline=None)
@given(hands(sizes=(7, 8)))
def test_standard_equals_brute_force_on_two_set_hands(counts: list[int]) -> None:
    assert shanten_standard(counts) == brute_force_standard(counts)


@settings(max_examples=300, deadline=None)
@given(hands(), st.integers(0, 33), st.integers(0, 33))
def test_one_tile_swap_moves_shanten_by_at_most_one(counts: list[int], out: int, into: int) -> None:
    if counts[out] == 0 or counts[into] - (into == out) >= 4:
        return
    swapped = list(counts)
    swapped[out] -= 1
    swapped[into] += 1
    assert abs(shanten(swapped) - shanten(counts)) <= 1
    assert abs(shanten_standard(swapped) - shanten_standard(counts)) <= 1


@settings(max_examples=300, deadline=None)
@given(hands(sizes=(1, 4, 7, 10, 13)), st.integers(0, 33))
def test_a_draw_helps_by_at_most_one_and_never_hurts(counts: list[int], kind: int) -> None:
    if counts[kind] == 4:
        return
    drawn = list(counts)
    drawn[kind] += 1
    assert shanten(counts) - 1 <= shanten(drawn) <= shanten(counts)


@settings(max_examples=300, deadline=None)
@given(hands(sizes=(2, 5, 8, 11, 14)))
def test_complete_iff_shanten_minus_one(counts: list[int]) -> None:
    assert is_complete(counts) == (shanten(counts) == -1)
    assert is_standard_form_complete(counts) == bool(decompositions(counts))


@settings(max_examples=200, deadline=None)
@given(hands(sizes=(2, 5, 8, 11, 14)))
def test_decompositions_rebuild_the_hand(counts: list[int]) -> None:
    for d in decompositions(counts):
        rebuilt = [0] * 34
        rebuilt[d.pair] += 2
        for g in d.groups:
            if g.kind == SEQUENCE:
                assert g.tile < 27 and g.tile % 9 <= 6
                for k in range(g.tile, g.tile + 3):
                    rebuilt[k] += 1
            else:
                rebuilt[g.tile] += 3
        assert rebuilt == counts


@settings(max_examples=200, deadline=None)
@given(hands(sizes=(1, 4, 7, 10, 13)))
def test_waits_are_exactly_the_completing_draws(counts: list[int]) -> None:
    found = waits(counts)
    expected = []
    for kind in range(34):
        if counts[kind] < 4:
            drawn = list(counts)
            drawn[kind] += 1
            if is_complete(drawn):
                expected.append(kind)
    assert found == expected
    # Exact shanten respects four copies, so tenpai always has a drawable wait.
    assert bool(found) == (shanten(counts) == 0)


@settings(max_examples=150, deadline=None)
@given(hands(sizes=(1, 4, 7, 10, 13)), st.lists(st.integers(0, 33), max_size=20))
def test_ukeire_lists_the_improving_draws(counts: list[int], seen: list[int]) -> None:
    visible = [0] * 34
    for k in seen:
        if counts[k] + visible[k] < 4:
            visible[k] += 1
    result = ukeire(counts, visible)
    before = shanten(counts)
    listed = dict(result.tiles)
    for kind in range(34):
        if counts[kind] == 4:
            assert kind not in listed
            continue
        drawn = list(counts)
        drawn[kind] += 1
        assert (kind in listed) == (shanten(drawn) < before)
        if kind in listed:
            assert listed[kind] == 4 - counts[kind] - visible[kind]
    assert result.total == sum(listed.values())


@settings(max_examples=60, deadline=None)
@given(hands(sizes=(2, 5, 8, 11, 14)))
def test_discard_ukeire_agrees_with_ukeire(counts: list[int]) -> None:
    options = discard_ukeire(counts)
    assert [o.discard for o in options] == [k for k in range(34) if counts[k]]
    for option in options:
        after = list(counts)
        after[option.discard] -= 1
        assert option.shanten == shanten(after)
        # The discarded copy lies in the river: visible, not back in the wall.
        river = [0] * 34
        river[option.discard] = 1
        assert (option.tiles, option.total) == tuple(ukeire(after, river))
    assert min(o.shanten for o in options) == max(shanten(counts), 0)


@settings(max_examples=100, deadline=None)
@given(st.lists(hands(), min_size=1, max_size=20))
def test_batch_equals_single(many: list[list[int]]) -> None:
    assert shanten_batch(np.array(many)).tolist() == [shanten(h) for h in many]
    std = shanten_batch(np.array(many), standard_only=True).tolist()
    assert std == [shanten_standard(h) for h in many]


@settings(max_examples=200, deadline=None)
@given(hands(sizes=(13, 14)))
def test_mcr_shanten_is_never_above_riichi_standard(counts: list[int]) -> None:
    assert shanten_mcr(counts) <= shanten_standard(counts)
