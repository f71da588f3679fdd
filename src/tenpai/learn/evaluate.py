"""Run a model over replayed records and measure its agreement with the players (needs torch).

One evaluation for every rule set: decisions are gathered exactly as for a dataset (the rule
set's registry entry replays and extracts them; no loss filter unless asked) and scored in
batches; the metrics come from :mod:`tenpai.learn.agreement`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tenpai.learn.agreement import call_metrics, topk_agreement
from tenpai.learn.dataset import BuildOptions, _Summary, iter_replayed_games
from tenpai.learn.rulesets import get_rules
from tenpai.models.bundle import ModelBundle

__all__ = ["evaluate_agreement"]


def evaluate_agreement(
    paths: Sequence[str | Path],
    bundle: ModelBundle,
    opts: BuildOptions,
    batch: int = 4096,
    *,
    suit_average: bool = False,
    on_file: Callable[[Path], None] | None = None,
) -> dict[str, Any]:
    """``{"games", "skipped", "discards": {...}, "top1", "top2", "top3", <call kind>: {...}}``.

    ``opts.rules`` names the rule set; heads of kinds it does not have are ignored.
    ``suit_average`` scores each decision as the mean over its six suit relabellings
    (:meth:`ModelBundle.logits`); ``on_file`` is called as each record file is done (progress).
    """
    rules = get_rules(opts.rules)
    enc = rules.get_encoder(bundle.encoder)
    kinds = tuple(k for k in rules.kinds if k in bundle.heads)
    xs: dict[str, list[np.ndarray]] = {k: [] for k in kinds}
    ys: dict[str, list[int]] = {k: [] for k in kinds}
    legal: dict[str, list[np.ndarray]] = {k: [] for k in kinds}
    games = 0
    summary = _Summary()
    for _gid, events in iter_replayed_games(paths, opts, summary, on_file):
        games += 1
        points = list(rules.decisions(events, kinds, opts.max_loss))
        if not points:
            continue
        encoded = enc.encode_batch([d.view for d in points])
        for x, d in zip(encoded, points):
            mask = np.zeros(rules.classes[d.kind], dtype=bool)
            mask[list(d.legal)] = True
            xs[d.kind].append(x)
            ys[d.kind].append(d.label)
            legal[d.kind].append(mask)
    report: dict[str, Any] = {
        "rules": rules.name,
        "games": games,
        "skipped": sum(summary.skipped.values()),
        "encoder": bundle.encoder,
        "suit_average": suit_average,
    }
    for kind in kinds:
        if not ys[kind]:
            report["discards" if kind == "discard" else kind] = {"n": 0}
            continue
        x = np.stack(xs[kind])
        scores = np.concatenate(
            [
                bundle.logits(kind, x[s : s + batch], suit_average=suit_average)
                for s in range(0, len(x), batch)
            ]
        )
        y = np.asarray(ys[kind])
        mask = np.stack(legal[kind])
        if kind == "discard":
            report["discards"] = topk_agreement(scores, y, mask)
        else:
            report[kind] = call_metrics(scores, y, mask, rules.classes[kind])
    if report.get("discards", {}).get("n", 0) == 0:
        report["discards"] = {"n": 0, "top1": None, "top2": None, "top3": None}
    for k in ("top1", "top2", "top3"):
        report[k] = report["discards"][k]
    return report
