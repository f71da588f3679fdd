"""``search`` at the fronts: a table rebuilt from a seat's stream, a game through the mjai bot
and one at a Tenhou-protocol table (both searching, every answer legal), the CLI's think time
and its bad values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.cli.main import app
from tenpai.search.agent import SearchAgent
from tenpai.search.prior import AgentPrior
from tenpai.search.rebuild import rebuild_table
from tenpai.search.settings import SearchSettings
from tenpai.search.worlds import seen_tiles

from .helpers import (
    decisions,
    mjai_stream_lines,
    play_through_mjai_bot,
)

SETTINGS = SearchSettings(budget_ms=1e6, worlds=2, top_k=2)


def _searcher(seed: int) -> SearchAgent:
    return SearchAgent(AgentPrior(EfficiencyAgent(seed), 0.5), settings=SETTINGS, seed=seed)


def test_the_rebuilt_table_shows_the_seat_what_the_real_one_does() -> None:
    checked = 0
    for rnd, d in decisions(11, limit=120):
        table = rebuild_table(d.observation.events, d.seat, d.legal)
        assert list(table._observe(d.seat).events) == list(d.observation.events)
        assert table.hands[d.seat] == rnd.hands[d.seat]
        assert seen_tiles(table, d.seat) == seen_tiles(rnd, d.seat)
        assert (table.phase, table.turn, table.wall.remaining) == (
            rnd.phase, rnd.turn, rnd.wall.remaining)
        mine = next(x for x in table.pending() if x.seat == d.seat)
        assert set(mine.legal) == set(d.legal)
        checked += 1
    assert checked > 60


def test_search_plays_a_game_through_the_mjai_bot() -> None:
    agent = _searcher(3)
    assert play_through_mjai_bot(agent, seed=3) >= 8
    assert agent.rebuild_failures == 0
    assert sum(s.searched for s in agent.log) >= 3


def test_search_plays_at_a_tenhou_protocol_table() -> None:
    # the Tenhou tests' table harness (tests/ is on pytest's path: each test folder
    # is a package; not on mypy's, which reads these names as Any: see [tool.mypy])
    from serve_tenhou.helpers import run_table, table_config
    from tenpai.serve.tenhou.client import TenhouClient
    from tenpai.serve.tenhou.server import ServerConfig

    agent = _searcher(9)

    def play(port: int) -> Any:
        return TenhouClient(agent, "127.0.0.1", port, name="searcher", timeout=60.0).play_game()

    config = ServerConfig(games=1, seed=9, fill=("efficiency",) * 3,
                          table=table_config(all_last=True))
    run = run_table(config, {"searcher": play}, limit=240.0)
    assert run.failures == []
    outcome = run.outcomes["searcher"]
    assert not isinstance(outcome, Exception), outcome
    assert outcome.decisions > 5
    assert agent.rebuild_failures == 0
    assert any(s.searched for s in agent.log)


@pytest.mark.slow
def test_the_registered_search_answers_a_stream_through_the_cli() -> None:
    pytest.importorskip("torch")
    lines = mjai_stream_lines(5)
    r = CliRunner().invoke(app, ["mjai-bot", "--agent", "search", "--budget-ms", "40"],
                           input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.output
    assert len(r.output.splitlines()) > 10


@pytest.mark.parametrize(("args", "needle"), [
    (["mjai-bot", "--agent", "search", "--budget-ms", "0"], "--budget-ms must be > 0"),
    (["mjai-bot", "--agent", "search", "--budget-ms", "-20"], "--budget-ms must be > 0"),
    (["mjai-bot", "--agent", "efficiency", "--budget-ms", "50"], "has no think time"),
    (["tenhou-client", "--port", "1", "--agent", "search", "--budget-ms", "0"],
     "--budget-ms must be > 0"),
    (["tenhou-client", "--port", "1", "--agent", "random", "--budget-ms", "50"],
     "has no think time"),
])
def test_fronts_refuse_a_bad_think_time_in_one_line(args: list[str], needle: str) -> None:
    r = CliRunner().invoke(app, args, input="")
    assert r.exit_code == 2, r.output
    assert needle in r.output and "Traceback" not in r.output
    assert r.output.strip().count("\n") == 0


@pytest.mark.parametrize(("var", "value", "needle"), [
    ("TENPAI_SEARCH_POLICY", "psychic", "unknown playout policy"),
    ("TENPAI_SEARCH_WORLDS_MODE", "psychic", "unknown worlds mode"),
])
def test_fronts_refuse_bad_search_settings_in_one_line(
    monkeypatch: pytest.MonkeyPatch, var: str, value: str, needle: str
) -> None:
    monkeypatch.setenv(var, value)
    for args in (["mjai-bot", "--agent", "search"],
                 ["tenhou-client", "--port", "1", "--agent", "search"]):
        r = CliRunner().invoke(app, args, input="")
        assert r.exit_code == 2, r.output
        assert needle in r.output and "Traceback" not in r.output


def test_fronts_refuse_a_file_that_is_not_a_placement_model(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bogus = tmp_path / "model.json"
    bogus.write_text("[1, 2, 3]")
    monkeypatch.setenv("TENPAI_SEARCH_PLACEMENT_MODEL", str(bogus))
    for args in (["mjai-bot", "--agent", "search"],
                 ["tenhou-client", "--port", "1", "--agent", "search"]):
        r = CliRunner().invoke(app, args, input="")
        assert r.exit_code == 2, r.output
        assert "model.json" in r.output and "Traceback" not in r.output
