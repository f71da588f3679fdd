"""The fronts tell ``search`` the game's real rules: a tonpuu is not a hanchan.

Over mjai and the Tenhou protocol the agent rebuilds a table from the seat's stream; the
rules it rebuilds under (:func:`~tenpai.search.rebuild.rebuild_rules`) are the front's — the
mjai bot's ``--preset``/``--length``, the Tenhou client's from ``GO`` — so a tonpuu's East 4 is
the last hand (``TENPAI_SEARCH_LAST_THRESHOLD`` searches it, the leaves end the game there).
Without rules on the observation the old fallback stands: Tenhou's preset, a hanchan.  The
prior here (``efficiency`` at 0.99) is sure of every answer, so only the last hand's gate
(``last_threshold`` 1.0) searches.
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

import tenpai.search.agent as search_agent
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.cli.main import app
from tenpai.events import Event
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.ruleset import TENHOU, TENHOU_SANMA
from tenpai.search.agent import SearchAgent, _may_end_game
from tenpai.search.prior import AgentPrior
from tenpai.search.rebuild import RebuildError, rebuild_rules
from tenpai.search.settings import SearchSettings

from .helpers import TONPUU, mjai_stream_lines, play_through_mjai_bot


def _sure_agent(seed: int) -> SearchAgent:
    settings = SearchSettings(budget_ms=1e6, worlds=2, top_k=2, last_threshold=1.0)
    return SearchAgent(AgentPrior(EfficiencyAgent(seed), 0.99), settings=settings, seed=seed)


class _Rebuilt:
    """The game length of every table ``module`` rebuilds from a stream (the real
    ``rebuild_table`` does the work; this only reads what it returns)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: Any) -> None:
        self.lengths: list[str] = []
        real = module.rebuild_table

        def recorded(*args: Any, **kwargs: Any) -> RiichiRound:
            table: RiichiRound = real(*args, **kwargs)
            self.lengths.append(table.rules.length)
            return table

        monkeypatch.setattr(module, "rebuild_table", recorded)


class _Choices:
    """The agent, and for each of its decisions whether it had a choice and was searched."""

    def __init__(self, agent: SearchAgent) -> None:
        self.agent = agent
        self.rows: list[tuple[bool, bool]] = []

    def act(self, obs: Any, legal: Any) -> Event:
        before = len(self.agent.log)
        answer = self.agent.act(obs, legal)
        (stat,) = self.agent.log[before:]
        self.rows.append((len(legal) > 1, stat.searched))
        return answer


@pytest.mark.parametrize("seed", [3, 5])
def test_a_tonpuu_east_4_through_the_mjai_bot_is_the_last_hand(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """A bot told the game is a tonpuu: every decision of the all-last game with a choice is
    searched, on tables rebuilt as tonpuu (the old code rebuilt a hanchan: nothing searched)."""
    rebuilt = _Rebuilt(monkeypatch, search_agent)
    rec = _Choices(_sure_agent(seed))
    assert play_through_mjai_bot(rec, seed=seed, bot_rules=TONPUU) >= 8
    choices = [searched for choice, searched in rec.rows if choice]
    assert len(choices) > 5 and all(choices)
    assert rec.agent.rebuild_failures == 0
    assert rebuilt.lengths and set(rebuilt.lengths) == {"tonpuu"}


def test_without_the_length_the_bot_keeps_the_hanchan_fallback(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot's default rules (Tenhou's preset, a hanchan): East 4 cannot end the game, so the
    sure prior's decisions stay unsearched and no table is rebuilt."""
    rebuilt = _Rebuilt(monkeypatch, search_agent)
    agent = _sure_agent(3)
    assert play_through_mjai_bot(agent, seed=3) >= 8
    assert agent.log and not any(s.searched for s in agent.log)
    assert rebuilt.lengths == []


def test_a_tonpuu_east_4_at_a_tenhou_protocol_table_is_the_last_hand(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """Our Tenhou-protocol table plays a tonpuu (GO type without bit 0x08): the client's
    observations carry those rules, so the all-last hand is searched on tonpuu tables."""
    # the Tenhou tests' table harness (tests/ is on pytest's path: each test folder
    # is a package; not on mypy's, which reads these names as Any: see [tool.mypy])
    from serve_tenhou.helpers import run_table, table_config
    from tenpai.serve.tenhou.client import TenhouClient
    from tenpai.serve.tenhou.server import ServerConfig

    rebuilt = _Rebuilt(monkeypatch, search_agent)
    agent = _sure_agent(9)

    def play(port: int) -> Any:
        return TenhouClient(agent, "127.0.0.1", port, name="searcher", timeout=60.0).play_game()

    config = ServerConfig(games=1, seed=9, fill=("efficiency",) * 3,
                          table=table_config(all_last=True))
    assert config.table.rules.length == "tonpuu"
    run = run_table(config, {"searcher": play}, limit=240.0)
    assert run.failures == []
    outcome = run.outcomes["searcher"]
    assert not isinstance(outcome, Exception), outcome
    assert agent.rebuild_failures == 0
    assert any(s.searched for s in agent.log)
    assert rebuilt.lengths and set(rebuilt.lengths) == {"tonpuu"}


def _stream(bakaze: int, kyoku: int, players: int = 4, rules: Any = None) -> SimpleNamespace:
    start = Event("start_kyoku", bakaze=bakaze, kyoku=kyoku, honba=0, kyotaku=0, oya=kyoku,
                  scores=(25000,) * players, tehais=((0,) * 13,) * players, dora_marker=1)
    view = SimpleNamespace(events=[Event("start_game"), start])
    if rules is not None:
        view.rules = rules
    return view


def test_the_rebuild_rules_are_the_fronts_else_tenhous() -> None:
    assert rebuild_rules(_stream(0, 3, rules=TONPUU)) is TONPUU
    assert rebuild_rules(_stream(0, 3)) == TENHOU
    assert rebuild_rules(_stream(0, 2, players=3)) == TENHOU_SANMA
    assert _may_end_game(_stream(0, 3, rules=TONPUU))
    assert not _may_end_game(_stream(0, 3))
    sanma_tonpuu = dataclasses.replace(TENHOU_SANMA, length="tonpuu")
    assert _may_end_game(_stream(0, 2, players=3, rules=sanma_tonpuu))


def test_a_stream_of_another_table_size_than_the_fronts_rules_is_refused() -> None:
    with pytest.raises(RebuildError, match="3-player stream under 4-player rules"):
        rebuild_rules(_stream(0, 2, players=3, rules=TONPUU))
    assert not _may_end_game(_stream(0, 2, players=3, rules=TONPUU))


@pytest.mark.parametrize(("args", "expected"), [
    (["--length", "tonpuu"], ("tenhou", "tonpuu")),
    (["--length", "hanchan"], ("tenhou", "hanchan")),
    ([], ("tenhou", "hanchan")),  # the default: the preset's, a hanchan
    (["--preset", "tenhou_sanma", "--length", "tonpuu"], ("tenhou_sanma", "tonpuu")),
])
def test_the_mjai_bot_plays_the_length_it_is_given(
    monkeypatch: pytest.MonkeyPatch, args: list[str], expected: tuple[str, str]
) -> None:
    """The bot the CLI builds plays the given length, and its observations carry it."""
    import tenpai.serve.mjai.bot as bot_module
    from tenpai.serve.mjai.observation import MjaiObservation

    seen: list[tuple[str, str]] = []

    class Recorded(bot_module.MjaiBot):
        def _decide(self, possible: Any) -> Event | None:
            assert self.tracker is not None
            rules = MjaiObservation(self.tracker).rules
            seen.append((rules.name, rules.length))
            return super()._decide(possible)

    monkeypatch.setattr(bot_module, "MjaiBot", Recorded)
    lines = mjai_stream_lines(5) if expected[0] == "tenhou" else []
    r = CliRunner().invoke(app, ["mjai-bot", "--agent", "efficiency", *args],
                           input="".join(line + "\n" for line in lines))
    assert r.exit_code == 0, r.output
    if lines:
        assert len(seen) > 5 and set(seen) == {expected}


@pytest.mark.parametrize("length", ["east", "Tonpuu", ""])
def test_a_bad_length_is_one_line_and_exit_2(length: str) -> None:
    r = CliRunner().invoke(app, ["mjai-bot", "--agent", "efficiency", "--length", length],
                           input="")
    assert r.exit_code == 2, r.output
    assert "--length must be tonpuu or hanchan" in r.output and "Traceback" not in r.output
    assert r.output.strip().count("\n") == 0
