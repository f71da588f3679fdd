"""Think-time figures of ``mcts_pg``: ``python -m tenpai.mcts.pg_measure``.

The twin of :mod:`tenpai.search.measure`, whose games and figures it uses: seeded tonpuu games
with ``mcts_pg`` in one seat (rotating over the games) and ``pg`` in the others; the share of
decisions searched, how often the search overturned ``pg``, and the CPU time per searched
decision (median, 90th and 99th percentile) from the agent's own log, beside the median
simulations per searched decision.  Settings come from ``$TENPAI_MCTS_PG_*`` as in the arena.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tenpai.search.measure import measure_against_pg

__all__ = ["main"]


def _tree_figures(searched: list[Any]) -> dict[str, object]:
    """``mcts_pg``'s own figure: simulations per searched decision, summed over its trees."""
    return {"simulations_median": float(np.median([s.simulations for s in searched]))
            if searched else 0.0}


def main(argv: list[str] | None = None) -> None:
    from tenpai.mcts.pg_agent import make_mcts_pg_agent

    measure_against_pg("python -m tenpai.mcts.pg_measure", make_mcts_pg_agent, _tree_figures,
                       argv)


if __name__ == "__main__":
    main()
