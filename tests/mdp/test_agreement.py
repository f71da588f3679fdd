"""Discard agreement of the MDP player with Houou records: the counting is exact (a chooser
that replays the record agrees everywhere), the interval is clustered by game, and the command
prints what it measured."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.cli.main import app
from tenpai.events import Event
from tenpai.mdp.agreement import AgreementCount, count_agreement, houou_games
from tenpai.mdp.record_view import RecordTurn


def _game(data_dir: Path) -> list[Sequence[Sequence[Event]]]:
    return list(houou_games(data_dir / "riichi" / "tenhou_mjlog", "test", 1))


def test_a_chooser_that_replays_the_record_agrees_on_every_discard(data_dir: Path) -> None:
    games = _game(data_dir)
    assert len(games) == 1

    def recorded(view: RecordTurn, discards: Sequence[Event]) -> Event:
        assert view.actual is not None and len(discards) > 1
        return next(e for e in discards if e.pai == view.actual.pai)

    def first(view: RecordTurn, discards: Sequence[Event]) -> Event:
        return discards[0]

    same = count_agreement(games, recorded)
    assert same.discards > 100 and same.agree == same.discards
    other = count_agreement(games, first)
    assert other.discards == same.discards and other.agree < other.discards


def test_the_interval_is_clustered_by_game() -> None:
    even = AgreementCount(games=2, discards=200, agree=100, per_game=[(100, 50), (100, 50)])
    assert even.interval() == (0.5, 0.5)
    apart = AgreementCount(games=2, discards=200, agree=100, per_game=[(100, 20), (100, 80)])
    low, high = apart.interval()
    assert low < 0.5 < high and high - low > 0.5
    assert all(math.isnan(x) for x in AgreementCount().interval())


def test_the_command_reports_games_discards_and_cpu(data_dir: Path) -> None:
    res = CliRunner().invoke(app, ["eval", "mdp-agreement",
                                   str(data_dir / "riichi" / "tenhou_mjlog"), "--games", "1",
                                   "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["games"] == 1 and 0 < out["agree"] < out["discards"]
    bad = CliRunner().invoke(app, ["eval", "mdp-agreement", "no/such/dir"])
    assert bad.exit_code == 2 and "no/such/dir" in bad.output


def test_one_pass_over_a_round_gives_the_same_turns_as_finding_each(data_dir: Path) -> None:
    from tenpai.mdp.record_view import find_turn, iter_turns

    rnd = _game(data_dir)[0][0]
    for seat in range(4):
        views = list(iter_turns(rnd, seat))
        assert len(views) == sum(1 for e in rnd if e.type == "tsumo" and e.actor == seat) > 0
        for turn, view in enumerate(views, 1):
            again = find_turn(rnd, seat, turn)
            assert (view.hand, view.events, view.melds, view.legal, view.actual) == (
                again.hand, again.events, again.melds, again.legal, again.actual)
    with pytest.raises(ValueError, match="no draw number"):
        find_turn(rnd, 0, len(list(iter_turns(rnd, 0))) + 1)
