"""The vectorised runner: the games of the plain loop, whatever the batch, with trajectories."""

from __future__ import annotations

import pytest

from tenpai.agents import make_agent
from tenpai.arena.games import make_game
from tenpai.arena.record import final_ranks
from tenpai.engine.runner import play
from tenpai.selfplay import (
    SeatSpec,
    SelfPlaySpec,
    VectorRunner,
    agent_seed,
    iter_selfplay,
    run_selfplay,
)

from .helpers import CountingAgent, counting_factory, fingerprint, riichi_checker

LINEUP = ("efficiency", "random", "efficiency", "random")


def _spec(games: int = 5, rules: str = "riichi", **options: str) -> SelfPlaySpec:
    opts = {"length": "tonpuu"} if rules == "riichi" else {}
    return SelfPlaySpec.series(rules, LINEUP, first_seed=11, games=games, options=opts | options)


def test_same_games_for_any_number_of_tables() -> None:
    spec = _spec(games=4)
    one = run_selfplay(spec, tables=1)
    assert [g.index for g in one] == list(range(4))
    for tables in (3, 16):
        assert fingerprint(run_selfplay(spec, tables=tables)) == fingerprint(one)


@pytest.mark.parametrize(
    ("rules", "options"),
    [("riichi", {"length": "tonpuu"}), ("mcr", {"preset": "botzone"}), ("suits108", {})],
)
def test_games_equal_the_plain_play_loop(rules: str, options: dict[str, str]) -> None:
    spec = SelfPlaySpec.series(rules, LINEUP, first_seed=3, games=3, options=options)
    games = run_selfplay(spec, tables=2)
    for g in games:
        agents = [make_agent(n, agent_seed(g.seed, s)) for s, n in enumerate(LINEUP)]
        flow = make_game(rules, g.seed, LINEUP, spec.options)
        play(flow, agents)
        assert g.events == tuple(flow.events)
        assert g.final_scores == tuple(flow.final_scores)
        assert g.ranks == tuple(final_ranks(flow.final_scores))
        assert g.names == LINEUP


def test_invariants_hold_after_every_step_of_every_table() -> None:
    seen = []

    def check(game: object) -> None:
        riichi_checker(game)  # type: ignore[arg-type]
        seen.append(id(game))

    games = run_selfplay(_spec(games=3), tables=3, check=check)
    assert len(set(seen)) == 3
    for g in games:
        assert sum(g.final_scores) == 100_000
        assert sorted(g.ranks) == [1, 2, 3, 4]


def test_trajectories_hold_every_decision_of_recorded_seats() -> None:
    seats = [
        SeatSpec(counting_factory, record=True),
        SeatSpec("random", record=False),
        SeatSpec(counting_factory, record=True),
        SeatSpec("efficiency", record=False),
    ]
    spec = SelfPlaySpec.series("riichi", seats, first_seed=5, games=3, options={"length": "tonpuu"})
    for g in run_selfplay(spec, tables=2):
        assert {s.seat for s in g.steps} == {0, 2}
        for seat in (0, 2):
            steps = g.steps_of(seat)
            assert [s.info[0] for s in steps] == list(range(len(steps)))
            assert all(s.info[1] == len(s.legal) and s.action in s.legal for s in steps)
            discards = [e for e in g.events if e.type == "dahai" and e.actor == seat]
            assert len(discards) == sum(1 for s in steps if s.action.type == "dahai")
        indices = [s.event_index for s in g.steps]
        assert indices == sorted(indices) and all(0 < i <= len(g.events) for i in indices)
        assert g.decisions > len(g.steps)  # the unrecorded seats decided too


def test_steps_without_info_are_none_and_game_order_is_kept() -> None:
    g = run_selfplay(_spec(games=1), tables=1)[0]
    assert g.steps and all(s.info is None for s in g.steps)
    assert len(g.steps) == g.decisions
    assert [s.turn for s in g.steps] == sorted(s.turn for s in g.steps)


def test_shared_agent_object_answers_all_tables_in_one_call_per_step() -> None:
    shared = CountingAgent(0)
    spec = SelfPlaySpec.series("riichi", [shared] * 4, first_seed=0, games=4)
    runner = VectorRunner(spec, tables=4)
    games = runner.run()
    assert runner.answered == sum(g.decisions for g in games) == shared.asked
    assert runner.calls < runner.answered / 2  # batched, not one call per decision
    # Deterministic shared agent: the same games one table at a time.
    again = SelfPlaySpec.series("riichi", [CountingAgent(0)] * 4, first_seed=0, games=4)
    single = run_selfplay(again, tables=1)
    assert [g.events for g in single] == [g.events for g in games]


def test_generator_yields_games_as_they_finish_and_callback_sees_each() -> None:
    spec = _spec(games=3)
    seen: list[int] = []
    it = iter_selfplay(spec, tables=1, on_game=lambda g: seen.append(g.index))
    first = next(it)
    assert first.index == 0 and seen == [0]
    rest = list(it)
    assert [g.index for g in rest] == [1, 2] and seen == [0, 1, 2]


def test_runner_step_api_stops_on_any_budget() -> None:
    runner = VectorRunner(_spec(games=4), tables=2)
    runner.step()
    assert runner.live == 2 and not runner.done and runner.answered > 0
    finished = []
    while not runner.done:
        finished += runner.step()
    assert sorted(g.index for g in finished) == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: run_selfplay(_spec(), tables=-1), "tables must be a positive"),
        (lambda: run_selfplay(_spec(), tables=0), "tables must be a positive"),
        (lambda: run_selfplay(_spec(), workers=0), "workers must be a positive"),
        (lambda: run_selfplay(_spec(), backend="spark"), "unknown backend"),
        (lambda: _spec(games=0), "games must be at least 1"),
        (lambda: SelfPlaySpec("riichi", tuple(map(SeatSpec, LINEUP)), ()),
         "at least one game seed"),
        (lambda: SelfPlaySpec.series("riichi", ["nobody"] * 4, 0, 1), "unknown agent 'nobody'"),
        (lambda: SelfPlaySpec.series("riichi", LINEUP[:3], 0, 1), "seat 4 agents, got 3"),
        (lambda: SelfPlaySpec.series("chess", LINEUP, 0, 1), "unknown rules 'chess'"),
        (lambda: SeatSpec(42), "registry name, an agent object or a factory"),  # type: ignore[arg-type]
        (lambda: SeatSpec(counting_factory, shared=True), "shared=True needs"),
    ],
)
def test_bad_arguments_raise_clear_value_errors(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]
