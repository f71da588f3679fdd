"""Every Riichi observation answers ``rules``: the engine's as the fronts' do.

The fronts' observation (:class:`~tenpai.serve.mjai.observation.MjaiObservation`) carries the
rules of the game the front plays; the engine's (:class:`RiichiObservation`) must answer the same
name with the game's own rules — its length and table size included — on the Python round and
on the compiled table alike, so an agent reads ``obs.rules`` whichever stands behind the view.
"""

from __future__ import annotations

import pytest

from tenpai.agents.registry import make_agent
from tenpai.rules.riichi import compiled_round
from tenpai.rules.riichi.compiled_round import CompiledRound
from tenpai.rules.riichi.flow.observation import RiichiObservation
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.game import Engine, RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU, TENHOU_SANMA, RiichiRules

TONPUU = TENHOU.with_(length="tonpuu")
SANMA_TONPUU = TENHOU_SANMA.with_(length="tonpuu")
built = pytest.mark.skipif(not compiled_round.available(), reason="compiled table not built")
ENGINES = [pytest.param("python", id="python"),
           pytest.param("compiled", id="compiled", marks=built)]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("rules", [TONPUU, TENHOU, TENHOU_SANMA, SANMA_TONPUU],
                         ids=lambda r: f"{r.name}-{r.players}p-{r.length}")
def test_an_engine_observation_answers_the_games_rules(engine: Engine, rules: RiichiRules) -> None:
    """The first 150 decisions of a seeded game (more than one hand): each observation's
    ``rules`` is the game's, by identity, on the engine asked for."""
    game = RiichiGame(rules, seed=7, engine=engine)
    round_type = CompiledRound if engine == "compiled" else RiichiRound
    agents = [make_agent("efficiency", 7 * 4 + s) for s in range(rules.players)]
    decisions = 0
    hands = set()
    while not game.done and decisions < 150:
        assert type(game.current) is round_type
        hands.add((game.bakaze, game.kyoku, game.honba))
        answers = {}
        for d in game.pending():
            decisions += 1
            assert isinstance(d.observation, RiichiObservation)
            assert d.observation.rules is rules
            assert (d.observation.rules.length, d.observation.players) == (rules.length,
                                                                             rules.players)
            answers[d.seat] = agents[d.seat].act(d.observation, d.legal)
        game.step(answers)
    assert decisions >= 150 and len(hands) > 1
