"""The decisions each player made in a replayed MCR hand, with what they knew and chose.

Input: the engine's events from :func:`tenpai.replay.mcr.replay_mcr`, which adds a ``none``
event (with ``choices``) for every position that could have claimed a discard and did not.
Four kinds come out (seed 003's four classifiers; seed 002 has discard, peng and chow):

``discard``  every ``dahai``; label the kind (0-33), legal the kinds in hand.
``chi``      claim windows where the position could chow: 0 = no, 1/2/3 = chow with the
             claimed tile lowest/middle/highest in the run.
``peng``     claim windows where the position could pung: 1 = punged.
``gang``     every chance to kong: on a discard (could the position kong it?) and on its own
             turn after a draw (four of a kind concealed, or the fourth tile of a pung);
             1 = declared.

For the position that *took* a claim, its other options in that window are worked out from
its hand (two copies → it could pung, three → kong, the two neighbours → chow); the engine's
wall conditions on kongs at the very end of the wall are not modelled.  A window that ended in
a win is skipped: whoever won had no call decision to learn from.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.learn.chi_shapes import chi_class as chow_class
from tenpai.learn.chi_shapes import chi_classes as chow_classes
from tenpai.learn.mcr.state import MCRTracker, MCRView

__all__ = [
    "MCR_DECISION_KINDS",
    "MCR_NUM_CLASSES",
    "MCRDecision",
    "MCRDecisionKind",
    "chow_class",
    "chow_classes",
    "iter_mcr_decisions",
]

MCRDecisionKind = Literal["discard", "chi", "peng", "gang"]
MCR_DECISION_KINDS: Final[tuple[MCRDecisionKind, ...]] = ("discard", "chi", "peng", "gang")
MCR_NUM_CLASSES: Final[dict[str, int]] = {"discard": 34, "chi": 4, "peng": 2, "gang": 2}
_CLAIMS: Final = frozenset({"chi", "pon", "daiminkan", "hora"})


@dataclass(frozen=True, slots=True)
class MCRDecision:
    """One decision: who (table position), what they saw, chose (``label``) among ``legal``."""

    kind: MCRDecisionKind
    seat: int
    view: MCRView
    label: int
    legal: tuple[int, ...]
    hand_number: int


def iter_mcr_decisions(
    events: Iterable[Event], *, kinds: Iterable[str] = MCR_DECISION_KINDS
) -> Iterator[MCRDecision]:
    """The decision points of one replayed MCR game, in order."""
    evs = list(events)
    wanted = frozenset(kinds)
    unknown = wanted - set(MCR_DECISION_KINDS)
    if unknown:
        raise ValueError(f"unknown MCR decision kinds {sorted(unknown)}; known: "
                         f"{MCR_DECISION_KINDS}")
    tracker = MCRTracker()
    hand_no = -1
    for i, e in enumerate(evs):
        t = e.type
        if t != "dahai":  # a discard is applied after its decision is recorded
            tracker.apply(e)
        if t == "start_kyoku":
            hand_no += 1
        elif hand_no < 0:
            continue
        elif t == "tsumo" and e.pai is not None and not T.is_flower(e.pai):
            yield from _own_turn(tracker, evs, i, wanted, hand_no)
        elif t == "dahai":
            seat = e.actor
            assert seat is not None and e.pai is not None
            if "discard" in wanted:
                hand = tracker.hand_counts(seat)
                yield MCRDecision("discard", seat, tracker.view(seat), T.kind_of(e.pai),
                                  tuple(k for k in range(34) if hand[k]), hand_no)
            tracker.apply(e)
            yield from _claim_window(tracker, evs, i, e, wanted, hand_no)


def _own_turn(
    tracker: MCRTracker, evs: Sequence[Event], i: int, wanted: frozenset[str], hand_no: int
) -> Iterator[MCRDecision]:
    seat = evs[i].actor
    assert seat is not None
    if "gang" not in wanted:
        return
    nxt = next((e for e in evs[i + 1:] if e.type != "none"), None)
    if nxt is None or nxt.actor != seat or nxt.type in ("hora", "ryukyoku", "tsumo", "flower"):
        return
    hand = tracker.hand_counts(seat)
    possible = any(c == 4 for c in hand) or any(hand[k] for k in tracker.pung_kinds[seat])
    if possible:
        label = int(nxt.type in ("ankan", "kakan"))
        yield MCRDecision("gang", seat, tracker.view(seat), label, (0, 1), hand_no)


def _claim_window(
    tracker: MCRTracker,
    evs: Sequence[Event],
    i: int,
    discard: Event,
    wanted: frozenset[str],
    hand_no: int,
) -> Iterator[MCRDecision]:
    assert discard.actor is not None and discard.pai is not None
    discarder = discard.actor
    kind = T.kind_of(discard.pai)
    passes: dict[int, tuple[str, ...]] = {}
    taken: Event | None = None
    for e in evs[i + 1:]:
        if e.type == "none" and e.actor is not None:
            passes[e.actor] = e.choices
            continue
        if e.type in _CLAIMS and e.target == discarder:
            taken = e
        break
    if taken is not None and taken.type == "hora":
        return
    for seat in range(4):
        if seat == discarder:
            continue
        view = tracker.view(seat, offered=kind)
        hand = view.hand
        is_left = seat == (discarder + 1) % 4
        if taken is not None and taken.actor == seat:
            took = taken.type
            if "peng" in wanted and (took == "pon" or hand[kind] >= 2):
                yield MCRDecision("peng", seat, view, int(took == "pon"), (0, 1), hand_no)
            if "chi" in wanted:
                shapes = chow_classes(hand, kind) if is_left else ()
                if took == "chi":
                    label = chow_class(kind, [T.kind_of(c) for c in taken.consumed])
                    legal = (0, *sorted({*shapes, label}))
                    yield MCRDecision("chi", seat, view, label, legal, hand_no)
                elif shapes:
                    yield MCRDecision("chi", seat, view, 0, (0, *shapes), hand_no)
            if "gang" in wanted and (took == "daiminkan" or hand[kind] >= 3):
                yield MCRDecision("gang", seat, view, int(took == "daiminkan"), (0, 1), hand_no)
        elif seat in passes:
            choices = passes[seat]
            if "peng" in wanted and "pon" in choices:
                yield MCRDecision("peng", seat, view, 0, (0, 1), hand_no)
            if "chi" in wanted and "chi" in choices:
                yield MCRDecision("chi", seat, view, 0, (0, *chow_classes(hand, kind)), hand_no)
            if "gang" in wanted and "daiminkan" in choices:
                yield MCRDecision("gang", seat, view, 0, (0, 1), hand_no)
