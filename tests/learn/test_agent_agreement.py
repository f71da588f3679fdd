"""Discard agreement of engine agents with Houou records (``tenpai eval agent-agreement``):
the replay hands every decision to the observer with the recorded answer, an agent that plays
the recorded discards agrees everywhere, one that never does agrees nowhere, and the command
prints what it measured or one line for an agent of another rule set."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tenpai.cli.main import app
from tenpai.engine.flow import Decision
from tenpai.events import Event
from tenpai.learn.agent_agreement import _counted, agent_agreement, houou_records
from tenpai.replay.riichi import replay_riichi
from tenpai.replay.runner import riichi_rules_for
from tenpai.tiles import kind_of


def _games(data_dir: Path, n: int = 2) -> list[Any]:
    games = list(houou_records(data_dir / "riichi" / "tenhou_mjlog", "test", n))
    assert len(games) == n
    return games


def _recorded_discards(game: Any) -> list[Event]:
    """The recorded answers of the counted decisions, in replay order (a first pass)."""
    seen: list[Event] = []

    def observe(decision: Decision, recorded: Event) -> None:
        assert recorded in decision.legal  # the driver's answer is one of the engine's events
        if _counted(decision, recorded) is not None:
            seen.append(recorded)

    result = replay_riichi(game.events(), rules=riichi_rules_for(game, "tenhou"),
                           final_scores=game.final_scores, observe=observe)
    assert result.ok, result.divergence
    return seen


class _Script:
    """Plays the given discards in order (or, with ``avoid``, any other kind)."""

    def __init__(self, plays: list[Event], avoid: bool = False) -> None:
        self.plays = plays
        self.avoid = avoid
        self.calls = 0

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        ((_obs, legal),) = requests
        assert all(e.type == "dahai" for e in legal)
        assert len({kind_of(e.pai) for e in legal if e.pai is not None}) > 1
        want = self.plays[self.calls]
        self.calls += 1
        if self.avoid:
            return [next(e for e in legal if kind_of(e.pai) != kind_of(want.pai))]  # type: ignore[arg-type]
        return [next(e for e in legal if e.pai == want.pai)]


def test_an_agent_playing_the_record_agrees_everywhere_and_one_avoiding_it_nowhere(
    data_dir: Path,
) -> None:
    for game in _games(data_dir):
        plays = _recorded_discards(game)
        assert len(plays) > 50
        same = agent_agreement([game], _Script(plays))
        assert (same.games, same.discards, same.agree, same.diverged) == (1, len(plays),
                                                                          len(plays), 0)
        other = agent_agreement([game], _Script(plays, avoid=True))
        assert (other.discards, other.agree) == (len(plays), 0)


def test_the_command_measures_a_rule_agent_and_refuses_a_108_tile_model(data_dir: Path) -> None:
    runner = CliRunner()
    folder = str(data_dir / "riichi" / "tenhou_mjlog")
    res = runner.invoke(app, ["eval", "agent-agreement", folder, "--agent", "efficiency",
                              "--games", "1", "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["games"] == 1 and report["diverged"] == 0
    assert 0.3 < report["rate"] < 0.8 and report["agree"] <= report["discards"]
    res = runner.invoke(app, ["eval", "agent-agreement", folder, "--agent", "dropout",
                              "--games", "1"])
    assert res.exit_code == 2
    assert "suits108 model" in res.output and len(res.output.strip().splitlines()) == 1
    res = runner.invoke(app, ["eval", "agent-agreement", folder, "--agent", "nobody"])
    assert res.exit_code == 2 and "unknown agent" in res.output
