"""Built-in agents, by name: ``make_agent("efficiency", seed=1)``.

Every agent follows :class:`tenpai.engine.Agent`; the registry lets the CLI and the arena
create them from a string without importing heavy modules for agents that are not used.
"""

from __future__ import annotations

from collections.abc import Callable

from tenpai.engine.agent import Agent, RandomAgent

__all__ = ["AGENTS", "make_agent"]


def _random(seed: int) -> Agent:
    return RandomAgent(seed)


def _efficiency(seed: int) -> Agent:
    from tenpai.agents.efficiency import EfficiencyAgent

    return EfficiencyAgent(seed)


def _defensive(seed: int) -> Agent:
    from tenpai.agents.defensive import DefensiveAgent

    return DefensiveAgent(seed)


def _expert(seed: int) -> Agent:
    from tenpai.agents.expert import ExpertAgent

    return ExpertAgent(seed)


def _mdp(seed: int) -> Agent:
    from tenpai.agents.mdp import MDPAgent

    return MDPAgent(seed)


def _sl(seed: int) -> Agent:
    # Needs torch (the ``learn`` extra); imported only when an "sl" agent is asked for.
    from tenpai.agents.sl import SLAgent

    return SLAgent("default", seed)


def _sl_model(seed: int) -> Agent:
    # The sl agent playing the model file in $TENPAI_SL_MODEL: a candidate for the next
    # default, measured against the shipped `sl` in one line-up (no fallback, so a forgotten
    # variable cannot pit the default against itself unnoticed).
    import os

    from tenpai.agents.sl import SLAgent

    path = os.environ.get("TENPAI_SL_MODEL", "")
    if not path:
        raise ValueError("sl_model plays the model file named by $TENPAI_SL_MODEL, which is unset")
    return SLAgent(path, seed, name="sl_model")


def _sl_mcr_model(seed: int) -> Agent:
    # MCR's sl_model: the model file in $TENPAI_SL_MCR_MODEL (no fallback), e.g. a policy-
    # gradient run's own start measured against the run in one line-up.
    import os

    from tenpai.agents.sl_mcr import SLMCRAgent

    path = os.environ.get("TENPAI_SL_MCR_MODEL", "")
    if not path:
        raise ValueError("sl_mcr_model plays the model file named by $TENPAI_SL_MCR_MODEL, "
                         "which is unset")
    return SLMCRAgent(path, seed, name="sl_mcr_model")


def _sl_mcr(seed: int) -> Agent:
    # MCR only; needs torch.  Imported only when an "sl_mcr" agent is asked for.
    from tenpai.agents.sl_mcr import SLMCRAgent

    return SLMCRAgent("default", seed)


def _pg(seed: int) -> Agent:
    # Riichi; the sl agent playing seed 002's policy-gradient discard weights (docs/rl.md).
    # $TENPAI_PG_MODEL puts a `train pg` output in the seat, so a run is measured in the arena
    # under the name it will ship as, without replacing the shipped file.
    import os

    from tenpai.agents.pg import PGAgent

    return PGAgent(os.environ.get("TENPAI_PG_MODEL", "default"), seed)


def _pg_mcr(seed: int) -> Agent:
    # MCR; the sl_mcr agent playing seed 002's policy-gradient discard weights (docs/rl.md);
    # $TENPAI_PG_MCR_MODEL as $TENPAI_PG_MODEL above.
    import os

    from tenpai.agents.pg import PGMCRAgent

    return PGMCRAgent(os.environ.get("TENPAI_PG_MCR_MODEL", "default"), seed)


def _pg_mcr_start(seed: int) -> Agent:
    # The imitation start of the shipped pg_mcr: the opponent of its headline arena.
    from tenpai.agents.pg import PG_MCR_START_RESOURCE, PGMCRAgent, packaged_model

    return PGMCRAgent(str(packaged_model(PG_MCR_START_RESOURCE)), seed, name="pg_mcr_start")


def _mcts(seed: int) -> Agent:
    # Seed 000's search with the shipped suits108 model; needs torch.
    from tenpai.agents.mcts import MCTSAgent

    return MCTSAgent.from_env(seed)


def _mcts_prior(seed: int) -> Agent:
    # The same network's prior policy, no search.
    from tenpai.agents.mcts import MCTSAgent

    return MCTSAgent.from_env(seed, prior=True)


def _dropout(seed: int) -> Agent:
    # Seed 000's normal agent (dropout learning); model from $TENPAI_DROPOUT_MODEL;
    # $TENPAI_DROPOUT_WINS=network leaves legal wins to the network (default: always taken).
    import os

    from tenpai.agents.mcts import DropoutAgent

    wins = os.environ.get("TENPAI_DROPOUT_WINS", "always")
    if wins not in ("always", "network"):
        raise ValueError(f"TENPAI_DROPOUT_WINS must be always or network, got {wins!r}")
    return DropoutAgent(os.environ.get("TENPAI_DROPOUT_MODEL", "default"),
                        take_wins=wins == "always")


def _search(seed: int) -> Agent:
    # Issue 38: pg's choice reconsidered by playouts over sampled worlds (docs/search.md);
    # settings from $TENPAI_SEARCH_*, the prior from $TENPAI_PG_MODEL as for pg.
    from tenpai.search.agent import make_search_agent

    return make_search_agent(seed)


AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": _random,
    "efficiency": _efficiency,
    "defensive": _defensive,
    "expert": _expert,
    "mdp": _mdp,
    "sl": _sl,
    "sl_model": _sl_model,
    "sl_mcr": _sl_mcr,
    "sl_mcr_model": _sl_mcr_model,
    "pg": _pg,
    "pg_mcr": _pg_mcr,
    "pg_mcr_start": _pg_mcr_start,
    "mcts": _mcts,
    "mcts_prior": _mcts_prior,
    "dropout": _dropout,
    "search": _search,
}


def make_agent(name: str, seed: int = 0) -> Agent:
    """An agent by registry name; an unknown name raises a ValueError listing the known ones."""
    try:
        factory = AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; known: {', '.join(sorted(AGENTS))}") from None
    return factory(seed)
