"""The mdp agent only ever returns legal actions (seeded games), explains itself, and the
explain command works on a record."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tenpai.agents import make_agent
from tenpai.events import Event
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU

RECORD = (Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "riichi" /
          "tenhou_mjlog" / "mjx-project_mjx" / "tests_py" / "2010081709gm-00a9-0000-fe3371ad.mjlog")


@pytest.mark.parametrize("seed", [3, 11])
def test_agent_plays_only_legal_actions(seed: int) -> None:
    agents = [make_agent("mdp", seed), make_agent("efficiency", 1), make_agent("mdp", seed + 1),
              make_agent("defensive", 2)]
    game = RiichiGame(TENHOU.with_(length="tonpuu"), seed=seed)
    rounds = 0
    decisions = 0
    while not game.done and rounds < 2:
        answers: dict[int, Event] = {}
        for d in game.pending():
            a = agents[d.seat].act(d.observation, d.legal)
            if d.seat in (0, 2):
                assert a in d.legal, (a, d.legal)
                decisions += 1
            answers[d.seat] = a
        game.step(answers)
        rounds = sum(1 for e in game.events if e.type == "end_kyoku")
    assert decisions > 20


def test_explain_values_every_legal_action() -> None:
    agent = make_agent("mdp", 0)
    game = RiichiGame(TENHOU.with_(length="tonpuu"), seed=5)
    other = make_agent("efficiency", 0)
    seen = 0
    while not game.done and seen < 6:
        answers: dict[int, Event] = {}
        for d in game.pending():
            if d.seat == 0 and any(e.type == "dahai" for e in d.legal):
                dec = agent.explain(d.observation, d.legal)  # type: ignore[attr-defined]
                assert {id(v.action) for v in dec.values} >= {id(e) for e in d.legal
                                                              if e.type == "dahai"}
                assert any(math.isfinite(v.value) for v in dec.values)
                seen += 1
            answers[d.seat] = other.act(d.observation, d.legal)
        game.step(answers)
    assert seen == 6


@pytest.mark.skipif(not RECORD.is_file(), reason="../shared/data (Tenhou records) is absent")
def test_explain_command_on_a_record() -> None:
    from typer.testing import CliRunner

    from tenpai.cli.main import app

    r = CliRunner().invoke(app, ["explain", "--agent", "mdp", str(RECORD), "--round", "E2",
                                 "--seat", "1", "--turn", "9"])
    assert r.exit_code == 0, r.output
    assert "dahai 5mr" in r.output and "IPS (eq. 16)" in r.output
    bad = CliRunner().invoke(app, ["explain", str(RECORD), "--round", "Z9"])
    assert bad.exit_code == 2
    missing = CliRunner().invoke(app, ["explain", str(RECORD), "--opponent-models",
                                   "/nonexistent.json"])
    assert missing.exit_code == 2 and "no such opponent-model file" in missing.output
