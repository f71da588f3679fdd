"""Feature vectors of the opponent models (001 §VI-B/C), from a :class:`TableState`.

Each function reads only public information plus, where stated, the observer's own hand, so
the same numbers can be computed from a record (fitting) and from an observation (play).
The names are listed next to each function so the model file can say what it was fed.
"""

from __future__ import annotations

from collections.abc import Sequence

from tenpai import tiles as T
from tenpai.reading.table import LIVE_WALL, TableState

__all__ = [
    "DEAL_IN_FEATURES",
    "RANK_FEATURES",
    "TENPAI_FEATURES",
    "deal_in_features",
    "rank_features",
    "tenpai_bucket",
    "tenpai_features",
]

#: The tenpai model is fitted per (discards, calls) bucket, as 001 fits one model per number
#: of past discards and calls; discards above this share the last bucket.
MAX_DISCARD_BUCKET = 17
MAX_CALL_BUCKET = 3

TENPAI_FEATURES = (
    "tsumogiri_last6",
    "tedashi_last3",
    "middle_tedashi_last6",
    "terminal_honor_first6",
    "wall_fraction",
    "dora_in_melds",
    "value_pons",
    "last_tedashi_middle",
)


def tenpai_bucket(state: TableState, seat: int) -> tuple[int, int]:
    """(discards, calls) of ``seat`` as capped bucket indices."""
    return (min(len(state.rivers[seat]), MAX_DISCARD_BUCKET),
            min(state.calls[seat], MAX_CALL_BUCKET))


def _is_middle(k: int) -> bool:
    return k < 27 and 3 <= T.number_of(k) <= 7


def tenpai_features(state: TableState, seat: int) -> list[float]:
    """What a river and calls say about a non-riichi player's readiness (001 §VI-B, after
    Mizukami & Tsuruoka's features): late tedashi of middle tiles, early honour discards,
    tsumogiri streaks, value and dora in the melds."""
    river = state.rivers[seat]
    last6 = river[-6:]
    last3 = river[-3:]
    first6 = river[:6]
    dora = state.dora_kinds()
    melds = state.meld_kinds[seat]
    wind = 27 + (seat - state.oya) % 4
    value = {31, 32, 33, wind, 27 + state.bakaze}
    return [
        float(sum(d.tsumogiri for d in last6)),
        float(sum(not d.tsumogiri for d in last3)),
        float(sum((not d.tsumogiri) and _is_middle(d.kind) for d in last6)),
        float(sum(T.is_terminal_or_honor(d.kind) for d in first6)),
        state.wall / LIVE_WALL,
        float(sum(melds.count(k) for k in dora)),
        float(sum(k in value for k in state.pons[seat])),
        float(bool(river) and (not river[-1].tsumogiri) and _is_middle(river[-1].kind)),
    ]


DEAL_IN_FEATURES = (
    "genbutsu",
    "passed_after_riichi",
    "suji",
    "half_suji",
    "copies_seen",
    "honor",
    "terminal",
    "two_eight",
    "middle",
    "dora",
    "riichi",
    "calls",
    "neighbour_wall",
    "value_honor",
    "discards",
)


def deal_in_features(state: TableState, target: int, kind: int, seen: Sequence[int]) -> list[float]:
    """Features of "``kind`` is a winning tile of ``target``, given ``target`` is tenpai".

    ``seen`` counts the copies the discarder can see (public tiles plus its own hand).  These
    are the classic reading tools: genbutsu, tiles passed after riichi, suji, walls (kabe),
    the tile class, dora.
    """
    river = {d.kind for d in state.rivers[target]}
    genbutsu = kind in river
    passed = kind in state.passed_after_riichi[target]
    suji = half = 0.0
    wall = 0.0
    if kind < 27:
        n = T.number_of(kind)
        base = kind - (n - 1)
        sides = []
        if n >= 4:
            sides.append(base + n - 4 in river)
        if n <= 6:
            sides.append(base + n + 2 in river)
        if sides and all(sides):
            suji = 1.0
        elif any(sides):
            half = 1.0
        neigh = [base + m - 1 for m in (n - 2, n - 1, n + 1, n + 2) if 1 <= m <= 9]
        wall = float(max((seen[k] for k in neigh), default=0))
    honor = kind >= 27
    wind = 27 + (target - state.oya) % 4
    return [
        float(genbutsu),
        float(passed),
        suji,
        half,
        float(seen[kind]),
        float(honor),
        float(not honor and T.number_of(kind) in (1, 9)),
        float(not honor and T.number_of(kind) in (2, 8)),
        float(not honor and 3 <= T.number_of(kind) <= 7),
        float(kind in state.dora_kinds()),
        float(state.in_riichi(target)),
        float(state.calls[target]),
        wall,
        float(kind in (31, 32, 33, wind, 27 + state.bakaze)),
        float(len(state.rivers[target])),
    ]


RANK_FEATURES = (
    "score",
    "lead_over_1",
    "lead_over_2",
    "lead_over_3",
    "scaled_lead_1",
    "scaled_lead_2",
    "scaled_lead_3",
    "hands_left",
    "dealer",
    "kyotaku",
    "seat_order",
)


def rank_features(
    scores: Sequence[int], seat: int, hands_left: int, dealer: bool, kyotaku: int
) -> list[float]:
    """Features of the final-rank model (001 eq. 1, after Mizukami & Tsuruoka): the lead over
    each other player (sorted, so the model is symmetric in the others), the same leads
    divided by sqrt(hands left + 1) (a lead counts more when few hands remain), the number of
    hands left, whether ``seat`` deals next, deposits on the table, and the seat order that
    breaks ties (Tenhou ranks a tie by the starting seat)."""
    mine = scores[seat]
    leads = sorted((mine - scores[s]) / 10000.0 for s in range(4) if s != seat)
    root = (hands_left + 1.0) ** 0.5
    return [
        mine / 10000.0,
        *leads,
        *(v / root for v in leads),
        float(hands_left),
        float(dealer),
        float(kyotaku),
        float(seat),
    ]
