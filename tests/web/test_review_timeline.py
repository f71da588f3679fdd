"""Issue 40's review: the hand-by-hand timeline, each hand's tenhou.net/6 link, the expected
loss, the rating and the worst decisions, checked through the API against the record itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient

from tenpai.records.tenhou6_read import parse_tenhou6
from tenpai.records.tenhou6_write import VIEWER_URL
from tenpai.serve.web.review import Judged, expected_loss

from .helpers import HOUOU
from .test_api import _tiny_mjai, client, new_game, play_through

_WINDS = ("East", "South", "West", "North")


def _decode(link: str) -> dict[str, Any]:
    assert link.startswith(VIEWER_URL)
    obj: dict[str, Any] = json.loads(unquote(link[len(VIEWER_URL):]))
    return obj


def _label(bakaze: int, kyoku: int, honba: int) -> str:
    return f"{_WINDS[bakaze]} {kyoku + 1}" + (f", {honba} honba" if honba else "")


def _check_links_open_their_hands(hands: list[dict[str, Any]], stream: list[Any]) -> None:
    """Each hand's link holds exactly that hand: its header names the same round, honba and
    scores as the hand's start_kyoku, and its draws and discards are the hand's own."""
    starts = [e for e in stream if e["type"] == "start_kyoku"]
    assert len(hands) == len(starts)
    for h, start in zip(hands, starts):
        assert h["link"] is not None, h["round"]
        obj = _decode(h["link"])
        assert len(obj["log"]) == 1
        game = parse_tenhou6(json.dumps(obj), "link")
        (only,) = game.rounds
        got = only[0]
        bakaze = "ESWN".index(start["bakaze"])
        assert (got.bakaze, got.kyoku, got.honba) == (bakaze, start["kyoku"] - 1, start["honba"])
        assert h["round"] == _label(bakaze, start["kyoku"] - 1, start["honba"])
        assert list(got.scores) == start["scores"]
        moves = [(e.type, e.actor, e.to_mjai()["pai"]) for e in only
                 if e.type in ("tsumo", "dahai")]
        j = stream.index(start)
        end = next(k for k in range(j, len(stream)) if stream[k]["type"] == "end_kyoku")
        want = [(e["type"], e["actor"], e["pai"]) for e in stream[j:end]
                if e["type"] in ("tsumo", "dahai")]
        assert moves == want, h["round"]


def test_review_of_a_record_lists_every_hand_with_its_result_link_and_decisions(
    tmp_path: Path,
) -> None:
    c = client(tmp_path)
    data = _tiny_mjai()
    stream = [json.loads(x) for x in data.decode().splitlines()]
    rec = c.post("/api/records", files={"file": ("g.mjson", data)}).json()
    r = c.post("/api/review", json={"source": "record", "id": rec["id"], "player": 1,
                                    "agent": "efficiency"})
    assert r.status_code == 200, r.text
    body = r.json()
    hands = body["hands"]
    _check_links_open_their_hands(hands, stream)
    # Each hand's change is the sum of its results' deltas, by player; the words name them.
    ends = [e for e in stream if e["type"] in ("hora", "ryukyoku")]
    total = [0, 0, 0, 0]
    for e in ends:
        total = [t + d for t, d in zip(total, e["deltas"])]
    assert [sum(h["change"][p] for h in hands) for p in range(4)] == total
    names = ["a", "b", "c", "d"]
    for h in hands:
        for res in h["results"]:
            if res["type"] == "win":
                assert names[res["winner"]] in res["text"]
                if res["from"] is not None:
                    assert res["text"].startswith(f"{names[res['from']]} deals in to ")
            else:
                assert res["text"].startswith("draw: ")
    # Decisions sit in the hand they belong to; each hand counts its own.
    decisions = body["decisions"]
    for d in decisions:
        assert hands[d["hand"]]["round"] == d["round"]
    assert sum(h["decisions"] for h in hands) == len(decisions)
    for h in hands:
        if h["decisions"]:
            assert decisions[h["first_decision"]]["hand"] == h["hand"]
    # A rule agent's loss: 1 where it chose otherwise; the rating is the share that matched.
    s = body["summary"]
    assert s["loss_kind"] == "choice differs"
    assert all(d["loss"] == (0.0 if d["agree"] else 1.0) for d in decisions)
    assert s["rating"] == round(100 * s["agreements"] / s["decisions"], 1)


def test_scored_review_loss_is_the_probability_gap_and_ranks_the_worst(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    c = client(tmp_path)
    rec = c.post("/api/records", files={"file": ("g.mjson", _tiny_mjai())}).json()
    r = c.post("/api/review", json={"source": "record", "id": rec["id"], "player": 0,
                                    "agent": "sl"})
    assert r.status_code == 200, r.text
    body = r.json()
    s = body["summary"]
    assert body["scored"] and s["loss_kind"] == "probability gap"
    losses = []
    for d in body["decisions"]:
        probs = [a["prob"] for a in d["actions"]]
        assert d["loss"] == pytest.approx(max(probs) - probs[d["player"]], abs=2e-4)
        losses.append(d["loss"])
    mean = sum(losses) / len(losses)
    assert s["mean_loss"] == pytest.approx(mean, abs=1e-4)
    assert s["rating"] == pytest.approx(100 * (1 - mean), abs=0.06)
    worst = s["worst"]
    assert worst and [w["loss"] for w in worst] == sorted(losses, reverse=True)[: len(worst)]
    assert all(body["decisions"][w["n"]]["hand"] == w["hand"] for w in worst)


def test_expected_loss_definition() -> None:
    assert expected_loss(Judged(0, [0.7, 0.2, 0.1]), 0) == 0.0
    assert expected_loss(Judged(0, [0.7, 0.2, 0.1]), 2) == pytest.approx(0.6)
    assert expected_loss(Judged(1, None), 1) == 0.0
    assert expected_loss(Judged(1, None), 0) == 1.0


def test_review_of_a_played_game_links_its_hands(tmp_path: Path) -> None:
    c = client(tmp_path)
    gid = new_game(c, seed=5)
    play_through(c, gid, seed=2)
    r = c.post("/api/review", json={"source": "game", "id": gid, "player": 0,
                                    "agent": "efficiency"})
    assert r.status_code == 200, r.text
    mjai = c.get(f"/api/games/{gid}/download/mjai").text
    stream = [json.loads(x) for x in mjai.splitlines()]
    hands = r.json()["hands"]
    _check_links_open_their_hands(hands, stream)
    assert any("you" in res["text"] or "efficiency" in res["text"]
               for h in hands for res in h["results"] if res["type"] == "win")


def test_replay_summary_links_each_hand(tmp_path: Path, data_dir: Path) -> None:
    src = data_dir / HOUOU
    if not src.exists():
        pytest.skip(f"{HOUOU} not in the data folder")
    (tmp_path / src.name).write_bytes(src.read_bytes())
    c = client(tmp_path)
    rec = c.get(f"/api/library/0/{src.name}").json()
    rounds = rec["games"][0]["rounds"]
    assert len(rounds) == 9
    for r in rounds:
        obj = _decode(r["link"])
        header = obj["log"][0][0]  # [hand index from East 1, honba, riichi sticks]
        wind, rest = r["label"].split(" ", 1)
        number = int(rest.split(",")[0])
        assert header[0] == _WINDS.index(wind) * 4 + number - 1
        assert header[1] == (int(rest.split(", ")[1].split()[0]) if "honba" in rest else 0)


def test_mcr_review_has_a_timeline_without_links(tmp_path: Path) -> None:
    c = TestClient(client(tmp_path).app)
    gid = new_game(c, rules="mcr", seed=2)
    play_through(c, gid, seed=1)
    r = c.post("/api/review", json={"source": "game", "id": gid, "player": 0,
                                    "agent": "efficiency"})
    assert r.status_code == 200, r.text
    hands = r.json()["hands"]
    assert hands and all(h["link"] is None for h in hands)
