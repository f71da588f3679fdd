"""A decision rebuilt from a record counts the visible tiles as the engine's observation does,
so the MDP player's tie-break (live effective tiles) reads the same table from either."""

from __future__ import annotations

from tenpai.agents import make_agent
from tenpai.mdp.record_view import find_turn
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU


def test_visible_counts_match_the_engine_at_every_own_turn() -> None:
    game = RiichiGame(TENHOU, seed=3)
    agents = [make_agent("efficiency", seed=s) for s in range(4)]
    checked = 0
    while game.round is not None and not game.done and checked < 60:
        rnd = game.round
        last = rnd.events[-1]
        for d in rnd.pending():
            if last.type == "tsumo" and last.actor == d.seat:
                turn = sum(1 for e in rnd.events if e.type == "tsumo" and e.actor == d.seat)
                view = find_turn(list(rnd.events), d.seat, turn)
                assert view.visible_counts() == d.observation.visible_counts()
                checked += 1
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in rnd.pending()})
    assert checked == 60
