"""Issue 20, fourth group: a replay checks round continuity and the recorded win values, not
only the payments."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenpai.events import Event
from tenpai.records import Game, read_games
from tenpai.replay.runner import _replay_one, replay_files

pytestmark = pytest.mark.corpus

_T6 = ("riichi", "tenhou6_json", "mjx-project_mjx", "mjscore",
       "2020051716gm-00a9-0000-7f8226dd.json")
_MJLOG = ("riichi", "tenhou_mjlog", "mjx-project_mjx", "tests_py", "double-ron.mjlog")


def test_tenhou6_game_with_its_last_rounds_cut_off_fails(data_dir: Path, tmp_path: Path) -> None:
    lines = data_dir.joinpath(*_T6).read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "cut.json"
    cut.write_text("\n".join(lines[:-2]) + "\n", encoding="utf-8")
    assert replay_files([data_dir.joinpath(*_T6)]).passed == 1
    summary = replay_files([cut])
    (failure,) = summary.failures
    assert "the record has ended" in failure["error"]


def test_mjlog_with_its_first_round_deleted_fails(data_dir: Path, tmp_path: Path) -> None:
    text = data_dir.joinpath(*_MJLOG).read_text(encoding="utf-8")
    first = text.index("<INIT")
    second = text.index("<INIT", first + 1)
    cut = tmp_path / "cut.mjlog"
    cut.write_text(text[:first] + text[second:], encoding="utf-8")
    summary = replay_files([cut])
    (failure,) = summary.failures
    assert "a whole game starts at East 1" in failure["error"]


def _first_win(game: Game) -> tuple[int, int, Event]:
    """The first win below mangan (where fu changes the value)."""
    for r, rnd in enumerate(game.rounds):
        for i, e in enumerate(rnd):
            if e.type == "hora" and e.han is not None and e.han < 5:
                return r, i, e
    raise AssertionError("no win")


@pytest.mark.parametrize("change, message", [
    ({"han": 13, "fu": 99}, "han differ"),
    ({"fu": 110}, "fu differ"),
    ({"yaku": (("断幺九", 1),)}, "yaku differ"),
])
def test_recorded_win_values_are_checked_not_only_the_payments(
    data_dir: Path, change: dict[str, object], message: str
) -> None:
    (game,) = read_games(data_dir.joinpath(*_MJLOG))
    r, i, win = _first_win(game)
    if "yaku" in change:  # the same total han, other yaku
        change = {"yaku": (("断幺九", win.han),)}
    game.rounds[r][i] = win.with_(**change)  # same deltas: a check of payments alone passes
    result = _replay_one(game, "riichi", "tenhou", "game")
    assert not result.ok and result.divergence is not None
    assert message in result.divergence.message


_NINE = ("riichi", "tenhou6_json", "Equim-chan_mjai-reviewer", "kyushukyuhai.json")


@pytest.mark.parametrize("change, message", [
    ({}, None),
    ({"deltas": (1000, -1000, 0, 0)}, "ryukyoku deltas differ"),
    ({"actor": 1}, "the engine waits for seat 0 to act"),
])
def test_the_last_hand_of_a_partial_record_is_compared_too(
    data_dir: Path, change: dict[str, object], message: str | None
) -> None:
    """A one-round record ends where the engine asks for the next wall: its ending (who
    declared the nine-terminals draw, the payments) must still be checked, not skipped."""
    (game,) = read_games(data_dir.joinpath(*_NINE))
    assert game.final_scores is None
    rnd = game.rounds[-1]
    i = next(k for k, e in enumerate(rnd) if e.type == "ryukyoku")
    assert rnd[i].kind == "nine_terminals" and rnd[i].actor == 0
    rnd[i] = rnd[i].with_(**change)
    result = _replay_one(game, "riichi", "tenhou", "game")
    if message is None:
        assert result.ok, result.divergence
    else:
        assert not result.ok and result.divergence is not None
        assert message in result.divergence.message, result.divergence
