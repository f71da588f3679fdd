"""Issue 39, item 6 (part): records ``tenpai replay`` passed that it must reject.

One unknown yaku name among known ones used to switch the whole yaku comparison off, so a win
claiming ``立直`` and ``bogus`` instead of ``混一色`` passed (mjai, and tenhou.net/6 with
``Bogus(1飜)``).  An unknown name among known ones is now a divergence naming it.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tenpai.cli.main import app

G = "riichi/tenhou_mjlog/mjx-project_mjx/tests_py/2010081709gm-00a9-0000-fe3371ad.mjlog"


def _convert(data_dir: Path, out: Path, fmt: str) -> str:
    res = CliRunner().invoke(app, ["convert", str(data_dir / G), str(out), "--format", fmt])
    assert res.exit_code == 0, res.output
    return out.read_text(encoding="utf-8")


def _replay(path: Path) -> tuple[int, str]:
    res = CliRunner().invoke(app, ["replay", str(path)])
    return res.exit_code, res.output


def test_an_unknown_yaku_in_mjai_is_rejected(data_dir: Path, tmp_path: Path) -> None:
    text = _convert(data_dir, tmp_path / "g.mjson", "mjai")
    assert _replay(tmp_path / "g.mjson")[0] == 0
    assert text.count('["混一色",2]') == 1
    bad = tmp_path / "bogus.mjson"
    bad.write_text(text.replace('["混一色",2]', '["立直",1],["bogus",1]'), encoding="utf-8")
    code, out = _replay(bad)
    assert code == 1, out
    assert "unknown yaku 'bogus'" in out


def test_an_unknown_yaku_in_tenhou6_is_rejected(data_dir: Path, tmp_path: Path) -> None:
    text = _convert(data_dir, tmp_path / "g.json", "tenhou6")
    assert _replay(tmp_path / "g.json")[0] == 0
    assert text.count('"混一色(2飜)"') == 1
    bad = tmp_path / "bogus.json"
    bad.write_text(text.replace('"混一色(2飜)"', '"立直(1飜)","Bogus(1飜)"'), encoding="utf-8")
    code, out = _replay(bad)
    assert code == 1, out
    assert "unknown yaku" in out and "Bogus" in out


def test_a_duplicated_physical_tile_in_mjlog_is_rejected(data_dir: Path, tmp_path: Path) -> None:
    """``sed 's|<V0/><F0/>|<V1/><F1/>|'`` on the mjlog of G: seat 2 draws tile id 1, a copy
    already in play; the kinds match (both 1m), so the replay alone let it through."""
    text = (data_dir / G).read_text(encoding="utf-8")
    assert "<V0/><F0/>" in text
    bad = tmp_path / "dup.mjlog"  # sed on the one-line file replaces the first occurrence
    bad.write_text(text.replace("<V0/><F0/>", "<V1/><F1/>", 1), encoding="utf-8")
    code, out = _replay(bad)
    assert code == 1, out
    assert "physical tile 1" in out and "<V1>" in out


def test_a_tenhou6_pao_seat_out_of_range_is_rejected(data_dir: Path, tmp_path: Path) -> None:
    """A pao seat of 88 passed, and ``convert --to mjlog`` then wrote a file our own reader
    rejects; now the tenhou.net/6 reader refuses it, naming the win."""
    import json

    data = json.loads(_convert(data_dir, tmp_path / "g.json", "tenhou6"))
    win = next(r[-1] for r in data["log"] if r[-1][0] == "和了")
    win[2][2] = 88
    bad = tmp_path / "pao.json"
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, out = _replay(bad)
    assert code == 1, out
    assert "pao seat 88" in out


def test_a_fifth_copy_is_named_by_where_it_appears(data_dir: Path, tmp_path: Path) -> None:
    """The message said ``more copies of tile 8`` (an internal code); it now names the deal
    or draw and the tile in mjai notation."""
    import json

    lines = _convert(data_dir, tmp_path / "g.mjson", "mjai").splitlines()
    start = json.loads(lines[1])
    assert start["type"] == "start_kyoku"
    start["tehais"][1] = ["9m", *start["tehais"][1][1:]]
    start["tehais"][0] = ["9m"] * 4 + start["tehais"][0][4:]
    lines[1] = json.dumps(start, ensure_ascii=False)
    bad = tmp_path / "fifth.mjson"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = _replay(bad)
    assert code == 1, out
    flat = " ".join(out.split())
    assert "copy 5 of 9m" in flat and "deal" in flat and "tile 8" not in flat
