"""The value of passing a claim is the planner's figure for the position as it stands.

It reads the unseen tiles (and the winds, the claim rate, the race table), not only the hand:
until session 30 it was cached under (hand, melds, draws left), so a later claim window of the
same go-around, after another discard had been seen, got the earlier window's value
(docs/mcr_strength_runs.md, "The pass value").
"""

from __future__ import annotations

from tenpai.agents.planner import PLAN_MAX_DISTANCE, PlannerAgent
from tenpai.arena.games import make_game
from tenpai.events import Event
from tenpai.hand import shanten_mcr
from tenpai.rules.mcr.plan import best_target

#: A development seed where seat 3 weighs a call at two windows (events 22 and 24) with the
#: same hand, melds and draws left, but one more discard seen: the pass values differ.
_SEED = 47132
_EVENTS = 30


def test_each_claim_window_gets_its_own_pass_value() -> None:
    game = make_game("mcr", _SEED, ["a", "b", "c", "d"], {"preset": "botzone"})
    players = [PlannerAgent(_SEED + i) for i in range(4)]
    windows: dict[tuple[object, ...], list[tuple[tuple[int, ...], float]]] = {}
    while not game.done and len(game.events) < _EVENTS:
        answers: dict[int, Event] = {}
        for d in game.pending():
            agent, obs = players[d.seat], d.observation
            weighs = {e.type for e in d.legal} & {"chi", "pon"}
            if not weighs or shanten_mcr(obs.counts) + 1 > PLAN_MAX_DISTANCE:
                answers[d.seat] = agent.act(obs, d.legal)
                continue
            choice, weighed = agent.ranking(obs, d.legal)
            answers[d.seat] = choice
            if len(weighed) == 1:
                continue  # no call that speeds the hand up: nothing was weighed
            skip = next(e for e in d.legal if e.type == "none")
            state = agent.state(obs)
            target = best_target(state, agent.valuation)
            fresh = target.value if target is not None else 0.0
            assert dict(weighed)[skip] == fresh
            key = (d.seat, state.concealed, state.melds, state.draws)
            windows.setdefault(key, []).append((state.live, fresh))
        game.step(answers)
    # the case a cache on (hand, melds, draws left) got wrong did occur in these events
    assert any(len({live for live, _v in seen}) > 1 and len({v for _l, v in seen}) > 1
               for seen in windows.values())
