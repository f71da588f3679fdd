"""Fit the placement model on Tenhou records (``tenpai train placement-model``).

Every hand start of every kept game of the chosen table size (four players, or three with
``--players 3``: the Houou sanma records) gives one row per seat: the position at the start of
the hand and that seat's final rank.  Games are split by the hash of the game
id with the rule of the supervised datasets (:data:`tenpai.learn.riichi.SPLIT`): ``train``
fits, ``dev`` + ``test`` are held out, so the four rows of a hand and all hands of one game
stay on one side.  The held-out report gives the log-loss against two baselines — the
constant model (each rank's training share) and the scores-only ordering (each rank's training
share given only the seat's current rank) — and calibration tables for first and last place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tenpai.learn.logreg import fit_softmax
from tenpai.search.placement import (
    PlacementModel,
    TablePosition,
    features_for,
    placement_features,
)

__all__ = [
    "PlacementRows",
    "collect_rows",
    "fit_placement",
    "iter_houou_games",
]

_ORDINALS = {3: "third", 4: "fourth"}


@dataclass(slots=True)
class PlacementRows:
    """Feature rows, labels (0-based final rank) and the hand each row came from, per split."""

    x: dict[str, list[list[float]]] = field(default_factory=lambda: {"train": [], "heldout": []})
    y: dict[str, list[int]] = field(default_factory=lambda: {"train": [], "heldout": []})
    games: dict[str, int] = field(default_factory=lambda: {"train": 0, "heldout": 0})
    skipped: int = 0
    #: The table size of the rows (one row per seat and hand start).
    players: int = 4


def iter_houou_games(
    paths: Iterable[str | Path], rooms: tuple[str, ...] | None = ("houou",),
    on_skip: Callable[[str], None] | None = None, players: int = 4,
) -> Iterator[tuple[str, Any]]:
    """(game id, Game) of each complete Riichi game of ``players`` seats in the rooms,
    de-duplicated by game id (the learning pipeline's reader)."""
    from tenpai.learn.riichi import iter_riichi_games

    return iter_riichi_games(paths, rooms, complete=True, on_skip=on_skip, players=players)


def collect_rows(games: Iterable[tuple[str, Any]], players: int = 4) -> PlacementRows:
    from tenpai.learn.riichi import SPLIT, final_ranks

    out = PlacementRows(players=players)
    for gid, game in games:
        split = "train" if SPLIT(gid) == "train" else "heldout"
        length = "tonpuu" if game.rules.hanchan is False else "hanchan"
        ranks = final_ranks(game.final_scores)
        out.games[split] += 1
        for rnd in game.rounds:
            start = next((e for e in rnd if e.type == "start_kyoku"), None)
            if start is None or not start.scores or len(start.scores) != players:
                out.skipped += 1
                continue
            pos = TablePosition(
                tuple(int(v) for v in start.scores), int(start.bakaze or 0),
                int(start.kyoku or 0), int(start.honba or 0), int(start.kyotaku or 0), length,
            )
            for s in range(players):
                out.x[split].append(placement_features(pos, s))
                out.y[split].append(ranks[s])
    return out


def _log_loss(p: np.ndarray, y: np.ndarray) -> float:
    return float(-np.mean(np.log(np.clip(p[np.arange(len(y)), y], 1e-12, 1.0))))


def _calibration(p: np.ndarray, y: np.ndarray, rank: int, bins: int = 10) -> list[dict[str, float]]:
    """Predicted against observed frequency of ``rank`` in deciles of the prediction."""
    q = p[:, rank]
    order = np.argsort(q)
    rows = []
    for chunk in np.array_split(order, bins):
        if len(chunk) == 0:
            continue
        rows.append({
            "n": len(chunk),
            "predicted": round(float(q[chunk].mean()), 4),
            "observed": round(float((y[chunk] == rank).mean()), 4),
        })
    return rows


def _rank_now(x: np.ndarray, players: int) -> np.ndarray:
    """The seat's current rank (0-based) from its rows' one-hot ``rank_now_*`` columns."""
    names = features_for(players)
    cols = [names.index(f"rank_now_{r}") for r in range(1, players)]
    hot = x[:, cols]
    return np.where(hot.any(axis=1), hot.argmax(axis=1), players - 1)


def scores_only_table(x: np.ndarray, y: np.ndarray, players: int) -> np.ndarray:
    """P(final rank | current rank) on the rows (add-one smoothed): the baseline that orders
    the seats by their scores now and knows nothing of gaps, hands left or the dealer."""
    now = _rank_now(x, players)
    table = np.ones((players, players))
    np.add.at(table, (now, y), 1.0)
    out: np.ndarray = table / table.sum(axis=1, keepdims=True)
    return out


def fit_placement(rows: PlacementRows, l2: float = 1.0) -> PlacementModel:
    """Fit on the train rows and measure on the held-out ones (metrics kept in the model)."""
    n = rows.players
    if not rows.y["train"]:
        raise ValueError(f"no training rows: no complete {n}-player games in the records")
    x = np.asarray(rows.x["train"], dtype=float)
    y = np.asarray(rows.y["train"], dtype=int)
    fitted = fit_softmax(x, y, n, l2=l2)
    # the placement model keeps one (features + 1) × ranks matrix, the biases as its last row
    w = np.vstack([np.asarray(fitted.weights).T, np.asarray(fitted.bias)[None, :]])
    model = PlacementModel(w, np.asarray(fitted.mean), np.asarray(fitted.scale), n)
    prior = np.bincount(y, minlength=n) / len(y)
    by_rank = scores_only_table(x, y, n)
    metrics: dict[str, Any] = {
        "train_rows": len(y), "train_games": rows.games["train"],
        "train_log_loss": round(_log_loss(model.predict_rows(x), y), 5),
        "l2": l2,
    }
    if rows.y["heldout"]:
        xh = np.asarray(rows.x["heldout"], dtype=float)
        yh = np.asarray(rows.y["heldout"], dtype=int)
        ph = model.predict_rows(xh)
        const = np.tile(prior, (len(yh), 1))
        ordering = by_rank[_rank_now(xh, n)]
        expected = ph @ np.arange(1, n + 1)
        metrics.update({
            "heldout_rows": len(yh), "heldout_games": rows.games["heldout"],
            "heldout_log_loss": round(_log_loss(ph, yh), 5),
            "heldout_log_loss_constant": round(_log_loss(const, yh), 5),
            "heldout_log_loss_scores_only": round(_log_loss(ordering, yh), 5),
            "heldout_accuracy": round(float((ph.argmax(axis=1) == yh).mean()), 4),
            "heldout_expected_rank_mae": round(float(np.abs(expected - (yh + 1)).mean()), 4),
            "calibration_first": _calibration(ph, yh, 0),
            f"calibration_{_ORDINALS[n]}": _calibration(ph, yh, n - 1),
        })
    model.metrics = metrics
    model.meta = {"features": len(features_for(n)), "rows_skipped": rows.skipped}
    return model
