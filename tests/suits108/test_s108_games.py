"""Whole 108-tile games: invariants after every step, generic agents, the arena factory, the
observation, and re-driving a game from its own (mjai JSON) event log.

The long run (thousands of games) is marked slow:
``nice -n 10 .venv/bin/pytest tests/suits108 -m slow -q -s`` (about two CPU minutes).
"""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest

from tenpai.agents import make_agent
from tenpai.engine import Agent, GameFlow, RandomAgent, play
from tenpai.events import Event
from tenpai.rules.suits108 import (
    PAPER,
    PRESETS,
    RulesError,
    Suits108Game,
    make_game,
    win_multiplier,
)
from tenpai.rules.suits108.invariants import check_game
from tenpai.rules.suits108.replay import ReplayError, redrive
from tenpai.rules.suits108.round import Suits108Round


def _agents(kind: str, seed: int) -> list[Agent]:
    if kind == "random":
        return [RandomAgent(seed * 4 + i) for i in range(4)]
    if kind == "mixed":
        return [
            make_agent("efficiency", seed) if i % 2 else RandomAgent(seed + i) for i in range(4)
        ]
    return [make_agent(kind, seed * 4 + i) for i in range(4)]


def _check(game: GameFlow) -> None:
    assert isinstance(game, Suits108Game)
    check_game(game)


def _check_finished(game: Suits108Game) -> None:
    assert game.done
    assert sum(game.final_scores) == 4 * PAPER.starting_points
    assert game.events[-1] == Event("end_game", scores=game.final_scores)
    starts = [e for e in game.events if e.type == "start_kyoku"]
    assert [e.oya for e in starts] == [0, 1, 2, 3]
    for e in game.events:
        if e.type in ("hora", "ryukyoku"):
            assert sum(e.deltas) == 0
        if e.type == "hora":
            assert win_multiplier(e) >= 1 and max(e.deltas) > 0


@pytest.mark.parametrize("seed", range(24))
def test_random_games_keep_invariants(seed: int) -> None:
    game = Suits108Game(PAPER, seed=seed)
    play(game, _agents("random", seed), check=_check)
    _check_finished(game)


@pytest.mark.parametrize("seed", range(12))
def test_efficiency_games_keep_invariants(seed: int) -> None:
    game = Suits108Game(PAPER, seed=seed)
    play(game, _agents("efficiency", seed), check=_check)
    _check_finished(game)
    # The efficiency agent races to a ready hand: most hands end in a win.
    assert sum(e.type == "hora" for e in game.events) >= 2


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_plays(name: str) -> None:
    game = make_game(3, ["a", "b", "c", "d"], {"preset": name})
    play(game, _agents("mixed", 3), check=_check)
    assert game.done and game.events[0].names == ("a", "b", "c", "d")


def test_arena_factory_and_its_errors() -> None:
    game = make_game(5, "ABCD")
    assert game.pending() and not game.done and game.final_scores == ()
    with pytest.raises(RulesError, match="unknown suits108 preset"):
        make_game(5, "ABCD", {"preset": "nope"})
    with pytest.raises(RulesError, match="no option"):
        make_game(5, "ABCD", {"length": "tonpuu"})


def test_hands_per_game_is_a_setting() -> None:
    game = Suits108Game(PAPER.with_(hands_per_game=8), seed=1)
    play(game, _agents("random", 1))
    starts = [e for e in game.events if e.type == "start_kyoku"]
    assert [e.oya for e in starts] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert [(e.bakaze, e.kyoku) for e in starts][4] == (1, 0)
    assert len(game.results) == 8


def test_ranks_follow_scores_with_ties_to_the_earlier_seat() -> None:
    game = Suits108Game(PAPER, seed=9)
    play(game, _agents("efficiency", 9))
    order = game.rank_order()
    ranks = game.ranks()
    assert sorted(ranks) == [1, 2, 3, 4]
    for a, b in itertools.pairwise(order):
        sa, sb = game.final_scores[a], game.final_scores[b]
        assert sa > sb or (sa == sb and a < b)
    assert ranks[order[0]] == 1


def test_same_seed_same_walls_whatever_the_agents() -> None:
    a = Suits108Game(PAPER, seed=7)
    b = Suits108Game(PAPER, seed=7)
    play(a, _agents("random", 1))
    play(b, _agents("efficiency", 2))
    starts_a = [e for e in a.events if e.type == "start_kyoku"]
    starts_b = [e for e in b.events if e.type == "start_kyoku"]
    assert [e.tehais for e in starts_a] == [e.tehais for e in starts_b]
    c = Suits108Game(PAPER, seed=8)
    assert c.events[1].tehais != a.events[1].tehais


def test_same_seed_same_agents_same_game() -> None:
    def run() -> list[Event]:
        g = Suits108Game(PAPER, seed=42)
        play(g, _agents("mixed", 42))
        return g.events

    assert run() == run()


# --------------------------------------------------------------------------- observation


def test_observation_has_what_generic_agents_read() -> None:
    game = Suits108Game(PAPER, seed=4)
    # Play a while so rivers and melds are not empty.
    agents = _agents("random", 4)
    for _ in range(60):
        answers = {d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()}
        game.step(answers)
    assert game.round is not None
    rnd: Suits108Round = game.round
    d = game.pending()[0]
    obs = d.observation
    assert obs.seat == d.seat
    assert obs.hand == tuple(rnd.hands[d.seat])
    assert sum(obs.counts) == len(obs.hand) and len(obs.counts) == 34
    assert obs.counts[27:] == [0] * 7
    assert len(obs.melds) == 4 and len(obs.rivers) == 4
    assert obs.rivers == tuple(tuple(r) for r in rnd.rivers)
    assert obs.seat_wind == 27 + (d.seat - rnd.dealer) % 4
    assert obs.scores == tuple(rnd.scores)
    assert obs.riichi == obs.declared == tuple(rnd.declared)
    assert obs.dora_markers == () and obs.wall_remaining == rnd.wall.remaining
    seen = obs.visible_counts()
    river_tiles = Counter(
        t for s in range(4) for t, c in zip(rnd.rivers[s], rnd.river_called[s]) if not c
    )
    meld_tiles = Counter(t for s in range(4) for m in rnd.melds[s] for t in m.tiles)
    assert seen == [river_tiles[k] + meld_tiles[k] for k in range(34)]
    start = obs.events[0]
    assert start.type == "start_kyoku" and sum(h is not None for h in start.tehais) == 1
    assert not hasattr(obs, "hands") and not hasattr(obs, "wall")


def test_efficiency_agent_reads_this_observation() -> None:
    agent = make_agent("efficiency", 0)
    game = Suits108Game(PAPER, seed=12)
    (d,) = game.pending()
    choice = agent.act(d.observation, d.legal)
    assert choice in d.legal and choice.type in ("dahai", "reach", "hora", "ankan")


# --------------------------------------------------------------------------- replay


@pytest.mark.parametrize(
    ("kind", "seed"), [("random", 0), ("random", 1), ("efficiency", 2), ("mixed", 3)]
)
def test_a_game_redriven_from_its_own_log_reproduces_it(kind: str, seed: int) -> None:
    game = Suits108Game(PAPER, seed=seed)
    play(game, _agents(kind, seed))
    lines = [json.dumps(e.to_mjai()) for e in game.events]
    events = [Event.from_mjai(json.loads(line)) for line in lines]
    assert events == game.events
    again = redrive(events)
    assert again.events == game.events
    assert again.final_scores == game.final_scores


def test_a_tampered_log_is_reported_at_its_event() -> None:
    game = Suits108Game(PAPER, seed=5)
    play(game, _agents("random", 5))
    events = list(game.events)
    i = next(i for i, e in enumerate(events) if e.type == "dahai" and i > 20 and not e.tsumogiri)
    events[i] = events[i].with_(pai=(events[i].pai or 0) ^ 1, tsumogiri=False)
    with pytest.raises(ReplayError, match=r"event \d+"):
        redrive(events)
    with pytest.raises(ReplayError, match="start_game"):
        redrive(events[1:])


# --------------------------------------------------------------------------- long run


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["random", "efficiency"])
def test_thousands_of_games_keep_invariants(kind: str) -> None:
    """2000 random and 1000 efficiency games, invariants after every step."""
    n = 2000 if kind == "random" else 1000
    wins = Counter[int]()
    for seed in range(n):
        game = Suits108Game(PAPER, seed=10_000 + seed)
        play(game, _agents(kind, seed), check=_check)
        _check_finished(game)
        for e in game.events:
            if e.type == "hora":
                wins[win_multiplier(e)] += 1
    assert sum(wins.values()) > n // 4
    print(kind, n, "games; wins by multiplier:", sorted(wins.items()))


def test_factory_fits_the_arena_registry_entry() -> None:
    """What the arena would register (not registered here: the registry is global state)."""
    from tenpai.arena.games import RulesEntry
    from tenpai.rules.suits108 import ARENA_DEFAULTS

    entry = RulesEntry(
        name="suits108",
        factory=make_game,
        defaults=ARENA_DEFAULTS,
        choices={"preset": tuple(sorted(PRESETS))},
    )
    game = entry.factory(11, ("a", "b", "c", "d"), entry.options({"preset": "paper"}))
    play(game, _agents("random", 11))
    assert game.done and len(game.final_scores) == 4
