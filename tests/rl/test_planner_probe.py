"""The planner probe: its points are the planner's own play and exact branches, its file survives
kills, and its switchers are judged only on deals they were not fitted on."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tenpai.rl import planner_probe as probe
from tenpai.rl.planner_probe import ProbeError, ProbePoint


def _same(a: list[ProbePoint], b: list[ProbePoint]) -> bool:
    return [p.to_json() for p in a] == [p.to_json() for p in b]


def test_a_deal_is_deterministic_and_the_planner_answers_first() -> None:
    one = probe.probe_deal(0, seed=5, states=2, alternatives=2)
    assert one and _same(one, probe.probe_deal(0, seed=5, states=2, alternatives=2))
    for p in one:
        # column 0 of both kinds marks the planner's answer: the first answer played is it
        assert p.rows[0, 0] == 1.0 and (p.rows[1:, 0] == 0.0).all()
        assert 2 <= len(p.q) <= 3 and len(p.rows) == len(p.q)


def test_collect_continues_where_it_stopped_and_drops_a_cut_line(tmp_path: Path) -> None:
    straight = probe.collect(tmp_path / "a.jsonl", 3, seed=5, states=1, alternatives=1)
    part = tmp_path / "b.jsonl"
    probe.collect(part, 2, seed=5, states=1, alternatives=1)
    with part.open("a") as f:
        f.write('{"deal": 2, "seat": 0, "ki')  # a kill in the middle of a line
    resumed = probe.collect(part, 3, seed=5, states=1, alternatives=1)
    assert _same(straight, resumed)
    assert _same(straight, probe.read_points(part))


def test_a_bad_line_is_refused_with_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    good = {"deal": 0, "seat": 1, "kind": "discard", "rows": [[1.0, 0.0], [0.0, 1.0]],
            "q": [0.0, 8.0]}
    path.write_text(json.dumps(good) + "\n" + "{not json\n" + json.dumps(good) + "\n")
    with pytest.raises(ProbeError, match=r"bad\.jsonl, line 2"):
        probe.read_points(path)
    path.write_text(json.dumps({**good, "q": [0.0]}) + "\n")
    with pytest.raises(ProbeError, match="line 1: rows and scores do not match"):
        probe.read_points(path)


def _planted(n: int, signal: float, seed: int = 0) -> list[ProbePoint]:
    """Points whose alternatives gain ``signal × (x_k − x_0)`` in feature 2, plus noise."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        rows = rng.normal(size=(4, 5))
        q = signal * (rows[:, 2] - rows[0, 2]) + rng.normal(scale=1.0, size=4)
        q[0] = 0.0
        out.append(ProbePoint(i // 3, 0, "discard", rows, q))
    return out


@pytest.mark.parametrize("fitter", [probe.fit_ridge, probe.fit_network])
def test_a_switcher_finds_a_planted_signal_on_held_out_deals(fitter: probe.Fitter) -> None:
    pts = _planted(300, signal=5.0)
    gains = probe.cross_validated_gains(pts, fitter, folds=5)
    oracle = np.mean([p.q.max() - p.q[0] for p in pts])
    assert np.mean(gains) > 0.7 * oracle > 0


def test_a_switcher_never_judges_a_deal_it_was_fitted_on() -> None:
    # a fitter that remembers every row it saw and knows nothing else: fitted and judged on
    # the same deals it would take every best gain; on held-out deals it keeps the planner's
    pts = _planted(90, signal=5.0, seed=1)

    def memory(x: np.ndarray, y: np.ndarray) -> probe.Switcher:
        seen = {row.tobytes(): v for row, v in zip(x, y)}
        return lambda q: np.array([seen.get(row.tobytes(), -1.0) for row in q])

    assert probe.cross_validated_gains(pts, memory, folds=3) == [0.0] * len(pts)


def test_report_reads_the_collected_file_and_bad_input_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.jsonl"
    pts = _planted(60, signal=3.0)
    path.write_text("".join(json.dumps(p.to_json()) + "\n" for p in pts))
    assert probe.main(["report", str(path), "--folds", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["discard"]["points"] == 60 and out["discard"]["deals"] == 20
    low, mean, high = (out["discard"]["oracle_gain"][i] for i in (1, 0, 2))
    assert 0 < low <= mean <= high
    path.write_text("[1, 2]\n[3]\n")
    with pytest.raises(SystemExit) as stop:
        probe.main(["report", str(path)])
    assert stop.value.code == 2
    assert "p.jsonl, line 1" in capsys.readouterr().err
