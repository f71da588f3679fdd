"""Complete hands near a given hand: every way to fill a family within a tile budget.

A *candidate* is the concealed part of a complete hand (a 34-count vector of ``14 - 3·melds``
tiles) that keeps the player's melds.  What it costs is the number of tiles the player lacks
for it (``Σ max(0, candidate - hand)``); tiles of the hand outside it are discarded on the way.

The search for a set family fills the fixed sets first, then each free slot in turn (slots
with the same space in non-decreasing set order, so a hand is found once), then the pair.  At
every step it asks :func:`tenpai.hand.sets_distance` for the fewest tiles still needed by the
remaining slots and pair, counting only tiles the family may use; the search stops where cost
plus that bound passes the budget.  For the unrestricted ``free`` family the bound is exact, so
every branch it enters ends in a candidate.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import Final

from tenpai.hand import KNITTED_PATTERNS, sets_distance
from tenpai.rules.mcr.plan.families import SETS, Family

__all__ = [
    "HandCounts",
    "family_candidates",
    "honors_knitted_candidates",
    "orphans_candidates",
    "seven_pairs_candidates",
]

HandCounts = tuple[int, ...]
"""The concealed tiles of a complete hand, as 34 counts."""

_HONORS: Final = tuple(range(27, 34))
_ORPHANS: Final = (0, 8, 9, 17, 18, 26, *_HONORS)


def _cost(target: Sequence[int], hand: Sequence[int]) -> int:
    return sum(t - h for t, h in zip(target, hand) if t > h)


def family_candidates(
    family: Family,
    hand: Sequence[int],
    meld_sets: Sequence[int],
    base: int,
    limit: int = 300,
) -> Iterator[HandCounts]:
    """Complete concealed hands of ``family`` costing ``base`` to ``base + family.slack``
    tiles, the cheaper ones first.

    ``meld_sets`` are the player's melds as set indices (a kong as its pung).  Costs are
    searched one at a time (a search per cost, each pruned by the bound), and no further cost
    is started, and the current one stops, once ``limit`` candidates are out: a hand far from
    winning, with thousands of completions, is planned on a share of its nearest ones.
    """
    fixed = list(family.fixed)
    slots = list(family.slots)
    for m in meld_sets:
        if m in fixed:
            fixed.remove(m)
            continue
        for i, space in enumerate(slots):
            if m in space:
                del slots[i]
                break
        else:
            return
    meld_copies = [0] * 34
    for m in meld_sets:
        for k in SETS[m]:
            meld_copies[k] += 1
    if max(meld_copies) > 4:
        return
    rest = list(hand)
    target = [0] * 34
    cost0 = 0
    for k in (*family.fixed_tiles, *(k for i in fixed for k in SETS[i])):
        target[k] += 1
        if rest[k]:
            rest[k] -= 1
        else:
            cost0 += 1
    top = base + family.slack
    if cost0 > top or any(t + m > 4 for t, m in zip(target, meld_copies)):
        return
    if family.disjoint:
        yield from _disjoint(slots, family.pairs, hand, meld_copies, base, top, limit)
        return
    mask = family.mask
    n_slots = len(slots)

    def bound(slots_left: int) -> int:
        return sets_distance([r * m for r, m in zip(rest, mask)], slots_left)

    floor = cost0 + bound(n_slots)
    found = 0
    for budget in range(max(base, floor), top + 1):
        for cand in _fill(slots, family.pairs, rest, target, meld_copies, cost0, budget, bound):
            yield cand
            found += 1
            if found >= limit:
                return


def _fill(
    slots: Sequence[tuple[int, ...]],
    pairs: Sequence[int],
    rest: list[int],
    target: list[int],
    meld_copies: Sequence[int],
    cost: int,
    budget: int,
    bound: Callable[[int], int],
) -> Iterator[HandCounts]:
    """Fill the slots in order, then the pair, yielding the hands that cost exactly
    ``budget`` (``rest`` and ``target`` are worked on in place and restored)."""

    def fill(i: int, start: int, cost: int) -> Iterator[HandCounts]:
        if i == len(slots):
            for p in pairs:
                if cost + 2 - min(rest[p], 2) != budget or target[p] + meld_copies[p] > 2:
                    continue
                target[p] += 2
                yield tuple(target)
                target[p] -= 2
            return
        space = slots[i]
        same_as_next = i + 1 < len(slots) and slots[i + 1] is space
        for idx in space:
            if idx < start:
                continue
            kinds = SETS[idx]
            a, b, c = kinds
            if a == b:
                if target[a] + meld_copies[a] > 1:
                    continue
            elif (target[a] + meld_copies[a] > 3 or target[b] + meld_copies[b] > 3
                  or target[c] + meld_copies[c] > 3):
                continue
            taken: list[int] = []
            extra = cost
            for k in kinds:
                target[k] += 1
                if rest[k]:
                    rest[k] -= 1
                    taken.append(k)
                else:
                    extra += 1
            left = len(slots) - i - 1
            # the pair loop checks the last step itself: no bound needed before it
            if extra <= budget and (left == 0 or extra + bound(left) <= budget):
                yield from fill(i + 1, idx if same_as_next else 0, extra)
            for k in taken:
                rest[k] += 1
            for k in kinds:
                target[k] -= 1

    yield from fill(0, 0, cost)


def _disjoint(
    slots: Sequence[tuple[int, ...]],
    pairs: Sequence[int],
    hand: Sequence[int],
    meld_copies: Sequence[int],
    base: int,
    top: int,
    limit: int,
) -> Iterator[HandCounts]:
    """The search for a family whose groups never share a kind: a group's cost is what the
    hand lacks of it alone, so costs are computed once and the choice is a sum, pruned by the
    cheapest possible rest.  Hands come out cheapest cost first."""
    if any(m for m in meld_copies):
        slot_kinds = [tuple(i for i in space if all(meld_copies[k] == 0 for k in SETS[i]))
                      for space in slots]
        pairs = tuple(p for p in pairs if meld_copies[p] == 0)
    else:
        slot_kinds = [tuple(space) for space in slots]

    def set_cost(i: int) -> int:
        a, b, c = SETS[i]
        if a == b:
            return 3 - min(hand[a], 3)
        return (hand[a] == 0) + (hand[b] == 0) + (hand[c] == 0)

    options = [sorted((set_cost(i), i) for i in space) for space in slot_kinds]
    pair_options = sorted((2 - min(hand[p], 2), p) for p in pairs)
    if not pair_options or any(not o for o in options):
        return
    # cheapest cost of the slots from i on, plus the pair
    rest_min = [0] * (len(options) + 1)
    rest_min[-1] = pair_options[0][0]
    for i in range(len(options) - 1, -1, -1):
        rest_min[i] = rest_min[i + 1] + options[i][0][0]
    found: list[tuple[int, HandCounts]] = []
    chosen: list[int] = []
    used: set[int] = set()

    def pick(i: int, start: int, cost: int) -> None:
        if i == len(options):
            for c, p in pair_options:
                if cost + c > top:
                    break
                if p not in used and cost + c >= base:
                    found.append((cost + c, _assemble(chosen, p)))
            return
        same_as_next = i + 1 < len(slots) and slots[i + 1] is slots[i]
        for c, idx in options[i]:
            if cost + c + rest_min[i + 1] > top:
                break
            if idx < start or SETS[idx][0] in used:
                continue
            kinds = set(SETS[idx])
            chosen.append(idx)
            used.update(kinds)
            pick(i + 1, idx + 1 if same_as_next else 0, cost + c)
            chosen.pop()
            used.difference_update(kinds)

    pick(0, 0, 0)
    found.sort(key=lambda x: x[0])
    for n, (_, cand) in enumerate(found):
        if n >= limit:
            return
        yield cand


def _assemble(sets: Sequence[int], pair: int) -> HandCounts:
    out = [0] * 34
    for i in sets:
        for k in SETS[i]:
            out[k] += 1
    out[pair] += 2
    return tuple(out)


def seven_pairs_candidates(hand: Sequence[int], budget: int) -> Iterator[HandCounts]:
    """Seven pairs (a four-of-a-kind counts as two pairs) costing at most ``budget`` tiles.

    Held pairs are always kept (dropping one for a single only costs more); the singles to
    pair up are chosen every way the budget allows.  Kinds not held are not proposed: a
    fresh kind needs two draws where a single needs one.
    """
    pairs = [k for k in range(34) for _ in range(hand[k] // 2)]
    if len(pairs) >= 7:
        for chosen in combinations(pairs, 7):
            yield _from_pairs(chosen)
        return
    singles = [k for k in range(34) if hand[k] % 2 == 1]
    need = 7 - len(pairs)
    if need > budget or need > len(singles):
        return
    for chosen in combinations(singles, need):
        yield _from_pairs((*pairs, *chosen))


def _from_pairs(kinds: Sequence[int]) -> HandCounts:
    out = [0] * 34
    for k in kinds:
        out[k] += 2
    return tuple(out)


def honors_knitted_candidates(hand: Sequence[int], budget: int) -> Iterator[HandCounts]:
    """Honours and knitted tiles: fourteen different kinds of one knitted pattern's nine plus
    the seven honours, every choice of the missing kinds the budget allows."""
    for pattern in KNITTED_PATTERNS:
        pool = (*pattern, *_HONORS)
        held = [k for k in pool if hand[k]]
        need = 14 - len(held)
        if need > budget:
            continue
        missing = [k for k in pool if not hand[k]]
        for extra in combinations(missing, need):
            out = [0] * 34
            for k in (*held, *extra):
                out[k] = 1
            yield tuple(out)


def orphans_candidates(hand: Sequence[int], budget: int) -> Iterator[HandCounts]:
    """Thirteen orphans: one of each terminal and honour plus a second copy of one of them."""
    base = [0] * 34
    for k in _ORPHANS:
        base[k] = 1
    for dup in _ORPHANS:
        base[dup] += 1
        if _cost(base, hand) <= budget:
            yield tuple(base)
        base[dup] -= 1
