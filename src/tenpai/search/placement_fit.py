"""Fit the placement model on Tenhou records (``tenpai train placement-model``).

Every hand start of every kept four-player game gives four rows (one per seat): the position
at the start of the hand and that seat's final rank.  Games are split by the hash of the game
id with the rule of the supervised datasets (:data:`tenpai.learn.riichi.SPLIT`): ``train``
fits, ``dev`` + ``test`` are held out, so the four rows of a hand and all hands of one game
stay on one side.  The held-out report gives the log-loss against the constant model (each
rank's training share) and a calibration table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tenpai.learn.logreg import fit_softmax
from tenpai.search.placement import (
    FEATURES,
    PlacementModel,
    TablePosition,
    placement_features,
)

__all__ = [
    "PlacementRows",
    "collect_rows",
    "fit_placement",
    "iter_houou_games",
]


@dataclass(slots=True)
class PlacementRows:
    """Feature rows, labels (0-based final rank) and the hand each row came from, per split."""

    x: dict[str, list[list[float]]] = field(default_factory=lambda: {"train": [], "heldout": []})
    y: dict[str, list[int]] = field(default_factory=lambda: {"train": [], "heldout": []})
    games: dict[str, int] = field(default_factory=lambda: {"train": 0, "heldout": 0})
    skipped: int = 0


def iter_houou_games(
    paths: Iterable[str | Path], rooms: tuple[str, ...] | None = ("houou",),
    on_skip: Callable[[str], None] | None = None,
) -> Iterator[tuple[str, Any]]:
    """(game id, Game) of each complete four-player Riichi game of the rooms, de-duplicated."""
    from tenpai.learn.riichi import iter_four_player_games

    return iter_four_player_games(paths, rooms, complete=True, on_skip=on_skip)


def collect_rows(games: Iterable[tuple[str, Any]]) -> PlacementRows:
    from tenpai.learn.riichi import SPLIT, final_ranks

    out = PlacementRows()
    for gid, game in games:
        split = "train" if SPLIT(gid) == "train" else "heldout"
        length = "tonpuu" if game.rules.hanchan is False else "hanchan"
        ranks = final_ranks(game.final_scores)
        out.games[split] += 1
        for rnd in game.rounds:
            start = next((e for e in rnd if e.type == "start_kyoku"), None)
            if start is None or not start.scores or len(start.scores) != 4:
                out.skipped += 1
                continue
            pos = TablePosition(
                tuple(int(v) for v in start.scores), int(start.bakaze or 0),
                int(start.kyoku or 0), int(start.honba or 0), int(start.kyotaku or 0), length,
            )
            for s in range(4):
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


def fit_placement(rows: PlacementRows, l2: float = 1.0) -> PlacementModel:
    """Fit on the train rows and measure on the held-out ones (metrics kept in the model)."""
    if not rows.y["train"]:
        raise ValueError("no training rows: no complete four-player games in the records")
    x = np.asarray(rows.x["train"], dtype=float)
    y = np.asarray(rows.y["train"], dtype=int)
    fitted = fit_softmax(x, y, 4, l2=l2)
    # the placement model keeps one (features + 1) × ranks matrix, the biases as its last row
    w = np.vstack([np.asarray(fitted.weights).T, np.asarray(fitted.bias)[None, :]])
    model = PlacementModel(w, np.asarray(fitted.mean), np.asarray(fitted.scale), 4)
    prior = np.bincount(y, minlength=4) / len(y)
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
        expected = ph @ np.arange(1, 5)
        metrics.update({
            "heldout_rows": len(yh), "heldout_games": rows.games["heldout"],
            "heldout_log_loss": round(_log_loss(ph, yh), 5),
            "heldout_log_loss_constant": round(_log_loss(const, yh), 5),
            "heldout_accuracy": round(float((ph.argmax(axis=1) == yh).mean()), 4),
            "heldout_expected_rank_mae": round(float(np.abs(expected - (yh + 1)).mean()), 4),
            "calibration_first": _calibration(ph, yh, 0),
            "calibration_fourth": _calibration(ph, yh, 3),
        })
    model.metrics = metrics
    model.meta = {"features": len(FEATURES), "rows_skipped": rows.skipped}
    return model
