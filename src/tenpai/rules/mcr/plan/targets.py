"""Reachable fan combinations of 8 points or more, with what they need and how likely they are.

:func:`plan` searches every family of :mod:`tenpai.rules.mcr.plan.families` (and the special
shapes) for complete hands close to the player's, scores each with the engine's own fan
counter, keeps those that pass the 8-point minimum, and attaches the tiles still needed and
the probability of drawing them (:mod:`tenpai.rules.mcr.plan.odds`).

A target is scored as won on a discard, the more common way to win and the one with fewer
fans (no 不求人 / 自摸).  A hand that reaches 8 only when self-drawn is kept with
``self_draw_only`` set; its value is discounted by :data:`SELF_DRAW_SHARE`, because the
winning tile then has to come from the player's own wall.  Wait fans depend on which tile
comes last; the target names the needed kind it assumes (``win_tile``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from tenpai import tiles as T
from tenpai.hand import shanten_mcr
from tenpai.rules.mcr.context import MCRContext, MCRInputError, Meld
from tenpai.rules.mcr.evaluate import MINIMUM_FAN, evaluate
from tenpai.rules.mcr.plan.families import FAMILIES, Family, chow_index, pung_index
from tenpai.rules.mcr.plan.odds import claim_completion_probability, completion_probability
from tenpai.rules.mcr.plan.race import BOTZONE_WALL, RaceError, check_table, race_probability
from tenpai.rules.mcr.plan.search import (
    HandCounts,
    family_candidates,
    honors_knitted_candidates,
    orphans_candidates,
    seven_pairs_candidates,
)

__all__ = [
    "CONCEALED_SHAPES",
    "DEFAULT_VALUATION",
    "FAN_CAP",
    "SELF_DRAW_SHARE",
    "SPECIAL_SLACK",
    "WIN_POINTS",
    "Candidate",
    "PlanError",
    "PlanState",
    "Target",
    "Valuation",
    "best_and_runner_up",
    "best_by_discard",
    "best_of",
    "best_target",
    "candidates",
    "fan_cap",
    "kept_rankings",
    "meld_set_index",
    "plan",
    "race_weighted",
    "ranked_by_discard",
    "score",
    "set_claims",
    "target_probability",
]

#: Points a win brings besides its fans: the base of 8 from each of the three others
#: (Botzone's settlement, and the Green Book's).  A target's value is its probability times
#: ``WIN_POINTS + fans``, so a bigger hand is worth somewhat more but winning at all dominates.
WIN_POINTS = 24
#: Weight of a target that reaches 8 only on a self-draw: a judgement (not fitted) of the share
#: of wins that are self-drawn when a player may also win on three opponents' discards.
SELF_DRAW_SHARE = 0.4
#: Extra tiles (over the hand's shortest route to any win) the special shapes may cost.
SPECIAL_SLACK = 2
#: Fans a candidate of a set family or seven pairs is assumed to reach at most when deciding
#: whether it is worth counting (thirteen orphans is assumed 88).
FAN_CAP = 48


@dataclass(frozen=True, slots=True)
class Valuation:
    """What reaching a target is worth, as probability × (``win_points`` + ``fan_weight`` ×
    fans), × :data:`SELF_DRAW_SHARE` when only a self-draw reaches the minimum.

    The default weighs a fan as a discard win pays it (once, by the discarder).  Botzone
    pays a self-draw's fans by each of the three others, so over wins of which a share ``s``
    are self-drawn a fan is worth ``1 + 2s`` points: a larger ``fan_weight`` steers for a
    bigger hand when it costs little extra distance.
    """

    win_points: float = WIN_POINTS
    fan_weight: float = 1.0

    def __post_init__(self) -> None:
        if not self.win_points >= 0 or not self.fan_weight >= 0:
            raise PlanError(f"Valuation: win_points and fan_weight must be >= 0, got "
                            f"{self.win_points} and {self.fan_weight}")

    def worth(self, probability: float, points: int, self_draw_only: bool) -> float:
        share = SELF_DRAW_SHARE if self_draw_only else 1.0
        return probability * (self.win_points + self.fan_weight * points) * share

    def ceiling(self, probability: float, points: int) -> float:
        """The most a candidate of this probability can be worth with at most ``points``
        fans (the search's bound for skipping it)."""
        return probability * (self.win_points + self.fan_weight * points)


class PlanError(ValueError):
    """A position the planner cannot read (a hand of the wrong size, a count above four)."""


#: The shipped planner's valuation: probability × (24 + fans).
DEFAULT_VALUATION = Valuation()


@dataclass(frozen=True, slots=True)
class PlanState:
    """What a player knows that matters to planning.

    ``concealed`` is its hand as 34 counts (``13 - 3·melds`` tiles waiting for a tile, or
    ``14 - 3·melds`` about to discard); ``melds`` its sets on the table as the scorer reads
    them; ``live`` the copies of each kind it has not seen (4 minus own tiles, rivers and open
    melds); ``draws`` how many more tiles it expects to draw.  ``claim_rate`` above 0 counts
    the opponents' discards too (the draws-and-claims model of
    :mod:`tenpai.rules.mcr.plan.odds`, at that chance per discard); 0 is the draws-only figure.
    ``race``, when not empty, is a survival table by own draw
    (:mod:`tenpai.rules.mcr.plan.race`): each target's value then counts its completion at
    each future draw only as far as no other seat has won before it.
    """

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    live: tuple[int, ...] = field(default=(4,) * 34)
    draws: int = 21
    seat_wind: int = 0
    prevalent_wind: int = 0
    claim_rate: float = 0.0
    race: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if len(self.concealed) != 34 or any(not 0 <= c <= 4 for c in self.concealed):
            raise PlanError(f"PlanState.concealed must be 34 counts of 0-4, got {self.concealed}")
        if len(self.live) != 34 or any(not 0 <= c <= 4 for c in self.live):
            raise PlanError(f"PlanState.live must be 34 counts of 0-4, got {self.live}")
        n = sum(self.concealed)
        want = (13 - 3 * len(self.melds), 14 - 3 * len(self.melds))
        if n not in want:
            raise PlanError(f"PlanState: {n} concealed tiles with {len(self.melds)} melds; "
                            f"expected {want[0]} or {want[1]}")
        if self.draws < 0:
            raise PlanError(f"PlanState.draws must not be negative, got {self.draws}")
        if not 0.0 <= self.claim_rate <= 1.0:
            raise PlanError(f"PlanState.claim_rate must be in [0, 1], got {self.claim_rate}")
        if self.race:
            try:
                check_table(self.race)
            except RaceError as err:
                raise PlanError(f"PlanState.race: {err}") from None

    @property
    def unseen(self) -> int:
        return sum(self.live)

    @property
    def drawn(self) -> int:
        """Own draws made so far, counted from the draws left of a Botzone wall."""
        return max(0, BOTZONE_WALL - self.draws)


@dataclass(frozen=True, slots=True)
class Target:
    """One complete hand worth at least 8 points, and how far the player is from it."""

    family: str
    #: The complete hand's concealed tiles (34 counts); the melds are the player's own.
    hand: tuple[int, ...]
    #: ``(kind, copies)`` still to draw.
    needed: tuple[tuple[int, int], ...]
    #: ``(kind, copies)`` of the player's hand the target does not use (to discard).
    excess: tuple[tuple[int, int], ...]
    #: Fans of the completed hand as ``(English name, points)``, flowers left out.
    fans: tuple[tuple[str, int], ...]
    points: int
    win_tile: int
    self_draw_only: bool
    probability: float
    #: How the target is valued (the agent's setting; the default is the shipped planner's).
    valuation: Valuation = DEFAULT_VALUATION
    #: The probability weighted by the hand's survival to each draw it may complete at
    #: (:mod:`tenpai.rules.mcr.plan.race`); None when the state has no race table.
    race_probability: float | None = None

    @property
    def missing(self) -> int:
        return sum(n for _, n in self.needed)

    @property
    def value(self) -> float:
        """Expected points of steering for it: probability × (win base + fans) under its
        :class:`Valuation`, discounted when only a self-draw reaches the minimum; the
        race-weighted probability instead when there is one."""
        p = self.probability if self.race_probability is None else self.race_probability
        return self.valuation.worth(p, self.points, self.self_draw_only)

    def keeps(self, kind: int) -> bool:
        """True when discarding one tile of ``kind`` leaves the target's needs unchanged."""
        return any(k == kind for k, _ in self.excess)

    def describe(self) -> str:
        need = " ".join(T.to_compact([k] * n) for k, n in self.needed) or "-"
        fans = ", ".join(f"{name} {p}" for name, p in self.fans)
        note = " (self-draw only)" if self.self_draw_only else ""
        race = "" if self.race_probability is None else f", in the race {self.race_probability:.3f}"
        return (f"{self.family}: needs {need}; p={self.probability:.3f}{race}; {self.points} fans "
                f"[{fans}]{note}")


def meld_set_index(meld: Meld) -> int:
    """The meld as an index of :data:`tenpai.rules.mcr.plan.families.SETS`."""
    if meld.kind == "chow":
        return chow_index(meld.base)
    return pung_index(meld.base)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A complete hand found by the search, before its fans are counted."""

    family: str
    hand: HandCounts
    needed: tuple[tuple[int, int], ...]
    probability: float

    def excess_of(self, concealed: Sequence[int]) -> tuple[tuple[int, int], ...]:
        return tuple((k, h - c) for k, (c, h) in enumerate(zip(self.hand, concealed)) if h > c)


def candidates(state: PlanState, families: Sequence[Family] = FAMILIES) -> list[Candidate]:
    """Every complete hand within the search budgets whose needed tiles are still live,
    most likely first (ties: fewer tiles needed, then the order found).

    The search budget of a family is the hand's shortest route to any MCR win (its shanten
    + 1 tiles) plus the family's slack; the special shapes get :data:`SPECIAL_SLACK`.
    """
    hand = state.concealed
    meld_sets = tuple(meld_set_index(m) for m in state.melds)
    complete: Iterable[tuple[HandCounts, str]]
    if families is FAMILIES:
        complete = _complete_hands_cached(tuple(hand), meld_sets)
    else:
        complete = _complete_hands(tuple(hand), meld_sets, families)
    unseen = state.unseen
    out: list[Candidate] = []
    for cand, family in complete:
        needed = tuple((k, c - h) for k, (c, h) in enumerate(zip(cand, hand)) if c > h)
        p = target_probability(state, family, cand, needed, unseen, win_claim=True)
        if p > 0.0 or not needed:
            out.append(Candidate(family, cand, needed, p))
    out.sort(key=lambda c: (-c.probability, sum(n for _, n in c.needed)))
    return out


def _complete_hands(hand: HandCounts, meld_sets: tuple[int, ...],
                    families: Sequence[Family]) -> tuple[tuple[HandCounts, str], ...]:
    """Every complete hand within the search budgets with the first family that found it, in
    the order found.  A function of the tiles alone (the table decides only which are
    live), so the same hand, met again, need not be searched again."""
    try:
        base = shanten_mcr(list(hand)) + 1
    except ValueError as err:
        raise PlanError(f"PlanState.concealed: {err}") from None
    seen: dict[HandCounts, str] = {}
    for fam in families:
        for cand in family_candidates(fam, hand, meld_sets, base):
            seen.setdefault(cand, fam.name)
    if not meld_sets:
        special = base + SPECIAL_SLACK
        for name, cands in (
            ("seven pairs", seven_pairs_candidates(hand, special)),
            ("honors and knitted", honors_knitted_candidates(hand, special)),
            ("thirteen orphans", orphans_candidates(hand, special)),
        ):
            for cand in cands:
                seen.setdefault(cand, name)
    return tuple(seen.items())


#: How many hands' complete hands :func:`candidates` keeps.  A search's playouts meet the
#: same hands again and again (after a candidate discard, every world that draws the same
#: tile): 512 hands cover a searched decision's playouts at 16 worlds, in about 32 MB.
COMPLETE_HANDS_CACHE: Final = 512


@dataclass(frozen=True, slots=True)
class _PackedHands:
    """Complete hands kept as 34 bytes each: a hand far from winning has thousands, and as
    tuples of ints 512 such hands took 175 MB (random starting hands, tracemalloc)."""

    tiles: bytes
    families: tuple[str, ...]

    def __iter__(self) -> Iterator[tuple[HandCounts, str]]:
        t = self.tiles
        for i, family in enumerate(self.families):
            yield tuple(t[34 * i:34 * i + 34]), family


@lru_cache(maxsize=COMPLETE_HANDS_CACHE)
def _complete_hands_cached(hand: HandCounts, meld_sets: tuple[int, ...]) -> _PackedHands:
    """:func:`_complete_hands` over :data:`FAMILIES`, remembered (errors are not)."""
    found = _complete_hands(hand, meld_sets, FAMILIES)
    return _PackedHands(b"".join(bytes(cand) for cand, _ in found),
                        tuple(family for _, family in found))


#: Shapes that must stay concealed: no set of theirs can be claimed, only the winning tile.
CONCEALED_SHAPES = frozenset({"seven pairs", "honors and knitted", "thirteen orphans"})


def set_claims(family: str, cand: HandCounts, hand: Sequence[int],
               needed: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The needed kinds a discard could bring into a set, with how many opponents may give
    them: 3 for a pung of a pair the hand holds (the target keeps three or more), 1 for a chow
    whose two other tiles the hand holds (the target keeps all three kinds; the left player
    only); none for the concealed shapes.  The target's sets are not decomposed, so a pair and
    two tiles of the target's kinds are read as that set (an approximation of the model)."""
    if family in CONCEALED_SHAPES:
        return ()
    out: list[tuple[int, int]] = []
    for k, _n in needed:
        if cand[k] >= 3 and hand[k] >= 2:
            out.append((k, 3))
            continue
        if k < 27:
            pos = k % 9
            for start in range(max(0, pos - 2), min(pos, 6) + 1):
                a = k - pos + start
                others = [x for x in (a, a + 1, a + 2) if x != k]
                if all(hand[x] >= 1 and cand[x] >= 1 for x in others):
                    out.append((k, 1))
                    break
    return tuple(out)


def target_probability(state: PlanState, family: str, cand: HandCounts,
                       needed: tuple[tuple[int, int], ...], unseen: int, win_claim: bool,
                       draws: int | None = None) -> float:
    """The candidate's completion probability under the state's model (draws only at claim
    rate 0; else draws and claims, the winning discard counted when ``win_claim``), within
    ``draws`` own draws (the state's draws left when None)."""
    d = state.draws if draws is None else draws
    if state.claim_rate <= 0.0:
        return completion_probability(needed, state.live, unseen, d)
    return claim_completion_probability(
        needed, state.live, unseen, d, state.claim_rate,
        set_claims(family, cand, state.concealed, needed), win_claim)


def race_weighted(state: PlanState, family: str, cand: HandCounts,
                  needed: tuple[tuple[int, int], ...], total: float, win_claim: bool) -> float:
    """The target's probability ``total`` (within all the draws left) weighted by the state's
    race table: Σ_t [P(t) − P(t − 1)] · S(t) (:func:`tenpai.rules.mcr.plan.race.race_probability`,
    ``P(t)`` the same model within ``t`` draws; under draws only nothing completes in fewer
    draws than tiles needed)."""
    unseen = state.unseen
    first = sum(n for _, n in needed) if state.claim_rate <= 0.0 else 0
    return race_probability(
        lambda t: target_probability(state, family, cand, needed, unseen, win_claim, t),
        total, state.draws, state.drawn, state.race, first)


def fan_cap(c: Candidate) -> int:
    """The most fans :func:`best_by_discard` assumes a candidate may score before counting
    them (it skips a candidate that could not beat the best target even with this many)."""
    return 88 if c.family == "thirteen orphans" else FAN_CAP


def plan(state: PlanState, families: Sequence[Family] = FAMILIES,
         valuation: Valuation = DEFAULT_VALUATION) -> list[Target]:
    """Every reachable target worth 8 or more, best value first (ties: fewer tiles needed)."""
    out = [t for c in candidates(state, families)
           if (t := score(state, c, valuation=valuation)) is not None]
    out.sort(key=lambda t: (-t.value, t.missing, t.family))
    return out


def best_by_discard(state: PlanState,
                    valuation: Valuation = DEFAULT_VALUATION) -> dict[int, Target]:
    """For each kind in a hand about to discard, the most valuable target that does not use
    one of its tiles (so discarding it keeps that target's needs unchanged).

    Candidates are counted most likely first, and one is skipped when even :func:`fan_cap`
    fans could not lift it above the best target of every kind it would let go; the answer
    is therefore the same as scoring everything, unless a skipped hand scores above the cap.
    """
    return {k: ranked[0] for k, ranked in ranked_by_discard(state, valuation, 1).items()}


def ranked_by_discard(state: PlanState, valuation: Valuation = DEFAULT_VALUATION,
                      depth: int = 2) -> dict[int, tuple[Target, ...]]:
    """For each kind in a hand about to discard, the ``depth`` most valuable targets that do
    not use one of its tiles, best first (fewer where fewer exist; kinds that keep none are
    left out).

    Why more than the best: the best target of most discards is the same hand (every tile it
    lets go keeps it), so the best alone cannot tell those discards apart; the runner-up says
    which of them keeps a second way to 8 fans open.  The skipping rule is
    :func:`best_by_discard`'s, against each kind's ``depth``-th value so far.
    """
    if depth < 1:
        raise PlanError(f"ranked_by_discard: depth must be at least 1, got {depth}")
    return kept_rankings(state, candidates(state), valuation, depth, score)


#: How a candidate becomes a target: ``(state, candidate, excess, valuation)``, None below 8 fans.
Scorer = Callable[[PlanState, Candidate, tuple[tuple[int, int], ...] | None, Valuation],
                  Target | None]


def kept_rankings(state: PlanState, found: Iterable[Candidate], valuation: Valuation,
                  depth: int, scorer: Scorer) -> dict[int, tuple[Target, ...]]:
    """:func:`ranked_by_discard` over ``found`` (candidates in falling order of their
    probability, which may be another model's, e.g. :mod:`.foresight`'s), each made a target
    by ``scorer``."""
    hand = state.concealed
    kinds = [k for k in range(34) if hand[k]]
    ranked: dict[int, list[Target]] = {}
    floor = dict.fromkeys(kinds, 0.0)
    for c in found:
        top = valuation.ceiling(c.probability, fan_cap(c))
        if top <= min(floor.values()):
            if fan_cap(c) == FAN_CAP:
                break
            continue
        excess = c.excess_of(hand)
        if all(top <= floor[k] for k, _ in excess):
            continue
        t = scorer(state, c, excess, valuation)
        if t is None:
            continue
        v = t.value
        for k, _ in excess:
            if v > floor[k]:
                kept = ranked.setdefault(k, [])
                at = next((i for i, o in enumerate(kept) if v > o.value), len(kept))
                kept.insert(at, t)
                del kept[depth:]
                if len(kept) == depth:
                    floor[k] = kept[-1].value
    return {k: tuple(v) for k, v in ranked.items()}


def best_and_runner_up(
    state: PlanState, valuation: Valuation = DEFAULT_VALUATION,
) -> tuple[dict[int, Target], dict[int, float]]:
    """:func:`ranked_by_discard` at depth 2 as what a discard's tie-break reads: per kind its
    best kept target, and the value of the second best (0 where it keeps only one)."""
    ranked = ranked_by_discard(state, valuation, 2)
    return ({k: r[0] for k, r in ranked.items()},
            {k: r[1].value if len(r) > 1 else 0.0 for k, r in ranked.items()})


def best_target(state: PlanState, valuation: Valuation = DEFAULT_VALUATION) -> Target | None:
    """The most valuable target of a hand waiting for a tile (or any hand), with the same
    skipping rule as :func:`best_by_discard`."""
    return best_of(state, candidates(state), valuation, score)


def best_of(state: PlanState, found: Iterable[Candidate], valuation: Valuation,
            scorer: Scorer) -> Target | None:
    """:func:`best_target` over ``found`` (in falling order of their probability), each made
    a target by ``scorer``."""
    best: Target | None = None
    floor = 0.0
    for c in found:
        if valuation.ceiling(c.probability, fan_cap(c)) <= floor:
            if fan_cap(c) == FAN_CAP:
                break
            continue
        t = scorer(state, c, None, valuation)
        if t is not None and t.value > floor:
            best, floor = t, t.value
    return best


def score(
    state: PlanState, c: Candidate, excess: tuple[tuple[int, int], ...] | None = None,
    valuation: Valuation = DEFAULT_VALUATION,
) -> Target | None:
    """The candidate as a target, or None when it does not reach the 8-fan minimum."""
    needed = c.needed
    win = max(needed, key=lambda kn: (kn[1], -kn[0]))[0] if needed else _any_kind(c.hand)
    melds = state.melds
    scored = _fans(c.hand, melds, win, False, state.seat_wind, state.prevalent_wind)
    self_only = False
    if scored is None or scored[1] < MINIMUM_FAN:
        scored = _fans(c.hand, melds, win, True, state.seat_wind, state.prevalent_wind)
        self_only = True
        if scored is None or scored[1] < MINIMUM_FAN:
            return None
    fans, points = scored
    if excess is None:
        excess = c.excess_of(state.concealed)
    probability = c.probability
    if self_only and state.claim_rate > 0.0:
        # only its own draw can bring the winning tile: no winning discard
        probability = target_probability(state, c.family, c.hand, needed, state.unseen,
                                         win_claim=False)
    race = None
    if state.race:
        race = race_weighted(state, c.family, c.hand, needed, probability,
                             win_claim=not self_only)
    return Target(c.family, c.hand, needed, excess, fans, points, win, self_only,
                  probability, valuation, race)


def _any_kind(cand: HandCounts) -> int:
    return next(k for k, c in enumerate(cand) if c)


@lru_cache(maxsize=1 << 16)
def _fans(
    cand: HandCounts, melds: tuple[Meld, ...], win: int, self_drawn: bool, seat_wind: int,
    prevalent_wind: int,
) -> tuple[tuple[tuple[str, int], ...], int] | None:
    """Fans of one completed hand (cached: a hand's candidates change little from one turn
    to the next)."""
    concealed = tuple(k for k, c in enumerate(cand) for _ in range(c))
    try:
        ctx = MCRContext(concealed=concealed, win_tile=win, melds=melds,
                         self_drawn=self_drawn, seat_wind=seat_wind,
                         prevalent_wind=prevalent_wind)
    except MCRInputError:
        return None
    result = evaluate(ctx)
    if result is None:
        return None
    fans = tuple((h.fan.en, h.points) for h in result.fans if h.fan.number != 81)
    return fans, result.total_without_flowers
