"""The fitted opponent models of 001 §VI-C, their file format and the predictions the MDPs use.

The file is JSON (no pickle): a format tag, the feature names each model was fitted on, the
weights, the payoff histograms and the held-out metrics.  Anything wrong with it — missing,
unreadable, another format, features that do not match this code — raises
:class:`ModelFileError` with one line that names the file, so the agent refuses to start
instead of playing with half a model.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from tenpai.atomic import write_text_atomic
from tenpai.learn.logreg import BinaryModel, SoftmaxModel
from tenpai.reading.features import (
    DEAL_IN_FEATURES,
    RANK_FEATURES,
    TENPAI_FEATURES,
    rank_features,
)

__all__ = [
    "DEFAULT_MODEL_FILE",
    "FORMAT",
    "HAZARD_FEATURES",
    "ModelFileError",
    "OpponentModels",
    "load_models",
]

FORMAT = "tenpai-mdp-opponent-models/1"
DEFAULT_MODEL_FILE = "mdp_opponents.json"
#: Features of the per-turn other-win hazard and of the horizon ratio (001 §VI-C: the number of
#: riichi players and the summed tenpai probability of the others who did not declare).
HAZARD_FEATURES = ("riichi_others", "tenpai_sum_others", "wall_fraction")


class ModelFileError(ValueError):
    """The opponent-model file is missing, unreadable or not what this code expects."""


@dataclass(slots=True)
class OpponentModels:
    """Everything fitted from the records (see docs/mdp_search.md §Opponent models)."""

    tenpai: dict[tuple[int, int], BinaryModel]
    tenpai_pooled: BinaryModel
    deal_in: BinaryModel
    other_win: BinaryModel
    horizon: BinaryModel
    rank: SoftmaxModel
    #: Points a discarder pays on a ron, per winner category: [(points, probability), ...].
    ron_points: dict[str, list[tuple[int, float]]]
    #: Share of "another player wins" endings that are self-drawn (the rest are rons between
    #: two opponents, which leave the deciding player's points unchanged).
    tsumo_share: float
    metrics: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------------ predictions
    def p_tenpai(self, bucket: tuple[int, int], features: list[float]) -> float:
        model = self.tenpai.get(bucket, self.tenpai_pooled)
        return model.predict_one(features)

    def p_wait(self, features: list[float]) -> float:
        return self.deal_in.predict_one(features)

    def p_other_win(self, features: list[float]) -> float:
        return self.other_win.predict_one(features)

    def horizon_ratio(self, features: list[float]) -> float:
        return self.horizon.predict_one(features)

    def rank_probs(
        self, scores: tuple[int, ...], seat: int, hands_left: int, dealer: bool, kyotaku: int
    ) -> list[float]:
        x = rank_features(scores, seat, hands_left, dealer, kyotaku)
        return [float(v) for v in self.rank.predict(np.asarray(x))[0]]

    def ron_category(self, dealer: bool, riichi: bool, open_hand: bool) -> str:
        return ("dealer_" if dealer else "child_") + (
            "riichi" if riichi else "open" if open_hand else "dama"
        )

    # ------------------------------------------------------------------ file
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "features": {
                "tenpai": list(TENPAI_FEATURES),
                "deal_in": list(DEAL_IN_FEATURES),
                "hazard": list(HAZARD_FEATURES),
                "rank": list(RANK_FEATURES),
            },
            "tenpai": {f"{d},{c}": m.to_json() for (d, c), m in sorted(self.tenpai.items())},
            "tenpai_pooled": self.tenpai_pooled.to_json(),
            "deal_in": self.deal_in.to_json(),
            "other_win": self.other_win.to_json(),
            "horizon": self.horizon.to_json(),
            "rank": self.rank.to_json(),
            "ron_points": {k: [[p, q] for p, q in v] for k, v in self.ron_points.items()},
            "tsumo_share": self.tsumo_share,
            "metrics": self.metrics,
            "meta": self.meta,
        }

    def save(self, path: str | Path) -> None:
        """Write atomically (the records' temp-file-and-rename, synced, with the umask's mode):
        never a half-written model file, and a shared one is readable by others."""
        write_text_atomic(path, json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n")

    @classmethod
    def from_json(cls, d: Any, where: str = "<json>") -> OpponentModels:
        if not isinstance(d, dict):
            raise ModelFileError(f"{where}: not a JSON object")
        if d.get("format") != FORMAT:
            raise ModelFileError(f"{where}: format {d.get('format')!r}, expected {FORMAT!r}")
        want = {"tenpai": TENPAI_FEATURES, "deal_in": DEAL_IN_FEATURES,
                "hazard": HAZARD_FEATURES, "rank": RANK_FEATURES}
        feats = d.get("features", {})
        for name, names in want.items():
            if tuple(feats.get(name, ())) != names:
                raise ModelFileError(
                    f"{where}: the {name} model was fitted on other features than this code "
                    f"computes; refit with `tenpai train opponent-models`"
                )
        try:
            tenpai = {}
            for key, m in d["tenpai"].items():
                a, b = key.split(",")
                tenpai[(int(a), int(b))] = BinaryModel.from_json(m)
            models = cls(
                tenpai=tenpai,
                tenpai_pooled=BinaryModel.from_json(d["tenpai_pooled"]),
                deal_in=BinaryModel.from_json(d["deal_in"]),
                other_win=BinaryModel.from_json(d["other_win"]),
                horizon=BinaryModel.from_json(d["horizon"]),
                rank=SoftmaxModel.from_json(d["rank"]),
                ron_points={
                    str(k): [(int(p), float(q)) for p, q in v] for k, v in d["ron_points"].items()
                },
                tsumo_share=float(d["tsumo_share"]),
                metrics=dict(d.get("metrics", {})),
                meta=dict(d.get("meta", {})),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ModelFileError(f"{where}: malformed model file ({type(err).__name__}: {err})") \
                from None
        checks = {
            "tenpai": [m.weights for m in tenpai.values()],
            "deal_in": [models.deal_in.weights],
            "other_win": [models.other_win.weights, models.horizon.weights],
            "rank": list(models.rank.weights),
        }
        sizes = {"tenpai": len(TENPAI_FEATURES), "deal_in": len(DEAL_IN_FEATURES),
                 "other_win": len(HAZARD_FEATURES), "rank": len(RANK_FEATURES)}
        for name, ws in checks.items():
            if any(len(w) != sizes[name] for w in ws):
                raise ModelFileError(f"{where}: {name} weights do not match its feature list")
        if len(models.rank.bias) != 4:
            raise ModelFileError(f"{where}: the rank model must have four classes")
        if not 0.0 <= models.tsumo_share <= 1.0:
            raise ModelFileError(f"{where}: tsumo_share {models.tsumo_share} is not a probability")
        for k, v in models.ron_points.items():
            if not v or abs(sum(q for _, q in v) - 1.0) > 1e-6:
                raise ModelFileError(f"{where}: ron_points[{k!r}] is not a distribution")
        return models


def load_models(path: str | Path | None = None) -> OpponentModels:
    """The models in ``path`` (``None``: the package default); :class:`ModelFileError` if bad."""
    if path is None:
        ref = resources.files("tenpai.data").joinpath(DEFAULT_MODEL_FILE)
        where = f"package default {DEFAULT_MODEL_FILE}"
        try:
            text = ref.read_text(encoding="utf-8")
        except (FileNotFoundError, OSError):
            raise ModelFileError(
                f"{where} is missing; run `tenpai train opponent-models DATA --out FILE`"
            ) from None
    else:
        where = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ModelFileError(f"{where}: no such opponent-model file") from None
        except (OSError, UnicodeDecodeError) as err:
            raise ModelFileError(f"{where}: cannot read ({err})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ModelFileError(f"{where}: not valid JSON ({err.msg} at line {err.lineno})") from None
    return OpponentModels.from_json(data, where)
