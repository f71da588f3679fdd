"""Three-player games for learning: the event tracker sees the engine's table (the empty seat
at relative index 2, Norths set aside among the melds), and datasets build from 3p records."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tenpai import tiles as T
from tenpai.agents import make_agent
from tenpai.engine.agent import Agent
from tenpai.engine.runner import play
from tenpai.events import Event
from tenpai.learn.dataset import BuildOptions, DatasetError, build_dataset
from tenpai.learn.state import RoundTracker
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU_SANMA


def _rel_seats(seat: int) -> list[int | None]:
    """Absolute seat at each relative index: self, next, (empty), previous."""
    return [seat, (seat + 1) % 3, None, (seat + 2) % 3]


class _Checking:
    name = "checking"

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.checked = 0

    def act(self, obs: Any, legal: Sequence[Event]) -> Event:
        tracker = RoundTracker(watch=(obs.seat,))
        for e in obs.events:
            tracker.apply(e)
        view = tracker.view(obs.seat)
        assert view.players == 3
        assert list(view.hand) == obs.counts
        assert view.wall_remaining == obs.wall_remaining
        rel = _rel_seats(obs.seat)
        assert view.scores == tuple(0 if s is None else obs.scores[s] for s in rel)
        for i, s in enumerate(rel):
            melds = [0] * 34
            if s is not None:
                for m in obs.melds[s]:
                    for t in m.tiles:
                        melds[T.kind_of(t)] += 1
                for t in obs.nukidora[s]:
                    melds[T.kind_of(t)] += 1
            assert list(view.melds[i]) == melds
        assert 27 + view.seat_wind == obs.seat_wind
        ranks = sorted(range(3), key=lambda s: (-obs.scores[s], s))
        assert view.rank == ranks.index(obs.seat)
        self.checked += 1
        return self.inner.act(obs, legal)

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]


@pytest.mark.parametrize("seed", [2, 5])
def test_tracker_matches_three_player_observation(seed: int) -> None:
    agents = [_Checking(make_agent("efficiency", seed * 3 + i)) for i in range(3)]
    game = RiichiGame(TENHOU_SANMA.with_(length="tonpuu"), seed=seed)
    play(game, agents)
    assert sum(a.checked for a in agents) > 100
    assert any(e.type == "nukidora" for e in game.events)


def test_dataset_builds_from_three_player_records(data_dir: Path, tmp_path: Path) -> None:
    record = data_dir / "riichi" / "tenhou_mjlog" / "dnovikoff_tenhou" / "log_test_data" / \
        "sanma2.xml"
    manifest = build_dataset([record], tmp_path / "ds",
                             BuildOptions(players=3, encoder="gao68", max_loss=None))
    counts = manifest["counts"]["train"]
    assert counts["discard"] > 100 and counts["pon"] > 0 and counts["chi"] == 0
    with pytest.raises(DatasetError, match="3-player game"):  # four-player datasets skip it
        build_dataset([record], tmp_path / "ds4", BuildOptions(encoder="gao68"))


def test_dataset_command_takes_players(data_dir: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tenpai.cli.main import app

    record = data_dir / "riichi" / "tenhou_mjlog" / "dnovikoff_tenhou" / "log_test_data" / \
        "sanma2.xml"
    r = CliRunner().invoke(app, ["dataset", "build", str(record), str(tmp_path / "o"),
                                 "--players", "3", "--max-loss", "-1"])
    assert r.exit_code == 0, r.output
    assert "discard 190" in r.output
    r = CliRunner().invoke(app, ["dataset", "build", str(record), str(tmp_path / "m"),
                                 "--rules", "mcr", "--players", "3"])
    assert r.exit_code == 2 and "--players" in r.output
