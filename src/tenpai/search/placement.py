"""The placement value model: where a seat is likely to finish the game, from a hand's start.

The search values the end of a played-out hand by what it does to the *game*, not to the
hand's points: 2,000 points mean little to a comfortable leader in the last hand and everything
to the player 1,000 behind third.  The model maps the state at the start of a hand — the four
scores, how many hands the game has left, who deals, honba and the deposits on the table — to
the probability of each final rank of one seat (Suphx's global reward predictor; Mortal fits
the same mapping on round starts).  It is a multinomial logistic regression on the features
of :func:`placement_features`, fitted by Newton's method with an L2 penalty on Houou records
(:mod:`tenpai.search.placement_fit`), and stored as JSON (no pickle, no code) in
``tenpai/data/placement_riichi4.json``.

A hand that ends the game needs no model: the rank follows from the final scores
(:func:`final_rank_probs`).  Rank probabilities become a number through rank weights
(:class:`RankUtility`): Tenhou's phoenix-lobby rank points by default, uma or any four weights
as a setting.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np

__all__ = [
    "DEFAULT_PLACEMENT_FILE",
    "FEATURES",
    "FORMAT",
    "PlacementError",
    "PlacementModel",
    "RankUtility",
    "TablePosition",
    "final_rank_probs",
    "hands_left",
    "load_placement_model",
    "parse_utility",
    "placement_features",
]

FORMAT: Final = "tenpai-placement-model/1"
DEFAULT_PLACEMENT_FILE: Final = "placement_riichi4.json"

#: Feature names, in order (checked against the file so old files are refused, not misread).
FEATURES: Final = (
    "own_score",
    "lead_1", "lead_2", "lead_3",
    "lead_1_scaled", "lead_2_scaled", "lead_3_scaled",
    "lead_1_tight", "lead_2_tight", "lead_3_tight",
    "rank_now_1", "rank_now_2", "rank_now_3",
    "hands_left", "last_hand", "extension",
    "dealer", "dealer_last", "honba", "kyotaku",
    "seat",
)


class PlacementError(ValueError):
    """A placement-model file that is missing, unreadable, or made for other rules."""


@dataclass(frozen=True, slots=True)
class TablePosition:
    """The state at the start of a hand that decides the game's outcome (public to all)."""

    scores: tuple[int, ...]
    bakaze: int
    kyoku: int
    honba: int
    kyotaku: int
    #: "tonpuu" or "hanchan": which hand is the nominal last one.
    length: str = "tonpuu"

    @property
    def dealer(self) -> int:
        return self.kyoku % len(self.scores)


def hands_left(bakaze: int, kyoku: int, length: str) -> tuple[int, bool]:
    """Nominal hands after this one (0 = this is the last, or an extension hand) and whether the
    game is already in its extension (south of a tonpuu, west of a hanchan)."""
    end = 3 if length == "tonpuu" else 7
    index = bakaze * 4 + kyoku
    return max(0, end - index), index > end


def _rank_order(scores: Sequence[int]) -> list[int]:
    """Seats from first to last; ties go to the seat nearer the first dealer (Tenhou)."""
    return sorted(range(len(scores)), key=lambda s: (-scores[s], s))


def placement_features(pos: TablePosition, seat: int) -> list[float]:
    """The model's inputs for ``seat`` (names in :data:`FEATURES`).

    Leads over the others are sorted so the model is symmetric in them; each lead also appears
    divided by sqrt(hands left + 1) (a lead counts more when few hands remain) and squashed by
    tanh(lead / 4,000) (what matters near the end is which side of a gap one is on).  The
    current rank (one-hot, 4th the base), the dealer flag twice (a dealer in the last hand may
    repeat), honba, deposits (they go to the next winner, or to first place at the end) and the
    seat (Tenhou breaks ties by it) complete the picture.
    """
    s = pos.scores
    mine = s[seat]
    leads = sorted((mine - s[o]) / 10000.0 for o in range(len(s)) if o != seat)
    left, extension = hands_left(pos.bakaze, pos.kyoku, pos.length)
    root = math.sqrt(left + 1.0)
    rank = _rank_order(s).index(seat)
    last = float(left == 0)
    dealer = float(pos.dealer == seat)
    return [
        mine / 10000.0 - 2.5,
        *leads,
        *(v / root for v in leads),
        *(math.tanh(v * 2.5) for v in leads),
        float(rank == 0), float(rank == 1), float(rank == 2),
        float(left), last, float(extension),
        dealer, dealer * last, float(pos.honba), float(pos.kyotaku),
        float(seat),
    ]


def final_rank_probs(scores: Sequence[int], kyotaku: int, deposit: int = 1000) -> list[list[float]]:
    """One-hot rank rows per seat for a finished game (leftover deposits go to first place)."""
    final = list(scores)
    order = _rank_order(final)
    final[order[0]] += kyotaku * deposit
    order = _rank_order(final)
    n = len(final)
    out = [[0.0] * n for _ in range(n)]
    for r, seat in enumerate(order):
        out[seat][r] = 1.0
    return out


@dataclass(slots=True)
class PlacementModel:
    """Softmax weights over the four ranks: ``p = softmax(W^T [(x - mean)/scale, 1])``."""

    weights: np.ndarray  # (features + 1, ranks)
    mean: np.ndarray
    scale: np.ndarray
    players: int = 4
    metrics: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)

    def predict_rows(self, x: np.ndarray) -> np.ndarray:
        z = (np.asarray(x, dtype=float) - self.mean) / self.scale
        z = np.hstack([z, np.ones((z.shape[0], 1))])
        logits = z @ self.weights
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        out: np.ndarray = e / e.sum(axis=1, keepdims=True)
        return out

    def rank_probs(self, pos: TablePosition, seat: int) -> list[float]:
        """P(final rank = 1st, 2nd, …) for ``seat`` from the start of the hand ``pos``."""
        row = self.predict_rows(np.asarray([placement_features(pos, seat)]))[0]
        return [float(v) for v in row]

    def table_probs(self, pos: TablePosition, balance: int = 20) -> np.ndarray:
        """All seats' rank rows, balanced so that every rank is also taken once in total.

        The per-seat rows come from one regression and need not add up across seats (two
        seats could each be 60 % first); alternately normalising rows and columns (Sinkhorn)
        gives the nearest table where each seat has one rank and each rank one seat."""
        n = len(pos.scores)
        p = self.predict_rows(np.asarray([placement_features(pos, s) for s in range(n)]))
        for _ in range(balance):
            p = p / p.sum(axis=0, keepdims=True)
            p = p / p.sum(axis=1, keepdims=True)
        return p

    # ------------------------------------------------------------------ file
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "rules": "riichi",
            "players": self.players,
            "features": list(FEATURES),
            "weights": self.weights.round(6).tolist(),
            "mean": self.mean.round(6).tolist(),
            "scale": self.scale.round(6).tolist(),
            "metrics": self.metrics,
            "meta": self.meta,
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def from_json(cls, d: Any, where: str) -> PlacementModel:
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise PlacementError(f"{where}: not a {FORMAT} file")
        if d.get("features") != list(FEATURES):
            raise PlacementError(f"{where}: fitted on other features than this code computes")
        if d.get("rules") != "riichi":
            raise PlacementError(f"{where}: a model for rules {d.get('rules')!r}; the search "
                                 "plays riichi")
        players = d.get("players")
        if players != 4:
            raise PlacementError(f"{where}: a model for {players} players; the search needs 4")
        try:
            w = np.asarray(d["weights"], dtype=float)
            mean = np.asarray(d["mean"], dtype=float)
            scale = np.asarray(d["scale"], dtype=float)
        except (KeyError, TypeError, ValueError) as err:
            raise PlacementError(f"{where}: bad weights ({err})") from None
        k = len(FEATURES)
        if w.shape != (k + 1, players) or mean.shape != (k,) or scale.shape != (k,):
            raise PlacementError(
                f"{where}: weights of shape {w.shape}, expected {(k + 1, players)}")
        return cls(w, mean, scale, players, dict(d.get("metrics", {})), dict(d.get("meta", {})))


def load_placement_model(path: str | Path | None = None) -> PlacementModel:
    """The shipped model (``path=None``) or a file; any problem is one :class:`PlacementError`."""
    if path is None:
        ref = resources.files("tenpai.data").joinpath(DEFAULT_PLACEMENT_FILE)
        where = f"tenpai/data/{DEFAULT_PLACEMENT_FILE}"
        try:
            text = ref.read_text()
        except OSError:
            raise PlacementError(f"{where} is not installed") from None
    else:
        where = str(path)
        try:
            text = Path(path).read_text()
        except OSError as err:
            raise PlacementError(f"{where}: cannot read ({err.strerror})") from None
    try:
        data = json.loads(text)
    except ValueError:
        raise PlacementError(f"{where}: not JSON") from None
    return PlacementModel.from_json(data, where)


@dataclass(frozen=True, slots=True)
class RankUtility:
    """What a final rank is worth: ``weights[r]`` for finishing (r+1)-th."""

    name: str
    weights: tuple[float, ...]

    def of(self, probs: Sequence[float]) -> float:
        return float(sum(p * w for p, w in zip(probs, self.weights)))

    @property
    def spread(self) -> float:
        return max(self.weights) - min(self.weights)


#: Tenhou phoenix-lobby rank points at the 7-dan reference: the linear utility whose break-even
#: is the project's ``stable_dan_houou`` = (6·n1 + 3·n2)/n4 − 2 = 7 (90·p1 + 45·p2 − 135·p4 = 0).
TENHOU: Final = RankUtility("tenhou", (90.0, 45.0, 0.0, -135.0))
#: Tenhou's uma (+20/+10/−10/−20 thousand points), counting rank only.
UMA: Final = RankUtility("uma", (20.0, 10.0, -10.0, -20.0))


def parse_utility(text: str) -> RankUtility:
    """``tenhou`` (default), ``uma``, or four comma-separated weights from 1st to 4th."""
    t = text.strip().lower()
    if t in ("", "tenhou"):
        return TENHOU
    if t == "uma":
        return UMA
    parts = t.split(",")
    try:
        weights = tuple(float(p) for p in parts)
    except ValueError:
        weights = ()
    if len(weights) != 4 or not all(math.isfinite(w) for w in weights):
        raise ValueError(
            f"utility {text!r}: expected tenhou, uma or four numbers like 90,45,0,-135")
    if not weights[0] >= weights[1] >= weights[2] >= weights[3] or weights[0] == weights[3]:
        raise ValueError(f"utility {text!r}: weights must fall from 1st to 4th")
    return RankUtility("custom", weights)
