"""A small in-process match for ``tenpai demo``: the arena with a throw-away in-memory store.

It plays whole duplicate deal sets (the same walls four times, seats rotated) in the current
process and prints the arena's table, so the demo shows exactly what a real tournament would.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console

from tenpai.arena.runner import make_config, run_tournament
from tenpai.arena.store import ResultsStore
from tenpai.arena.summary import Summary, render_summary, summarize_store
from tenpai.textout import stdout_console

__all__ = ["run_quick_match"]


def run_quick_match(
    agent_names: Sequence[str],
    *,
    games: int,
    seed: int,
    length: str = "tonpuu",
    console: Console | None = None,
) -> Summary:
    """Play ``games`` Riichi games (rounded up to whole deal sets) and print the table.

    Bad agent names or options raise :class:`tenpai.arena.games.ArenaConfigError` (a
    ``ValueError``).
    """
    # Piped output has no terminal width; give the table room rather than truncating it.
    console = console or stdout_console()
    config, rounded = make_config("riichi", agent_names, games, seed, {"length": length})
    if rounded:
        console.print(f"note: {games} games rounded up to {config.games} (whole deal sets)")
    with ResultsStore(":memory:") as store:
        run_tournament(config, store, workers=1, console=console)
        summary = summarize_store(store)
    render_summary(
        summary,
        console,
        title=f"{config.games} {length} games, seed {seed}, duplicate deals with seats rotated",
    )
    return summary
