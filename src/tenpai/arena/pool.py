"""Several stored runs of one line-up read as one tournament.

A second arena on new deals (another ``--seed``) is how a close comparison gets more games
without replaying the first run's deals.  Pooling the runs' per-deal rank differences into one
paired test is exact (the deals are independent draws), where averaging two intervals by hand
is only an approximation.  Runs pool only when they are the same experiment on different deals:
the same rules, options and seat line-up, and no seed twice (the same seed plays the same deals,
which would count them twice), and every model agent playing the same weights (a run stores
each one's file fingerprint, e.g. of the file behind ``TENPAI_PG_MODEL``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tenpai.arena.games import ArenaConfigError
from tenpai.arena.store import ResultsStore, RunConfig, SeatRow
from tenpai.arena.summary import Summary
from tenpai.arena.under_riichi import UnderRiichi, under_riichi

__all__ = ["PoolError", "pooled_summary"]


class PoolError(ArenaConfigError):
    """The runs cannot be pooled (another experiment, the same deals twice, no run stored)."""


def _config(path: Path, store: ResultsStore) -> RunConfig:
    cfg = store.config()
    if cfg is None:
        raise PoolError(f"{path} holds no arena run")
    return cfg


def _players(cfg: RunConfig) -> str:
    """What each model agent played (its weights' fingerprint), or a note for a run stored
    before runs recorded it."""
    if not cfg.players:
        return "(not recorded)"
    return "; ".join(f"{a} = {who}" for a, who in sorted(cfg.players.items()))


def _check_same_experiment(runs: Sequence[tuple[Path, RunConfig]]) -> None:
    first_path, first = runs[0]
    seen: dict[int, Path] = {}
    for path, cfg in runs:
        for what, mine, theirs in (
            ("rules", cfg.rules, first.rules),
            ("agents", ",".join(cfg.agents), ",".join(first.agents)),
            ("options", json.dumps(dict(sorted(cfg.options.items()))),
             json.dumps(dict(sorted(first.options.items())))),
            ("players", _players(cfg), _players(first)),
            ("seat errors", cfg.seat_errors, first.seat_errors),
        ):
            if mine != theirs:
                raise PoolError(f"{path} has {what} {mine}, {first_path} has {theirs}: "
                                "only runs of the same line-up and rules pool")
        if cfg.seed in seen:
            raise PoolError(f"{path} and {seen[cfg.seed]} both have seed {cfg.seed}: they "
                            "played the same deals")
        seen[cfg.seed] = path


def pooled_summary(
    paths: Sequence[Path], block_size: int = 100, with_under_riichi: bool = False
) -> Summary:
    """One summary over the games of every run in ``paths`` (deals renumbered run by run),
    with each agent's play under riichi summed over the runs when asked.

    Raises :class:`PoolError` for runs that are not the same experiment on other deals, and
    the store's own error for a file that is missing or not a results database; the files
    are only read (``read_only``)."""
    if not paths:
        raise PoolError("no runs to pool")
    rows: list[SeatRow] = []
    runs: list[tuple[Path, RunConfig]] = []
    protocol: dict[str, dict[str, int]] = {}
    threatened: dict[str, UnderRiichi] = {}
    skipped = 0
    for path in paths:
        with ResultsStore(path, read_only=True) as store:
            runs.append((path, _config(path, store)))
            _check_same_experiment(runs)  # before this run's games are read
            offset = 1 + max((r.deal for r in rows), default=-1)
            rows.extend(dataclasses.replace(r, deal=r.deal + offset) for r in store.seat_rows())
            for agent, counts in store.protocol_counts().items():
                mine = protocol.setdefault(agent, {})
                for kind, n in counts.items():
                    mine[kind] = mine.get(kind, 0) + n
            if with_under_riichi:
                skipped += under_riichi(store, into=threatened)[1]
    first = runs[0][1]
    config: dict[str, Any] = {
        "rules": first.rules,
        "agents": list(first.agents),
        "options": dict(sorted(first.options.items())),
        "games": sum(cfg.games for _, cfg in runs),
        "seeds": [cfg.seed for _, cfg in runs],
        "runs": [str(path) for path, _ in runs],
    }
    if first.players:
        config["players"] = dict(sorted(first.players.items()))
    if first.seat_errors != "substitute":
        config["seat_errors"] = first.seat_errors
    summary = Summary(config, rows, block_size, protocol)
    summary.under_riichi = list(threatened.values())
    summary.under_riichi_skipped = skipped
    return summary
