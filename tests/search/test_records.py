"""The placement fit and the wait calibration on real records (skipped without them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenpai.search.calibration import wait_predictions
from tenpai.search.placement_fit import collect_rows, fit_placement, iter_houou_games
from tenpai.search.worlds import WorldSampler

pytestmark = pytest.mark.corpus


def _mjx(data_dir: Path) -> Path:
    return data_dir / "riichi" / "tenhou_mjlog" / "mjx-project_mjx"


def test_placement_fit_on_a_few_houou_games_beats_the_constant_model(data_dir: Path) -> None:
    games = list(iter_houou_games([_mjx(data_dir)]))
    assert games
    rows = collect_rows(games)
    assert len(rows.x["train"]) == len(rows.y["train"]) > 0
    assert all(0 <= y <= 3 for y in rows.y["train"])
    model = fit_placement(rows)
    assert model.metrics["train_log_loss"] < 1.386


def test_wait_predictions_are_probabilities_with_truths(data_dir: Path) -> None:
    pred, actual, used = wait_predictions([_mjx(data_dir)], games=1, worlds=2,
                                          sampler=WorldSampler())
    assert used == 1
    assert len(pred) == len(actual)
    assert all(0.0 <= p <= 1.0 for p in pred) and set(actual) <= {0, 1}


def test_tables_rebuilt_from_houou_streams_match_the_real_ones(data_dir: Path) -> None:
    from tenpai.engine.flow import Decision
    from tenpai.events import Event
    from tenpai.replay.riichi import replay_riichi
    from tenpai.replay.runner import riichi_rules_for
    from tenpai.rules.riichi.compiled_round import python_table
    from tenpai.rules.riichi.flow.round import RiichiRound
    from tenpai.search.rebuild import rebuild_table
    from tenpai.search.worlds import seen_tiles

    checked = [0]

    def observe(d: Decision, _answer: Event) -> None:
        # the Python round behind the observation (built on demand on the compiled table)
        real = python_table(getattr(d.observation, "_table", None))
        if not isinstance(real, RiichiRound) or len(real.events) % 3:
            return
        table = rebuild_table(d.observation.events, d.seat, d.legal)
        assert list(table._observe(d.seat).events) == list(d.observation.events)
        assert seen_tiles(table, d.seat) == seen_tiles(real, d.seat)
        mine = next(x for x in table.pending() if x.seat == d.seat)
        assert set(mine.legal) == set(d.legal)
        checked[0] += 1

    _gid, game = next(iter(iter_houou_games([_mjx(data_dir)])))
    replay_riichi(game.events(), rules=riichi_rules_for(game, "tenhou"),
                  final_scores=game.final_scores, observe=observe)
    assert checked[0] > 50


@pytest.mark.slow
def test_world_calibration_rows_are_probabilities_with_truths(data_dir: Path) -> None:
    pytest.importorskip("torch")
    from tenpai.agents.pg import PGAgent
    from tenpai.search.weights import DiscardLikelihood
    from tenpai.search.world_calibration import collect, scores

    groups, stats = collect([_mjx(data_dir)], games=1, pool=4, stride=8,
                            sampler=WorldSampler(), weigher=DiscardLikelihood(PGAgent()),
                            temperatures=[1.0, 4.0])
    assert stats["games"] == 1 and stats["decisions"] > 5
    rows = groups["tenpai_other"]
    assert len(rows.truth) == len(rows.uniform) == len(rows.weighted[4.0]) > 0
    assert all(0.0 <= p <= 1.0 + 1e-9 for p in rows.weighted[1.0])
    report = scores(rows)
    assert {"constant", "uniform", "weighted_T1", "weighted_T4"} <= set(report)


@pytest.mark.slow
def test_world_calibration_with_calls_reports_both_weightings(data_dir: Path) -> None:
    pytest.importorskip("torch")
    from tenpai.agents.pg import PGAgent
    from tenpai.search.call_likelihood import CallLikelihood
    from tenpai.search.weights import DiscardLikelihood
    from tenpai.search.world_calibration import collect, scores

    pg = PGAgent()
    groups, stats = collect([_mjx(data_dir)], games=1, pool=4, stride=8,
                            sampler=WorldSampler(), weigher=DiscardLikelihood(pg),
                            temperatures=[4.0], calls=CallLikelihood(pg))
    assert stats["decisions"] > 5 and stats["calls_effective_size_sum"] > 0
    for name in ("tenpai_other", "tenpai_open"):
        rows = groups[name]
        assert len(rows.calls[4.0]) == len(rows.truth) > 0
        assert all(0.0 <= p <= 1.0 + 1e-9 for p in rows.calls[4.0])
        assert {"weighted_T4", "calls_T4"} <= set(scores(rows))
    # the open hands are a part of the others
    assert len(groups["tenpai_open"].truth) < len(groups["tenpai_other"].truth)


@pytest.mark.slow
def test_world_calibration_with_win_passes_reports_the_rule_beside_the_weights(
        data_dir: Path) -> None:
    pytest.importorskip("torch")
    from tenpai.agents.pg import PGAgent
    from tenpai.search.weights import DiscardLikelihood
    from tenpai.search.win_passes import WinPassLikelihood
    from tenpai.search.world_calibration import collect, scores

    groups, stats = collect([_mjx(data_dir)], games=1, pool=4, stride=8,
                            sampler=WorldSampler(), weigher=DiscardLikelihood(PGAgent()),
                            temperatures=[4.0], win_passes=WinPassLikelihood())
    assert stats["decisions"] > 5 and stats["wins_effective_size_sum"] > 0
    assert 0.0 <= stats["wins_impossible_share"] <= stats["decisions"]
    for name in ("tenpai_other", "dealin_riichi"):
        rows = groups[name]
        assert len(rows.wins[4.0]) == len(rows.uniform_wins) == len(rows.truth) > 0
        assert all(0.0 <= p <= 1.0 + 1e-9 for p in rows.wins[4.0])
        assert {"weighted_T4", "wins_T4", "uniform_wins"} <= set(scores(rows))
        assert not rows.calls[4.0]  # the calls are not weighed without their part
