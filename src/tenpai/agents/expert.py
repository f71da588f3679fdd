"""The expert system of seed ``003`` (a Botzone MCR course report): one hand-valuation function.

The report's rule-based baseline values a hand by how close it is to four sets and a pair:

    f(S) = max_π  Σ_{i<k} g(s_π(3i), s_π(3i+1), s_π(3i+2)) + h(s_π(3k), s_π(3k+1))

over the orderings π of the 3k+2 tiles, with g = 3 for a set (``a,a+1,a+2`` or ``a,a,a``),
g = 2 for a group holding two tiles of a possible sequence (``a,a+1,b`` or ``a,a+2,b``),
g = 0 otherwise, and h = 2 for a pair (0 otherwise), so that "can win ⇔ f(S) = 3k+2".  The
formula block of the scraped text prints 0 and ``1_{a==b}`` for the partial sequence and the
pair; the prose next to it ("对可能形成顺子的牌奖励两分 … 将牌则奖励 2 分") and the stated
equivalence both need 2 and 2, which is the reading implemented (docs/agents.md).

Every decision follows f:

* **discard**: a tile whose removal leaves f unchanged ("adds nothing to g and h"); ties go to
  the discard after which the most live tiles would raise f, then to honours and terminals;
* **chi / pon / open kan**: when the call raises f (same-size comparison, see
  :meth:`ExpertAgent._claim`); kans also when f stays equal (the replacement draw is free);
* **wins** are always declared; the engine offers a win only when it is legal (in MCR, only
  with 8 fans), so the agent never declares a false one.  The report names the missing 8-fan
  steering as the agent's weakness and gives no rule for it; this agent does not add one.

The report solved the maximisation by random restarts and local greedy search; here it is
exact: per suit, a memoised search lists the undominated (sets, partial sequences, pair)
counts, and the suits are merged under the limit of k groups.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from typing import Any

from tenpai import tiles as T
from tenpai.engine.wall import SplitMix64
from tenpai.events import Event

__all__ = ["ExpertAgent", "ExpertInputError", "expert_value", "hand_value"]

#: Value of a complete set, of a two-tile partial sequence (its group's third tile is unused),
#: and of the pair.
SET_VALUE = 3
PARTIAL_VALUE = 2
PAIR_VALUE = 2

_Options = tuple[tuple[int, int, int], ...]  # undominated (sets, partials, pair 0/1)


class ExpertInputError(ValueError):
    """A hand the valuation cannot read (wrong tile count for its groups, bad counts)."""


def _undominated(found: set[tuple[int, int, int]]) -> _Options:
    out = [
        a for a in found
        if not any(b != a and b[0] >= a[0] and b[1] >= a[1] and b[2] >= a[2] for b in found)
    ]
    return tuple(sorted(out))


@lru_cache(maxsize=1 << 16)
def _block_options(counts: tuple[int, ...], sequences: bool) -> _Options:
    """Undominated (sets, partial sequences, pair) selections of one suit (or the honours).

    Selections are downward closed (a set or partial left out becomes unused tiles), so the
    maximal ones describe them all.  The search takes the lowest kind present and either
    leaves one copy unused or starts a triplet, a pair, a run or a partial run with it.
    """
    i = next((j for j, c in enumerate(counts) if c), -1)
    if i < 0:
        return ((0, 0, 0),)
    c = list(counts)
    found: set[tuple[int, int, int]] = set()

    def rest(take: Sequence[int], ds: int, dp: int, dq: int) -> None:
        for j in take:
            c[j] -= 1
        for s, p, q in _block_options(tuple(c), sequences):
            if q + dq <= 1:
                found.add((s + ds, p + dp, q + dq))
        for j in take:
            c[j] += 1

    rest((i,), 0, 0, 0)
    if c[i] >= 3:
        rest((i, i, i), 1, 0, 0)
    if c[i] >= 2:
        rest((i, i), 0, 0, 1)
    if sequences:
        n = len(c)
        if i + 2 < n and c[i + 1] and c[i + 2]:
            rest((i, i + 1, i + 2), 1, 0, 0)
        if i + 1 < n and c[i + 1]:
            rest((i, i + 1), 0, 1, 0)
        if i + 2 < n and c[i + 2]:
            rest((i, i + 2), 0, 1, 0)
    return _undominated(found)


def _check(counts: Sequence[int], groups: int) -> None:
    if len(counts) != 34 or any(not 0 <= x <= 4 for x in counts):
        raise ExpertInputError(f"hand_value needs 34 counts of 0-4, got {list(counts)!r}")
    if not 0 <= groups <= 4:
        raise ExpertInputError(f"hand_value needs 0-4 groups, got {groups}")
    n = sum(counts)
    if n not in (3 * groups + 1, 3 * groups + 2):
        raise ExpertInputError(
            f"hand_value: {n} concealed tiles cannot fill {groups} groups and the pair "
            f"(expected {3 * groups + 1} or {3 * groups + 2})"
        )


def hand_value(counts: Sequence[int], groups: int) -> int:
    """f of a concealed hand of ``3·groups + 2`` tiles (34-count vector).

    A hand of ``3·groups + 1`` tiles (waiting for a draw or a call) is valued as if a blank
    tile that fits nothing were added, which keeps states before and after a decision on one
    scale.  Raises :class:`ExpertInputError` for any other size.
    """
    _check(counts, groups)
    return _value(tuple(counts), groups)


@lru_cache(maxsize=1 << 18)
def _value(counts: tuple[int, ...], groups: int) -> int:
    blocks = (
        _block_options(counts[0:9], True),
        _block_options(counts[9:18], True),
        _block_options(counts[18:27], True),
        _block_options(counts[27:34], False),
    )
    best = 0
    for combo in product(*blocks):
        sets = min(sum(o[0] for o in combo), groups)
        partials = min(sum(o[1] for o in combo), groups - sets)
        pair = min(sum(o[2] for o in combo), 1)
        value = SET_VALUE * sets + PARTIAL_VALUE * partials + PAIR_VALUE * pair
        if value > best:
            best = value
    return best


def expert_value(counts: Sequence[int], melds: int) -> int:
    """f of a whole hand: 3 per meld on the table plus f of the concealed tiles."""
    return SET_VALUE * melds + hand_value(counts, 4 - melds)


def _kinds_in_play(obs: Any) -> range:
    """Kinds that exist in the observation's rule set (the 108-tile rules have no honours)."""
    mod = sys.modules.get("tenpai.rules.suits108.observation")
    if mod is not None and isinstance(obs, mod.Suits108Observation):
        return range(27)
    return range(34)


class ExpertAgent:
    """Greedy player on the valuation f of seed 003 (see the module docstring)."""

    def __init__(self, seed: int = 0, name: str = "expert") -> None:
        self.name = name
        self._rng = SplitMix64(seed ^ 0xE4E7)

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        for e in legal:
            if e.type == "hora":
                return e
        types = {e.type for e in legal}
        if "reach" in types:
            # Not in the report (MCR has no declaration): a ready hand can only raise f by
            # winning, so declaring (which the engine offers only when ready) costs f nothing.
            return next(e for e in legal if e.type == "reach")
        if "dahai" in types:
            return self._own_turn(observation, legal)
        if types & {"chi", "pon", "daiminkan"}:
            return self._claim(observation, legal)
        return next((e for e in legal if e.type == "none"), legal[0])

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]

    # ------------------------------------------------------------------ own turn
    def _own_turn(self, obs: Any, legal: Sequence[Event]) -> Event:
        counts = obs.counts
        melds = len(obs.melds[obs.seat])
        groups = 4 - melds
        best_keep = max(
            (self._after_discard(counts, groups, T.kind_of(e.pai)) for e in legal
             if e.type == "dahai" and e.pai is not None),
        )
        for e in legal:
            if e.type == "ankan":
                kind = T.kind_of(e.consumed[0])
                counts[kind] -= 4
                after = SET_VALUE + hand_value(counts, groups - 1)
                counts[kind] += 4
                if after >= best_keep:
                    return e
            elif e.type == "kakan":
                assert e.pai is not None
                if self._after_discard(counts, groups, T.kind_of(e.pai)) >= best_keep:
                    return e
        return self._discard(obs, counts, groups, [e for e in legal if e.type == "dahai"])

    @staticmethod
    def _after_discard(counts: list[int], groups: int, kind: int) -> int:
        counts[kind] -= 1
        value = hand_value(counts, groups)
        counts[kind] += 1
        return value

    def _discard(
        self, obs: Any, counts: list[int], groups: int, discards: Sequence[Event]
    ) -> Event:
        """Among the discards keeping f highest (the tiles that add nothing when f keeps its
        value), the one after which the most live draws would raise f."""
        by_kind: dict[int, int] = {}
        for e in discards:
            assert e.pai is not None
            k = T.kind_of(e.pai)
            if k not in by_kind:
                by_kind[k] = self._after_discard(counts, groups, k)
        top = max(by_kind.values())
        now = hand_value(counts, groups)
        visible = obs.visible_counts()
        kinds = _kinds_in_play(obs)
        live_draws: dict[int, int] = {}
        for k, v in by_kind.items():
            if v != top:
                continue
            counts[k] -= 1
            total = 0
            for y in kinds:
                left = 4 - counts[y] - visible[y]
                if left <= 0:
                    continue
                counts[y] += 1
                if hand_value(counts, groups) > now:
                    total += left
                counts[y] -= 1
            counts[k] += 1
            live_draws[k] = total
        best: Event | None = None
        best_key: tuple[int, int, int] | None = None
        for e in discards:
            assert e.pai is not None
            k = T.kind_of(e.pai)
            if k not in live_draws:
                continue
            edge = 0 if T.is_terminal_or_honor(k) else (1 if T.number_of(k) in (2, 8) else 2)
            key = (-live_draws[k], edge + (1 if T.is_red(e.pai) else 0), k)
            if best_key is None or key < best_key:
                best, best_key = e, key
        assert best is not None
        return best

    # ------------------------------------------------------------------ calls
    def _claim(self, obs: Any, legal: Sequence[Event]) -> Event:
        """Call when it raises f.

        Before the call the concealed hand has 3k+1 tiles; after a chi or pon it holds one
        more set and 3(k-1)+2 tiles, one of which it must discard.  Both sides are compared as
        3k+1-tile states: f now against 3 + f after the call's best discard.  An open kan
        draws a replacement instead of discarding, so its state is already 3k+1 tiles; it is
        taken when f does not drop.
        """
        counts = obs.counts
        melds = len(obs.melds[obs.seat])
        groups = 4 - melds
        before = hand_value(counts, groups)
        best: Event | None = None
        best_value = before
        for e in legal:
            if e.type not in ("chi", "pon", "daiminkan"):
                continue
            for c in e.consumed:
                counts[T.kind_of(c)] -= 1
            if e.type == "daiminkan":
                after = SET_VALUE + hand_value(counts, groups - 1)
                better = after >= best_value and (best is None or after > best_value)
            else:
                after = SET_VALUE + max(
                    self._after_discard(counts, groups - 1, k) for k in range(34) if counts[k]
                )
                better = after > best_value
            for c in e.consumed:
                counts[T.kind_of(c)] += 1
            if better:
                best, best_value = e, after
        return best if best is not None else next(e for e in legal if e.type == "none")
