"""The race's survival fit (``tenpai.bench.mcr_race_survival``) on a small seeded arena run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenpai.arena.store import ResultsStore
from tenpai.bench.mcr_race_survival import (
    HandEnd,
    fit_hazard,
    kaplan_meier,
    log_likelihood,
    main,
    read_ends,
)
from tenpai.bench.mcr_score_breakdown import read_run
from tenpai.rules.mcr.plan.race import check_table


@pytest.fixture
def run_db(mcr_planner_run: Path) -> Path:
    return mcr_planner_run


def test_the_ends_are_the_runs_hands(run_db: Path) -> None:
    ends = read_ends(str(run_db), "planner")
    assert len(ends) == 12
    # another seat won exactly where the breakdown sees the planner lose a hand to a win
    lost = [h for h in read_run(str(run_db)) if h.row.agent == "planner"
            and h.source in ("dealt in", "another's self-draw", "another's win off a third seat")]
    assert sum(e.other_won for e in ends) == len(lost) > 0
    store = ResultsStore(str(run_db))
    try:
        won = sum(r.wins for r in store.seat_rows() if r.agent == "planner")
    finally:
        store.close()
    assert sum(not e.other_won for e in ends) >= won
    assert all(0 <= e.draws <= 21 for e in ends)


def test_kaplan_meier_worked_by_hand() -> None:
    # 4 hands: another seat wins before draw 2 and before draw 3; one censored at draw 2;
    # one censored at draw 3
    ends = [HandEnd(1, True), HandEnd(2, True), HandEnd(2, False), HandEnd(3, False)]
    rows = kaplan_meier(ends)
    assert [(j, risk, deaths) for j, risk, deaths, _h, _s in rows] == [
        (1, 4, 0), (2, 4, 1), (3, 2, 1)]
    assert rows[1][4] == pytest.approx(3 / 4)
    assert rows[2][4] == pytest.approx(3 / 4 * 1 / 2)


def test_the_fit_maximises_the_likelihood(run_db: Path) -> None:
    ends = read_ends(str(run_db), "planner")
    a = fit_hazard(ends)
    assert a > 0
    best = log_likelihood(ends, a)
    for step in (0.9, 0.99, 1.01, 1.1):
        assert log_likelihood(ends, a * step) <= best
    assert fit_hazard([HandEnd(5, False)]) == 0.0


def test_the_printed_table_is_a_survival_table(run_db: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    main([str(run_db)])
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("BOTS_SURVIVAL = "))
    table = tuple(float(v) for v in line.split("= ", 1)[1].strip("()").split(", "))
    check_table(table)
    rows = kaplan_meier(read_ends(str(run_db), "planner"))
    alive = [r[4] for r in rows if r[4] >= 5e-4]
    assert len(table) == len(alive) + 1 and len(alive) <= len(rows)
    assert table[-1] == pytest.approx(alive[-1], abs=5e-4)
