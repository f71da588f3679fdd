"""``search_mcr``: worlds that read no hidden tile, legal seeded games, settings in one line."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from typer.testing import CliRunner

from tenpai import tiles as T
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.agents.planner import PlannerAgent
from tenpai.agents.registry import make_agent
from tenpai.cli.main import app
from tenpai.engine.agent import Agent
from tenpai.engine.snapshot import clone
from tenpai.events import Event
from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.rules.mcr.flow.rules import BOTZONE, MCR_OFFICIAL, MCRRules
from tenpai.rules.mcr.game import MCRGame, tileset_for
from tenpai.search.mcr.agent import MCRSearchAgent, make_search_mcr_agent
from tenpai.search.mcr.playout import MCRPlayout, hand_value
from tenpai.search.mcr.policies import GreedyMCRPolicy
from tenpai.search.mcr.settings import MCRSearchSettings
from tenpai.search.mcr.worlds import MCRWorldSampler, hidden_wall_slots, mcr_unseen

#: Worlds cap binding long before the budget: searches are reproducible.
CAPPED = MCRSearchSettings(budget_ms=1e6, clock="cpu", worlds=3, top_k=2, close=0.0)


def _table_at(rules: MCRRules, seed: int, seat: int, nth: int, kind: str) -> MCRRound:
    """The hand of a seeded efficiency game at ``seat``'s ``nth`` decision offering ``kind``."""
    game = MCRGame(rules, seed=seed)
    agents = [EfficiencyAgent(s) for s in range(4)]
    seen = 0
    while not game.done:
        pending = game.pending()
        for d in pending:
            if d.seat == seat and any(e.type == kind for e in d.legal):
                seen += 1
                if seen == nth:
                    assert game.round is not None
                    return game.round
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in pending})
    raise AssertionError(f"seed {seed}: no {nth}th {kind} decision of seat {seat}")


def _swap_hidden(table: MCRRound, seat: int) -> MCRRound:
    """A copy differing only in hidden tiles: an opponent's concealed tile and an undrawn wall
    tile of another kind change places."""
    other = clone(table)
    opp = (seat + 2) % 4
    slots = hidden_wall_slots(other)  # one shared wall, or each seat's own
    lst, a, b = slots[opp] if len(slots) == 4 else slots[0]
    held = other.hands[opp]
    for i, t in enumerate(held):
        j = next((j for j in range(a, b) if not T.is_flower(lst[j])
                  and T.kind_of(lst[j]) != T.kind_of(t)), None)
        if j is not None:
            held[i], lst[j] = lst[j], t
            other.counts[opp] = T.counts34(held)
            return other
    raise AssertionError("nothing to swap")


def _world_tiles(rnd: MCRRound) -> Counter[int]:
    c: Counter[int] = Counter()
    for s in range(4):
        c.update(rnd.hands[s])
        c.update(t for t, called in zip(rnd.rivers[s], rnd.river_called[s]) if not called)
        for m in rnd.melds[s]:
            c.update(m.tiles)
        c.update(rnd.flowers[s])
    for lst, a, b in hidden_wall_slots(rnd):
        c.update(lst[a:b])
    return c


@pytest.mark.parametrize(("rules", "seed"), [(BOTZONE, 3), (MCR_OFFICIAL, 4)])
def test_a_world_keeps_the_view_and_conserves_the_tiles(rules: MCRRules, seed: int) -> None:
    table = _table_at(rules, seed, 0, 5, "dahai")
    world = MCRWorldSampler().sample(table, 0, 11).round
    assert _world_tiles(world) == Counter(tileset_for(rules))
    assert world.hands[0] == table.hands[0]
    assert [len(h) for h in world.hands] == [len(h) for h in table.hands]
    assert world.rivers == table.rivers and world.flowers == table.flowers
    assert [world.wall.remaining_for(s) for s in range(4)] == [
        table.wall.remaining_for(s) for s in range(4)]
    assert world.events == table._observe(0).events
    assert not any(T.is_flower(t) for s in range(4) for t in world.hands[s])
    assert world.hands[1:] != table.hands[1:]  # resampled (a coincidence is impossible here)
    assert sorted(mcr_unseen(world, 0)) == sorted(mcr_unseen(table, 0))


@pytest.mark.parametrize(("rules", "seed", "kind"), [
    (BOTZONE, 3, "dahai"), (MCR_OFFICIAL, 4, "dahai"), (BOTZONE, 5, "chi"),
])
def test_hidden_tiles_never_change_the_choice(rules: MCRRules, seed: int, kind: str) -> None:
    table = _table_at(rules, seed, 0, 3 if kind == "dahai" else 1, kind)
    twin = _swap_hidden(table, 0)
    assert twin.hands[2] != table.hands[2]
    sampler = MCRWorldSampler()
    for s in range(3):
        a, b = sampler.sample(table, 0, s).round, sampler.sample(twin, 0, s).round
        assert a.hands == b.hands and a.melds == b.melds
        assert [(d.seat, d.legal) for d in a.pending()] == [
            (d.seat, d.legal) for d in b.pending()]
        assert [w[x:y] for w, x, y in hidden_wall_slots(a)] == [
            w[x:y] for w, x, y in hidden_wall_slots(b)]
    agent = MCRSearchAgent(CAPPED, seed=7)
    d = next(d for d in table.pending() if d.seat == 0)
    d2 = next(d for d in twin.pending() if d.seat == 0)
    cands = list(dict.fromkeys(d.legal))[:3]
    assert len(cands) >= 2
    assert agent.values(table, 0, cands) == agent.values(twin, 0, cands)
    assert (MCRSearchAgent(CAPPED, seed=7).act(d.observation, d.legal)
            == MCRSearchAgent(CAPPED, seed=7).act(d2.observation, d2.legal))


def _game(seed: int, settings: MCRSearchSettings, rules: MCRRules = BOTZONE
          ) -> tuple[list[Event], MCRSearchAgent]:
    agent = MCRSearchAgent(settings, seed=seed)
    game = MCRGame(rules, seed=seed)
    agents: list[Agent] = [agent, PlannerAgent(1), EfficiencyAgent(2), PlannerAgent(3)]
    while not game.done:
        answers = {}
        for d in game.pending():
            a = agents[d.seat].act(d.observation, d.legal)
            assert a in d.legal
            answers[d.seat] = a
        game.step(answers)
    return game.events, agent


def test_search_plays_legal_moves_and_is_reproducible() -> None:
    searched = 0
    for seed in (21, 22):
        events, agent = _game(seed, CAPPED)
        again, _ = _game(seed, CAPPED)
        assert events == again
        searched += sum(d.searched for d in agent.log)
        assert all(d.worlds == 3 for d in agent.log if d.searched)
    assert searched > 0


def test_the_greedy_policy_plays_legal_hands_and_wins_when_offered() -> None:
    wins = 0
    for seed in range(4):
        game = MCRGame(BOTZONE, seed=seed)
        p = GreedyMCRPolicy(seed)
        while not game.done:
            answers = {}
            for d in game.pending():
                a = p.act(d.observation, d.legal)
                assert a in d.legal
                if any(e.type == "hora" for e in d.legal):
                    assert a.type == "hora"
                assert a.type in ("dahai", "hora", "none")
                answers[d.seat] = a
            game.step(answers)
        wins += game.results[-1].kind == "hora"
    assert wins > 0


def test_playouts_compare_candidates_on_common_random_numbers() -> None:
    table = _table_at(BOTZONE, 3, 0, 4, "dahai")
    world = MCRWorldSampler().sample(table, 0, 5).round
    d = next(d for d in world.pending() if d.seat == 0)
    a = d.legal[0]
    po = MCRPlayout("efficiency")
    r1, r2 = po.play_out(world, {0: a}, 9), po.play_out(world, {0: a}, 9)
    assert r1.events == r2.events and not world.done
    assert hand_value(r1, 0, "points") == r1.result.deltas[0]  # type: ignore[union-attr]
    assert 0.0 <= hand_value(r1, 0, "place") <= 3.0


def test_the_planner_ranking_starts_with_what_the_planner_plays() -> None:
    game = MCRGame(BOTZONE, seed=31)
    planner = PlannerAgent(0)
    checked = 0
    while not game.done:
        answers = {}
        for d in game.pending():
            a = planner.act(d.observation, d.legal)
            choice, ranked = planner.ranking(d.observation, d.legal)
            assert choice == a == ranked[0][0]
            assert all(e in d.legal for e, _v in ranked)
            assert len({e for e, _v in ranked}) == len(ranked)
            checked += 1
            answers[d.seat] = a
        game.step(answers)
    assert checked > 20


@pytest.mark.parametrize(("var", "value"), [
    ("TENPAI_SEARCH_MCR_BUDGET_MS", "0"),
    ("TENPAI_SEARCH_MCR_WORLDS", "1"),
    ("TENPAI_SEARCH_MCR_TOPK", "x"),
    ("TENPAI_SEARCH_MCR_POLICY", "psychic"),
    ("TENPAI_SEARCH_MCR_VALUE", "fame"),
    ("TENPAI_SEARCH_MCR_CLOSE", "2"),
    ("TENPAI_SEARCH_MCR_OWN", "oracle"),
])
def test_bad_settings_are_one_line_errors(var: str, value: str) -> None:
    with pytest.raises(ValueError, match=var) as err:
        make_search_mcr_agent(0, {var: value})
    assert "\n" not in str(err.value)


def test_registered_and_mcr_only() -> None:
    agent = make_agent("search_mcr", 3)
    assert isinstance(agent, MCRSearchAgent)
    r = CliRunner().invoke(app, ["arena", "--rules", "riichi", "--agents",
                                 "search_mcr,efficiency,efficiency,efficiency", "--games", "4",
                                 "--workers", "1", "--no-progress"])
    assert r.exit_code == 2 and "Traceback" not in r.output


@pytest.mark.parametrize(("var", "value"), [("TENPAI_SEARCH_MCR_BUDGET_MS", "-1"),
                                            ("TENPAI_SEARCH_MCR_POLICY", "psychic")])
def test_the_fronts_refuse_bad_settings_with_exit_2(
    monkeypatch: pytest.MonkeyPatch, var: str, value: str
) -> None:
    monkeypatch.setenv(var, value)
    r = CliRunner().invoke(app, ["arena", "--rules", "mcr", "--preset", "botzone", "--agents",
                                 "search_mcr,planner,planner,planner", "--games", "4",
                                 "--workers", "1", "--no-progress"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert var.removeprefix("TENPAI_") in r.output
    r = CliRunner().invoke(app, ["botzone-bot", "--agent", "search_mcr"], input="")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert var.removeprefix("TENPAI_") in r.output


def play_botzone_match(agent: MCRSearchAgent) -> None:
    """``agent`` answers every request of a seeded match of efficiency agents as seat 0's
    Botzone bot; no answer may fall back to the safe one."""
    import io

    from tenpai.arena.games import make_game
    from tenpai.engine.runner import play
    from tenpai.serve.botzone.bot import BotzoneBot
    from tenpai.serve.botzone.judge import requests_for
    from tenpai.serve.botzone.protocol import parse_response

    g = make_game("mcr", 2, list("abcd"), {"preset": "botzone"})
    play(g, [make_agent("efficiency", s) for s in range(4)])
    err = io.StringIO()
    bot = BotzoneBot(agent, err=err)
    for line in requests_for(g.events, 0):
        parse_response(bot.answer(line))
    assert err.getvalue() == "" and bot.lost is None
    assert sum(d.searched for d in agent.log) > 0


def test_the_botzone_bot_searches_on_its_seat_state() -> None:
    """The bot's table is a shadow round whose wall only counts tiles: the worlds replace it
    with a real wall and play out on the engine's own round (no answer falls back to safe)."""
    play_botzone_match(MCRSearchAgent(CAPPED, seed=0))


def test_the_planner_is_unsure_when_its_runner_up_comes_close() -> None:
    from tenpai.search.mcr.agent import planner_unsure

    a, b = Event("dahai", actor=0, pai=0), Event("dahai", actor=0, pai=9)
    assert not planner_unsure(None, [(a, 1.0)], 0.5)  # nothing to weigh
    assert planner_unsure(None, [(a, 1.0), (b, 0.6)], 0.5)
    assert not planner_unsure(None, [(a, 1.0), (b, 0.4)], 0.5)
    assert planner_unsure(None, [(a, 1.0), (b, 0.0)], 0.0)  # CLOSE 0: search every decision
    assert not planner_unsure(None, [(a, 1.0), (b, 0.99)], 1.0)  # CLOSE 1: exact ties only

    class View:  # no target anywhere: the runner-up must keep the same MCR shanten
        counts = T.counts34(T.parse("123456789m19p5s5z7z"))

    assert planner_unsure(View(), [(Event("dahai", actor=0, pai=T.parse("7z")[0]), 0.0),
                                   (Event("dahai", actor=0, pai=T.parse("5z")[0]), 0.0)], 0.5)
    assert not planner_unsure(View(), [(Event("dahai", actor=0, pai=T.parse("7z")[0]), 0.0),
                                       (Event("dahai", actor=0, pai=T.parse("5m")[0]), 0.0)], 0.5)


def test_clone_uses_the_substitutes_it_is_given() -> None:
    table = _table_at(BOTZONE, 3, 0, 2, "dahai")
    wall = object()
    copy = clone(table, {id(table.wall): wall})
    assert copy.wall is wall and table.wall is not wall
    assert copy.hands == table.hands and copy.hands is not table.hands


def test_search_plays_a_hand_of_the_official_preset() -> None:
    """One shared wall with flowers: the first hand of a full game, every answer legal."""
    agent = MCRSearchAgent(CAPPED, seed=5)
    game = MCRGame(MCR_OFFICIAL, seed=5)
    agents: list[Agent] = [agent, PlannerAgent(1), EfficiencyAgent(2), PlannerAgent(3)]
    while game.hand_index == 0:
        answers = {}
        for d in game.pending():
            a = agents[d.seat].act(d.observation, d.legal)
            assert a in d.legal
            answers[d.seat] = a
        game.step(answers)
    assert sum(d.searched for d in agent.log) > 0


def test_compiled_policy_without_the_core_says_why_and_names_the_python_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reason comes from `tenpai.native` (switched off / not built / stale), not a guess."""
    from tenpai.search.mcr import compiled

    monkeypatch.setattr(compiled._core, "module", None)
    monkeypatch.setenv("TENPAI_PURE_PYTHON", "1")
    with pytest.raises(ValueError) as raised:
        MCRSearchSettings(policy="c:greedy")
    message = str(raised.value)
    assert "TENPAI_SEARCH_MCR_POLICY=c:greedy: the compiled MCR rollout core" in message
    assert "is switched off (TENPAI_PURE_PYTHON is set)" in message
    assert message.endswith("or use its Python reference greedy")
    assert "\n" not in message


def test_the_registered_search_takes_its_prior_from_the_planner_variables() -> None:
    """``$TENPAI_PLANNER_*`` means the same under the search as for ``planner`` alone: the
    prior is the registered planner with those settings, named in the record of who played;
    with none set it is the shipped planner and the record is as before."""
    plain = make_search_mcr_agent(0, {})
    assert plain.planner.settings == PlannerAgent(0).settings
    assert plain.identity.startswith("prior planner; ")
    light = make_search_mcr_agent(0, {"TENPAI_PLANNER_FAN_WEIGHT": "0"})
    assert light.planner.settings.fan_weight == 0.0
    assert light.identity.startswith("prior planner (fan_weight=0.0); ")
    assert light.identity.split("; ", 1)[1] == plain.identity.split("; ", 1)[1]
    with pytest.raises(ValueError, match=r"^TENPAI_PLANNER_FAN_WEIGHT must be in \[0, 10\]"):
        make_search_mcr_agent(0, {"TENPAI_PLANNER_FAN_WEIGHT": "-1"})


def test_a_bad_planner_variable_stops_an_arena_of_search_mcr_with_exit_2(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TENPAI_PLANNER_FAN_WEIGHT", "99")
    r = CliRunner().invoke(app, ["arena", "--rules", "mcr", "--agents",
                                 "search_mcr,efficiency,efficiency,efficiency", "--games", "4",
                                 "--workers", "1", "--no-progress"])
    assert r.exit_code == 2
    assert "Traceback" not in r.output and "PLANNER_FAN_WEIGHT" in r.output


def test_the_planner_can_play_the_searching_seat_in_the_playouts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``OWN=planner``: the searching seat's decisions after its candidate go to the planner,
    every other seat's to the playout policy; the hand still compares on common numbers."""
    from tenpai.search.mcr import playout as playout_module

    asked: list[int] = []

    class Spy:
        def __init__(self, seed: int) -> None:
            self.inner = playout_module._planner(seed)

        def act(self, observation: Any, legal: Any) -> Any:
            asked.append(observation.seat)
            return self.inner.act(observation, legal)

    monkeypatch.setitem(playout_module.OWN_POLICIES, "planner", Spy)
    table = _table_at(BOTZONE, 3, 0, 4, "dahai")
    world = MCRWorldSampler().sample(table, 0, 5).round
    d = next(d for d in world.pending() if d.seat == 0)
    po = MCRPlayout("greedy", own="planner")
    assert po.name == "python-mcr:greedy+own:planner"
    r1 = po.play_out(world, {0: d.legal[0]}, 9)
    assert asked and set(asked) == {0}
    assert po.play_out(world, {0: d.legal[0]}, 9).events == r1.events and not world.done
    same = MCRPlayout("greedy").play_out(world, {0: d.legal[0]}, 9)
    assert same.result is not None and r1.result is not None


def test_the_planner_in_the_playouts_is_read_and_refused_with_compiled_playouts() -> None:
    agent = make_search_mcr_agent(0, {"TENPAI_SEARCH_MCR_OWN": "planner",
                                      "TENPAI_SEARCH_MCR_POLICY": "greedy"})
    assert agent.settings.own == "planner"
    assert "own:planner" in agent.identity and "own=planner" in agent.identity
    with pytest.raises(ValueError, match="TENPAI_SEARCH_MCR_OWN=planner needs a Python") as err:
        MCRSearchSettings(own="planner", policy="c:greedy")
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="unknown player of the searching seat"):
        MCRPlayout("greedy", own="oracle")
