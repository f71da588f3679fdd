"""The sl_mcr agent plays whole seeded games with the shipped weights and only legal actions."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")

from tenpai.agents import make_agent
from tenpai.agents.sl_mcr import SLMCRAgent
from tenpai.events import Event
from tenpai.models.bundle import ModelError
from tenpai.rules.mcr.flow.rules import PRESETS
from tenpai.rules.mcr.game import MCRGame


def _play(preset: str, seed: int, agent: Any) -> Counter[str]:
    game = MCRGame(PRESETS[preset], seed=seed)
    others = [make_agent("efficiency", seed), make_agent("random", seed)]
    chosen: Counter[str] = Counter()
    while not game.done:
        answers = {}
        for d in game.pending():
            if d.seat % 2 == 0:
                a = agent.act(d.observation, d.legal)
                assert a in d.legal
                chosen[a.type] += 1
            else:
                a = others[d.seat // 2].act(d.observation, d.legal)
            answers[d.seat] = a
        game.step(answers)
    assert len(game.final_scores) == 4 and sum(game.final_scores) == 0
    return chosen


def test_registry_builds_the_default_agent() -> None:
    agent = make_agent("sl_mcr", 3)
    assert isinstance(agent, SLMCRAgent) and agent.encoder.name == "mcr_stack002"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_botzone_games_are_played_legally(seed: int) -> None:
    chosen = _play("botzone", seed, SLMCRAgent("default"))
    assert chosen["dahai"] > 10


@pytest.mark.slow
def test_an_mcr_official_game_is_played_legally() -> None:
    """16 hands with flowers; about a minute (``pytest -m slow tests/learn_mcr``)."""
    chosen = _play("mcr_official", 5, SLMCRAgent("default"))
    assert chosen["dahai"] > 100


def test_it_always_takes_a_win_and_never_declares_a_false_win() -> None:
    agent = SLMCRAgent("default")
    win = Event("hora", actor=0, target=0, pai=5)
    false = Event("ryukyoku", actor=0, kind="false_win")
    assert agent.act(object(), [false, win, Event("dahai", actor=0, pai=5)]) == win
    passing = Event("none")
    assert agent.act(object(), [false, passing]) == passing


def test_a_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no such model file"):
        SLMCRAgent(str(tmp_path / "absent.pt"))


def test_sl_mcr_model_plays_the_file_named_by_its_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """MCR's ``sl_model``: a run's own start in an arena seat.  Without the variable it
    refuses (it must not silently seat the shipped model); with the shipped file it plays
    exactly what ``sl_mcr`` plays, and the run records the file it played."""
    from tenpai.agents.sl_mcr import resolve_mcr_model_path
    from tenpai.arena.games import ArenaConfigError
    from tenpai.arena.record import play_scheduled
    from tenpai.arena.runner import make_config
    from tenpai.arena.schedule import GameKey
    from tenpai.models.torchfile import file_fingerprint

    lineup = ["sl_mcr_model", "random", "sl_mcr_model", "random"]
    monkeypatch.delenv("TENPAI_SL_MCR_MODEL", raising=False)
    with pytest.raises(ArenaConfigError, match=r"TENPAI_SL_MCR_MODEL.*unset"):
        make_config("mcr", lineup, 4, 1)
    shipped = resolve_mcr_model_path("default")
    monkeypatch.setenv("TENPAI_SL_MCR_MODEL", str(shipped))
    with pytest.raises(ArenaConfigError, match="plays mcr, not 'riichi'"):
        make_config("riichi", lineup, 4, 1)
    cfg, _ = make_config("mcr", lineup, 4, 1, {"preset": "botzone"})
    assert cfg.players == {"sl_mcr_model": file_fingerprint(shipped)}
    assert make_agent("sl_mcr_model", 0).name == "sl_mcr_model"
    same = ["sl_mcr", "random", "sl_mcr", "random"]
    for deal in range(2):
        a = play_scheduled("mcr", cfg.options, lineup, 1, GameKey(deal, 0))
        b = play_scheduled("mcr", cfg.options, same, 1, GameKey(deal, 0))
        assert [s.score for s in a.seats] == [s.score for s in b.seats]
        assert [h.outcome for h in a.hands] == [h.outcome for h in b.hands]
