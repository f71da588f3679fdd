"""Fitting the opponent models on a handful of real Houou records (skipped without them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenpai.mdp.fit import FitOptions, collect, fit_models, iter_games

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "riichi" / "tenhou_mjlog"
SUBSET = DATA / "mjx-project_mjx" / "tests_py"


@pytest.mark.skipif(not SUBSET.is_dir(), reason="../shared/data (Tenhou records) is absent")
def test_fit_on_a_few_records(tmp_path: Path) -> None:
    opts = FitOptions(limit=8, min_bucket=50)
    games = list(iter_games([SUBSET], opts))
    assert 1 <= len(games) <= 8
    samples = collect(games, opts)
    train = samples.tenpai["train"]
    assert train and all(len(f) == 8 for _, f, _ in train)
    # Labels come from the real hands: some players are tenpai, most are not.
    share = sum(y for _, _, y in train) / len(train)
    assert 0.02 < share < 0.5
    assert samples.deal_in["train"] and samples.rank["train"]
    models = fit_models(samples, opts, source=str(SUBSET))
    models.save(tmp_path / "m.json")
    from tenpai.reading.models import load_models

    again = load_models(tmp_path / "m.json")
    assert again.meta["games"] == dict(samples.games)
    # The fitted tenpai model ranks the training rows better than chance.
    import numpy as np

    from tenpai.learn.logreg import auc

    p = np.array([again.p_tenpai(b, f) for b, f, _ in train])
    y = np.array([y for _, _, y in train], dtype=float)
    assert auc(p, y) > 0.75
