"""The placement value model: where a seat is likely to finish the game, from a hand's start.

The search values the end of a played-out hand by what it does to the *game*, not to the
hand's points: 2,000 points mean little to a comfortable leader in the last hand and everything
to the player 1,000 behind third.  The model maps the state at the start of a hand — the four
scores, how many hands the game has left, who deals, honba and the deposits on the table — to
the probability of each final rank of one seat (Suphx's global reward predictor; Mortal fits
the same mapping on round starts).  It is a multinomial logistic regression on the features
of :func:`placement_features`, fitted by Newton's method with an L2 penalty on Houou records
(:mod:`tenpai.search.placement_fit`), and stored as JSON (no pickle, no code) in
``tenpai/data/placement_riichi4.json`` — and, for three-player tables (``tenhou_sanma``), the
same features over two opponents fitted on the three-player Houou records in
``tenpai/data/placement_riichi3.json``.  A file states its player count; a model of the wrong
count is refused in one line (:class:`PlacementError`).

A hand that ends the game needs no model: the rank follows from the final scores
(:func:`final_rank_probs`).  Rank probabilities become a number through rank weights
(:class:`RankUtility`): Tenhou's phoenix-lobby rank points by default, uma or any weights (one
per rank) as a setting.
"""

from __future__ import annotations

import itertools
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
    "DEFAULT_PLACEMENT_FILES",
    "FEATURES",
    "FORMAT",
    "PlacementError",
    "PlacementModel",
    "RankUtility",
    "TablePosition",
    "features_for",
    "final_rank_probs",
    "hands_left",
    "load_placement_model",
    "parse_utility",
    "placement_features",
]

FORMAT: Final = "tenpai-placement-model/1"
DEFAULT_PLACEMENT_FILE: Final = "placement_riichi4.json"
#: The shipped model of each table size.
DEFAULT_PLACEMENT_FILES: Final = {4: DEFAULT_PLACEMENT_FILE, 3: "placement_riichi3.json"}


def features_for(players: int) -> tuple[str, ...]:
    """Feature names, in order, at a table of ``players`` (checked against a file so that old
    files, or files of the other table size, are refused, not misread)."""
    others = range(1, players)
    return (
        "own_score",
        *(f"lead_{i}" for i in others),
        *(f"lead_{i}_scaled" for i in others),
        *(f"lead_{i}_tight" for i in others),
        *(f"rank_now_{i}" for i in others),
        "hands_left", "last_hand", "extension",
        "dealer", "dealer_last", "honba", "kyotaku",
        "seat",
    )


#: The four-player features (21).
FEATURES: Final = features_for(4)


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


def hands_left(bakaze: int, kyoku: int, length: str, players: int = 4) -> tuple[int, bool]:
    """Nominal hands after this one (0 = this is the last, or an extension hand) and whether the
    game is already in its extension (south of a tonpuu, west of a hanchan).  A wind has one
    hand per seat: three at a three-player table."""
    end = players - 1 if length == "tonpuu" else 2 * players - 1
    index = bakaze * players + kyoku
    return max(0, end - index), index > end


def _rank_order(scores: Sequence[int]) -> list[int]:
    """Seats from first to last; ties go to the seat nearer the first dealer (Tenhou)."""
    return sorted(range(len(scores)), key=lambda s: (-scores[s], s))


def placement_features(pos: TablePosition, seat: int) -> list[float]:
    """The model's inputs for ``seat`` (names in :func:`features_for` the table's size).

    Leads over the others are sorted so the model is symmetric in them; each lead also appears
    divided by sqrt(hands left + 1) (a lead counts more when few hands remain) and squashed by
    tanh(lead / 4,000) (what matters near the end is which side of a gap one is on).  The
    current rank (one-hot, last the base), the dealer flag twice (a dealer in the last hand may
    repeat), honba, deposits (they go to the next winner, or to first place at the end) and the
    seat (Tenhou breaks ties by it) complete the picture.
    """
    s = pos.scores
    mine = s[seat]
    leads = sorted((mine - s[o]) / 10000.0 for o in range(len(s)) if o != seat)
    n = len(s)
    left, extension = hands_left(pos.bakaze, pos.kyoku, pos.length, n)
    root = math.sqrt(left + 1.0)
    rank = _rank_order(s).index(seat)
    last = float(left == 0)
    dealer = float(pos.dealer == seat)
    return [
        mine / 10000.0 - 2.5,
        *leads,
        *(v / root for v in leads),
        *(math.tanh(v * 2.5) for v in leads),
        *(float(rank == r) for r in range(n - 1)),
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
    """Softmax weights over the ranks (one per seat): ``p = softmax(W^T [(x - mean)/scale, 1])``."""

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
            "features": list(features_for(self.players)),
            "weights": self.weights.round(6).tolist(),
            "mean": self.mean.round(6).tolist(),
            "scale": self.scale.round(6).tolist(),
            "metrics": self.metrics,
            "meta": self.meta,
        }

    def save(self, path: str | Path) -> None:
        """Write atomically (temporary file, then rename): never a half-written model file,
        and an older file at ``path`` stays whole when the write fails."""
        from tenpai.atomic import write_text_atomic  # only a fit writes models

        write_text_atomic(path, json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def from_json(cls, d: Any, where: str, players: int | None = None) -> PlacementModel:
        """The model in ``d``; ``players`` (when given) is the table size it must be for."""
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise PlacementError(f"{where}: not a {FORMAT} file")
        if d.get("rules") != "riichi":
            raise PlacementError(f"{where}: a model for rules {d.get('rules')!r}; the search "
                                 "plays riichi")
        found = d.get("players")
        if found not in DEFAULT_PLACEMENT_FILES:
            raise PlacementError(f"{where}: a model for {found} players; the search plays "
                                 "three- and four-player tables")
        assert isinstance(found, int)
        if players is not None and found != players:
            raise PlacementError(f"{where}: a {found}-player placement model; the table has "
                                 f"{players} players")
        players = found
        if d.get("features") != list(features_for(players)):
            raise PlacementError(f"{where}: fitted on other features than this code computes "
                                 f"for {players} players")
        try:
            w = np.asarray(d["weights"], dtype=float)
            mean = np.asarray(d["mean"], dtype=float)
            scale = np.asarray(d["scale"], dtype=float)
        except (KeyError, TypeError, ValueError) as err:
            raise PlacementError(f"{where}: bad weights ({err})") from None
        k = len(features_for(players))
        if w.shape != (k + 1, players) or mean.shape != (k,) or scale.shape != (k,):
            raise PlacementError(
                f"{where}: weights of shape {w.shape}, expected {(k + 1, players)}")
        return cls(w, mean, scale, players, dict(d.get("metrics", {})), dict(d.get("meta", {})))


def load_placement_model(path: str | Path | None = None, players: int | None = None
                         ) -> PlacementModel:
    """The shipped model (``path=None``: the four-player one, or the one for ``players``) or a
    file (refused unless it is for ``players`` seats, when given); any problem is one
    :class:`PlacementError`."""
    if path is None:
        name = DEFAULT_PLACEMENT_FILES.get(players or 4)
        if name is None:
            raise PlacementError(f"no placement model ships for {players} players")
        ref = resources.files("tenpai.data").joinpath(name)
        where = f"tenpai/data/{name}"
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
    return PlacementModel.from_json(data, where, players)


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
#: Tenhou's three-player phoenix-lobby rank points for a hanchan at the 7-dan reference: +120
#: for 1st, 0 for 2nd, −135 for 3rd (the last place loses what a four-player 4th loses at the
#: same dan); docs/search.md says where the numbers come from.
TENHOU_SANMA: Final = RankUtility("tenhou", (120.0, 0.0, -135.0))
#: Three-player uma (+15/0/−15 thousand points), counting rank only.
UMA_SANMA: Final = RankUtility("uma", (15.0, 0.0, -15.0))
_NAMED: Final = {4: {"tenhou": TENHOU, "uma": UMA}, 3: {"tenhou": TENHOU_SANMA, "uma": UMA_SANMA}}
_EXAMPLE: Final = {4: "90,45,0,-135", 3: "120,0,-135"}


def parse_utility(text: str, players: int = 4) -> RankUtility:
    """``tenhou`` (default), ``uma``, or comma-separated weights from 1st to last, one per seat
    of a ``players`` table (Tenhou's and uma's numbers are the ones of that table size)."""
    named = _NAMED.get(players)
    if named is None:
        raise ValueError(f"no rank utility for {players} players")
    t = text.strip().lower()
    if t in ("", "tenhou"):
        return named["tenhou"]
    if t == "uma":
        return named["uma"]
    parts = t.split(",")
    try:
        weights = tuple(float(p) for p in parts)
    except ValueError:
        weights = ()
    words = {3: "three", 4: "four"}[players]
    if len(weights) != players or not all(math.isfinite(w) for w in weights):
        raise ValueError(f"utility {text!r}: expected tenhou, uma or {words} numbers like "
                         f"{_EXAMPLE[players]} ({players} players)")
    if any(a < b for a, b in itertools.pairwise(weights)) or weights[0] == weights[-1]:
        raise ValueError(f"utility {text!r}: weights must fall from 1st to last")
    return RankUtility("custom", weights)
