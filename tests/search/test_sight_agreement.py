"""The sight-agreement tool: how often a fair search chooses what the sighted search chooses."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.search.sight_agreement import (
    OTHER,
    SIGHTED,
    Decision,
    WorldModel,
    compare,
    main,
    mean_interval,
    parse_models,
    summarise,
    table_state,
    wilson,
)

SMALL = ["--games", "1", "--seed", "3", "--worlds", "4", "--max-decisions", "6",
         "--judge-worlds", "4"]


def _run(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    pytest.importorskip("torch")
    main([*SMALL, *extra])
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _consistent(m: dict[str, Any], out: dict[str, Any]) -> None:
    n, moved = out["decisions"], out["sighted"]["changes"]
    assert 0 <= m["recovered"] <= min(moved, m["agreeing"], m["changes"])
    # a disagreement needs one side to leave the prior's choice
    assert n - m["agreeing"] <= moved + m["changes"]
    # the agreements where the sighted search keeps the prior's choice are the model keeping it
    assert (n - moved) - (m["agreeing"] - m["recovered"]) <= m["changes"]
    for share in ("agreement", "changed"):
        assert 0.0 <= m[share] <= 1.0
    assert m["agreement"] == round(m["agreeing"] / n, 3)
    low, high = m["agreement_interval"]
    assert 0.0 <= low <= m["agreement"] <= high <= 1.0
    if moved:
        assert m["recovered_changes"] == round(m["recovered"] / moved, 3)
    else:
        assert m["recovered_changes"] is None and m["recovered_changes_interval"] is None


def test_a_small_run_prints_one_json_object_with_consistent_counts(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "--models", "uniform,read+waits")
    assert out["decisions"] == 6
    assert set(out["models"]) == {"uniform", "read+waits"}
    assert 0.0 <= out["sighted"]["changed"] <= 1.0
    for m in (*out["models"].values(), out[OTHER]):
        _consistent(m, out)
        assert m["cpu_per_decision_median_s"] >= 0.0
    assert "sight=hands" in out["agent"]
    # the judge values every side; the second model is also compared with the first
    for side in (out["sighted"], out[OTHER], *out["models"].values()):
        gain = side["value_gain"]
        assert gain["low"] <= gain["mean"] <= gain["high"]
    assert "value_gain_minus_first" not in out["models"]["uniform"]
    assert "value_gain_minus_first" in out["models"]["read+waits"]


def test_a_model_s_own_settings_change_its_search(capsys: pytest.CaptureFixture[str]) -> None:
    """``uniform+Z=0`` leaves the prior's choice on any gain, so at least as often as the
    default bar; ``uniform+WORLDS=…`` plays its own number of worlds."""
    out = _run(capsys, "--models", "uniform,uniform+Z=0,uniform+WORLDS=2,uniform+TOPK=6+Z=0")
    m = out["models"]
    assert m["uniform+Z=0"]["changes"] >= m["uniform"]["changes"]
    assert set(m) == {"uniform", "uniform+Z=0", "uniform+WORLDS=2", "uniform+TOPK=6+Z=0"}
    # a side choosing beyond the judge's top 3 is still judged
    assert m["uniform+TOPK=6+Z=0"]["value_gain"]["mean"] is not None


def test_progress_goes_to_stderr_unless_turned_off(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("torch")
    monkeypatch.setenv("TENPAI_PROGRESS_SECONDS", "0")
    main([*SMALL, "--models", "uniform", "--no-floor", "--judge-worlds", "0"])
    got = capsys.readouterr()
    assert json.loads(got.out)["decisions"] == 6
    assert "searched decisions" in got.err and "6" in got.err.strip().splitlines()[-1]
    main([*SMALL, "--models", "uniform", "--no-floor", "--judge-worlds", "0", "--no-progress"])
    assert capsys.readouterr().err == ""


def test_the_run_is_deterministic_and_the_floor_can_be_skipped(
        capsys: pytest.CaptureFixture[str]) -> None:
    def figures(out: dict[str, Any]) -> object:
        return {k: {f: v for f, v in m.items() if not f.startswith("cpu")}
                for k, m in out["models"].items()}

    one = _run(capsys, "--models", "uniform")
    two = _run(capsys, "--models", "uniform", "--no-floor")
    assert OTHER not in two
    assert figures(one) == figures(two)
    assert one["sighted"]["changes"] == two["sighted"]["changes"]


def test_a_twin_of_the_reference_agrees_everywhere_and_the_table_is_left_as_found() -> None:
    pytest.importorskip("torch")
    from tenpai.search.agent import SearchAgent
    from tenpai.search.prior_searcher import pg_prior
    from tenpai.search.searched_decisions import searched_decisions
    from tenpai.search.settings import SearchSettings

    settings = dataclasses.replace(SearchSettings(), budget_ms=1e9, worlds=4, sight="hands")
    prior = pg_prior(5)
    agents = {SIGHTED: SearchAgent(prior, settings=settings, seed=5),
              "twin": SearchAgent(prior, settings=settings, seed=5)}
    rows = [compare(agents, table, seat, pa, i) for i, (table, seat, pa)
            in enumerate(searched_decisions(agents[SIGHTED], 1, 5, 4))]
    assert len(rows) == 4
    assert all(r.same["twin"] and r.changed["twin"] == r.changed[SIGHTED] for r in rows)
    assert [len(a.log) for a in agents.values()] == [4, 4]
    assert all(s.searched for a in agents.values() for s in a.log)


def test_the_figures_of_a_few_decisions() -> None:
    def row(same: bool, model_moved: bool, sighted_moved: bool) -> Decision:
        return Decision({SIGHTED: True, "m": same}, {SIGHTED: sighted_moved, "m": model_moved},
                        {SIGHTED: 0.5, "m": 0.25})

    rows = [row(True, True, True),      # recovered
            row(False, False, True),    # a change missed
            row(False, True, False),    # a change of its own
            row(True, False, False)]    # both keep the prior's choice
    s = summarise(rows, ["m"])
    assert s["decisions"] == 4
    assert s["sighted"] == {"changed": 0.5, "changes": 2, "cpu_per_decision_median_s": 0.5}
    m = s["models"]["m"]
    assert (m["agreement"], m["agreeing"], m["recovered_changes"], m["recovered"]) == (
        0.5, 2, 0.5, 1)
    assert (m["changed"], m["changes"], m["cpu_per_decision_median_s"]) == (0.5, 2, 0.25)
    assert OTHER not in s
    empty = summarise([], ["m"])
    assert empty["decisions"] == 0 and empty["models"]["m"]["agreement"] is None


def test_the_judge_s_figures_are_paired_with_the_first_model() -> None:
    def row(m: float, n: float) -> Decision:
        return Decision({SIGHTED: True, "m": True, "n": True},
                        {SIGHTED: False, "m": False, "n": False},
                        {SIGHTED: 0.0, "m": 0.0, "n": 0.0}, {SIGHTED: 1.0, "m": m, "n": n})

    rows = [row(0.0, 1.0), row(2.0, 2.0), row(4.0, 6.0)]
    rows = [dataclasses.replace(r, state=st) for r, st in zip(rows, ("deal-in", "quiet", "quiet"))]
    s = summarise(rows, ["m", "n"])
    assert s["sighted"]["value_gain"] == {
        "mean": 1.0, "low": 1.0, "high": 1.0,
        "by_state": {"deal-in": {"decisions": 1, "mean": 1.0},
                     "quiet": {"decisions": 2, "mean": 1.0}}}
    assert s["models"]["n"]["value_gain"]["by_state"]["quiet"] == {"decisions": 2, "mean": 4.0}
    assert s["models"]["m"]["value_gain"]["mean"] == 2.0
    assert "value_gain_minus_first" not in s["models"]["m"]
    assert s["models"]["n"]["value_gain_minus_first"] == mean_interval([1.0, 0.0, 2.0])
    # no judge, no figures
    plain = summarise([Decision({SIGHTED: True}, {SIGHTED: False}, {SIGHTED: 0.0})], [])
    assert "value_gain" not in plain["sighted"]


def test_the_table_state_reads_the_real_hands() -> None:
    """A discard on a ready opponent's real wait is ``deal-in`` (outside riichi only with a
    yaku to win by ron, and never on its own river); any other discard is ``riichi`` or
    ``quiet`` by the declarations; a riichi declaration is ``other``."""
    from tenpai.engine.snapshot import clone

    from .helpers import decisions, tile, tiles

    ready = list(tiles("2m", "3m", "4m", "4p", "5p", "6p", "6s", "7s", "8s", "5s", "5s",
                       "6p", "7p"))  # all simples, waits 5p and 8p
    no_yaku = list(tiles("1m", "1m", "1m", "4p", "5p", "6p", "6s", "7s", "8s", "E", "E",
                         "6p", "7p"))  # the same waits, no yaku without riichi (not pinfu)
    for rnd, d in decisions(3, limit=400):
        if rnd.phase != "act" or rnd.turn != d.seat or len(rnd.rivers[d.seat]) < 3:
            continue
        seat = d.seat
        o = next((x for x in range(rnd.players) if x != seat and not rnd.melds[x]
                  and not rnd.riichi[x]), None)
        river = {T.kind_of(t) for t in rnd.rivers[o]} if o is not None else set()
        wait = next((w for w in ("5p", "8p") if T.kind_of(tile(w)) not in river), None)
        if o is None or wait is None or any(rnd.riichi):
            continue
        table = clone(rnd)
        table.hands[o] = list(ready)
        table.counts[o] = T.counts34(ready)
        on_wait = Event("dahai", actor=seat, pai=tile(wait))
        elsewhere = Event("dahai", actor=seat, pai=tile("E"))
        assert table_state(table, seat, on_wait) == "deal-in"
        assert table_state(table, seat, elsewhere) == "quiet"
        assert table_state(table, seat, Event("reach", actor=seat)) == "other"
        table.hands[o] = list(no_yaku)
        table.counts[o] = T.counts34(no_yaku)
        assert table_state(table, seat, on_wait) == "quiet"
        table.riichi[o] = True
        assert table_state(table, seat, on_wait) == "deal-in"
        assert table_state(table, seat, elsewhere) == "riichi"
        return
    raise AssertionError("no decision to build the table on")


def test_mean_intervals() -> None:
    got = mean_interval([1.0, 2.0, 3.0])
    assert got["mean"] == 2.0
    assert got["high"] == pytest.approx(2.0 + 1.96 / 3 ** 0.5, abs=1e-4)
    assert mean_interval([5.0]) == {"mean": 5.0, "low": None, "high": None}
    assert mean_interval([]) == {"mean": None, "low": None, "high": None}


def test_wilson_intervals() -> None:
    assert wilson(0, 0) is None
    low, high = wilson(5, 10) or (0.0, 0.0)
    assert low < 0.5 < high and low == pytest.approx(1 - high, abs=1e-3)
    assert wilson(10, 10) == (0.722, 1.0)
    assert wilson(0, 10) == (0.0, 0.278)


def test_models_are_parsed() -> None:
    assert parse_models("uniform, read+waits,shaped") == [
        WorldModel("uniform", False), WorldModel("read", True), WorldModel("shaped", False)]
    assert [m.name for m in parse_models("read+waits")] == ["read+waits"]
    assert parse_models("uniform+dealin-riichi,shaped+dealin-all+waits") == [
        WorldModel("uniform", False, "riichi"), WorldModel("shaped", True, "all")]
    assert [m.name for m in parse_models("shaped+dealin-quiet+waits")] == [
        "shaped+waits+dealin-quiet"]
    z = parse_models("uniform+Z=0.5+WORLDS=8")[0]
    assert z == WorldModel("uniform", False, "worlds", (("Z", "0.5"), ("WORLDS", "8")))
    assert z.name == "uniform+Z=0.5+WORLDS=8"


@pytest.mark.parametrize(("flag", "message"), [
    (["--models", "uniform,psychic"], "unknown world model 'psychic': each is one of uniform, "
                                      "shaped, read"),
    (["--models", "read,read"], "world model 'read' named twice"),
    (["--models", "uniform+dealin-all+dealin-quiet"],
     "unknown world model 'uniform+dealin-all+dealin-quiet'"),
    (["--models", "uniform+dealin-worlds"], "unknown world model 'uniform+dealin-worlds'"),
    (["--models", "uniform+SIGHT=hands"], "SIGHT is not a setting a side may change here"),
    (["--models", "uniform+NOPE=1"], "NOPE is not a setting a side may change here"),
    (["--models", "uniform+Z=1+Z=2"], "sets a setting twice"),
    (["--models", "uniform+Z=-1"], "TENPAI_SEARCH_Z must be"),
    (["--models", "uniform+fast"], "unknown world model 'uniform+fast'"),
    (["--models", ""], "unknown world model ''"),
    (["--worlds", "0"], "argument --worlds: must be at least 1, got 0"),
])
def test_bad_arguments_are_one_line_and_exit_2(flag: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(flag)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and err[-1].startswith("python -m tenpai.search.sight_agreement: ")


def test_a_bad_setting_in_the_environment_exits_2(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TENPAI_SEARCH_RIICHI_READY", "0")
    with pytest.raises(SystemExit) as stop:
        main(["--models", "uniform+waits"])
    assert stop.value.code == 2
    assert "TENPAI_SEARCH_READ_WAITS=1" in capsys.readouterr().err
