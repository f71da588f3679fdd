"""Weights of sampled worlds from the opponents' calls and their passes on calls.

:mod:`tenpai.search.weights` scores the opponents' discards.  Their claim decisions are
evidence too: an opponent that passed on a tile it could have ponned probably did not want that
pair called, and one that called did so with a hand the prior network would call with.  As for
the discards, the probability is the prior network's (``pg``'s ``pon``, ``chi`` and ``kan``
heads, composed exactly as :class:`~tenpai.search.prior.NetworkPrior` composes them: P(open kan),
then P(pon) of what is left, then the chi head's softmax over pass and the shapes the hand can
make), and a decision is scored only where the world's current hand tells the hand it was made
with exactly:

* **the window**: walking back from an opponent's latest event, its hand between turns is the
  world's current hand ``H`` as long as every discard met is a tsumogiri.  The walk stops at
  its first hand-tile discard (tedashi), or at a call or kan;
* **passes**: every discard by another seat inside the window that ``H`` could have claimed
  (pon: two of the kind; open kan: three; chi: the discarder's next seat with a run shape, at
  four seats only; each only with a legal discard left after it, Tenhou's strict kuikae) and
  that the opponent did not claim is scored as P(pass).  Not scored: the opponent in riichi
  (it may not call), the last tile of the wall (no calls), a discard whose claim window is
  still open, and a chi that another seat's pon or kan took over (the chi answer is not
  recorded then);
* **the call**: when the walk ends at the discard that followed the opponent's chi or pon, the
  hand it called with was ``H`` + that discard + the consumed tiles; an open kan followed only
  by tsumogiri had ``H`` + the consumed tiles.  That call is scored as P(this call).

Every world can make the calls that were made (the consumed tiles are public and added to its
hand), so no world is impossible here: a world whose hand makes a call or a pass unlikely is
weighted down as far as the network says.  A pass on a *win* is not
scored (it would need the hand's yaku in every world): wins are taken by the prior, so such a
world should be impossible, and is not made so here.  Discards before the last tedashi are not
scored either: the hand then held a tile drawn later that the world does not name, and summing
over it would multiply the network calls by the unseen tiles.

The network sees the public table just after the claimed discard (``offered`` = its kind, as
``pg`` sees a claim) with the world's hand swapped in; the log-likelihood is tempered by
``temperature`` as the discards' is.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.learn.chi_shapes import chi_class, chi_classes
from tenpai.learn.state import RoundTracker, SeatView
from tenpai.rules.riichi.ruleset import RiichiRules

__all__ = [
    "CALL_HEADS",
    "CallLikelihood",
    "ClaimEvidence",
    "ClaimWindow",
    "claim_options",
    "claim_window",
]

#: The claim heads of the prior network this likelihood reads.
CALL_HEADS = ("pon", "chi", "kan")
_CLAIMS = ("chi", "pon", "daiminkan")
_HAND_CHANGES = ("chi", "pon", "daiminkan", "ankan", "kakan", "nukidora")
#: Events that end a discard's claim window (what follows them says what was claimed).
_AFTER_DISCARD = ("tsumo", "chi", "pon", "daiminkan", "hora", "ryukyoku", "dahai")


@dataclass(frozen=True, slots=True)
class ClaimWindow:
    """Where ``seat``'s claim decisions can be scored against its current hand.

    ``start``: the first event index from which the seat's hand between turns is its current
    hand.  ``call``: the index of a call scored with ``extra`` (public tiles that were in the
    hand then and are gone now: the discard after a chi or pon) besides its consumed tiles."""

    start: int
    call: int | None = None
    extra: tuple[int, ...] = ()


def claim_window(events: Sequence[Event], seat: int) -> ClaimWindow:
    """The seat's exact window (see the module docstring), from the seat's masked events."""
    start = next((i + 1 for i in range(len(events) - 1, -1, -1)
                  if events[i].type == "start_kyoku"), 0)
    for i in range(len(events) - 1, start - 1, -1):
        e = events[i]
        if e.actor != seat:
            continue
        if e.type == "daiminkan":  # followed only by tsumogiri: H + the consumed tiles
            return ClaimWindow(i + 1, i, ())
        if e.type in _HAND_CHANGES:
            return ClaimWindow(i + 1)
        if e.type != "dahai" or e.tsumogiri:
            continue
        before = next((j for j in range(i - 1, start - 1, -1) if events[j].actor == seat), None)
        if before is not None and events[before].type in ("chi", "pon") and e.pai is not None:
            return ClaimWindow(i + 1, before, (e.pai,))
        return ClaimWindow(i + 1)
    return ClaimWindow(start)


@dataclass(frozen=True, slots=True)
class ClaimEvidence:
    """One claim decision of ``seat`` on ``tile`` from ``discarder``: the public view then, the
    answer given (``none``, ``pon``, ``daiminkan`` or ``chi``; ``shape`` the chi's class), the
    public tiles to add to the world's hand, and which claims the table allowed whatever the
    hand (``chi_open``: this seat was the chi seat and no pon or kan took the tile over)."""

    seat: int
    tile: int
    view: SeatView
    answer: str
    shape: int
    extra: tuple[int, ...]
    chi_open: bool
    kan_open: bool


def _has_discard_after(hand: list[int], consumed_kinds: Sequence[int], kind: int,
                       call: str) -> bool:
    """Tenhou's strict kuikae: after the call some tile of another kind must be left to
    discard (the called kind, and for a chi the run's other end, are banned)."""
    left = list(hand)
    for k in consumed_kinds:
        left[k] -= 1
    banned = {kind}
    if call == "chi":
        lo, hi = min(consumed_kinds), max(consumed_kinds)
        if kind < lo and hi % 9 < 8:
            banned.add(hi + 1)
        elif kind > hi and lo % 9 > 0:
            banned.add(lo - 1)
    return any(n > 0 and k not in banned for k, n in enumerate(left))


def _shape_kinds(kind: int, shape: int) -> tuple[int, int]:
    return {1: (kind + 1, kind + 2), 2: (kind - 1, kind + 1), 3: (kind - 2, kind - 1)}[shape]


def claim_options(hand: Sequence[int], kind: int, chi_open: bool,
                  kan_open: bool) -> tuple[bool, bool, tuple[int, ...]]:
    """(pon, open kan, chi shapes) a 34-count ``hand`` between turns may declare on ``kind``."""
    counts = list(hand)
    pon = counts[kind] >= 2 and _has_discard_after(counts, (kind, kind), kind, "pon")
    kan = kan_open and counts[kind] >= 3
    shapes: tuple[int, ...] = ()
    if chi_open:
        shapes = tuple(c for c in chi_classes(counts, kind)
                       if _has_discard_after(counts, _shape_kinds(kind, c), kind, "chi"))
    return pon, kan, shapes


class CallLikelihood:
    """The prior network's log-likelihood of the opponents' claim decisions, per world.

    ``agent`` is an :class:`~tenpai.agents.sl.SLAgent` (``pg``) with a ``pon`` head at least;
    its ``encoder`` and ``bundle.logits`` are used directly, one batch per head per call.
    """

    def __init__(self, agent: Any, temperature: float = 1.0) -> None:
        if not temperature > 0:
            raise ValueError(f"temperature must be > 0, got {temperature}")
        self.agent = agent
        self.temperature = temperature
        self.heads = {h for h in CALL_HEADS if h in agent.bundle.heads}
        if "pon" not in self.heads:
            raise ValueError("the weighting network has no pon head (calls cannot be scored)")

    # ------------------------------------------------------------------ public state
    def evidence(self, events: Sequence[Event], seat: int, players: int,
                 rules: RiichiRules | None = None) -> list[ClaimEvidence]:
        """The claim decisions of every opponent of ``seat`` that can be scored exactly, with
        the public table just after each claimed discard, from the seat's (masked) events
        (``rules`` are not read)."""
        windows = {s: claim_window(events, s) for s in range(players) if s != seat}
        if not windows:
            return []
        # the earliest discard that matters: a window's start, or the discard a call took
        first = min(w.start if w.call is None else
                    max((j for j in range(w.call) if events[j].type == "dahai"), default=0)
                    for w in windows.values())
        tracker = RoundTracker(watch=())
        out: list[ClaimEvidence] = []
        kans = 0
        for i, e in enumerate(events):
            tracker.apply(e)
            if e.type == "start_kyoku":
                kans = 0
            elif e.type in ("daiminkan", "ankan", "kakan"):
                kans += 1
            if i < first or e.type != "dahai" or e.pai is None or e.actor is None:
                continue
            answer_at = next((j for j in range(i + 1, len(events))
                              if events[j].type in _AFTER_DISCARD), None)
            if answer_at is None:
                continue  # the claim window is still open
            answer = events[answer_at]
            may_call = tracker.wall_remaining > 0
            for s, w in windows.items():
                if s == e.actor or tracker.riichi[s] or not may_call:
                    continue
                if answer.actor == s and answer.type in _CLAIMS:
                    if w.call != answer_at:
                        continue  # a call outside the window (the hand then is not exact)
                    shape = (chi_class(T.kind_of(answer.pai or e.pai),
                                       [T.kind_of(c) for c in answer.consumed])
                             if answer.type == "chi" else 0)
                    extra = (*w.extra, *answer.consumed)
                    given = answer.type
                elif i >= w.start:
                    shape, extra, given = 0, (), "none"
                else:
                    continue
                taken = answer.type in ("pon", "daiminkan") and answer.actor != s
                # three-player Riichi has no chi at all
                chi_open = (players == 4 and s == (e.actor + 1) % players
                            and T.kind_of(e.pai) < 27 and not taken)
                out.append(ClaimEvidence(s, e.pai, self._public_view(tracker, s, e.pai), given,
                                         shape, extra, chi_open, kans < 4))
        return out

    @staticmethod
    def _public_view(tracker: RoundTracker, s: int, tile: int) -> SeatView:
        saved_hand, saved_red = tracker.hands[s], tracker.red[s]
        tracker.hands[s] = [0] * 34
        try:
            return tracker.view(s, offered=T.kind_of(tile), with_history=False)
        finally:
            tracker.hands[s] = saved_hand
            tracker.red[s] = saved_red

    # ------------------------------------------------------------------ per world
    def log_weights(
        self, evidence: Sequence[ClaimEvidence], hands: Sequence[Mapping[int, Sequence[int]]]
    ) -> list[float]:
        """Tempered log-likelihood of ``evidence`` for each world; ``hands[w][s]`` is seat s's
        concealed tiles (tile codes) in world w.  A decision the world's hand could not have
        faced (nothing to claim) says nothing and is skipped."""
        n = len(hands)
        items: list[tuple[int, ClaimEvidence, bool, bool, tuple[int, ...]]] = []
        views: list[SeatView] = []
        for w, world in enumerate(hands):
            for ev in evidence:
                tiles = [*world[ev.seat], *ev.extra]
                if len(tiles) % 3 != 1:
                    continue  # not between turns (a kan in progress): no exact hand
                counts = T.counts34(tiles)
                kind = T.kind_of(ev.tile)
                pon, kan, shapes = claim_options(counts, kind, ev.chi_open, ev.kan_open)
                kan = kan and "kan" in self.heads
                shapes = shapes if "chi" in self.heads else ()
                if ev.answer != "none" and not {"pon": pon, "daiminkan": kan,
                                                "chi": ev.shape in shapes}[ev.answer]:
                    continue  # a call the network has no head for (every world can make it)
                if not (pon or kan or shapes):
                    continue  # nothing this hand could have claimed: no decision to score
                red = [0, 0, 0]
                for t in tiles:
                    if T.is_red(t):
                        red[t - 34] += 1
                items.append((w, ev, pon, kan, shapes))
                views.append(dataclasses.replace(ev.view, hand=tuple(counts),
                                                 red=(red[0], red[1], red[2])))
        logl = [0.0] * n
        if not items:
            return logl
        logits = self._logits(views, items)
        for row, (w, ev, pon, kan, shapes) in enumerate(items):
            logl[w] += _log_answer(ev, pon, kan, shapes,
                                   {h: v[row] for h, v in logits.items() if v is not None})
        return [v / self.temperature for v in logl]

    def _logits(self, views: list[SeatView], items: Sequence[tuple[Any, ...]]
                ) -> dict[str, np.ndarray | None]:
        """Each head's logits for every row that needs it (rows that do not: NaN)."""
        out: dict[str, np.ndarray | None] = {}
        needs = {"pon": [it[2] for it in items], "kan": [it[3] for it in items],
                 "chi": [bool(it[4]) for it in items]}
        encoded: np.ndarray | None = None
        for head in CALL_HEADS:
            rows = [i for i, need in enumerate(needs[head]) if need]
            if head not in self.heads or not rows:
                out[head] = None
                continue
            if encoded is None:
                encoded = self.agent.encoder.encode_batch(views)
            logits = np.asarray(self.agent.bundle.logits(head, encoded[rows]), dtype=np.float64)
            full = np.full((len(items), logits.shape[1]), np.nan)
            full[rows] = logits
            out[head] = full
        return out


def _log_sigmoid(z: float) -> float:
    return -math.log1p(math.exp(-z)) if z >= 0 else z - math.log1p(math.exp(z))


def _log_answer(ev: ClaimEvidence, pon: bool, kan: bool, shapes: tuple[int, ...],
                logits: Mapping[str, np.ndarray]) -> float:
    """log P(the answer given | the options), composed as NetworkPrior composes the claim
    heads: open kan first, then pon of what is left, then the chi softmax over pass and
    the shapes."""
    out = 0.0
    if kan:
        z = float(logits["kan"][1] - logits["kan"][0])
        if ev.answer == "daiminkan":
            return _log_sigmoid(z)
        out += _log_sigmoid(-z)
    if pon:
        z = float(logits["pon"][1] - logits["pon"][0])
        if ev.answer == "pon":
            return out + _log_sigmoid(z)
        out += _log_sigmoid(-z)
    if shapes:
        classes = [0, *shapes]
        v = np.asarray([float(logits["chi"][c]) for c in classes])
        top = float(v.max())
        lse = top + math.log(float(np.exp(v - top).sum()))
        pick = ev.shape if ev.answer == "chi" else 0
        out += float(logits["chi"][pick]) - lse
    return out
