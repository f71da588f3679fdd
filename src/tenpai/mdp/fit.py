"""Fit the opponent models of 001 §VI-C on Tenhou records (``tenpai train opponent-models``).

Games are read straight from the records (no replay: the models need what happened, not the
implicit passes), four-player games of the chosen lobbies only, de-duplicated by game id and
split by the hash of the game id with the same rule as the supervised datasets
(:data:`tenpai.learn.riichi.SPLIT`): ``train`` fits, ``dev`` + ``test`` are held out.

Labels come from the hidden hands the records reveal: whether a player was tenpai after a
discard, whether a tile was one of a ready player's waits, whether the hand then ended with
another player's win, how many more discards the player made, and each seat's final rank.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.hand import shanten, waits
from tenpai.learn.logreg import BinaryModel, auc, fit_binary, fit_softmax, log_loss
from tenpai.reading.features import (
    deal_in_features,
    rank_features,
    tenpai_bucket,
    tenpai_features,
)
from tenpai.reading.models import OpponentModels
from tenpai.reading.table import LIVE_WALL, TableState

__all__ = ["FitOptions", "Samples", "collect", "fit_models", "iter_games"]

#: Ron payment bins (points paid by the discarder, honba excluded): each payment is assigned
#: to the nearest bin and the bin's mean is kept, so the file stays small.
RON_BINS = (1000, 2000, 3900, 5800, 8000, 12000, 18000, 24000, 36000, 48000)


@dataclass(frozen=True, slots=True)
class FitOptions:
    rooms: tuple[str, ...] | None = ("houou",)
    limit: int | None = None
    #: Keep at most this many deal-in samples per game (the rest are subsampled evenly): the
    #: label is rare and every discard gives up to three samples.
    deal_in_per_game: int = 400
    min_bucket: int = 300
    l2: float = 1.0


@dataclass(slots=True)
class _Hazard:
    """One discard of a seat that did not deal in: its opponents' readiness inputs."""

    riichi_others: int
    others: list[tuple[tuple[int, int], list[float]]]
    wall_fraction: float
    other_win: int
    ratio: float


@dataclass(slots=True)
class Samples:
    """Rows for every model, per split."""

    tenpai: dict[str, list[tuple[tuple[int, int], list[float], int]]] = field(
        default_factory=lambda: defaultdict(list))
    deal_in: dict[str, list[tuple[list[float], int]]] = field(
        default_factory=lambda: defaultdict(list))
    hazard: dict[str, list[_Hazard]] = field(default_factory=lambda: defaultdict(list))
    rank: dict[str, list[tuple[list[float], int]]] = field(
        default_factory=lambda: defaultdict(list))
    ron_points: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    other_wins: list[bool] = field(default_factory=list)
    games: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def iter_games(
    paths: Iterable[str | Path], opts: FitOptions, on_skip: Callable[[str], None] | None = None
) -> Iterator[tuple[str, Any]]:
    """(game id, Game) of every kept four-player Riichi game, de-duplicated, in file order."""
    from tenpai.learn.riichi import iter_riichi_games

    for n, found in enumerate(iter_riichi_games(paths, opts.rooms, on_skip=on_skip), 1):
        yield found
        if opts.limit is not None and n >= opts.limit:
            return


def collect(games: Iterable[tuple[str, Any]], opts: FitOptions) -> Samples:
    """Walk every round of every game once and gather the rows of all models."""
    from tenpai.learn.riichi import SPLIT, final_ranks

    out = Samples()
    for gid, game in games:
        split = "train" if SPLIT(gid) == "train" else "heldout"
        out.games[split] += 1
        final = tuple(game.final_scores) if game.final_scores else None
        hanchan = bool(game.rules.hanchan) if game.rules.hanchan is not None else True
        end_index = 7 if hanchan else 3
        for rnd in game.rounds:
            _collect_round(list(rnd), split, out, opts)
        if final is not None and len(final) == 4:
            ranks = final_ranks(final)
            for rnd in game.rounds:
                events = list(rnd)
                start = next((e for e in events if e.type == "start_kyoku"), None)
                if start is None or len(start.scores) != 4:
                    continue
                idx = (start.bakaze or 0) * 4 + (start.kyoku or 0)
                left = max(0, end_index - idx)
                oya = start.oya if start.oya is not None else (start.kyoku or 0)
                for s in range(4):
                    x = rank_features(start.scores, s, left, s == oya, start.kyotaku or 0)
                    out.rank[split].append((x, ranks[s]))
    return out


def _collect_round(events: list[Event], split: str, out: Samples, opts: FitOptions) -> None:
    state: TableState | None = None
    pending: list[tuple[int, int, _Hazard]] = []  # (seat, index of the discard, row)
    deal_rows: list[tuple[list[float], int]] = []
    for i, e in enumerate(events):
        if e.type == "start_kyoku":
            state = TableState.start(e)
            if any(h is None for h in state.hands):
                return
            continue
        if state is None:
            continue
        if e.type == "dahai" and e.actor is not None and e.pai is not None:
            a = e.actor
            k = T.kind_of(e.pai)
            hand_a = state.hands[a]
            assert hand_a is not None
            seen = [v + h for v, h in zip(state.visible(), hand_a)]
            for j in range(4):
                hj = state.hands[j]
                if j == a or hj is None:
                    continue
                if shanten(hj) == 0:
                    x = deal_in_features(state, j, k, seen)
                    deal_rows.append((x, int(k in waits(hj))))
            state.apply(e)
            if not state.in_riichi(a):
                h = state.hands[a]
                assert h is not None
                out.tenpai[split].append((tenpai_bucket(state, a), tenpai_features(state, a),
                                          int(shanten(h) == 0)))
            others = [s for s in range(4) if s != a]
            row = _Hazard(
                riichi_others=sum(state.in_riichi(s) for s in others),
                others=[(tenpai_bucket(state, s), tenpai_features(state, s))
                        for s in others if not state.in_riichi(s)],
                wall_fraction=state.wall / LIVE_WALL,
                other_win=0,
                ratio=0.0,
            )
            pending.append((a, i, row))
            continue
        if e.type == "hora" and e.actor is not None:
            dealer = e.actor == state.oya
            if e.target is not None and e.target != e.actor and len(e.deltas) == 4:
                paid = -e.deltas[e.target] - 300 * state.honba
                cat = ("dealer_" if dealer else "child_") + (
                    "riichi" if state.in_riichi(e.actor)
                    else "open" if state.calls[e.actor] else "dama")
                if paid > 0:
                    out.ron_points[split + ":" + cat].append(paid)
            out.other_wins.append(e.target is None or e.target == e.actor)
        state.apply(e)
    _resolve(events, pending, split, out)
    if len(deal_rows) > opts.deal_in_per_game:
        step = len(deal_rows) / opts.deal_in_per_game
        deal_rows = [deal_rows[int(m * step)] for m in range(opts.deal_in_per_game)]
    out.deal_in[split].extend(deal_rows)


def _resolve(events: list[Event], pending: list[tuple[int, int, _Hazard]], split: str,
             out: Samples) -> None:
    """Fill the labels that need the rest of the hand: another player's win before the seat
    draws again, and the share of its maximum future discards the seat actually made."""
    hora = [(i, e) for i, e in enumerate(events) if e.type == "hora"]
    for seat, idx, row in pending:
        # The seat dealt in on this discard: not a sample of "the hand goes on" (§VI-C).
        nxt = events[idx + 1 : idx + 3]
        if any(e.type == "hora" and e.target == seat and e.actor != seat for e in nxt):
            continue
        if any(e.actor == seat and e.type == "hora" for _, e in hora):
            continue  # hands the seat won are left out (001: "did not end up with win")
        next_draw = next((i for i in range(idx + 1, len(events))
                          if events[i].type == "tsumo" and events[i].actor == seat), len(events))
        row.other_win = int(any(idx < i < next_draw and e.actor != seat for i, e in hora))
        future = sum(1 for e in events[idx + 1 :] if e.type == "dahai" and e.actor == seat)
        max_future = max(1, round(row.wall_fraction * LIVE_WALL) // 4)
        row.ratio = min(1.0, future / max_future)
        out.hazard[split].append(row)


def _bin_points(values: list[int]) -> list[tuple[int, float]]:
    if not values:
        return [(8000, 1.0)]
    groups: dict[int, list[int]] = defaultdict(list)
    for v in values:
        b = min(RON_BINS, key=lambda c: abs(c - v))
        groups[b].append(v)
    n = len(values)
    return [(int(round(np.mean(g) / 100.0) * 100), len(g) / n) for _, g in sorted(groups.items())]


def _metrics(model: BinaryModel, x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    if len(y) == 0:
        return {"n": 0}
    p = model.predict(x)
    base = float(np.clip(np.mean(y), 1e-6, 1 - 1e-6))
    return {"n": len(y), "log_loss": log_loss(p, y), "auc": auc(p, y),
            "base_rate": base, "log_loss_constant": log_loss(np.full(len(y), base), y)}


def _hazard_x(rows: list[_Hazard], tenpai_p: Callable[[tuple[int, int], list[float]], float]
              ) -> np.ndarray:
    return np.array([[r.riichi_others, sum(tenpai_p(b, f) for b, f in r.others), r.wall_fraction]
                     for r in rows], dtype=float).reshape(-1, 3)


def fit_models(samples: Samples, opts: FitOptions, source: str = "") -> OpponentModels:
    """Fit every model on the train rows and measure it on the held-out rows."""
    metrics: dict[str, Any] = {}
    # -- tenpai, per (discards, calls) bucket, with a pooled model for thin buckets
    tr = samples.tenpai["train"]
    ho = samples.tenpai["heldout"]
    if not tr:
        raise ValueError("no training samples: no kept game in the train split")
    xa = np.array([f for _, f, _ in tr], dtype=float)
    ya = np.array([y for _, _, y in tr], dtype=float)
    pooled = fit_binary(xa, ya, l2=opts.l2)
    by_bucket: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, (b, _, _) in enumerate(tr):
        by_bucket[b].append(i)
    tenpai: dict[tuple[int, int], BinaryModel] = {}
    for b, idx in sorted(by_bucket.items()):
        yb = ya[idx]
        if len(idx) >= opts.min_bucket and 0 < yb.sum() < len(yb):
            tenpai[b] = fit_binary(xa[idx], yb, l2=opts.l2 * 5)

    def tenpai_p(b: tuple[int, int], f: list[float]) -> float:
        return tenpai.get(b, pooled).predict_one(f)

    if ho:
        p = np.array([tenpai_p(b, f) for b, f, _ in ho])
        y = np.array([y for _, _, y in ho], dtype=float)
        base = float(np.mean(ya))
        metrics["tenpai"] = {"n": len(y), "log_loss": log_loss(p, y), "auc": auc(p, y),
                             "base_rate": float(np.mean(y)),
                             "log_loss_constant": log_loss(np.full(len(y), base), y),
                             "buckets": len(tenpai)}
    # -- deal-in given tenpai
    xd = np.array([f for f, _ in samples.deal_in["train"]], dtype=float)
    yd = np.array([y for _, y in samples.deal_in["train"]], dtype=float)
    deal_in = fit_binary(xd, yd, l2=opts.l2)
    xdh = np.array([f for f, _ in samples.deal_in["heldout"]], dtype=float).reshape(-1, xd.shape[1])
    ydh = np.array([y for _, y in samples.deal_in["heldout"]], dtype=float)
    metrics["deal_in_given_tenpai"] = _metrics(deal_in, xdh, ydh)
    # -- other-win hazard and horizon ratio
    hz, hzh = samples.hazard["train"], samples.hazard["heldout"]
    xh, xhh = _hazard_x(hz, tenpai_p), _hazard_x(hzh, tenpai_p)
    yo = np.array([r.other_win for r in hz], dtype=float)
    yoh = np.array([r.other_win for r in hzh], dtype=float)
    other_win = fit_binary(xh, yo, l2=opts.l2)
    metrics["other_win_per_turn"] = _metrics(other_win, xhh, yoh)
    yr = np.array([r.ratio for r in hz], dtype=float)
    yrh = np.array([r.ratio for r in hzh], dtype=float)
    horizon = fit_binary(xh, yr, l2=opts.l2)
    if len(yrh):
        pr = horizon.predict(xhh)
        metrics["horizon_ratio"] = {"n": len(yrh), "mae": float(np.mean(np.abs(pr - yrh))),
                                    "mae_constant": float(np.mean(np.abs(np.mean(yr) - yrh))),
                                    "mean_label": float(np.mean(yrh))}
    # -- final rank (multinomial)
    xr = np.array([f for f, _ in samples.rank["train"]], dtype=float)
    yrk = np.array([y for _, y in samples.rank["train"]], dtype=int)
    rank = fit_softmax(xr, yrk, 4, l2=opts.l2)
    if samples.rank["heldout"]:
        xrh = np.array([f for f, _ in samples.rank["heldout"]], dtype=float)
        yrkh = np.array([y for _, y in samples.rank["heldout"]], dtype=int)
        pr4 = rank.predict(xrh)
        metrics["final_rank"] = {
            "n": len(yrkh), "log_loss": log_loss(pr4, yrkh),
            "log_loss_uniform": math.log(4.0),
            "accuracy": float(np.mean(pr4.argmax(axis=1) == yrkh)),
            "auc_first": auc(pr4[:, 0], (yrkh == 0).astype(float)),
            "auc_last": auc(pr4[:, 3], (yrkh == 3).astype(float)),
        }
    # -- payoff histograms (train and held-out pooled: they are counts, not fitted weights)
    cats = {k.split(":", 1)[1] for k in samples.ron_points}
    ron_points = {c: _bin_points(samples.ron_points.get("train:" + c, [])
                                 + samples.ron_points.get("heldout:" + c, [])) for c in cats}
    for d in ("dealer_", "child_"):
        for kind in ("riichi", "open", "dama"):
            ron_points.setdefault(d + kind, [(12000 if d == "dealer_" else 8000, 1.0)])
    wins = samples.other_wins
    tsumo_share = float(np.mean(wins)) if wins else 0.35
    meta = {"source": source, "games": dict(samples.games),
            "split": "sha256(game_id)[:8] % 100: 0-89 train, 90-99 held out",
            "rooms": list(opts.rooms) if opts.rooms else None, "solver": "numpy Newton / GD"}
    return OpponentModels(tenpai, pooled, deal_in, other_win, horizon, rank, ron_points,
                          tsumo_share, metrics, meta)
