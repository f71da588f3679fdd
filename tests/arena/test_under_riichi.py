"""Play under another seat's riichi: folding (hand breaks) and deal-ins, counted from events."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenpai.arena.under_riichi import UnderRiichi, tally_game

from .helpers import arena_app, run_cli

TENPAI_HAND = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "1p", "2p", "3p"]
LOOSE = ["1s", "4s", "7s", "E", "S", "W", "N", "2p", "5p", "8p", "3m", "6m", "9m"]


def _lines(*events: dict[str, object]) -> list[str]:
    return [json.dumps(e) for e in events]


HAND = _lines(
    {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
     "dora_marker": "9s", "scores": [25000] * 4,
     "tehais": [LOOSE, TENPAI_HAND, TENPAI_HAND, LOOSE]},
    {"type": "tsumo", "actor": 0, "pai": "F"},
    {"type": "dahai", "actor": 0, "pai": "F", "tsumogiri": True},     # no riichi yet
    {"type": "tsumo", "actor": 1, "pai": "9s"},
    {"type": "reach", "actor": 1},
    {"type": "dahai", "actor": 1, "pai": "9s", "tsumogiri": True},
    {"type": "reach_accepted", "actor": 1},
    {"type": "tsumo", "actor": 2, "pai": "8s"},
    {"type": "dahai", "actor": 2, "pai": "1m", "tsumogiri": False},    # breaks a ready hand
    {"type": "tsumo", "actor": 3, "pai": "C"},
    {"type": "dahai", "actor": 3, "pai": "C", "tsumogiri": True},     # keeps its shanten
    {"type": "tsumo", "actor": 0, "pai": "4p"},
    {"type": "dahai", "actor": 0, "pai": "4p", "tsumogiri": True},     # dealt in
    {"type": "hora", "actor": 1, "target": 0, "pai": "4p"},
)


def test_threatened_discards_breaks_and_deal_ins_are_counted_per_seat() -> None:
    seats = {s: UnderRiichi(name) for s, name in enumerate("abcd")}
    tally_game(HAND, seats)
    got = {u.agent: (u.discards, u.threatened, u.breaks, u.deal_ins) for u in seats.values()}
    # a: one discard before the riichi, one after that was won on; b declared (never
    # threatened by itself); c broke its ready hand; d threw its draw back.
    assert got == {"a": (2, 1, 0, 1), "b": (1, 0, 0, 0), "c": (1, 1, 1, 0),
                   "d": (1, 1, 0, 0)}
    assert seats[2].as_dict()["break_rate"] == 1.0
    assert seats[1].as_dict()["break_rate"] is None


def test_a_discard_passed_by_a_call_is_not_a_deal_in_later() -> None:
    seats = {s: UnderRiichi(name) for s, name in enumerate("abcd")}
    called = HAND[:-2] + _lines(
        {"type": "dahai", "actor": 0, "pai": "4p", "tsumogiri": True},
        {"type": "tsumo", "actor": 1, "pai": "P"},
        {"type": "dahai", "actor": 1, "pai": "P", "tsumogiri": True},
        {"type": "hora", "actor": 2, "target": 1, "pai": "P"},
    )
    tally_game(called, seats)
    assert [u.deal_ins for u in seats.values()] == [0, 0, 0, 0]  # b was in riichi itself


def test_reports_and_pools_carry_the_counts(tmp_path: Path) -> None:
    app = arena_app()
    db = tmp_path / "a.db"
    played = run_cli(app, "arena", "--agents", "efficiency,defensive,efficiency,defensive",
                     "--games", "4", "--seed", "5", "--db", str(db), "--workers", "1",
                     "--no-progress")
    assert played.exit_code == 0, played.output
    pooled = run_cli(app, "arena-pool", str(db), "--under-riichi", "--json")
    assert pooled.exit_code == 0, pooled.output
    rows = {r["agent"]: r for r in json.loads(pooled.stdout)["under_riichi"]}
    assert set(rows) == {"efficiency", "defensive"}
    for r in rows.values():
        assert 0 < r["threatened"] < r["discards"]
        assert 0 <= r["breaks"] <= r["threatened"] and 0 <= r["deal_ins"] <= r["threatened"]
    text = run_cli(app, "arena-pool", str(db), "--under-riichi")
    assert "under another's riichi" in text.stdout
    plain = json.loads(run_cli(app, "arena-pool", str(db), "--json").stdout)
    assert "under_riichi" not in plain


def test_the_report_gets_a_play_under_riichi_table(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    app = arena_app()
    db, out = tmp_path / "a.db", tmp_path / "report"
    assert run_cli(app, "arena", "--agents", "efficiency,random,efficiency,random",
                   "--games", "4", "--seed", "2", "--db", str(db), "--workers", "1",
                   "--no-progress").exit_code == 0
    done = run_cli(app, "arena-report", "--db", str(db), "--out", str(out), "--under-riichi")
    assert done.exit_code == 0, done.output
    md = (out / "report.md").read_text()
    assert "## Play under riichi" in md and "| efficiency |" in md
