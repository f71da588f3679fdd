"""The prior: candidate actions with probabilities, and the action the prior alone would play.

:class:`NetworkPrior` reads the heads of a supervised / policy-gradient model (``pg`` by
default) through :class:`~tenpai.agents.sl.SLAgent`'s own planning, so a decision the search
leaves alone is answered exactly as ``pg`` answers it.  Probabilities are the heads' own:

* own turn: P(riichi) from the riichi head (sigmoid of the logit difference), P(kan) from the
  kan head when the model has one, and the discard head's softmax over the legal discard kinds
  times what is left;
* a claim: P(pon) from the pon head, the chi head's softmax over (pass, the three chi shapes),
  P(open kan) from the kan head; "pass" takes what the calls leave;
* forced answers (wins, the isolated-kan rule, nothing to ask a network) have one candidate.

:class:`AgentPrior` makes any agent a prior without probabilities of its own: its choice gets
``confidence`` and the other legal actions share the rest evenly (a rule-based prior when no
network is at hand, and what the fast tests search with).  Any other prior implements
:class:`Prior`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from tenpai import tiles as T
from tenpai.events import Event

__all__ = ["AgentPrior", "Candidate", "NetworkPrior", "Prior", "PriorAnswer"]


@dataclass(frozen=True, slots=True)
class Candidate:
    action: Event
    prior: float


@dataclass(frozen=True, slots=True)
class PriorAnswer:
    """The prior's greedy action and the candidates, most probable first."""

    choice: Event
    candidates: tuple[Candidate, ...]

    @property
    def choice_prior(self) -> float:
        return next((c.prior for c in self.candidates if c.action == self.choice), 0.0)


class Prior(Protocol):
    name: str
    identity: str

    def answer_batch(
        self, requests: Sequence[tuple[Any, Sequence[Event]]]
    ) -> list[PriorAnswer]: ...


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


def _softmax(v: np.ndarray) -> np.ndarray:
    e = np.exp(v - v.max())
    out: np.ndarray = e / e.sum()
    return out


class NetworkPrior:
    """The heads of an :class:`~tenpai.agents.sl.SLAgent` model as a prior (``pg`` by default)."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name = str(agent.name)
        self.identity = str(getattr(agent, "identity", ""))

    def answer_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[PriorAnswer]:
        a = self.agent
        queries = [a._plan(obs, legal) for obs, legal in requests]
        scores, _ = a._score(queries)
        out: list[PriorAnswer] = []
        for q, s in zip(queries, scores):
            if q.answer is not None:
                out.append(PriorAnswer(q.answer, (Candidate(q.answer, 1.0),)))
                continue
            choice = a._decide(q, s)
            out.append(PriorAnswer(choice, tuple(self._candidates(q.legal, s, choice))))
        return out

    def _candidates(
        self, legal: Sequence[Event], s: dict[str, np.ndarray], choice: Event
    ) -> list[Candidate]:
        probs: dict[Event, float] = {}
        rest = 1.0
        types = {e.type for e in legal}
        if "kan" in s:
            kans = [e for e in legal if e.type in ("ankan", "kakan", "daiminkan")]
            if kans:
                p = _sigmoid(float(s["kan"][1] - s["kan"][0]))
                kan = min(kans, key=lambda e: ("ankan", "kakan", "daiminkan").index(e.type))
                probs[kan] = p * rest
                rest *= 1 - p
        if "riichi" in s and "reach" in types:
            p = _sigmoid(float(s["riichi"][1] - s["riichi"][0]))
            probs[next(e for e in legal if e.type == "reach")] = p * rest
            rest *= 1 - p
        head = "discard" if "discard" in s else "discard_threat" if "discard_threat" in s else ""
        if head:
            discards = [e for e in legal if e.type == "dahai"]
            kinds = sorted({T.kind_of(e.pai) for e in discards if e.pai is not None})
            if kinds:
                sm = _softmax(np.asarray([float(s[head][k]) for k in kinds]))
                from tenpai.agents.sl import SLAgent

                for k, p in zip(kinds, sm):
                    probs[SLAgent.discard_of_kind(discards, k)] = float(p) * rest
        else:
            passing = next((e for e in legal if e.type == "none"), None)
            if "pon" in s:
                p = _sigmoid(float(s["pon"][1] - s["pon"][0]))
                probs[next(e for e in legal if e.type == "pon")] = p * rest
                rest *= 1 - p
            if "chi" in s:
                from tenpai.learn.decisions import chi_class

                shapes: dict[int, Event] = {}
                for e in legal:
                    if e.type == "chi" and e.pai is not None:
                        shapes.setdefault(
                            chi_class(T.kind_of(e.pai), [T.kind_of(c) for c in e.consumed]), e)
                classes = [0, *sorted(shapes)]
                sm = _softmax(np.asarray([float(s["chi"][c]) for c in classes]))
                for c, p in zip(classes[1:], sm[1:]):
                    probs[shapes[c]] = float(p) * rest
                rest *= float(sm[0])
            if passing is not None:
                probs[passing] = probs.get(passing, 0.0) + rest
        if choice not in probs:
            probs[choice] = 0.0
        total = sum(probs.values()) or 1.0
        cands = [Candidate(e, p / total) for e, p in probs.items()]
        cands.sort(key=lambda c: -c.prior)
        return cands


class AgentPrior:
    """Any agent as a prior: its choice ``confidence``, the rest of the legal actions evenly."""

    def __init__(self, agent: Any, confidence: float = 0.5) -> None:
        if not 0.0 < confidence <= 1.0:
            raise ValueError(f"confidence must be in (0, 1], got {confidence}")
        self.agent = agent
        self.confidence = confidence
        self.name = str(agent.name)
        self.identity = f"confidence {confidence}"

    def answer_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[PriorAnswer]:
        out = []
        for (_obs, legal), choice in zip(requests, self.agent.act_batch(requests)):
            others = [e for e in dict.fromkeys(legal) if e != choice]
            if not others:
                out.append(PriorAnswer(choice, (Candidate(choice, 1.0),)))
                continue
            rest = (1.0 - self.confidence) / len(others)
            cands = (Candidate(choice, self.confidence), *(Candidate(e, rest) for e in others))
            out.append(PriorAnswer(choice, cands))
        return out
