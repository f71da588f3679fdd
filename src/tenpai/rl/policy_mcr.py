"""The MCR learner: :class:`~tenpai.agents.sl_mcr.SLMCRAgent` with a sampling discard head.

As for Riichi (:mod:`tenpai.rl.policy`), only the discards are drawn from the network and
recorded; wins, kongs and claims keep the supervised agent's choices.  Discards of all tables
are scored in one network call per runner step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tenpai.agents.sl_mcr import SLMCRAgent
from tenpai.events import Event
from tenpai.hand import shanten_mcr
from tenpai.models.bundle import ModelBundle
from tenpai.rl.policy import DiscardSample, SampledDiscards

__all__ = ["SamplingSLMCRAgent"]


class SamplingSLMCRAgent(SampledDiscards, SLMCRAgent):
    """:class:`SLMCRAgent` whose discards are drawn from the discard head."""

    def __init__(
        self,
        model: str | ModelBundle = "default",
        seed: int = 0,
        name: str = "pg_mcr_learner",
        temperature: float = 1.0,
        threads: int | None = 1,
        greedy: bool = False,
    ) -> None:
        super().__init__(model, seed, name=name, threads=threads)
        self._set_temperature(temperature)
        self.greedy = greedy

    def act_batch_with_info(
        self, requests: Sequence[tuple[Any, Sequence[Event]]]
    ) -> list[tuple[Event, DiscardSample | None]]:
        answers, pending = self.plan_discards(requests)
        out: list[tuple[Event, DiscardSample | None]] = [
            (a, None) if a is not None else (requests[i][1][0], None)
            for i, a in enumerate(answers)
        ]
        if pending:
            x = self.encoder.encode_batch([v for *_, v in pending])
            logits = self.bundle.logits("discard", x)
            for row, (i, obs, legal, view) in enumerate(pending):
                out[i] = self._sample(obs, legal, logits[row], x[row], view.hand, shanten_mcr)
        return out
