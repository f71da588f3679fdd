"""The decisions a player made in a replayed game, each with what they knew and chose.

Input is the engine's event stream from :func:`tenpai.replay.riichi.replay_riichi`, which adds
a ``none`` event (with ``choices``) for every player who could have called a discard and did
not.  Five kinds of decision come out:

``discard``
    every ``dahai`` by a player whose riichi has not been accepted yet (after that the discard
    is forced).  The declaration tile itself counts.  Label: the kind (0-33) discarded; legal:
    the kinds in hand.
``riichi``
    every own turn after a draw where riichi was legal (closed hand, not yet in riichi, at least
    1,000 points and four wall tiles, a ready hand after some discard) and the player then
    discarded or declared.  Turns that ended in a win, a kan or an abortive draw are left out.
    Label 1 = declared.
``pon`` / ``chi``
    every claim window in which the player could pon (resp. chi).  Label for pon: 1 = called;
    for chi: 0 = no chi, 1/2/3 = chi with the called tile lowest/middle/highest in the run.
``kan``
    every chance to declare a kan (closed, added, or open on a discard).  Label 1 = declared.

Players who passed are named by the replay's ``none`` events; for a player who *took* a call,
the other options of that window (could they also pon?) are worked out from the hand with the
same conditions the engine uses, minus the rare kuikae corner where a call leaves no legal
discard.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.hand import shanten
from tenpai.learn.chi_shapes import chi_class, chi_classes
from tenpai.learn.state import RoundTracker, SeatView

__all__ = [
    "DECISION_KINDS",
    "NUM_CLASSES",
    "DecisionKind",
    "DecisionPoint",
    "chi_class",
    "chi_classes",
    "iter_decisions",
    "riichi_allowed",
]

DecisionKind = Literal["discard", "riichi", "pon", "chi", "kan"]
DECISION_KINDS: Final[tuple[DecisionKind, ...]] = ("discard", "riichi", "pon", "chi", "kan")
#: Output classes of each decision kind's classifier.
NUM_CLASSES: Final[dict[str, int]] = {"discard": 34, "riichi": 2, "pon": 2, "chi": 4, "kan": 2}

RIICHI_MIN_POINTS: Final = 1000
RIICHI_MIN_WALL: Final = 4
_SKIP_AFTER_DISCARD: Final = frozenset({"none", "reach_accepted", "dora"})


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """One decision: who, what they saw, what they chose (``label``) among ``legal`` classes."""

    kind: DecisionKind
    seat: int
    view: SeatView
    label: int
    legal: tuple[int, ...]
    round_number: int


def riichi_allowed(tracker: RoundTracker, seat: int) -> bool:
    """The engine's riichi conditions, read from the tracker (the seat has 14 tiles)."""
    if tracker.riichi[seat] or tracker.open_hand[seat]:
        return False
    # three players may declare with 3 tiles left (each still draws once), four with 4
    min_wall = RIICHI_MIN_WALL - 1 if tracker.players == 3 else RIICHI_MIN_WALL
    if tracker.scores[seat] < RIICHI_MIN_POINTS or tracker.wall_remaining < min_wall:
        return False
    return shanten(tracker.hand_counts(seat)) <= 0


def _own_kan_possible(tracker: RoundTracker, seat: int) -> bool:
    if tracker.riichi[seat] or tracker.wall_remaining <= 0 or _kans_on_table(tracker) >= 4:
        return False
    hand = tracker.hands[seat]
    assert hand is not None
    return any(c == 4 for c in hand) or any(hand[k] for k in tracker.pon_kinds[seat])


def _kans_on_table(tracker: RoundTracker) -> int:
    return sum(m[2] for m in tracker.meld_types)


def _round_losses(events: Sequence[Event]) -> list[list[int]]:
    """Each round's point change per seat from wins and draws (riichi deposits not counted)."""
    out: list[list[int]] = []
    for e in events:
        if e.type == "start_kyoku":
            out.append([0, 0, 0, 0])
        elif e.type in ("hora", "ryukyoku") and out and len(e.deltas) in (3, 4):
            out[-1] = [a + b for a, b in zip(out[-1], (*e.deltas, 0))]
    return out


def iter_decisions(
    events: Iterable[Event],
    *,
    kinds: Iterable[str] = DECISION_KINDS,
    max_loss: int | None = None,
    tracker: RoundTracker | None = None,
    may_declare: Callable[[RoundTracker, int], bool] = riichi_allowed,
) -> Iterator[DecisionPoint]:
    """The decision points of one replayed game, in order.

    ``max_loss`` is Gao's filter (004 §4.3): leave out a player's decisions in a round where the
    player lost more than this many points (1500 in the thesis).  Rule sets that share Riichi's
    event shapes (the 108-tile rules: a ``reach`` declaration that locks the hand) pass their
    own ``tracker`` (wall size) and ``may_declare`` (when the declaration is legal).
    """
    evs = list(events)
    wanted = frozenset(kinds)
    unknown = wanted - set(DECISION_KINDS)
    if unknown:
        raise ValueError(f"unknown decision kinds {sorted(unknown)}; known: {DECISION_KINDS}")
    losses = _round_losses(evs)
    tracker = tracker if tracker is not None else RoundTracker()
    rnd = -1
    excluded: set[int] = set()
    for i, e in enumerate(evs):
        t = e.type
        if t == "start_kyoku":
            rnd += 1
            tracker.apply(e)
            if max_loss is not None:
                excluded = {s for s in range(4) if losses[rnd][s] < -max_loss}
            continue
        if rnd < 0:
            continue
        if t == "tsumo":
            tracker.apply(e)
            yield from _own_turn(tracker, evs, i, wanted, excluded, rnd, may_declare)
        elif t == "dahai":
            seat = e.actor
            assert seat is not None and e.pai is not None
            if "discard" in wanted and seat not in excluded and not tracker.riichi_accepted[seat]:
                hand = tracker.hand_counts(seat)
                yield DecisionPoint(
                    "discard",
                    seat,
                    tracker.view(seat),
                    T.kind_of(e.pai),
                    tuple(k for k in range(34) if hand[k]),
                    rnd,
                )
            tracker.apply(e)
            yield from _claim_window(tracker, evs, i, e, wanted, excluded, rnd)
        else:
            tracker.apply(e)


def _next_action(evs: Sequence[Event], i: int, seat: int) -> Event | None:
    for e in evs[i + 1 :]:
        if e.type in ("dora", "none"):
            continue
        return e if e.actor == seat else None
    return None


def _own_turn(
    tracker: RoundTracker,
    evs: Sequence[Event],
    i: int,
    wanted: frozenset[str],
    excluded: set[int],
    rnd: int,
    may_declare: Callable[[RoundTracker, int], bool],
) -> Iterator[DecisionPoint]:
    seat = evs[i].actor
    assert seat is not None
    if seat in excluded:
        return
    nxt = _next_action(evs, i, seat)
    if nxt is None or nxt.type in ("hora", "ryukyoku"):
        return
    kan_taken = nxt.type in ("ankan", "kakan")
    if "kan" in wanted and _own_kan_possible(tracker, seat):
        yield DecisionPoint("kan", seat, tracker.view(seat), int(kan_taken), (0, 1), rnd)
    if "riichi" in wanted and not kan_taken and may_declare(tracker, seat):
        label = int(nxt.type == "reach")
        yield DecisionPoint("riichi", seat, tracker.view(seat), label, (0, 1), rnd)


def _claim_window(
    tracker: RoundTracker,
    evs: Sequence[Event],
    i: int,
    discard: Event,
    wanted: frozenset[str],
    excluded: set[int],
    rnd: int,
) -> Iterator[DecisionPoint]:
    assert discard.actor is not None and discard.pai is not None
    discarder = discard.actor
    kind = T.kind_of(discard.pai)
    passes: dict[int, tuple[str, ...]] = {}
    taken: Event | None = None
    for e in evs[i + 1 :]:
        if e.type == "none" and e.actor is not None:
            passes[e.actor] = e.choices
        elif e.type in _SKIP_AFTER_DISCARD:
            continue
        else:
            if e.type in ("chi", "pon", "daiminkan") and e.target == discarder:
                taken = e
            break
    for seat in range(4):
        if seat == discarder or seat in excluded:
            continue
        if taken is not None and taken.actor == seat:
            yield from _taker_decisions(tracker, seat, discarder, kind, taken, wanted, rnd)
        elif seat in passes:
            yield from _passer_decisions(tracker, seat, kind, passes[seat], wanted, rnd)


def _passer_decisions(
    tracker: RoundTracker,
    seat: int,
    kind: int,
    choices: tuple[str, ...],
    wanted: frozenset[str],
    rnd: int,
) -> Iterator[DecisionPoint]:
    if not wanted & {"pon", "chi", "kan"} or not set(choices) & {"pon", "chi", "daiminkan"}:
        return
    view = tracker.view(seat, offered=kind)
    if "pon" in wanted and "pon" in choices:
        yield DecisionPoint("pon", seat, view, 0, (0, 1), rnd)
    if "chi" in wanted and "chi" in choices:
        legal = (0, *chi_classes(view.hand, kind))
        yield DecisionPoint("chi", seat, view, 0, legal, rnd)
    if "kan" in wanted and "daiminkan" in choices:
        yield DecisionPoint("kan", seat, view, 0, (0, 1), rnd)


def _taker_decisions(
    tracker: RoundTracker,
    seat: int,
    discarder: int,
    kind: int,
    taken: Event,
    wanted: frozenset[str],
    rnd: int,
) -> Iterator[DecisionPoint]:
    view = tracker.view(seat, offered=kind)
    hand = view.hand
    if "pon" in wanted and (taken.type == "pon" or hand[kind] >= 2):
        yield DecisionPoint("pon", seat, view, int(taken.type == "pon"), (0, 1), rnd)
    if "chi" in wanted:
        chi_seat = tracker.players == 4 and seat == (discarder + 1) % 4  # no chi with three
        shapes = chi_classes(hand, kind) if chi_seat else ()
        if taken.type == "chi":
            label = chi_class(kind, [T.kind_of(c) for c in taken.consumed])
            yield DecisionPoint("chi", seat, view, label, (0, *sorted({*shapes, label})), rnd)
        elif shapes:
            yield DecisionPoint("chi", seat, view, 0, (0, *shapes), rnd)
    if "kan" in wanted and (taken.type == "daiminkan" or hand[kind] >= 3):
        yield DecisionPoint("kan", seat, view, int(taken.type == "daiminkan"), (0, 1), rnd)
