"""The compiled MCR playouts (``c:greedy``) against their specification, the Python engine with
``GreedyMCRPolicy`` in every seat: the same states give the same deltas, winner, discarder,
fan total and fans; malformed states are typed errors, never a crash."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from tenpai import tiles as T
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.engine.agent import RandomAgent
from tenpai.engine.snapshot import clone
from tenpai.hand import shanten_mcr
from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.rules.mcr.flow.rules import BOTZONE, MCR_OFFICIAL
from tenpai.rules.mcr.game import MCRGame
from tenpai.search.mcr import compiled
from tenpai.search.mcr.compiled import (
    CompiledMCRPlayout,
    MCRRolloutStateError,
    export_state,
)
from tenpai.search.mcr.playout import MCRPlayout, hand_value
from tenpai.search.mcr.policies import GreedyMCRPolicy
from tenpai.search.mcr.settings import MCRSearchSettings
from tenpai.search.mcr.worlds import MCRWorldSampler

#: Every test but the one about a missing build needs the core.
needs_core = pytest.mark.skipif(not compiled.available(),
                                reason="the compiled MCR rollout core is not built")


def _mixed_agents(rng: random.Random, seed: int) -> list[Any]:
    """Efficiency (calls, kongs), greedy (neither) and random (everything, kongs and their rob
    windows included) seats, drawn per game."""
    out: list[Any] = []
    for s in range(4):
        pick = rng.random()
        if pick < 0.5:
            out.append(EfficiencyAgent(seed * 4 + s))
        elif pick < 0.75:
            out.append(GreedyMCRPolicy(seed * 4 + s))
        else:
            out.append(RandomAgent(seed * 4 + s))
    return out


def tables(n: int, seed0: int = 0) -> Iterator[MCRRound]:
    """``n`` mid-hand tables: seeded botzone deals advanced a random number of steps by mixed
    agents (deals that end first are skipped)."""
    made = 0
    g = seed0
    while made < n:
        rng = random.Random(g)
        game = MCRGame(BOTZONE, seed=g)
        agents = _mixed_agents(rng, g)
        stop = rng.randrange(0, 140)
        for _ in range(stop):
            if game.done:
                break
            game.step({d.seat: agents[d.seat].act(d.observation, d.legal)
                       for d in game.pending()})
        g += 1
        if game.done or game.round is None:
            continue
        made += 1
        yield game.round


def _key(rnd: Any) -> tuple[Any, ...]:
    r = rnd.result
    return (r.kind, list(r.deltas), r.winner, r.target, r.fan, r.fans, list(rnd.scores))


def _compare(world: MCRRound, first: dict[int, Any], seed: int, c: CompiledMCRPlayout,
             py: MCRPlayout) -> tuple[Any, ...]:
    want = _key(py.play_out(world, first, seed))
    got = _key(c.play_out(world, first, seed))
    assert got == want, (f"{world._where()} phase {world.phase} first {first}:\n"
                         f" python {want}\n compiled {got}")
    return want


def _check_tables(n: int, seed0: int, policy: str = "greedy") -> dict[str, int]:
    """Every pending seat's every legal answer, on the true table and on a world sampled for
    that seat, played both ways; returns counts of what was compared."""
    c, py = CompiledMCRPlayout(policy), MCRPlayout(policy)
    seen = {"states": 0, "playouts": 0, "hora": 0, "tsumo": 0, "exhaustive": 0}
    for i, rnd in enumerate(tables(n, seed0)):
        seen["states"] += 1
        seen[f"phase {rnd.phase}"] = seen.get(f"phase {rnd.phase}", 0) + 1
        # the state as it is: every pending seat answers greedily
        ends = [_compare(rnd, {}, i, c, py)]
        for d in rnd.pending():
            for e in d.legal:
                ends.append(_compare(rnd, {d.seat: e}, i, c, py))
            world = MCRWorldSampler().sample(rnd, d.seat, seed0 + i).round
            wd = next(x for x in world.pending() if x.seat == d.seat)
            for e in wd.legal:
                ends.append(_compare(world, {d.seat: e}, i, c, py))
        for end in ends:
            seen["playouts"] += 1
            if end[0] == "hora":
                seen["hora"] += 1
                seen["tsumo"] += end[2] == end[3]
            else:
                seen["exhaustive"] += 1
    assert c.fallbacks == 0
    return seen


@needs_core
def test_compiled_greedy_equals_the_python_engine() -> None:
    seen = _check_tables(100, 0)
    # the check reached wins of both kinds and drawn hands
    assert seen["tsumo"] > 10 and seen["hora"] - seen["tsumo"] > 10 and seen["exhaustive"] > 10


@needs_core
@pytest.mark.slow
def test_compiled_greedy_equals_the_python_engine_many() -> None:
    seen = _check_tables(3000, 100_000)
    print(seen)


def _count_folds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the Python policy's folding discards that are not greedy's (the C side has no
    such hook)."""
    from tenpai.search.mcr import policies

    folds = [0]
    safest = policies._safest

    def counted(observation: Any, discards: Any) -> Any:
        e = safest(observation, discards)
        folds[0] += e != GreedyMCRPolicy().act(observation, discards)
        return e

    monkeypatch.setattr(policies, "_safest", counted)
    return folds


@needs_core
def test_compiled_greedy_fold_equals_the_python_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    folds = _count_folds(monkeypatch)
    seen = _check_tables(60, 0, "greedy-fold")
    assert seen["hora"] > 10 and seen["exhaustive"] > 10
    assert folds[0] > 100, folds  # folds that differ from greedy's discard are played


@needs_core
@pytest.mark.slow
def test_compiled_greedy_fold_equals_the_python_engine_many(
        monkeypatch: pytest.MonkeyPatch) -> None:
    folds = _count_folds(monkeypatch)
    seen = _check_tables(3000, 100_000, "greedy-fold")
    print(seen, "folding discards unlike greedy's", folds[0])


@needs_core
def test_search_worlds_give_the_same_leaf_values() -> None:
    """The worlds search_mcr samples, valued by both playouts exactly as the agent values them."""
    c, py = CompiledMCRPlayout(), MCRPlayout("greedy")
    n = 0
    for i, rnd in enumerate(tables(25, 5000)):
        for d in rnd.pending():
            for w in range(3):
                world = MCRWorldSampler().sample(rnd, d.seat, 1000 * i + w).round
                for e in d.legal[:3]:
                    wd = next(x for x in world.pending() if x.seat == d.seat)
                    cand = next((x for x in wd.legal if x == e), None)
                    if cand is None:
                        continue
                    for value in ("points", "place"):
                        a = hand_value(py.play_out(world, {d.seat: cand}, w), d.seat, value)
                        b = hand_value(c.play_out(world, {d.seat: cand}, w), d.seat, value)
                        assert a == b
                        n += 1
    assert n > 100


@needs_core
def test_the_world_is_not_stepped() -> None:
    rnd = next(iter(tables(1, 7)))
    before = export_state(rnd)
    d = rnd.pending()[0]
    CompiledMCRPlayout().play_out(rnd, {d.seat: d.legal[-1]}, 0)
    assert export_state(rnd) == before


@needs_core
def test_the_compiled_shanten_is_the_python_one() -> None:
    rng = random.Random(3)
    tiles = [k for k in range(34) for _ in range(4)]
    for _ in range(3000):
        size = rng.choice((1, 2, 4, 5, 7, 8, 10, 11, 13, 14))
        counts = [0] * 34
        for t in rng.sample(tiles, size):
            counts[t] += 1
        assert compiled._need().shanten(counts) == shanten_mcr(counts), counts


@needs_core
def test_other_presets_are_refused_in_one_line() -> None:
    game = MCRGame(MCR_OFFICIAL, seed=1)
    assert game.round is not None
    d = game.pending()[0]
    with pytest.raises(MCRRolloutStateError, match="botzone") as err:
        CompiledMCRPlayout().play_out(game.round, {d.seat: d.legal[-1]}, 0)
    assert "\n" not in str(err.value)


@needs_core
def test_the_setting_selects_the_compiled_playout() -> None:
    from tenpai.search.mcr.agent import make_search_mcr_agent

    agent = make_search_mcr_agent(1, {"TENPAI_SEARCH_MCR_POLICY": "c:greedy"})
    assert isinstance(agent.playout, CompiledMCRPlayout)
    with pytest.raises(ValueError, match="unknown playout policy 'c:fast'"):
        MCRSearchSettings(policy="c:fast")


def test_without_the_build_the_setting_is_one_line_and_python_still_plays() -> None:
    code = (
        "from tenpai.search.mcr import compiled\n"
        "from tenpai.search.mcr.settings import MCRSearchSettings\n"
        "assert not compiled.available()\n"
        "try:\n"
        "    MCRSearchSettings(policy='c:greedy')\n"
        "except ValueError as e:\n"
        "    assert '\\n' not in str(e) and 'TENPAI_PURE_PYTHON' in str(e), e\n"
        "else:\n"
        "    raise SystemExit('accepted')\n"
        "from tenpai.rules.mcr.game import MCRGame\n"
        "from tenpai.rules.mcr.flow.rules import BOTZONE\n"
        "from tenpai.search.mcr.playout import MCRPlayout\n"
        "g = MCRGame(BOTZONE, seed=2)\n"
        "d = g.pending()[0]\n"
        "assert MCRPlayout('greedy').play_out(g.round, {d.seat: d.legal[-1]}, 0).done\n"
    )
    env = {**os.environ, "TENPAI_PURE_PYTHON": "1"}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=120)


# ---------------------------------------------------------------------------- malformed states


def _mutations(state: tuple[Any, ...], rng: random.Random) -> tuple[Any, ...]:
    s = list(state)
    hands = [list(h) for h in s[4]]
    walls = [list(w) for w in s[8]]
    pick = rng.randrange(14)
    if pick == 0:  # a fifth copy: a wall tile becomes a kind already held four times
        kinds = [k for h in hands for k in h] + [k for w in walls for k in w]
        k = rng.choice(kinds)
        for w in walls:
            if w:
                w[0] = k
        s[8] = tuple(tuple(w) for w in walls)
        hands[0] = hands[0] + [k, k, k, k][: max(0, 14 - len(hands[0]))]
    elif pick == 1:  # a hand of the wrong size
        p = rng.randrange(4)
        hands[p] = hands[p][:-1] if rng.random() < 0.5 else [*hands[p], 0]
    elif pick == 2:  # an unknown phase
        s[10] = rng.choice((4, -1, 99))
    elif pick == 3:
        s[rng.randrange(len(s))] = "x"
    elif pick == 4:
        s = s[: rng.randrange(len(s))]
    elif pick == 5:  # a drawn tile not in hand
        s[11] = next(k for k in range(34) if k not in hands[s[9]])
        s[10] = 0
    elif pick == 6:  # a broken meld
        melds = [list(m) for m in s[5]]
        melds[rng.randrange(4)].append((rng.randrange(6), (1, 5, 9)))
        s[5] = tuple(tuple(m) for m in melds)
    elif pick == 7:  # a tile code out of range (a red five, a flower, garbage)
        p = rng.randrange(4)
        if hands[p]:
            hands[p][0] = rng.choice((34, 37, 44, -1, 1 << 40))
    elif pick == 8:  # too many wall tiles
        walls[rng.randrange(4)] = [*range(34), 0]
        s[8] = tuple(tuple(w) for w in walls)
    elif pick == 9:  # a claim window without its discard
        s[10], s[13], s[14] = 1, rng.randrange(4), rng.randrange(34)
    elif pick == 10:  # rivers and flags of different lengths
        s[7] = ((1,), (), (), ())
    elif pick == 11:  # three seats
        s[4] = tuple(s[4])[:3]
    elif pick == 12:  # a rob window without a kong
        s[10], s[13], s[14] = 3, s[9], rng.randrange(34)
    else:  # after_kan without a kong, winds out of range
        s[12] = 1
        s[rng.choice((0, 1))] = rng.choice((4, -2))
    if pick not in (3, 4, 11):
        s[4] = tuple(tuple(h) for h in hands)
    return tuple(s)


@needs_core
def test_malformed_states_are_typed_errors() -> None:
    module = compiled._need()
    states = [export_state(r) for r in tables(20, 900)]
    rng = random.Random(11)
    refused = 0
    for i in range(600):
        bad = _mutations(rng.choice(states), rng)
        first = rng.choice((-1, -1, -1, rng.randrange(-3, 40)))
        try:
            module.run(bad, first)
        except MCRRolloutStateError as e:
            refused += 1
            assert "\n" not in str(e)
        except Exception as e:  # anything else is the failure being tested
            pytest.fail(f"mutation {i}: {type(e).__name__}: {e} for {bad!r}")
    assert refused > 500


@needs_core
def test_a_fifth_copy_and_a_wrong_hand_size_are_named() -> None:
    state = list(export_state(next(iter(tables(1, 3)))))
    hands = [list(h) for h in state[4]]
    p = next(p for p in range(4) if len(hands[p]) == 13)
    k = hands[p][0]
    walls = [list(w) for w in state[8]]
    walls[p] = [k, k, k, k, *walls[p][4:]]
    bad = list(state)
    bad[8] = tuple(tuple(w) for w in walls)
    with pytest.raises(MCRRolloutStateError, match="copies of kind"):
        compiled.run(tuple(bad))
    hands[p] = hands[p][:-1]
    bad = list(state)
    bad[4] = tuple(tuple(h) for h in hands)
    with pytest.raises(MCRRolloutStateError, match=f"seat {p} holds 12 concealed tiles"):
        compiled.run(tuple(bad))


def test_tile_codes_are_kinds_under_botzone() -> None:
    # the export relies on it: no red fives and no flowers in the botzone tile set
    from tenpai.rules.mcr.game import tileset_for

    assert sorted(set(tileset_for(BOTZONE))) == list(range(34))
    assert all(T.kind_of(t) == t for t in range(34))


@needs_core
def test_the_botzone_bot_searches_with_compiled_playouts() -> None:
    """The bot's seat state becomes an engine round with real per-seat walls in each world, so
    ``c:greedy`` plays there too (no answer falls back to the bot's safe answer)."""
    import io
    from dataclasses import replace

    from tenpai.agents.registry import make_agent
    from tenpai.arena.games import make_game
    from tenpai.engine.runner import play
    from tenpai.search.mcr.agent import MCRSearchAgent
    from tenpai.serve.botzone.bot import BotzoneBot
    from tenpai.serve.botzone.judge import requests_for
    from tenpai.serve.botzone.protocol import parse_response

    g = make_game("mcr", 2, list("abcd"), {"preset": "botzone"})
    play(g, [make_agent("efficiency", s) for s in range(4)])
    settings = replace(MCRSearchSettings(budget_ms=1e6, clock="cpu", worlds=3, top_k=2,
                                         close=0.0), policy="c:greedy")
    agent = MCRSearchAgent(settings, seed=0)
    err = io.StringIO()
    bot = BotzoneBot(agent, err=err)
    for line in requests_for(g.events, 0):
        parse_response(bot.answer(line))
    assert err.getvalue() == "" and bot.lost is None
    assert sum(d.searched for d in agent.log) > 0
    assert isinstance(agent.playout, CompiledMCRPlayout) and agent.playout.fallbacks == 0
    assert agent.playout.exported > 0  # its worlds are drawn into the core's state too


@needs_core
@pytest.mark.parametrize("policy", ["greedy", "greedy-fold"])
def test_a_searched_game_is_the_same_with_either_playout(policy: str) -> None:
    """Same worlds, same hand ends: search_mcr with c:greedy (c:greedy-fold) plays exactly the
    game it plays with the Python greedy (greedy-fold) playouts."""
    from dataclasses import replace

    from tenpai.agents.planner import PlannerAgent
    from tenpai.search.mcr.agent import MCRSearchAgent

    base = MCRSearchSettings(budget_ms=1e6, clock="cpu", worlds=3, top_k=2, close=0.0)
    games = []
    for name in (policy, f"c:{policy}"):
        search = MCRSearchAgent(replace(base, policy=name), seed=4)
        planners = [PlannerAgent(s) for s in range(4)]
        game = MCRGame(BOTZONE, seed=41)
        while not game.done:
            game.step({d.seat: (search if d.seat == 1 else planners[d.seat]).act(
                d.observation, d.legal) for d in game.pending()})
        assert sum(d.searched for d in search.log) > 3
        games.append((game.events, [(d.searched, d.worlds, d.changed) for d in search.log]))
    assert games[0] == games[1]


def _rob_round(b_wins: bool) -> MCRRound:
    """A botzone hand where seat 0 may add the fourth 1-bamboo to its pung and seat 2 waits on
    it with a full flush (``b_wins``) or, with one bamboo swapped for a character, not at all."""
    from collections import Counter

    from tenpai.engine.meld import Meld
    from tenpai.rules.mcr.flow.wall import SeatWalls

    robber = [19, 20, 21, 22, 23, 24, 25, 26, 26, 26, 22, 22, 22]
    if not b_wins:
        robber[0] = 0
    mover = [1, 2, 3, 4, 5, 6, 9, 10, 11, 27, 18]  # the drawn 1-bamboo last
    left = Counter(k for k in range(34) for _ in range(4))
    left.subtract([18, 18, 18, *mover, *robber])
    rest = sorted(left.elements())
    rng = random.Random(5)
    rng.shuffle(rest)
    others = {1: rest[:13], 3: rest[13:26]}
    rest = rest[26:]
    walls = [rest[:20], rest[20:41], rest[41:62], rest[62:]]
    game = MCRGame(BOTZONE, seed=9)
    assert game.round is not None
    rnd = clone(game.round)
    assert isinstance(rnd.wall, SeatWalls)
    rnd.wall.walls = walls
    rnd.wall._pos = [0, 0, 0, 0]
    rnd.hands = [mover, others[1], robber, others[3]]
    rnd.counts = [T.counts34(h) for h in rnd.hands]
    rnd.melds = [[Meld("pon", (18, 18, 18), 18, 3)], [], [], []]
    rnd.rivers = [[], [], [], [18]]
    rnd.river_called = [[], [], [], [True]]
    rnd.turn, rnd.phase, rnd.drawn, rnd.after_kan = 0, "act", 18, False
    rnd._pending = [rnd._decide(0, rnd._rule_self_actions(0))]
    return rnd


@needs_core
@pytest.mark.parametrize("b_wins", [True, False])
def test_an_added_kong_robbed_or_standing(b_wins: bool) -> None:
    """The rob window seeded games never reach: the added kong robbed (抢杠和, on the exported
    rob window and as the searched candidate), or standing, with its replacement draw."""
    rnd = _rob_round(b_wins)
    (d,) = rnd.pending()
    kakan = next(e for e in d.legal if e.type == "kakan")
    c, py = CompiledMCRPlayout(), MCRPlayout("greedy")
    end = _compare(rnd, {0: kakan}, 0, c, py)
    after = clone(rnd)
    after.step({0: kakan})
    if b_wins:
        assert after.phase == "rob" and end[2] == 2 and end[3] == 0
        assert any(name == "抢杠和" for name, _ in end[5])
        assert _compare(after, {}, 0, c, py) == end
    else:
        assert after.phase == "act" and after.after_kan
        _compare(after, {}, 0, c, py)
    for e in d.legal:
        _compare(rnd, {0: e}, 0, c, py)
