"""The 108-tile learner: seed 000's normal (dropout) agent with a *sampling* policy.

Seed 002 fine-tunes a supervised discard network by self-play; here the same REINFORCE step
fine-tunes the normal agent that dropout learning distilled from the perfect-information search
(:mod:`tenpai.mcts.dropout`).  The search never has to fold — it sees every wait — so its student
never learned to (docs/mcts_runs.md, "Why the student loses to `defensive`"); a reward that pays for
every deal-in is the direct way to teach it.  Unlike the supervised learners, this network has
one policy over all 229 action ids (discards, calls, kongs, the ready declaration, passing), so
every decision with two or more legal ids is drawn and trained; a legal win is taken without
asking, as the ``dropout`` agent plays.

Each sample records the 13-tile shanten after the decision for 002's win-distance shaping: after
a discard, of the hand without the tile; otherwise of the hand as it stands (a 14-tile hand's
shanten is the best one reachable by one discard, so the next discard's value follows on).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.hand import shanten
from tenpai.mcts.agent import DropoutAgent
from tenpai.rl.policy import (
    DiscardSample,
    SampledDiscards,
    draw_id,
    masked_log_softmax,
    uniform_for,
)
from tenpai.rl.rewards import hand_key

__all__ = ["SamplingDropoutAgent"]


class SamplingDropoutAgent(SampledDiscards, DropoutAgent):
    """:class:`DropoutAgent` whose decisions are drawn from its policy (see the module doc);
    ``greedy=True`` plays the agent's own choice and still records it."""

    def __init__(self, model: Any = "default", seed: int = 0, name: str = "pg_learner",
                 temperature: float = 1.0, greedy: bool = False) -> None:
        DropoutAgent.__init__(self, model, name=name)
        self._set_temperature(temperature)
        self.seed = seed
        self.greedy = greedy

    def act_batch_with_info(
        self, requests: Sequence[tuple[Any, Sequence[Event]]]
    ) -> list[tuple[Event, DiscardSample | None]]:
        x, legal_ids = self.encode(requests)
        logits = self.logits(x)
        out: list[tuple[Event, DiscardSample | None]] = []
        for row, (obs, legal) in enumerate(requests):
            ids = legal_ids[row]
            win = self.win_of(legal)
            if win is not None or len(ids) == 1:
                out.append((win if win is not None else next(iter(ids.values())), None))
                continue
            keys = sorted(ids)
            if self.greedy:
                chosen = keys[int(np.argmax(logits[row][keys]))]
                mask = np.zeros(len(logits[row]), dtype=bool)
                mask[keys] = True
                logp = float(masked_log_softmax(logits[row], mask, self.temperature)[chosen])
            else:
                chosen, mask, logp = draw_id(logits[row], keys, self.temperature,
                                             uniform_for(self.seed, obs))
            event = ids[chosen]
            counts = list(obs.counts)
            if event.type == "dahai" and event.pai is not None:
                counts[T.kind_of(event.pai)] -= 1
            out.append((event, DiscardSample(
                x=np.array(x[row], copy=True), legal=mask, action=chosen, logp=logp,
                shanten_after=shanten(counts), hand=hand_key(obs.events[0]))))
        return out
