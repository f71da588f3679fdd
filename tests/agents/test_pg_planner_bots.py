"""``tenpai train pg-planner --opponents``: the default is today's run, and a run against the
greedy Botzone bots (played in this process, as the arena's program seats play) resumes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tenpai.agents.pg_planner import DISCARD_FEATURES, PGPlannerAgent, PlannerHead
from tenpai.agents.planner import PlannerAgent
from tenpai.agents.registry import external_seats
from tenpai.arena.games import make_game
from tenpai.engine.agent import Agent
from tenpai.rl.greedy_bots import BOT_NAME, GREEDY_BOT, GreedyBotError, load_bot, play_with_bots
from tenpai.rl.planner_pg import (
    PlannerPGConfig,
    PlannerPGError,
    evaluate_against_bots,
    train_planner_pg,
)

_BOTZONE = {"preset": "botzone"}


def _config(out: Path, games: int, opponents: str = "planner") -> PlannerPGConfig:
    return PlannerPGConfig(out=str(out), seed=3, deals_per_update=1, samples=2,
                           temperature=1.5, lr=0.1, max_games=games, eval_every=0,
                           eval_deals=0, checkpoint_minutes=60, opponents=opponents)


def _checkpoint(out: Path) -> dict:  # type: ignore[type-arg]
    return json.loads(out.with_name(out.name + ".ckpt").read_text())  # type: ignore[no-any-return]


def test_the_default_plays_and_steps_as_before_the_setting(tmp_path: Path) -> None:
    """One update of the default (two learners against two planners): the statistics and
    Adam's first moment (0.1 × the gradient) that the code before ``--opponents`` printed
    (commit c0620b4, same settings)."""
    out = tmp_path / "d.json"
    train_planner_pg(_config(out, 2), progress=lambda _line: None)
    data = _checkpoint(out)
    (stats,) = data["progress"]["history"]
    assert (stats["games"], stats["decisions"], stats["off_planner"]) == (2, 91, 23)
    assert stats["mean_reward"] == pytest.approx(-0.5833333333333333, abs=1e-12)
    m = data["adam"]["m"]
    nd = len(DISCARD_FEATURES)
    assert m[1:4] == pytest.approx(
        [0.07059110880729862, 0.026647783771511658, 0.0068555129497440475], rel=1e-9)
    assert m[nd + 1:nd + 3] == pytest.approx(
        [-0.0257535969349892, -0.0033244941279545527], rel=1e-9)
    # the gradient's norm then, over the features there were (14 discard, 6 call; features
    # added since weigh in the printed norm): 0.1 × the gradient is Adam's first moment
    first = np.array(m[:14] + m[nd:nd + 6]) / 0.1
    assert float(np.linalg.norm(first)) == pytest.approx(1.1131300223886695, rel=1e-9)
    assert stats["grad_norm"] >= float(np.linalg.norm(first))
    assert data["settings"]["opponents"] == "planner"


def _program_bots_game(deal_seed: int, agents: list[Agent | None]) -> tuple[object, ...]:
    botzone = external_seats("botzone:")
    name = f"botzone:{GREEDY_BOT} --keep-running"
    game = make_game("mcr", deal_seed, [BOT_NAME] * 4, _BOTZONE)
    seats = {s: botzone.BotzoneSeat(s, name, botzone.runner_for(name))
             for s, a in enumerate(agents) if a is None}
    botzone.play_game(game, agents, seats)
    return tuple(game.final_scores), tuple(game.events)


def test_bots_in_this_process_play_the_games_of_the_program_seats() -> None:
    """The same deal, the same learner: the bot file run as a kept-running program (as the
    arena seats it) and driven in this process give the same game, event by event."""
    for deal in (910_000_002,):
        seat = deal % 4
        mine: list[Agent | None] = [None] * 4
        mine[seat] = PlannerAgent(5)
        game = make_game("mcr", deal, [BOT_NAME] * 4, _BOTZONE)
        play_with_bots(game, mine)
        theirs: list[Agent | None] = [None] * 4
        theirs[seat] = PlannerAgent(5)
        assert (tuple(game.final_scores), tuple(game.events)) == \
            _program_bots_game(deal, theirs)


def test_the_bot_answers_the_same_requests_the_same_way() -> None:
    """Deterministic given its inputs: two games of a deal with the same sampled learner are
    one game; another sample of the learner changes it (the baseline's premise)."""
    games = []
    for sample in (7, 7, 8):
        learner = PGPlannerAgent(PlannerHead.start(2.0), sample, temperature=1.0)
        game = make_game("mcr", 910_000_001, [BOT_NAME] * 4, _BOTZONE)
        play_with_bots(game, [None, learner, None, None])
        games.append(tuple(game.events))
    assert games[0] == games[1]
    assert games[0] != games[2]


def test_a_file_without_a_bot_is_named(tmp_path: Path) -> None:
    empty = tmp_path / "nobot.py"
    empty.write_text("X = 1\n")
    with pytest.raises(GreedyBotError, match=r"nobot\.py: defines no Bot class"):
        load_bot(empty)
    with pytest.raises(GreedyBotError, match=r"missing\.py: not a Python file"):
        load_bot(tmp_path / "missing.py")


def test_a_run_against_the_bots_resumes_as_one_run_straight(tmp_path: Path) -> None:
    lines: list[str] = []
    straight = train_planner_pg(_config(tmp_path / "a.json", 4, "greedy-bots"), lines.append)
    train_planner_pg(_config(tmp_path / "b.json", 2, "greedy-bots"), lines.append)
    resumed = train_planner_pg(_config(tmp_path / "b.json", 4, "greedy-bots"), lines.append)
    assert any(line.startswith("resumed from") for line in lines)
    assert np.array_equal(straight.discard, resumed.discard)
    assert np.array_equal(straight.call, resumed.call)
    assert not np.array_equal(straight.discard, PlannerHead.start().discard)
    data = _checkpoint(tmp_path / "b.json")
    assert data["settings"]["opponents"] == "greedy-bots"
    # one learner seat per game: each update's decisions are those of 2 seat-games
    first = data["progress"]["history"][0]
    assert first["games"] == 2 and first["decisions"] > 0
    assert "three greedy Botzone bots" in PlannerHead.load(tmp_path / "b.json").info["method"]
    # a resume against other opponents is refused by name
    with pytest.raises(PlannerPGError, match=r"opponents='greedy-bots'.*'planner'"):
        train_planner_pg(_config(tmp_path / "b.json", 6), lambda _line: None)


def test_a_checkpoint_from_before_the_setting_counts_as_planner_opponents(tmp_path: Path) -> None:
    out = tmp_path / "old.json"
    train_planner_pg(_config(out, 2), lambda _line: None)
    ckpt = out.with_name(out.name + ".ckpt")
    data = json.loads(ckpt.read_text())
    del data["settings"]["opponents"]
    ckpt.write_text(json.dumps(data))
    with pytest.raises(PlannerPGError, match=r"opponents='planner'"):
        train_planner_pg(_config(out, 4, "greedy-bots"), lambda _line: None)
    lines: list[str] = []
    train_planner_pg(_config(out, 4), lines.append)
    assert any(line.startswith("resumed from") for line in lines)


def test_the_curve_against_the_bots_is_paired_with_the_planner() -> None:
    """The start is the planner: the same games, difference exactly 0, no departures; a head
    that shuns the planner's discards changes the deals."""
    point = evaluate_against_bots(PlannerHead.start(2.0), 2, 0)
    assert point.opponent == "greedy-bots" and point.deals == 2
    assert (point.place_diff, point.score_diff, point.changed_games) == (0.0, 0.0, 0)
    assert point.decisions > 0 and point.departures == 0
    off = PlannerHead.start(2.0)
    off.discard = off.discard.copy()
    off.discard[0] = -5.0  # greedily, never the planner's discard where there is another
    moved = evaluate_against_bots(off, 2, 0)
    assert moved.departures > 0 and moved.changed_games > 0

