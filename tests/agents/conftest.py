"""Fixtures shared by the MCR planner's tests (``test_planner_*``): the plan state of a hand seen
alone, the first hand of a seeded game with every answer checked, and the two checks every
``TENPAI_PLANNER_*`` setting must pass (a bad value is a one-line error, and the arena refuses
it with exit 2 before any game)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from typer.testing import CliRunner

from tenpai.agents.planner_settings import PlannerSettings
from tenpai.arena.games import make_game
from tenpai.cli.main import app
from tenpai.engine.agent import Agent
from tenpai.events import Event
from tenpai.rules.mcr.game import MCRGame
from tenpai.rules.mcr.plan import PlanState
from tenpai.tiles import parse_counts


def _hand_state(text: str, draws: int = 12, **fields: Any) -> PlanState:
    counts = parse_counts(text)
    return PlanState(tuple(counts), live=tuple(4 - c for c in counts), draws=draws, **fields)


@pytest.fixture
def hand_state() -> Callable[..., PlanState]:
    """``hand_state(text, draws=12, **fields)``: the plan state of the concealed hand ``text``
    with every other copy live (nothing else seen), ``draws`` own draws left; ``fields`` set
    the state's other parts (``melds``, ``claim_rate``, ``race``)."""
    return _hand_state


def _first_hand(agents: Sequence[Agent], seed: int, preset: str = "botzone") -> list[Event]:
    game = make_game("mcr", seed, ["a", "b", "c", "d"], {"preset": preset})
    assert isinstance(game, MCRGame)
    while not game.done and not game.results:
        answers: dict[int, Event] = {}
        for d in game.pending():
            a = agents[d.seat].act(d.observation, d.legal)
            assert a in d.legal
            answers[d.seat] = a
        game.step(answers)
    return list(game.events)


@pytest.fixture
def first_hand() -> Callable[..., list[Event]]:
    """``first_hand(agents, seed, preset="botzone")``: the events of the first hand of the
    seeded MCR game of ``agents`` (one a seat), every answer checked against the legal ones."""
    return _first_hand


def _bad_setting_is_one_line(var: str, value: str) -> None:
    with pytest.raises(ValueError, match=var) as err:
        PlannerSettings.from_env({var: value})
    assert "\n" not in str(err.value)


@pytest.fixture
def bad_setting_is_one_line() -> Callable[[str, str], None]:
    """``check(var, value)``: reading ``var=value`` raises a one-line ``ValueError`` naming
    ``var``."""
    return _bad_setting_is_one_line


@pytest.fixture
def arena_refuses(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """``check(var, value, agents=...)``: with ``var=value`` in the environment (kept for the
    rest of the test) an MCR Botzone arena of ``agents`` exits 2, naming ``var``, with no
    traceback."""

    def check(var: str, value: str,
              agents: str = "planner,efficiency,planner,efficiency") -> None:
        monkeypatch.setenv(var, value)
        r = CliRunner().invoke(app, ["arena", "--rules", "mcr", "--preset", "botzone",
                                     "--agents", agents, "-n", "1"])
        assert r.exit_code == 2 and "Traceback" not in r.output
        assert var in r.output

    return check
