"""The registry's factories for the network agents: which weights a name plays.

Each turns a seed into an agent, reading the environment variable that lets an arena run put
a candidate model in a seat under the name it will ship as (docs/agents.md lists them).  The
agent modules are imported inside each factory, so reading this file costs nothing; each needs
torch (the ``learn`` extra).
"""

from __future__ import annotations

import os

from tenpai.engine.agent import Agent

__all__ = ["pg", "pg_mcr", "pg_mcr_start", "sl", "sl_mcr", "sl_mcr_model", "sl_model"]


def sl(seed: int) -> Agent:
    """Riichi: the shipped supervised model."""
    from tenpai.agents.sl import SLAgent

    return SLAgent("default", seed)


def sl_model(seed: int) -> Agent:
    """The sl agent playing the model file in $TENPAI_SL_MODEL: a candidate for the next
    default, measured against the shipped `sl` in one line-up (no fallback, so a forgotten
    variable cannot pit the default against itself unnoticed)."""
    from tenpai.agents.sl import SLAgent

    path = os.environ.get("TENPAI_SL_MODEL", "")
    if not path:
        raise ValueError("sl_model plays the model file named by $TENPAI_SL_MODEL, which is unset")
    return SLAgent(path, seed, name="sl_model")


def sl_mcr(seed: int) -> Agent:
    """MCR: the shipped supervised model."""
    from tenpai.agents.sl_mcr import SLMCRAgent

    return SLMCRAgent("default", seed)


def sl_mcr_model(seed: int) -> Agent:
    """MCR's sl_model: the model file in $TENPAI_SL_MCR_MODEL (no fallback), e.g. a policy-
    gradient run's own start measured against the run in one line-up."""
    from tenpai.agents.sl_mcr import SLMCRAgent

    path = os.environ.get("TENPAI_SL_MCR_MODEL", "")
    if not path:
        raise ValueError("sl_mcr_model plays the model file named by $TENPAI_SL_MCR_MODEL, "
                         "which is unset")
    return SLMCRAgent(path, seed, name="sl_mcr_model")


def pg(seed: int) -> Agent:
    """Riichi; the sl agent playing seed 002's policy-gradient weights (docs/rl.md).
    $TENPAI_PG_MODEL puts a `train pg` output in the seat, so a run is measured in the arena
    under the name it will ship as, without replacing the shipped file."""
    from tenpai.agents.pg import PGAgent

    return PGAgent(os.environ.get("TENPAI_PG_MODEL", "default"), seed)


def pg_mcr(seed: int) -> Agent:
    """MCR; the sl_mcr agent playing seed 002's policy-gradient discard weights (docs/rl.md);
    $TENPAI_PG_MCR_MODEL as $TENPAI_PG_MODEL above."""
    from tenpai.agents.pg import PGMCRAgent

    return PGMCRAgent(os.environ.get("TENPAI_PG_MCR_MODEL", "default"), seed)


def pg_mcr_start(seed: int) -> Agent:
    """The imitation start of the shipped pg_mcr: the opponent of its headline arena."""
    from tenpai.agents.pg import PG_MCR_START_RESOURCE, PGMCRAgent, packaged_model

    return PGMCRAgent(str(packaged_model(PG_MCR_START_RESOURCE)), seed, name="pg_mcr_start")
