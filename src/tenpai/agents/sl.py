"""The supervised agent: networks trained on Houou records choose discards, riichi, pon and chi.

It follows Gao's player (thesis 004, ch. 7): a discard network, a riichi network and pon/chi
networks decide those actions; wins are always taken.  Kans: a model with a ``kan`` head lets
that network decide every closed, added and open kan outside riichi (the head was trained on
every such chance in the records); without one — and always after riichi, where the records'
kans were not decision points — the thesis' simple rule holds: a closed kan only when the four
tiles are *isolated* (no tile of the same suit within two steps in hand, or an honour), never
an open or added kan.  Abortive nine-terminal draws are never declared.

A model may carry a second discard network, ``discard_threat``, that plays the discards made
while another seat's riichi stands and the agent has none: a policy-gradient run that keeps its
start's defence (``tenpai train pg --defence start``) ships the frozen start's discard head
there, so only the other discards are the learned ones.

The table picture comes from the observation's own event stream through the same
:class:`~tenpai.learn.state.RoundTracker` that built the training data, so the networks see
exactly what they were trained on.  The tracker of each (hand, seat) stream is kept between
decisions and fed only the events that are new since the last one (:class:`TrackerStreams`),
instead of being rebuilt from the whole hand at every decision (quadratic in the hand's length).
``act_batch`` answers many tables with one network call per head.  Needs torch (the ``learn``
extra); ``model="default"`` loads the weights shipped in ``tenpai/data``.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from tenpai import tiles as T
from tenpai.engine.observation import TableObservation, mask_event
from tenpai.events import Event
from tenpai.learn.decisions import chi_class
from tenpai.learn.rulesets import get_encoder
from tenpai.learn.state import RoundTracker, SeatView
from tenpai.models.bundle import ModelBundle, load_for_agent, set_inference_threads

__all__ = ["THREAT_HEAD", "SLAgent", "TrackerStreams", "isolated_kan", "under_threat"]

#: The optional head that discards under another seat's riichi (see the module docstring).
THREAT_HEAD = "discard_threat"


def under_threat(tracker: RoundTracker, seat: int) -> bool:
    """Whether ``seat`` discards under another seat's accepted riichi, not in riichi itself."""
    return not tracker.riichi[seat] and any(
        on for s, on in enumerate(tracker.riichi_accepted) if s != seat
    )


def isolated_kan(hand: Sequence[int], kind: int) -> bool:
    """True when no other tile of ``kind``'s suit within two steps is in hand (honours: always)."""
    if kind >= 27:
        return True
    n = kind % 9
    base = kind - n
    return all(hand[base + j] == 0 for j in range(max(0, n - 2), min(9, n + 3)) if j != n)


def rebuilt_tracker(obs: Any) -> RoundTracker:
    """A tracker fed the observation's whole event stream (what a fresh decision needs)."""
    tracker = RoundTracker(watch=(obs.seat,))
    for e in obs.events:
        tracker.apply(e)
    return tracker


@dataclass(slots=True)
class _Stream:
    raw: list[Event]
    tracker: RoundTracker
    applied: int = 0


class TrackerStreams:
    """One live :class:`RoundTracker` per (hand, seat) event stream, extended by new events only.

    A stream is the hand's own event list (the identity of the list the observation reads, which
    lives as long as the hand) seen from one seat; each decision masks and applies only the
    events appended since that stream's last decision.  The tracker ends in the state a rebuild
    from ``obs.events`` gives, because both feed the same masked events in the same order.
    Observations that do not read a plain event list of their table, or whose class overrides
    ``events``, are rebuilt every time.  At most ``limit`` streams are kept (least recently used
    dropped first): 2,048 covers 256 tables of four seats twice over, while each kept stream
    holds its whole hand alive, so a larger cache costs memory in long self-play runs.
    """

    def __init__(self, limit: int = 2048) -> None:
        self.limit = limit
        self._streams: OrderedDict[tuple[int, int], _Stream] = OrderedDict()

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        # A copy in another process starts empty: its streams are other tables' events.
        return (TrackerStreams, (self.limit,))

    def __len__(self) -> int:
        return len(self._streams)

    def tracker(self, obs: Any) -> RoundTracker:
        raw = self._source(obs)
        if raw is None:
            return rebuilt_tracker(obs)
        seat = obs.seat
        key = (id(raw), seat)
        s = self._streams.get(key)
        if s is None or s.raw is not raw or s.applied > len(raw):
            s = _Stream(raw, RoundTracker(watch=(seat,)))
            self._streams[key] = s
            if len(self._streams) > self.limit:
                self._streams.popitem(last=False)
        else:
            self._streams.move_to_end(key)
        hide = obs.hide_closed_kans
        for e in raw[s.applied :]:
            s.tracker.apply(mask_event(e, seat, hide_closed_kans=hide))
        s.applied = len(raw)
        return s.tracker

    @staticmethod
    def _source(obs: Any) -> list[Event] | None:
        """The hand's event list behind a standard table view, else None (rebuild instead)."""
        if not isinstance(obs, TableObservation) or type(obs).events is not TableObservation.events:
            return None
        raw = getattr(getattr(obs, "_table", None), "events", None)
        return raw if type(raw) is list else None


@dataclass(slots=True)
class _Query:
    """What one request needs from the networks, and the events to pick from."""

    legal: Sequence[Event]
    view: SeatView | None = None
    heads: list[str] = field(default_factory=list)
    answer: Event | None = None


class SLAgent:
    """Plays with a :class:`~tenpai.models.bundle.ModelBundle` (see the module docstring)."""

    #: Greedy answers from the observation alone (the tracker cache is keyed by the
    #: observation's own hand), so one object may serve every table of a batched run.
    shares_tables: ClassVar[bool] = True

    def __init__(
        self,
        model: str | ModelBundle = "default",
        seed: int = 0,
        name: str = "sl",
        threads: int | None = 1,
        suit_average: bool = False,
        incremental: bool = True,
    ) -> None:
        """``incremental=False`` rebuilds the table picture at every decision (for tests)."""
        set_inference_threads(threads)
        self._streams = TrackerStreams() if incremental else None
        #: Score each decision as the mean of its six suit relabellings (six times the work).
        self.suit_average = suit_average
        self.name = name
        self.seed = seed
        self.bundle, self.identity = load_for_agent(model)
        self.encoder = get_encoder(self.bundle.encoder)
        missing = {"discard"} - set(self.bundle.heads)
        if missing:
            raise ValueError(f"model {model!r} lacks the {sorted(missing)} head(s)")

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        return self.act_batch([(observation, legal)])[0]

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        queries = [self._plan(obs, legal) for obs, legal in requests]
        scores, _ = self._score(queries)
        return [
            q.answer if q.answer is not None else self._decide(q, scores[i])
            for i, q in enumerate(queries)
        ]

    def _score(
        self, queries: Sequence[_Query]
    ) -> tuple[list[dict[str, np.ndarray]], dict[str, tuple[list[int], np.ndarray]]]:
        """Every query's head scores, one network call per head for all of them.

        Also returns each head's encoded input with the query indices of its rows, which a
        learner built on this agent (:mod:`tenpai.rl.policy`) keeps for its gradient step.
        """
        scores: list[dict[str, np.ndarray]] = [{} for _ in queries]
        inputs: dict[str, tuple[list[int], np.ndarray]] = {}
        for head in ("discard", THREAT_HEAD, "riichi", "pon", "chi", "kan"):
            idx = [i for i, q in enumerate(queries) if head in q.heads]
            if not idx:
                continue
            views = [queries[i].view for i in idx]
            x = self.encoder.encode_batch([v for v in views if v is not None])
            logits = self.bundle.logits(head, x, suit_average=self.suit_average)
            for row, i in enumerate(idx):
                scores[i][head] = logits[row]
            inputs[head] = (idx, x)
        return scores, inputs

    # ------------------------------------------------------------------ planning
    def _plan(self, obs: Any, legal: Sequence[Event]) -> _Query:
        q = _Query(legal)
        types = {e.type for e in legal}
        win = next((e for e in legal if e.type == "hora"), None)
        if win is not None:
            q.answer = win
            return q
        passing = next((e for e in legal if e.type == "none"), None)
        if types & {"dahai", "reach"}:
            tracker = self._tracker(obs)
            hand = tracker.hand_counts(obs.seat)
            kan_head = "kan" in self.bundle.heads and not tracker.riichi[obs.seat]
            if kan_head and types & {"ankan", "kakan"}:
                q.heads.append("kan")
            elif not kan_head:
                for e in legal:
                    if e.type == "ankan" and isolated_kan(hand, T.kind_of(e.consumed[0])):
                        q.answer = e
                        return q
            q.view = tracker.view(obs.seat)
            threat = THREAT_HEAD in self.bundle.heads and under_threat(tracker, obs.seat)
            q.heads.append(THREAT_HEAD if threat else "discard")
            if "reach" in types and "riichi" in self.bundle.heads:
                q.heads.append("riichi")
            return q
        if types & {"pon", "chi"}:
            offered = next(e.pai for e in legal if e.type in ("pon", "chi"))
            assert offered is not None
            q.view = self._tracker(obs).view(obs.seat, offered=T.kind_of(offered))
            q.heads += [h for h in ("pon", "chi") if h in types and h in self.bundle.heads]
            if "daiminkan" in types and "kan" in self.bundle.heads:
                q.heads.append("kan")
            if not q.heads:
                q.answer = passing if passing is not None else legal[0]
            return q
        q.answer = passing if passing is not None else legal[0]
        return q

    def _tracker(self, obs: Any) -> RoundTracker:
        """The seat's table picture; the caller only reads it (it lives on between decisions).

        An observation may carry its picture ready-made (``table_picture``): an opponent's view
        of a sampled world (tenpai.mcts.world_tree), whose event history masks that seat's own
        deal, is given its sampled hand that way."""
        given = getattr(obs, "table_picture", None)
        if isinstance(given, RoundTracker):
            return given
        streams = getattr(self, "_streams", None)
        return rebuilt_tracker(obs) if streams is None else streams.tracker(obs)

    # ------------------------------------------------------------------ deciding
    def _decide(self, q: _Query, s: dict[str, np.ndarray]) -> Event:
        legal = q.legal
        if "kan" in s and s["kan"][1] > s["kan"][0]:
            kans = [e for e in legal if e.type in ("ankan", "kakan", "daiminkan")]
            if kans:
                return min(kans, key=lambda e: ("ankan", "kakan", "daiminkan").index(e.type))
        if "riichi" in s and s["riichi"][1] > s["riichi"][0]:
            return next(e for e in legal if e.type == "reach")
        for head in ("discard", THREAT_HEAD):
            if head in s:
                return self._discard(legal, s[head])
        if "pon" in s and s["pon"][1] > s["pon"][0]:
            return next(e for e in legal if e.type == "pon")
        if "chi" in s:
            chis = [e for e in legal if e.type == "chi"]
            shapes: dict[int, Event] = {}
            for e in chis:
                assert e.pai is not None
                shapes.setdefault(
                    chi_class(T.kind_of(e.pai), [T.kind_of(c) for c in e.consumed]), e
                )
            best = max([0, *shapes], key=lambda c: float(s["chi"][c]))
            if best:
                return shapes[best]
        return next((e for e in legal if e.type == "none"), legal[0])

    @staticmethod
    def _discard(legal: Sequence[Event], scores: np.ndarray) -> Event:
        discards = [e for e in legal if e.type == "dahai"]
        if not discards:
            return legal[0]
        kinds = {T.kind_of(e.pai) for e in discards if e.pai is not None}
        best = max(kinds, key=lambda k: scores[k])
        return SLAgent.discard_of_kind(discards, best)

    @staticmethod
    def discard_of_kind(discards: Sequence[Event], kind: int) -> Event:
        """The discard event of ``kind`` to play among ``discards`` (legal ``dahai`` events)."""
        options = [e for e in discards if e.pai is not None and T.kind_of(e.pai) == kind]
        # Keep a red five when a plain copy of the same kind can go instead.
        options.sort(key=lambda e: (e.pai is not None and T.is_red(e.pai), not e.tsumogiri))
        return options[0]
