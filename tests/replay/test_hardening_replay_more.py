"""Issue 39, item 6 (the rest): records ``tenpai replay`` passed that it must reject or report.

A Botzone text file cut short lost its last match without a word (``games 15, passed 15`` for a
file of 16 matches): a verification that silently checks less than the file holds overstates
what was verified, so the cut-off match is now counted as skipped, with the reason and where.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.cli.main import app

BOTZONE = "mcr/botzone_text/lawlorentz_Chinese-Standard-Mahjong-Simulate/sample.txt"


def _replay_json(path: Path, *extra: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    res = CliRunner().invoke(app, ["replay", str(path), "--json", *extra])
    return res.exit_code, json.loads(res.output[res.output.index("{"):])


def test_a_botzone_file_cut_short_reports_its_last_match(data_dir: Path, tmp_path: Path) -> None:
    lines = (data_dir / BOTZONE).read_text(encoding="utf-8").splitlines()
    assert sum(1 for x in lines if x.startswith("Match")) == 16
    cut = tmp_path / "cut.txt"
    cut.write_text("\n".join(lines[:-8]) + "\n", encoding="utf-8")
    code, out = _replay_json(cut, "--rules", "mcr")
    assert code == 0, out  # skipped, not failed: the 15 complete matches do replay
    assert out["games"] == 16, out
    assert out["passed"] == 15 and out["skipped"] == 1, out
    (reason,) = out["skip_reasons"]
    assert "truncated" in reason
    (detail,) = out["skipped_details"]
    assert detail["game"].endswith("#16") and "Score" in detail["error"], detail


G = "riichi/tenhou_mjlog/mjx-project_mjx/tests_py/2010081709gm-00a9-0000-fe3371ad.mjlog"
SHOWN = '["7m","8m","4p","5p","6p","8p","8p","2s","3s","4s","4s","5s","6s"]'
NINE_GATES = '["1m","1m","1m","2m","3m","4m","5m","6m","7m","8m","9m","9m","9m"]'


def test_a_hand_shown_at_a_draw_must_be_the_engines(data_dir: Path, tmp_path: Path) -> None:
    """Tenpai hands shown at an exhaustive draw were never compared: nine gates shown in place
    of seat 1's real hand passed (the payments are the same for any tenpai hand)."""
    g = tmp_path / "g.mjson"
    res = CliRunner().invoke(app, ["convert", str(data_dir / G), str(g), "--format", "mjai"])
    assert res.exit_code == 0, res.output
    text = g.read_text(encoding="utf-8")
    assert _replay_json(g)[1]["passed"] == 1
    assert text.count(SHOWN) == 1
    bad = tmp_path / "gates.mjson"
    bad.write_text(text.replace(SHOWN, NINE_GATES), encoding="utf-8")
    code, out = _replay_json(bad)
    assert code == 1 and out["passed"] == 0, out
    (failure,) = out["failures"]
    assert "ryukyoku" in failure["error"] and "seat 1" in failure["error"], failure
    assert "1112345678999m" in failure["error"], failure


def _fragment(data_dir: Path, tmp_path: Path, **header: object) -> Path:
    """The first round of G alone (a one-round fragment), its start_kyoku changed by header."""
    g = tmp_path / "g.mjson"
    res = CliRunner().invoke(app, ["convert", str(data_dir / G), str(g), "--format", "mjai"])
    assert res.exit_code == 0, res.output
    objs = [json.loads(x) for x in g.read_text(encoding="utf-8").splitlines()]
    end = next(i for i, o in enumerate(objs) if o["type"] == "end_kyoku")
    frag = [o for o in objs[: end + 1] if o["type"] != "start_game"]
    frag[0].update(header)
    out = tmp_path / "frag.mjson"
    out.write_text("\n".join(json.dumps(o, ensure_ascii=False) for o in frag) + "\n",
                   encoding="utf-8")
    return out


@pytest.mark.parametrize(
    ("header", "field"),
    [
        ({"scores": [10**12, 25000, 25000, 25000]}, "scores"),
        ({"scores": [25000.5, 25000, 25000, 25000]}, "scores"),
        ({"oya": 7}, "oya"),
        ({"kyotaku": 94}, "kyotaku"),
        ({"honba": -1}, "honba"),
        ({"kyoku": 9}, "kyoku"),
    ],
)
def test_a_fragments_impossible_header_is_refused(
    data_dir: Path, tmp_path: Path, header: dict[str, object], field: str
) -> None:
    """A one-round fragment's start_kyoku was taken on trust: scores of 1e12 or 25000.5, dealer
    seat 7 or 94 deposits replayed (or failed later as an internal error)."""
    assert _replay_json(_fragment(data_dir, tmp_path))[1]["failures"] == []
    code, out = _replay_json(_fragment(data_dir, tmp_path, **header))
    assert code == 1, out
    (failure,) = out["failures"]
    assert f"start_kyoku {field}" in failure["error"] and "line 1" in failure["error"], failure


AKOCHAN = "riichi/mjai/critter-mj_akochan/haifu_log_1000_0.json"


def test_akochan_hora_scores_must_be_the_engines(data_dir: Path, tmp_path: Path) -> None:
    """akochan's mjai wins carry the scores after the win and no deltas; they were not compared,
    so a first win moving 1,000 points from seat 2 to seat 1 passed."""
    objs = [json.loads(x) for x in (data_dir / AKOCHAN).read_text(encoding="utf-8").splitlines()]
    hora = next(o for o in objs if o["type"] == "hora")
    assert hora["scores"] == [19000, 37000, 22000, 22000] and "deltas" not in hora
    hora["scores"] = [19000, 38000, 21000, 22000]
    bad = tmp_path / "ako.json"
    bad.write_text("\n".join(json.dumps(o) for o in objs) + "\n", encoding="utf-8")
    code, out = _replay_json(bad)
    assert code == 1, out
    (failure,) = out["failures"]
    assert "hora scores differ" in failure["error"] and "38000" in failure["error"], failure


ENGLISH = "riichi/tenhou6_json/Equim-chan_mjai-reviewer/confusing_nakis_7.json"


def test_english_yaku_names_are_compared(data_dir: Path, tmp_path: Path) -> None:
    """English names (``Riichi(1飜)``) were not compared at all, so a win claiming tanyao
    instead of its dora passed; the real record still replays."""
    text = (data_dir / ENGLISH).read_text(encoding="utf-8")
    code, out = _replay_json(data_dir / ENGLISH)
    assert code == 0 and out["passed"] == 1, out
    assert text.count('"Dora(1飜)"') == 1
    bad = tmp_path / "english.json"
    bad.write_text(text.replace('"Dora(1飜)"', '"Tanyao(1飜)"'), encoding="utf-8")
    code, out = _replay_json(bad)
    assert code == 1, out
    (failure,) = out["failures"]
    assert "yaku differ" in failure["error"] and "Tanyao" in failure["error"], failure


@pytest.mark.parametrize(
    ("change", "field"),
    [(("scores", 25000.5), "scores"), (("kyotaku", 94), "kyotaku"), (("honba", -1), "honba"),
     (("round", 99), "round")],
)
def test_a_tenhou6_fragments_impossible_header_is_refused(
    data_dir: Path, tmp_path: Path, change: tuple[str, float], field: str
) -> None:
    """The tenhou.net/6 reader rounded 25000.5 to 25000 and took 94 deposits on trust."""
    g = tmp_path / "g.json"
    res = CliRunner().invoke(app, ["convert", str(data_dir / G), str(g), "--format", "tenhou6"])
    assert res.exit_code == 0, res.output
    data = json.loads(g.read_text(encoding="utf-8"))
    data["log"] = data["log"][:1]
    data.pop("sc", None)
    frag = tmp_path / "frag.json"
    frag.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert _replay_json(frag)[1]["failures"] == []
    key, value = change
    head = data["log"][0]
    if key == "scores":
        head[1][0] = value
    else:
        head[0][{"round": 0, "honba": 1, "kyotaku": 2}[key]] = value
    frag.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, out = _replay_json(frag)
    assert code == 1, out
    (failure,) = out["failures"]
    assert f"round header {field}" in failure["error"], failure
