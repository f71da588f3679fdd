"""The target families a fan planner steers toward, as set spaces a search can fill.

Strong contest players choose a fan combination worth 8 early and collect its tiles; the
families below are the ones they name (pure straight, mixed straight, mixed triple chow, mixed
shifted chows, pure shifted chows, knitted straight, flushes, all pungs, outside hand, all
types, two dragon pungs), plus ``free``: any four sets and a pair, kept when the real fan
counter finds 8 points in them (a concealed all-chows all-simples hand, a dragon pung with a
concealed self-draw …).  The special shapes without sets (seven pairs, honours and knitted,
thirteen orphans) are enumerated in :mod:`tenpai.rules.mcr.plan.search` directly.

A family only says where to *look*: which sets are fixed, which sets may fill the other
slots and which pairs are allowed.  Whether a completed hand is worth 8 is never decided
here; every candidate is scored by :func:`tenpai.rules.mcr.evaluate`.

Sets are indices into :data:`SETS`: 0-20 the chows (suit-major, by starting number), 21-54
the pungs of kinds 0-33 (a kong fills a pung's slot).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations
from typing import Final

from tenpai.hand import KNITTED_PATTERNS

__all__ = [
    "FAMILIES",
    "SETS",
    "Family",
    "chow_index",
    "pung_index",
]


def chow_index(first: int) -> int:
    """Index in :data:`SETS` of the chow whose lowest kind is ``first`` (a suited kind 1-7)."""
    if first >= 27 or first % 9 > 6:
        raise ValueError(f"kind {first} cannot start a chow")
    return 7 * (first // 9) + first % 9


def pung_index(kind: int) -> int:
    """Index in :data:`SETS` of the pung (or kong) of ``kind``."""
    if not 0 <= kind < 34:
        raise ValueError(f"kind {kind} is not 0-33")
    return 21 + kind


#: The kinds of each set, chows first.
SETS: Final[tuple[tuple[int, int, int], ...]] = (
    *((9 * s + n, 9 * s + n + 1, 9 * s + n + 2) for s in range(3) for n in range(7)),
    *((k, k, k) for k in range(34)),
)

_ALL_SETS: Final = tuple(range(len(SETS)))
_ALL_PAIRS: Final = tuple(range(34))
_HONORS: Final = tuple(range(27, 34))
_TERMINAL_OR_HONOR: Final = frozenset((*(k for k in range(27) if k % 9 in (0, 8)), *_HONORS))


@dataclass(frozen=True, slots=True)
class Family:
    """Where a search for complete hands of one fan combination looks.

    ``fixed`` sets and ``fixed_tiles`` (single kinds, for the knitted straight) must all be in
    the hand; each of the ``slots`` is filled by one set from its space; the pair comes from
    ``pairs``.  An exposed meld fills a fixed set equal to it, or else a slot whose space
    holds it; a meld fitting neither rules the family out.  ``slack`` is how many tiles more
    than the hand's shortest route to any win the search still looks at: families with big
    fans are worth a longer route.
    """

    name: str
    fixed: tuple[int, ...] = ()
    fixed_tiles: tuple[int, ...] = ()
    slots: tuple[tuple[int, ...], ...] = ()
    pairs: tuple[int, ...] = _ALL_PAIRS
    slack: int = 1
    #: No two groups of the family's hands share a kind (all pungs: distinct pungs and pair;
    #: all types: one group per suit or honour class), so each group's cost depends on the
    #: hand alone and the search adds costs instead of tracking tiles.
    disjoint: bool = False

    #: 1 for every kind the free part (slots and pair) may use, else 0: the search's bound
    #: only counts those tiles (filled in on construction).
    mask: tuple[int, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        used = set(self.pairs)
        for space in self.slots:
            for i in space:
                used.update(SETS[i])
        object.__setattr__(self, "mask", tuple(int(k in used) for k in range(34)))


def _chows(firsts: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(chow_index(k) for k in firsts)


def _chow_family(name: str, firsts: tuple[int, ...]) -> Family:
    return Family(name, fixed=_chows(firsts), slots=(_ALL_SETS,))


def _suit_sets(suit: int, honors: bool) -> tuple[int, ...]:
    chows = tuple(7 * suit + n for n in range(7))
    pungs = tuple(pung_index(9 * suit + n) for n in range(9))
    return chows + pungs + (tuple(pung_index(k) for k in _HONORS) if honors else ())


def _build() -> tuple[Family, ...]:
    fams: list[Family] = [Family("free", slots=(_ALL_SETS,) * 4, slack=0)]
    names = "mps"
    for s in range(3):
        fams.append(_chow_family(f"pure straight {names[s]}", (9 * s, 9 * s + 3, 9 * s + 6)))
    for a, b, c in permutations(range(3)):
        fams.append(_chow_family(f"mixed straight 1{names[a]}4{names[b]}7{names[c]}",
                                 (9 * a, 9 * b + 3, 9 * c + 6)))
    for n in range(7):
        fams.append(_chow_family(f"mixed triple chow {n + 1}", (n, 9 + n, 18 + n)))
    for n in range(5):
        for a, b, c in permutations(range(3)):
            fams.append(_chow_family(
                f"mixed shifted chows {n + 1}{names[a]}{n + 2}{names[b]}{n + 3}{names[c]}",
                (9 * a + n, 9 * b + n + 1, 9 * c + n + 2)))
    for s in range(3):
        for step in (1, 2):
            for n in range(7 - 2 * step):
                base = 9 * s + n
                fams.append(_chow_family(
                    f"pure shifted chows {n + 1}{names[s]} step {step}",
                    (base, base + step, base + 2 * step)))
    for pattern in KNITTED_PATTERNS:
        label = "".join(f"{pattern[i] % 9 + 1}{names[pattern[i] // 9]}" for i in (0, 3, 6))
        fams.append(Family(f"knitted straight {label}", fixed_tiles=pattern, slots=(_ALL_SETS,)))
    for s in range(3):
        fams.append(Family(f"full flush {names[s]}", slots=(_suit_sets(s, False),) * 4,
                           pairs=tuple(range(9 * s, 9 * s + 9))))
        fams.append(Family(f"half flush {names[s]}", slots=(_suit_sets(s, True),) * 4,
                           pairs=(*range(9 * s, 9 * s + 9), *_HONORS)))
    pungs = tuple(pung_index(k) for k in range(34))
    fams.append(Family("all pungs", slots=(pungs,) * 4, disjoint=True))
    outside = tuple(i for i, kinds in enumerate(SETS) if _TERMINAL_OR_HONOR & set(kinds))
    fams.append(Family("outside hand", slots=(outside,) * 4,
                       pairs=tuple(sorted(_TERMINAL_OR_HONOR))))
    categories = (
        tuple(i for i, kinds in enumerate(SETS) if kinds[0] < 9),
        tuple(i for i, kinds in enumerate(SETS) if 9 <= kinds[0] < 18),
        tuple(i for i, kinds in enumerate(SETS) if 18 <= kinds[0] < 27),
        tuple(pung_index(k) for k in range(27, 31)),
        tuple(pung_index(k) for k in range(31, 34)),
    )
    pair_sets = (range(0, 9), range(9, 18), range(18, 27), range(27, 31), range(31, 34))
    for c, pair_kinds in enumerate(pair_sets):
        fams.append(Family(f"all types (pair {'mpswd'[c]})",
                           slots=tuple(sp for i, sp in enumerate(categories) if i != c),
                           pairs=tuple(pair_kinds), disjoint=True))
    for a, b in ((31, 32), (31, 33), (32, 33)):
        fams.append(Family("two dragon pungs", fixed=(pung_index(a), pung_index(b)),
                           slots=(_ALL_SETS,) * 2))
    return tuple(fams)


#: Every set-based family, ``free`` first.
FAMILIES: Final[tuple[Family, ...]] = _build()
