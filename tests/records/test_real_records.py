"""Real records: the third-party golden conversion, reference tenhou.net/6 files, truncation,
and the CI subset of round trips (mjlog → events → tenhou6 / mjai / mjlog → events)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tenpai import tiles as T
from tenpai.records import RecordTruncatedError, read_games
from tenpai.records.mjlog_read import read_mjlog
from tenpai.records.tenhou6_read import read_tenhou6
from tenpai.records.tenhou6_write import game_to_tenhou6

from .corpus import (
    TENHOU6_KNOWN,
    ci_subset,
    first_difference,
    tenhou6_view,
    via_mjai,
    via_mjlog,
    via_tenhou6,
)

pytestmark = pytest.mark.corpus

# golden field name → ours; the golden log calls a drawn game's kind "reason"
_GOLDEN_FIELDS = {"uradora_markers": "ura_markers", "reason": "kind"}
_GOLDEN_REASONS = {"fanpai": "exhaustive"}


def _sorted_hand(names: list[str]) -> list[str]:
    codes = [T.from_mjai(n) for n in names]
    return [T.to_mjai(t) for t in sorted(codes, key=lambda t: (T.kind_of(t), not T.is_red(t)))]


def test_gimite_golden_conversion(data_dir: Path) -> None:
    folder = data_dir / "riichi" / "tenhou_mjlog" / "gimite_mjai"
    ours = [e.to_mjai() for e in read_mjlog(folder / "test.mjlog").round_events()]
    lines = (folder / "test.mjlog.golden.log").read_text(encoding="utf-8").splitlines()
    raw = [json.loads(x) for x in lines if x.startswith("{")]
    golden: list[dict[str, Any]] = []
    for obj in raw:
        if obj["type"] in ("start_game", "end_game"):
            continue
        if obj["type"] == "haipai":  # the golden deals hands as separate events
            golden[-1].setdefault("tehais", [None] * 4)[obj["actor"]] = obj["pais"]
            continue
        golden.append(dict(obj))
    assert len(golden) == len(ours) == 1945
    compared = 0
    for i, (g, o) in enumerate(zip(golden, ours)):
        for key, value in g.items():
            mine = o.get(_GOLDEN_FIELDS.get(key, key))
            if key == "tehais":
                value = [_sorted_hand(h) for h in value]
            if key == "reason":
                value = _GOLDEN_REASONS.get(value, value)
            assert mine == value, f"event {i} field {key}: golden {value!r}, ours {mine!r}"
            compared += 1
    assert compared > 4000


def _pairs(data_dir: Path) -> list[tuple[Path, Path]]:
    r = data_dir / "riichi"
    out = []
    for j in sorted((r / "tenhou6_json" / "tsubakisakura_mjlog2json").glob("*.json")):
        out.append((r / "tenhou_mjlog" / "tsubakisakura_mjlog2json" / f"{j.stem}.xml", j))
    for j in sorted((r / "tenhou6_json" / "mjx-project_mjx" / "mjscore").glob("*.json")):
        out.append((r / "tenhou_mjlog" / "mjx-project_mjx" / "tests_py" / f"{j.stem}.mjlog", j))
    return out


def test_tenhou6_equals_reference_conversions(data_dir: Path) -> None:
    pairs = _pairs(data_dir)
    assert len(pairs) == 37
    for mjlog, ref in pairs:
        ours = game_to_tenhou6(read_mjlog(mjlog))
        theirs = [json.loads(x) for x in ref.read_text(encoding="utf-8").splitlines() if x]
        their_log = [r for obj in theirs for r in obj["log"]]
        assert ours["log"] == their_log, ref.name
        # fields both carry (names differ: the reference files were anonymised differently)
        assert ours["rule"]["disp"] == theirs[0]["rule"]["disp"]
        for key in ("dan", "rate", "sx", "sc"):
            if key in theirs[0]:
                assert ours[key] == theirs[0][key], (ref.name, key)


def test_reference_tenhou6_reads_like_the_mjlog(data_dir: Path) -> None:
    for mjlog, ref in _pairs(data_dir)[:8]:
        a = tenhou6_view(read_mjlog(mjlog).round_events())
        b = read_tenhou6(ref).round_events()
        assert a == b, ref.name


def test_truncated_records(data_dir: Path) -> None:
    folder = data_dir / "riichi" / "tenhou_mjlog" / "mjx-project_mjx" / "tests_py"
    full = read_mjlog(folder / "2011020401gm-00a9-0000-f6eff225.mjlog")
    for suffix, rounds in (("-no-game-end", len(full.rounds) - 1), ("-no-round-end", 7)):
        path = folder / f"2011020401gm-00a9-0000-f6eff225{suffix}.mjlog"
        with pytest.raises(RecordTruncatedError, match="truncated"):
            read_mjlog(path)
        lenient = read_mjlog(path, strict=False)
        assert lenient.truncated
        assert len(lenient.rounds) == rounds
        assert lenient.rounds == full.rounds[:rounds]


def test_ci_round_trips(data_dir: Path) -> None:
    files = ci_subset(data_dir)
    assert len(files) > 150
    failures = []
    for path in files:
        game = read_mjlog(path, strict=False)
        for name, conv in (("mjai", via_mjai), ("mjlog", via_mjlog)):
            diff = first_difference(game.rounds, conv(game).rounds)
            if diff:
                failures.append(f"{path.name} via {name}: {diff}")
        if path.name in TENHOU6_KNOWN:
            continue
        back = via_tenhou6(game)
        diff = first_difference(
            [tenhou6_view(r) for r in game.rounds], [tenhou6_view(r) for r in back.rounds]
        )
        if diff:
            failures.append(f"{path.name} via tenhou6: {diff}")
    assert not failures, "\n".join(failures[:10])


def test_index_counts_agree(data_dir: Path) -> None:
    """games_index.csv counts rounds, discards, wins and draws; ours must agree."""
    import csv

    root = data_dir / "riichi" / "tenhou_mjlog"
    with (root / "games_index.csv").open(encoding="utf-8") as fh:
        rows = {r["file"]: r for r in csv.DictReader(fh)}
    for path in ci_subset(data_dir)[:60]:
        row = rows[str(path.relative_to(root))]
        game = read_mjlog(path, strict=False)
        evs = game.round_events()
        assert sum(e.type == "dahai" for e in evs) <= int(row["discards"])
        assert sum(e.type == "hora" for e in evs) == int(row["agari"]), path.name
        assert sum(e.type == "ryukyoku" for e in evs) == int(row["ryuukyoku"]), path.name


def test_tenhou6_edge_case_files(data_dir: Path) -> None:
    folder = data_dir / "riichi" / "tenhou6_json" / "Equim-chan_mjai-reviewer"
    double = read_tenhou6(folder / "double_ron.json").rounds[0]
    assert [e.type for e in double[-3:]] == ["hora", "hora", "end_kyoku"]
    chankan = read_tenhou6(folder / "chankan.json").rounds[0]
    assert [e.type for e in chankan[-3:]] == ["kakan", "hora", "end_kyoku"]
    assert chankan[-2].pai == chankan[-3].pai
    kyushu = read_tenhou6(folder / "kyushukyuhai.json").rounds[0]
    assert kyushu[-2].kind == "nine_terminals" and kyushu[-2].tehais
    four = read_tenhou6(folder / "four_reach.json").rounds[0]
    assert four[-2].kind == "four_riichi"
    for name in ("suukantsu_0.json", "suukantsu_1.json", "rinshan.json",
                 "double_kakan_then_chankan.json", "complex_nakis_0.json", "ranked_game.json"):
        game = read_tenhou6(folder / name)
        assert game.rounds and all(r[-1].type == "end_kyoku" for r in game.rounds)


def test_mjai_files(data_dir: Path) -> None:
    files = sorted(
        p for p in (data_dir / "riichi" / "mjai").rglob("*")
        if p.is_file() and p.suffix not in (".md", ".tsv")
    )
    assert len(files) == 7
    for path in files:
        (game,) = read_games(path)
        assert game.rounds
        back = via_mjai(game)
        assert first_difference(game.rounds, back.rounds) is None, path.name


def test_three_player_and_pao(data_dir: Path) -> None:
    folder = data_dir / "riichi" / "tenhou_mjlog" / "dnovikoff_tenhou" / "log_test_data"
    sanma = read_mjlog(folder / "sanma2.xml")
    assert sanma.players == 3
    assert all(len(r[0].tehais) == 3 for r in sanma.rounds)
    assert any(e.type == "nukidora" for e in sanma.round_events())
    pao = read_mjlog(folder / "pao.xml")
    assert any(e.type == "hora" and e.pao == 0 for e in pao.round_events())
    bye = read_mjlog(folder / "bye.xml")
    assert bye.extra["disconnects"] and bye.extra["reconnects"]
    old = read_mjlog(folder / "shuffle.xml")
    assert "init_shuffle" in old.extra
