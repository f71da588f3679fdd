"""Issue 41, item 4: the duplicate format's full seating (every distinct seat order of the
lineup on the same walls) and the run's games written as Botzone match exports that
``tenpai replay`` verifies, the wall included."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.arena.games import ArenaConfigError
from tenpai.arena.runner import make_config
from tenpai.arena.schedule import seat_orders, seating, seatings_per_deal
from tenpai.arena.store import ResultsStore, RunConfig
from tenpai.cli.main import app
from tenpai.records import read_games
from tenpai.replay.runner import replay_files

_FOUR = ("random", "efficiency", "expert", "planner")
_BOTZONE = {"preset": "botzone"}


def test_four_different_agents_get_all_24_orders_each_seat_six_times() -> None:
    orders = seat_orders(_FOUR, "permutations")
    assert len(orders) == 24 and len(set(orders)) == 24
    assert orders[0] == (0, 1, 2, 3)
    for agent in _FOUR:
        seats = Counter(seating(_FOUR, r, "permutations").index(agent) for r in range(24))
        assert seats == {0: 6, 1: 6, 2: 6, 3: 6}


def test_copies_of_one_agent_are_seated_once_per_distinct_order() -> None:
    one_against_three = ("a", "b", "b", "b")
    # one agent against three copies: the distinct orders are the four rotations, in order
    assert [seating(one_against_three, r, "permutations") for r in range(4)] == [
        seating(one_against_three, r) for r in range(4)
    ]
    assert seatings_per_deal(one_against_three, "permutations") == 4
    two_and_two = ("a", "a", "b", "b")
    got = {tuple(seating(two_and_two, r, "permutations")) for r in range(6)}
    assert len(got) == 6 == seatings_per_deal(two_and_two, "permutations")
    assert seatings_per_deal(_FOUR) == 4  # the default: rotations


def test_unknown_seating_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown seating 'shuffle'"):
        seat_orders(_FOUR, "shuffle")
    with pytest.raises(ArenaConfigError, match="unknown seating 'shuffle'"):
        make_config("mcr", _FOUR, 4, 0, _BOTZONE, "shuffle")


def test_runs_round_to_whole_permutation_sets_and_keep_their_seating() -> None:
    config, rounded = make_config("mcr", _FOUR, 25, 0, _BOTZONE, "permutations")
    assert (config.games, rounded, config.seating) == (48, True, "permutations")
    back = RunConfig.from_json(config.to_json())
    assert back == config
    plain, _ = make_config("mcr", _FOUR, 4, 0, _BOTZONE)
    # the default leaves the stored configuration as before, so older runs still resume
    assert "seating" not in json.loads(plain.to_json())
    assert RunConfig.from_json(plain.to_json()).seating == "rotations"


def _arena(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(app, ["arena", "--rules", "mcr", "--workers", "1",
                                   "--no-progress", *args])
    return res.exit_code, res.stderr


def test_a_permutation_run_written_as_botzone_exports_replays(tmp_path: Path) -> None:
    db, out = tmp_path / "run.db", tmp_path / "exports"
    code, err = _arena("--preset", "botzone", "--agents", ",".join(_FOUR), "-n", "1",
                       "--seed", "3", "--seating", "permutations", "--db", str(db),
                       "--save-records", str(out), "--format", "botzone_export")
    assert code == 0, err
    assert "rounded up to 24 (whole deal sets of 24 seatings)" in err
    lites = sorted(out.glob("*_lite.json"))
    assert len(lites) == 24 and len(list(out.glob("*_metadata.json"))) == 24
    summary = replay_files([out], rules="mcr")
    assert (summary.games, summary.passed) == (24, 24), summary.failures
    with ResultsStore(db) as store:
        rows = store.seat_rows()
    scores = {(r.deal, r.rotation, r.seat): r.score for r in rows}
    agents = {(r.deal, r.rotation, r.seat): r.agent for r in rows}
    walls = set()
    for lite in lites:
        (game,) = read_games(lite)
        rot = int(lite.name.split("_")[0].split("-r")[1])
        assert game.final_scores == tuple(scores[(0, rot, s)] for s in range(4))
        assert list(game.names) == [agents[(0, rot, s)] for s in range(4)]
        meta = json.loads(lite.with_name(lite.name.replace("_lite", "_metadata")).read_text())
        assert meta["matchId"] == lite.name.removesuffix("_lite.json")
        walls.add(meta["initdata"]["walltiles"])
    assert len(walls) == 1  # one deal: every seating played the same wall
    assert len(walls.pop().split()) == 136


def test_a_wrong_wall_in_an_export_fails_the_replay(tmp_path: Path) -> None:
    out = tmp_path / "exports"
    code, err = _arena("--preset", "botzone", "--agents", "efficiency,random,random,random",
                       "-n", "4", "--save-records", str(out), "--format", "botzone_export")
    assert code == 0, err
    lite = out / "d00000-r0_lite.json"
    meta_path = out / "d00000-r0_metadata.json"
    data, meta = json.loads(lite.read_text()), json.loads(meta_path.read_text())
    tiles = meta["initdata"]["walltiles"].split()
    # seat 0's wall is read from the end of its quarter: swap its first draw with a tile of
    # seat 1's quarter of another kind
    first_draw = 33 - 13
    other = next(i for i in range(34, 68) if tiles[i] != tiles[first_draw])
    tiles[first_draw], tiles[other] = tiles[other], tiles[first_draw]
    meta["initdata"]["walltiles"] = " ".join(tiles)
    init = json.loads(data["initdata"])
    init["walltiles"] = meta["initdata"]["walltiles"]
    data["initdata"] = json.dumps(init)
    meta_path.write_text(json.dumps(meta))
    lite.write_text(json.dumps(data))
    summary = replay_files([lite], rules="mcr")
    assert summary.passed == 0 and summary.failures
    assert "wall" in str(summary.failures[0])


def test_botzone_exports_of_other_rules_are_refused_before_playing(tmp_path: Path) -> None:
    code, err = _arena("--agents", "efficiency,random,random,random", "-n", "4",
                       "--save-records", str(tmp_path / "x"), "--format", "botzone_export")
    assert code == 2
    assert "botzone_export holds Botzone's one-hand MCR games" in err
    assert "Traceback" not in err and not (tmp_path / "x").exists()
