"""``mcts_pg``: seed 000's tree search over sampled worlds with search's parts (issue 38 §2).

Legal answers through seeded games, one search reproducible per seed, the real table's hidden
tiles never read, opponents' nodes asked about their sampled hands, bad settings in one line.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from typer.testing import CliRunner

# the search tests' seeded games (tests/ is on pytest's path: each test folder
# is a package; not on mypy's, which reads these names as Any: see [tool.mypy])
from search.helpers import (
    TONPUU,
    find,
    play_last_hand,
    play_through_mjai_bot,
    swap_hidden_tiles,
)
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.cli.main import app
from tenpai.engine.flow import Decision
from tenpai.events import Event
from tenpai.mcts.pg_agent import MCTSPGAgent, make_mcts_pg_agent
from tenpai.mcts.pg_settings import MCTSPGSettings
from tenpai.mcts.world_tree import SampledSeatView
from tenpai.search.prior import AgentPrior
from tenpai.search.worlds import WorldSampler

#: Small and capped: the simulation count binds, never the (huge) budget.
#: "auto": the compiled playouts when built, else their Python reference (the same hand ends).
SMALL = MCTSPGSettings(budget_ms=1e6, worlds=2, simulations=4, top_k=2, policy="auto")


def _agent(seed: int, settings: MCTSPGSettings = SMALL) -> MCTSPGAgent:
    return MCTSPGAgent(AgentPrior(EfficiencyAgent(seed), 0.5), settings=settings, seed=seed)


def _short_game(seed: int) -> tuple[list[Event], MCTSPGAgent]:
    """The last hand of a tonpuu game, ``mcts_pg`` in seat 0 against ``efficiency``."""
    agent = _agent(seed)
    return play_last_hand(agent, seed), agent


def test_mcts_pg_plays_legal_moves_through_seeded_games() -> None:
    searched = 0
    for seed in (0,):
        _events, agent = _short_game(seed)
        searched += sum(s.searched for s in agent.log)
        for s in agent.log:
            if s.searched:
                assert s.simulations == SMALL.worlds * SMALL.simulations
                assert sum(s.visits) == s.simulations
    assert searched > 5


def test_a_capped_search_is_reproducible_per_seed() -> None:
    a, agent_a = _short_game(4)
    b, agent_b = _short_game(4)
    assert a == b
    assert [s.visits for s in agent_a.log] == [s.visits for s in agent_b.log]


def test_the_search_never_reads_the_real_tables_hidden_tiles() -> None:
    rnd, d = find(lambda r, d: len(r.events) > 40 and r.phase == "act" and len(d.legal) > 3)
    other = swap_hidden_tiles(rnd, d.seat)
    opp = (d.seat + 1) % 4
    assert other.hands[opp] != rnd.hands[opp]
    mine = next(x for x in other.pending() if x.seat == d.seat)
    choices, logs = [], []
    for dec in (d, mine):
        agent = _agent(7, dataclasses.replace(SMALL, worlds=3, simulations=10))
        choices.append(agent.act(dec.observation, dec.legal))
        logs.append(agent.log[-1])
    assert logs[0].searched and logs[1].searched
    assert choices[0] == choices[1]
    assert logs[0].visits == logs[1].visits


def test_an_opponents_node_is_asked_about_its_sampled_hand() -> None:
    rnd, d = find(lambda r, d: len(r.events) > 30 and r.phase == "act")
    world = WorldSampler().sample(rnd, d.seat, 3).round
    opp = (d.seat + 1) % 4
    # a decision of the opponent in the world: the seat's own view masks its deal
    obs = world._observe(opp)
    fake = Decision(opp, (), obs)
    view = SampledSeatView(fake, world.hands[opp])
    counts = view.table_picture.hand_counts(opp)
    assert sum(counts) == len(world.hands[opp])
    from tenpai import tiles as T

    assert counts == list(T.counts34(world.hands[opp]))
    assert world.hands[opp] != rnd.hands[opp]  # sampled, not the real tiles


def test_mcts_pg_with_the_pg_prior_searches_a_decision() -> None:
    pytest.importorskip("torch")
    _rnd, d = find(lambda r, d: len(r.events) > 30 and r.phase == "act" and len(d.legal) > 5)
    agent = make_mcts_pg_agent(1, {"TENPAI_MCTS_PG_BUDGET_MS": "1e6",
                                   "TENPAI_MCTS_PG_WORLDS": "2",
                                   "TENPAI_MCTS_PG_SIMULATIONS": "8",
                                   "TENPAI_MCTS_PG_THRESHOLD": "1.0"})
    a = agent.act(d.observation, d.legal)
    assert a in d.legal
    stat = agent.log[-1]
    if stat.searched:  # pg may be certain (one candidate): then nothing to search
        assert stat.simulations == 16


@pytest.mark.parametrize(("env", "message"), [
    ({"TENPAI_MCTS_PG_BUDGET_MS": "0"}, "BUDGET_MS must be > 0"),
    ({"TENPAI_MCTS_PG_BUDGET_MS": "soon"}, "cannot read 'soon'"),
    ({"TENPAI_MCTS_PG_SIMULATIONS": "0"}, "SIMULATIONS must be >= 1"),
    ({"TENPAI_MCTS_PG_WORLDS": "0"}, "WORLDS must be >= 1"),
    ({"TENPAI_MCTS_PG_TOPK": "1"}, "TOPK must be >= 2"),
    ({"TENPAI_MCTS_PG_POLICY": "psychic"}, "unknown playout policy 'psychic'"),
    ({"TENPAI_MCTS_PG_CLOCK": "sundial"}, "CLOCK must be wall or cpu"),
    ({"TENPAI_MCTS_PG_C1": "-1"}, "C1 must be >= 0"),
])
def test_bad_settings_are_one_line_errors(env: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MCTSPGSettings.from_env(env)


@pytest.mark.parametrize(("var", "value"), [
    ("TENPAI_MCTS_PG_BUDGET_MS", "-1"),
    ("TENPAI_MCTS_PG_POLICY", "psychic"),
])
def test_arena_refuses_bad_settings_with_exit_2(
    monkeypatch: pytest.MonkeyPatch, var: str, value: str
) -> None:
    monkeypatch.setenv(var, value)
    r = CliRunner().invoke(app, ["arena", "--agents", "mcts_pg,efficiency,efficiency,efficiency",
                                 "--games", "4", "--workers", "1", "--no-progress"])
    assert r.exit_code == 2
    assert "Traceback" not in r.output
    assert var.removeprefix("TENPAI_") in r.output


def test_arena_refuses_mcts_pg_at_a_three_player_table() -> None:
    r = CliRunner().invoke(app, ["arena", "--agents", "mcts_pg,efficiency,efficiency", "--preset",
                                 "tenhou_sanma", "--games", "3", "--workers", "1",
                                 "--no-progress"])
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    assert "4-player model" in r.output and "3-player table" in r.output


def test_backup_credits_each_edge_with_the_value_of_the_seat_that_chose_it() -> None:
    import numpy as np

    from tenpai.mcts.world_tree import TreeNode, WorldTree
    from tenpai.search.prior import Candidate

    rnd, d = find(lambda r, d: r.phase == "act" and len(d.legal) > 3)
    cands = [Candidate(e, p) for e, p in zip(d.legal[:2], (0.7, 0.3))]
    tree = WorldTree(rnd, d.seat, cands, seed=1)
    child = TreeNode(seat=(d.seat + 1) % 4)
    child.set_edges([Candidate(Event("none"), 0.5), Candidate(Event("none"), 0.5)])
    value = np.array([0.1, 0.2, 0.3, 0.4])
    tree.backup([(tree.root, 1), (child, 0)], value)
    assert tree.root.n.tolist() == [0, 1] and tree.root.w[1] == value[d.seat]
    assert child.n.tolist() == [1, 0] and child.w[0] == value[child.seat]
    assert tree.simulations == 1
    assert tree.bounds == (min(value[d.seat], value[child.seat]),
                           max(value[d.seat], value[child.seat]))


def test_puct_follows_the_prior_first_then_the_values() -> None:
    import numpy as np

    from tenpai.mcts.world_tree import TreeNode
    from tenpai.search.prior import Candidate

    node = TreeNode(seat=0)
    node.set_edges([Candidate(Event("none"), 0.6), Candidate(Event("none"), 0.4)])
    assert node.select(1.5) == 0  # no visits: the prior's choice
    node.n = np.array([10.0, 10.0])
    node.w = np.array([1.0, 9.0])  # Q 0.1 against 0.9
    assert node.select(1.5, (0.0, 1.0)) == 1
    assert node.select(100.0, (0.0, 1.0)) == 0  # a huge C1 leaves it to the prior


def test_mcts_pg_plays_a_game_through_the_mjai_bot() -> None:
    """Over a protocol the agent rebuilds a table from the seat's stream and searches it."""
    agent = _agent(3)
    assert play_through_mjai_bot(agent, seed=3) >= 8
    assert agent.rebuild_failures == 0 and agent.unsearched_no_table == 0
    assert sum(s.searched for s in agent.log) >= 3


def test_mcts_pg_rebuilds_under_the_fronts_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot told the game is a tonpuu: every table the agent rebuilds is a tonpuu's (the old
    code rebuilt every stream as Tenhou's hanchan)."""
    from tenpai.search.rebuild import rebuild_table as real

    lengths: list[str] = []

    def recorded(*args: Any, **kwargs: Any) -> Any:
        table = real(*args, **kwargs)
        lengths.append(table.rules.length)
        return table

    monkeypatch.setattr("tenpai.mcts.pg_agent.rebuild_table", recorded)
    agent = _agent(3)
    assert play_through_mjai_bot(agent, seed=3, bot_rules=TONPUU) >= 8
    assert agent.rebuild_failures == 0
    assert lengths and set(lengths) == {"tonpuu"}


def test_a_think_time_is_set_and_checked() -> None:
    agent = _agent(0)
    agent.set_budget_ms(250)
    assert agent.settings.budget_ms == 250 and "budget_ms=250" in agent.identity
    with pytest.raises(ValueError, match="BUDGET_MS must be > 0"):
        agent.set_budget_ms(0)
