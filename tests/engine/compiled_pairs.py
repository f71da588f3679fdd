"""Seeded games played on both Riichi rounds, for the compiled table's differential tests.

One harness for four and three players (``test_compiled_round.py``, ``test_compiled_sanma.py``):
the same seed, agents and rules on the Python round (the reference) and on the compiled table,
compared event by event.  Kept apart from the tests so the two player counts cannot drift into
two slightly different proofs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from tenpai.agents.registry import make_agent
from tenpai.engine import RandomAgent
from tenpai.events import Event
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import RiichiRules

#: What the eager agent takes first when offered (a North exists at three players only).
_EAGER = {"hora": 0, "ryukyoku": 1, "ankan": 2, "kakan": 2, "daiminkan": 2, "nukidora": 2,
          "reach": 3}


class EagerAgent:
    """Takes every win, abortive draw, kan, North and riichi offered, else plays as
    ``efficiency``: the rare paths (double and triple ron, four riichi, four kans, four winds,
    kan dora and replacement draws, nine terminals) come up within a few hundred hands."""

    def __init__(self, seed: int = 0) -> None:
        self.inner = make_agent("efficiency", seed)

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        best = min(legal, key=lambda e: _EAGER.get(e.type, 9))
        if best.type in _EAGER:
            return best
        return self.inner.act(observation, legal)


def agent(name: str, seed: int) -> Any:
    return EagerAgent(seed) if name == "eager" else make_agent(name, seed)


def play(seed: int, engine: str, names: list[str], rules: RiichiRules) -> RiichiGame:
    """One whole game; seat i plays ``names[(seed + i) % len(names)]``."""
    game = RiichiGame(rules, seed=seed, engine=engine)  # type: ignore[arg-type]
    agents = [agent(names[(seed + i) % len(names)], seed * 4 + i) for i in range(rules.players)]
    while not game.done:
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()})
    return game


def first_difference(a: list[Event], b: list[Event]) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"event {i}: python {x} / compiled {y}"
    return f"lengths {len(a)} / {len(b)}"


def same_games(seeds: range, names: list[str], rules: RiichiRules) -> Counter[str]:
    """Play each seed on both rounds and assert equal events, results and final scores;
    returns what happened ("hands", event types, "ryukyoku:<kind>") so a test can say its
    games reached the paths it is about."""
    seen: Counter[str] = Counter()
    for seed in seeds:
        py = play(seed, "python", names, rules)
        c = play(seed, "compiled", names, rules)
        assert c.compiled and len(c.final_scores) == rules.players
        assert py.events == c.events, f"seed {seed}: {first_difference(py.events, c.events)}"
        assert py.results == c.results, f"seed {seed}"
        assert py.final_scores == c.final_scores, f"seed {seed}"
        seen["hands"] += len(py.results)
        seen.update(e.type for e in py.events)
        seen.update(f"ryukyoku:{e.kind}" for e in py.events if e.type == "ryukyoku")
    return seen


def observed(obs: Any) -> tuple[Any, ...]:
    return (obs.seat, obs.hand, obs.counts, obs.drawn, obs.melds, obs.rivers,
            obs.visible_counts(), obs.events, obs.riichi, obs.dora_markers, obs.nukidora,
            obs.players, obs.scores, obs.wall_remaining, obs.bakaze, obs.kyoku, obs.honba,
            obs.kyotaku, obs.oya, obs.seat_wind)


def observations_checked(rules: RiichiRules, seed: int) -> int:
    """Play one random game on both rounds side by side, asserting equal decisions and
    observations at every step; returns how many observations were compared."""
    games = [RiichiGame(rules, seed=seed, engine=e) for e in ("python", "compiled")]
    agents = [RandomAgent(seed * 4 + i) for i in range(rules.players)]
    checked = 0
    while not games[0].done:
        dp, dc = games[0].pending(), games[1].pending()
        assert [(d.seat, d.legal) for d in dp] == [(d.seat, d.legal) for d in dc]
        for a, b in zip(dp, dc):
            assert observed(a.observation) == observed(b.observation)
            checked += 1
        answers = {d.seat: agents[d.seat].act(d.observation, d.legal) for d in dp}
        for g in games:
            g.step(answers)
    assert games[1].done
    return checked


def play_hand_both(rules: RiichiRules, make_wall: Any, scores: list[int], answer: Any) -> list[Any]:
    """One scripted hand (East 1, one honba, one riichi stick on the table) on the Python round
    and on the compiled one with the same answers: equal legal actions at every decision, and
    equal events, result, scores, sticks and Norths at the end."""
    from tenpai.rules.riichi.compiled_round import CompiledRound
    from tenpai.rules.riichi.flow.round import RiichiRound

    return _play_hand((RiichiRound, CompiledRound), rules, make_wall, scores, answer)


def play_hand(rules: RiichiRules, make_wall: Any, scores: list[int], answer: Any) -> list[Any]:
    """:func:`play_hand_both` when the compiled table is built and proven for ``rules``, else
    the hand on the Python round alone (``TENPAI_PURE_PYTHON=1``): the rounds, Python first."""
    from tenpai.rules.riichi import compiled_round
    from tenpai.rules.riichi.flow.round import RiichiRound

    if compiled_round.available() and compiled_round.covers(rules):
        return play_hand_both(rules, make_wall, scores, answer)
    return _play_hand((RiichiRound,), rules, make_wall, scores, answer)


def _play_hand(classes: tuple[Any, ...], rules: RiichiRules, make_wall: Any, scores: list[int],
               answer: Any) -> list[Any]:
    from tenpai.rules.riichi.game import default_scorer

    rounds: list[Any] = [
        cls(rules, make_wall(), bakaze=0, kyoku=0, honba=1, kyotaku=1, scores=scores,
            scorer=default_scorer())
        for cls in classes
    ]
    while not rounds[0].done:
        pending = [r.pending() for r in rounds]
        for other in pending[1:]:
            assert [(d.seat, d.legal) for d in pending[0]] == [(d.seat, d.legal) for d in other]
        answers = {d.seat: answer(d) for d in pending[0]}
        for r in rounds:
            r.step(answers)
    for other in rounds[1:]:
        assert other.done
        assert rounds[0].events == other.events, first_difference(rounds[0].events,
                                                                  other.events)
        assert rounds[0].result == other.result
        assert rounds[0].scores == other.scores and rounds[0].kyotaku == other.kyotaku
        assert rounds[0].nukidora == other.nukidora
    return rounds
