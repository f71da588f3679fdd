"""The supervised MCR agent: networks trained on Botzone records choose discards and claims.

It plays like the programs of seeds 002/003: a discard network picks among the legal
discards, chow/pung/kong networks decide claims (003's four classifiers; a missing head falls
back to a rule), and wins are always taken — the engine offers a win only when it reaches the
8-fan minimum.  A concealed or added kong on one's own turn follows the ``gang`` head when the
model has one, else 003's rule (kong a concealed four, never upgrade a pung).  False-win
declarations are never made.  Every answer is one of the legal events the engine offered, so
the agent cannot play an illegal action whatever the networks say.

The table picture comes from the observation's masked events through the same
:class:`~tenpai.learn.mcr.state.MCRTracker` that built the training data.  Needs torch.
``SLMCRAgent("default")`` loads ``tenpai/data/sl_mcr_default.pt``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, Final

import numpy as np

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.learn.mcr.decisions import chow_class
from tenpai.learn.mcr.state import MCRTracker, MCRView
from tenpai.learn.rulesets import get_encoder
from tenpai.models.bundle import (
    ModelBundle,
    ModelError,
    load_for_agent,
    resolve_model_path,
    set_inference_threads,
)

__all__ = ["DEFAULT_RESOURCE", "SLMCRAgent", "resolve_mcr_model_path"]

DEFAULT_RESOURCE: Final = "sl_mcr_default.pt"


def resolve_mcr_model_path(name: str) -> Path:
    """``default`` names the weights shipped in ``tenpai/data``; anything else is a path."""
    return resolve_model_path(name, DEFAULT_RESOURCE)


class SLMCRAgent:
    """Plays MCR with a :class:`~tenpai.models.bundle.ModelBundle` of ``mcr_*`` heads."""

    #: Greedy answers from the observation alone (the tracker cache is keyed by the
    #: observation's own hand), so one object may serve every table of a batched run.
    shares_tables: ClassVar[bool] = True

    def __init__(
        self,
        model: str | ModelBundle = "default",
        seed: int = 0,
        name: str = "sl_mcr",
        threads: int | None = 1,
    ) -> None:
        set_inference_threads(threads)
        self.name = name
        self.seed = seed
        self.bundle, self.identity = load_for_agent(model, DEFAULT_RESOURCE)
        self.encoder = get_encoder(self.bundle.encoder, "mcr")
        if "discard" not in self.bundle.heads:
            raise ModelError(f"model {model!r} has no discard head")

    # ------------------------------------------------------------------ acting
    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        """The discards of all requests scored by one network call (most decisions are
        discards); claims, wins and kongs are answered one by one as :meth:`act` does."""
        answers, pending = self.plan_discards(requests)
        if pending:
            x = self.encoder.encode_batch([view for *_, view in pending])
            logits = self.bundle.logits("discard", x)
            for row, (i, _obs, legal, _view) in enumerate(pending):
                answers[i] = self._best_discard(legal, logits[row])
        out = [a for a in answers if a is not None]
        if len(out) != len(answers):  # plan_discards left a request neither answered nor pending
            raise RuntimeError("sl_mcr left a request unanswered")
        return out

    def plan_discards(
        self, requests: Sequence[tuple[Any, Sequence[Event]]]
    ) -> tuple[list[Event | None], list[tuple[int, Any, Sequence[Event], MCRView]]]:
        """Answer every request that is not a discard choice (as :meth:`act` would); the
        others come back as (index, observation, legal, view) for one batched discard call,
        their answers ``None`` until the caller fills them."""
        answers: list[Event | None] = []
        pending: list[tuple[int, Any, Sequence[Event], MCRView]] = []
        for i, (obs, legal) in enumerate(requests):
            types = {e.type for e in legal}
            if "dahai" not in types or "hora" in types:
                answers.append(self.act(obs, legal))
                continue
            view = self._view(obs)
            kong = self._kong_choice(view, legal)
            answers.append(kong)
            if kong is None:
                pending.append((i, obs, legal, view))
        return answers, pending

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        if not legal:
            raise ValueError("sl_mcr was asked to act with no legal action")
        types = {e.type for e in legal}
        win = next((e for e in legal if e.type == "hora"), None)
        if win is not None:
            return win
        passing = next((e for e in legal if e.type == "none"), None)
        if "dahai" in types:
            return self._own_turn(observation, legal)
        if types & {"chi", "pon", "daiminkan"}:
            return self._claim(observation, legal, passing)
        if passing is not None:
            return passing
        # Nothing we model (e.g. only a false-win declaration besides): first non-penalty one.
        return next((e for e in legal if e.type != "ryukyoku"), legal[0])

    def _view(self, obs: Any, offered: int | None = None) -> MCRView:
        tracker = MCRTracker()
        for e in obs.events:
            tracker.apply(e)
        return tracker.view(obs.seat, offered=offered)

    def _scores(self, kind: str, view: MCRView) -> np.ndarray:
        x = self.encoder.encode(view)[None]
        row: np.ndarray = self.bundle.logits(kind, x)[0]
        return row

    def _own_turn(self, obs: Any, legal: Sequence[Event]) -> Event:
        view = self._view(obs)
        kong = self._kong_choice(view, legal)
        if kong is not None:
            return kong
        return self._best_discard(legal, self._scores("discard", view))

    @staticmethod
    def _best_discard(legal: Sequence[Event], scores: np.ndarray) -> Event:
        """The legal discard of the best-scored kind (the drawn tile among equals)."""
        discards = [e for e in legal if e.type == "dahai" and e.pai is not None]
        return max(discards, key=lambda e: (float(scores[T.kind_of(e.pai or 0)]),
                                            bool(e.tsumogiri)))

    def _kong_choice(self, view: MCRView, legal: Sequence[Event]) -> Event | None:
        """The concealed or added kong to declare on one's own turn, or None to discard."""
        kongs = [e for e in legal if e.type in ("ankan", "kakan")]
        if not kongs:
            return None
        if "gang" in self.bundle.heads:
            s = self._scores("gang", view)
            return kongs[0] if s[1] > s[0] else None
        return next((e for e in kongs if e.type == "ankan"), None)

    def _claim(self, obs: Any, legal: Sequence[Event], passing: Event | None) -> Event:
        offered_tile = next(e.pai for e in legal if e.type in ("chi", "pon", "daiminkan"))
        assert offered_tile is not None
        view = self._view(obs, offered=T.kind_of(offered_tile))
        heads = self.bundle.heads
        kong = next((e for e in legal if e.type == "daiminkan"), None)
        if kong is not None and "gang" in heads:
            s = self._scores("gang", view)
            if s[1] > s[0]:
                return kong
        pung = next((e for e in legal if e.type == "pon"), None)
        if pung is not None and "peng" in heads:
            s = self._scores("peng", view)
            if s[1] > s[0]:
                return pung
        chows = [e for e in legal if e.type == "chi"]
        if chows and "chi" in heads:
            s = self._scores("chi", view)
            shapes: dict[int, Event] = {}
            for e in chows:
                assert e.pai is not None
                shapes.setdefault(chow_class(T.kind_of(e.pai),
                                             [T.kind_of(c) for c in e.consumed]), e)
            best = max([0, *shapes], key=lambda c: float(s[c]))
            if best:
                return shapes[best]
        if passing is not None:
            return passing
        return legal[0]
