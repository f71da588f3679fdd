"""The think-time figures shared by the searches' measurements (``python -m ... measure``)."""

from __future__ import annotations

import json

import pytest

from tenpai.search.choice import DecisionStat
from tenpai.search.measure import searched_figures


def _stat(searched: bool, cpu: float = 0.0, changed: bool = False) -> DecisionStat:
    return DecisionStat(searched, cpu, cpu, 2 if searched else 0, 2, changed)


def test_figures_count_only_searched_decisions() -> None:
    log = [_stat(False), _stat(True, 0.1), _stat(True, 0.3, changed=True), _stat(False),
           _stat(True, 0.2)]
    assert searched_figures(log) == {
        "decisions": 5,
        "searched": 3,
        "searched_share": 0.6,
        "changed_share_of_searched": 0.333,
        "cpu_per_searched_median_s": 0.2,
        "cpu_per_searched_p90_s": 0.28,
        "cpu_per_searched_p99_s": 0.298,
    }


def test_figures_of_a_log_without_a_search_are_zero() -> None:
    figures = searched_figures([_stat(False), _stat(False)])
    assert figures["searched"] == 0 and figures["searched_share"] == 0.0
    assert figures["changed_share_of_searched"] == 0.0
    assert figures["cpu_per_searched_median_s"] == figures["cpu_per_searched_p99_s"] == 0.0
    assert searched_figures([])["decisions"] == 0


@pytest.mark.parametrize(("module", "own"), [
    ("tenpai.search.measure", ["worlds_median", "solo_leaf_share_of_searched",
                               "weigh_cpu_median_ms", "effective_worlds_median",
                               "call_offers", "call_offers_searched", "call_offers_changed"]),
    ("tenpai.mcts.pg_measure", ["simulations_median"]),
])
def test_each_measurement_prints_the_shared_figures_and_its_own(
        module: str, own: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    import importlib

    importlib.import_module(module).main(["--games", "0", "--seed", "5"])
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["games", "seed", "preset", "agent", "decisions", "searched",
                         "searched_share", "changed_share_of_searched", "cpu_per_searched_median_s",
                         "cpu_per_searched_p90_s", "cpu_per_searched_p99_s", *own,
                         "cpu_seconds_total"]
    assert (out["games"], out["seed"], out["decisions"]) == (0, 5, 0)
    assert all(out[k] == 0.0 for k in own)


def test_the_mcr_measurement_prints_the_shared_figures(
        capsys: pytest.CaptureFixture[str]) -> None:
    from tenpai.search.mcr.measure import main

    main(["--games", "0", "--seed", "5"])
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["games", "hands", "seed", "preset", "agent", *searched_figures([]),
                         "worlds_median", "worlds_p10_p90", "cpu_seconds_games",
                         "playout_cpu_ms", "playout_cpu_ms_median", "playouts_timed"]
    assert (out["games"], out["hands"], out["preset"], out["decisions"]) == (0, 0, "botzone", 0)


def test_the_mcr_measurement_reports_the_weighted_pools_effective_size(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from tenpai.search.mcr.measure import main

    monkeypatch.setenv("TENPAI_SEARCH_MCR_WORLDS_MODE", "speed")
    monkeypatch.setenv("TENPAI_SEARCH_MCR_WORLDS", "2")
    monkeypatch.setenv("TENPAI_SEARCH_MCR_POOL", "3")
    monkeypatch.setenv("TENPAI_SEARCH_MCR_CLOCK", "cpu")
    main(["--games", "0", "--seed", "5"])
    assert json.loads(capsys.readouterr().out)["effective_pool_median_p10_p90"] == []
    main(["--games", "1", "--seed", "5"])
    median, low, high = json.loads(capsys.readouterr().out)["effective_pool_median_p10_p90"]
    assert 1.0 <= low <= median <= high <= 6.0


def test_the_mcr_measurement_with_compiled_playouts_reports_the_world_costs(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """With a compiled policy the measure adds how candidates started and the world costs
    both ways, also when no game is played (it once read the last game's agent)."""
    from tenpai.search.mcr import compiled
    from tenpai.search.mcr.measure import main

    if not compiled.available():
        pytest.skip("the compiled MCR rollout core is not built")
    monkeypatch.setenv("TENPAI_SEARCH_MCR_POLICY", "c:greedy")
    monkeypatch.setenv("TENPAI_SEARCH_MCR_WORLDS", "2")
    monkeypatch.setenv("TENPAI_SEARCH_MCR_CLOCK", "cpu")
    main(["--games", "0", "--seed", "5"])
    out = json.loads(capsys.readouterr().out)
    assert out["candidate_playouts_exported_copied"] == [0, 0]
    assert set(out["world_cpu_ms_exported_copied"]) == {"exported", "copied"}
    assert "c:greedy-fold" in out["playout_cpu_ms"]
    main(["--games", "1", "--seed", "5"])
    out = json.loads(capsys.readouterr().out)
    exported, _copied = out["candidate_playouts_exported_copied"]
    assert exported > 0 and out["world_cpu_ms_exported_copied"]["exported"]["positions"] > 0


def test_call_offer_figures_count_the_offers_the_search_met() -> None:
    from tenpai.search.measure import call_offer_figures

    log = [DecisionStat(False, 0, 0, 0, 1, False, call_offer=True),
           DecisionStat(True, 0.1, 0.1, 2, 2, True, call_offer=True),
           DecisionStat(True, 0.1, 0.1, 2, 2, False, call_offer=True),
           DecisionStat(True, 0.1, 0.1, 2, 3, True)]
    assert call_offer_figures(log) == {"call_offers": 3, "call_offers_searched": 2,
                                       "call_offers_changed": 1}
