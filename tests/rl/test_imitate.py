"""Imitation of a rule agent: the teacher's decisions are recorded as the agent sees them."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tenpai.agents.sl_mcr import SLMCRAgent
from tenpai.rl.imitate import (
    DEFAULT_TEACHER,
    HEADS,
    ImitationConfig,
    collect_imitation,
    train_imitation,
)
from tenpai.selfplay.spec import SelfPlaySpec
from tenpai.selfplay.vector import VectorRunner


def test_recorded_labels_are_legal_and_the_model_plays(tmp_path: Path) -> None:
    cfg = ImitationConfig(teacher="efficiency", games=12, tables=4, minutes=0.05)
    data = collect_imitation(cfg)
    assert data.count("discard") > 100 and data.count("chi") > 0 and data.count("peng") > 0
    for head, classes in HEADS.items():
        if data.count(head) == 0:
            continue
        legal = np.stack(data.legal[head])
        labels = np.asarray(data.label[head])
        assert legal.shape[1] == classes
        assert bool(legal[np.arange(len(labels)), labels].all())
    bundle = train_imitation(cfg, data)
    assert {"discard", "peng", "chi"} <= set(bundle.heads)
    assert bundle.heads["discard"].card["samples"] == data.count("discard")
    path = tmp_path / "start.pt"
    bundle.save(path)
    agent = SLMCRAgent(str(path))
    games = VectorRunner(SelfPlaySpec.series("mcr", [agent] * 4, 0, 2, {"preset": "botzone"}),
                         tables=2).run()
    assert len(games) == 2


def test_the_same_games_give_the_same_data_however_many_tables_play() -> None:
    a = collect_imitation(ImitationConfig(teacher="efficiency", games=3, tables=3))
    b = collect_imitation(ImitationConfig(teacher="efficiency", games=3, tables=1))
    for head in HEADS:
        # Tables interleave their decisions differently; the set of decisions is the same.
        rows_a = sorted((lab, x.tobytes()) for lab, x in zip(a.label[head], a.x[head]))
        rows_b = sorted((lab, x.tobytes()) for lab, x in zip(b.label[head], b.x[head]))
        assert rows_a == rows_b


def test_the_default_teacher_is_the_planner_and_its_labels_are_its_choices() -> None:
    """The start imitates the strongest measured MCR agent (docs/mcr_strength.md); every label
    is one of the legal classes the planner chose from."""
    assert ImitationConfig().teacher == DEFAULT_TEACHER == "planner"
    data = collect_imitation(ImitationConfig(games=2, tables=2))
    assert data.count("discard") > 20
    legal = np.stack(data.legal["discard"])
    labels = np.asarray(data.label["discard"])
    assert bool(legal[np.arange(len(labels)), labels].all())
