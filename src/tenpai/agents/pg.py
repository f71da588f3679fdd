"""The policy-gradient agents: supervised players fine-tuned by REINFORCE self-play (seed 002,
:mod:`tenpai.rl.pg`).

A ``tenpai train pg`` output is an ordinary model bundle — the start model's heads with the
trained ones replaced — so ``pg`` is :class:`~tenpai.agents.sl.SLAgent` and ``pg_mcr`` is
:class:`~tenpai.agents.sl_mcr.SLMCRAgent`, each loading the weights shipped in ``tenpai/data``.
The shipped ``pg`` has ``sl``'s discard network and policy-gradient riichi, pon and chi heads
(``--heads riichi,pon,chi``, session 16); ``pg_mcr`` has a policy-gradient discard network.
Their model cards say how they were trained (docs/rl.md).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Final

from tenpai.agents.sl import SLAgent
from tenpai.agents.sl_mcr import SLMCRAgent
from tenpai.models.bundle import ModelError

__all__ = ["PG_MCR_RESOURCE", "PG_MCR_START_RESOURCE", "PG_RESOURCE", "PGAgent", "PGMCRAgent",
           "packaged_model"]

PG_RESOURCE: Final = "pg_default.pt"
PG_MCR_RESOURCE: Final = "pg_mcr_default.pt"
#: The imitation start ``pg_mcr`` was trained from, shipped so that its claim to beat its own
#: start can be checked with the exact weights (``train imitate`` is time-budgeted, so a rebuilt
#: start is close to this one but not the same).
PG_MCR_START_RESOURCE: Final = "pg_mcr_start.pt"


def packaged_model(resource: str) -> Path:
    """The path of a model file shipped in ``tenpai/data``; a clear error when it is missing."""
    with resources.as_file(resources.files("tenpai.data").joinpath(resource)) as p:
        if not p.exists():
            raise ModelError(f"the model tenpai/data/{resource} is not installed")
        return Path(p)


class PGAgent(SLAgent):
    """Riichi: the ``sl`` agent playing the policy-gradient weights (riichi and call heads)."""

    def __init__(self, model: str = "default", seed: int = 0, name: str = "pg") -> None:
        path = packaged_model(PG_RESOURCE) if model == "default" else Path(model)
        super().__init__(str(path), seed, name=name)


class PGMCRAgent(SLMCRAgent):
    """MCR: the ``sl_mcr`` agent playing the policy-gradient discard weights."""

    def __init__(self, model: str = "default", seed: int = 0, name: str = "pg_mcr") -> None:
        path = packaged_model(PG_MCR_RESOURCE) if model == "default" else Path(model)
        super().__init__(str(path), seed, name=name)
