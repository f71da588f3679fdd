"""Three-player games at our Tenhou-protocol table (``tenhou_sanma``): our clients follow the
four-position wire with its empty seat, take Norths, and rebuild their hands exactly; the
agents that cannot play three players are refused with one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tenpai.agents import make_agent
from tenpai.engine.flow import Decision
from tenpai.events import Event
from tenpai.records.formats import read_games
from tenpai.records.mjlog_meld import decode_meld
from tenpai.rules.riichi.ruleset import TENHOU_SANMA
from tenpai.serve.tenhou import messages as M
from tenpai.serve.tenhou.client import GameOutcome, TableSizeError, TenhouClient
from tenpai.serve.tenhou.server import ServerConfig
from tenpai.serve.tenhou.table import TableConfig, TenhouTable
from tenpai.serve.tenhou.view import TenhouView
from tenpai.serve.tenhou.wire import Tag, format_tag, parse_tag

from .helpers import RawClient, protocol, run_table, saved

SANMA_TONPUU = TENHOU_SANMA.with_(length="tonpuu")
#: East 3 (the last hand of a three-player tonpuu), seat 0 ahead.
LAST_HAND = (0, 2, 0, 0)
LAST_SCORES = (41_000, 32_000, 32_000)


def _tenpai(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tenpai", *args], capture_output=True,
                          text=True, timeout=timeout, check=False)


def test_three_of_our_clients_play_sanma_with_exact_hands_and_norths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    server_hands: dict[str, list[list[int]]] = {}
    client_hands: dict[str, list[list[int]]] = {}
    original = TenhouTable._remote_answer

    async def recording(self: TenhouTable, d: Decision) -> Any:
        assert self.phys is not None
        server_hands.setdefault(self.names[d.seat], []).append(sorted(self.phys.hands[d.seat]))
        return await original(self, d)

    monkeypatch.setattr(TenhouTable, "_remote_answer", recording)

    class Recording(TenhouClient):
        def _ask(self, view: TenhouView, legal: list[Event]) -> Event:
            client_hands.setdefault(self.name, []).append(sorted(view.ids))
            return super()._ask(view, legal)

    def client(name: str, seed: int) -> Any:
        player = make_agent("efficiency", seed)

        def play(port: int) -> Any:
            return Recording(player, "127.0.0.1", port, name=name, timeout=60.0,
                             game_type=0x11).play_game()

        return play

    config = ServerConfig(games=1, seed=5, save=tmp_path, table=TableConfig(rules=SANMA_TONPUU))
    run = run_table(config, {f"s{i}": client(f"s{i}", i) for i in range(3)})
    assert run.failures == []
    (result,) = run.results
    assert len(result["names"]) == 3 and sum(result["final_scores"]) == 105_000
    for name, got in run.outcomes.items():
        assert isinstance(got, GameOutcome), got
        seat = result["names"].index(name)
        finals = result["final_scores"]
        # Seen from the client: itself, then the others in playing order.
        assert got.scores == [finals[(seat + i) % 3] // 100 for i in range(3)]
        assert got.rank == result["ranks"][seat]
        assert protocol(result, name)["errors"] == {}
        # The ids the client holds are the ids the server dealt it, at every decision.
        assert client_hands[name] == server_hands[name], name
        assert len(client_hands[name]) > 20
    (path,) = saved(tmp_path)
    (game,) = read_games(path)
    events = [e for r in game.rounds for e in r]
    assert game.rules.players == 3
    norths = [e for e in events if e.type == "nukidora"]
    assert norths, "no North was set aside"
    # A North counts as a dora for its owner's win (it is scored, not only set aside).
    wins_with_north = [e for e in events if e.type == "hora" and any(
        n.actor == e.actor and events.index(n) < events.index(e) and _same_round(events, n, e)
        for n in norths)]
    assert wins_with_north and all((e.han or 0) >= 1 for e in wins_with_north)
    done = _tenpai("replay", str(path))
    assert done.returncode == 0 and "passed 1" in done.stdout, done.stdout + done.stderr


def _same_round(events: list[Event], a: Event, b: Event) -> bool:
    lo, hi = sorted((events.index(a), events.index(b)))
    return not any(e.type == "start_kyoku" for e in events[lo + 1:hi + 1])


def test_search_plays_a_short_sanma_game_as_our_client(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search agent (small budget, few worlds) at a three-player table's last hand: it
    answers every decision from the rebuilt view without an error."""
    monkeypatch.setenv("TENPAI_SEARCH_BUDGET_MS", "20")
    monkeypatch.setenv("TENPAI_SEARCH_WORLDS", "2")
    monkeypatch.setenv("TENPAI_SEARCH_THRESHOLD", "1.0")
    from .helpers import our_client

    config = ServerConfig(games=1, seed=8, fill=("efficiency", "efficiency"),
                          table=TableConfig(rules=SANMA_TONPUU, start=LAST_HAND,
                                            scores=LAST_SCORES))
    run = run_table(config, {"searcher": our_client("search", "searcher", game_type=0x11)})
    assert run.failures == []
    (result,) = run.results
    got = run.outcomes["searcher"]
    assert not isinstance(got, Exception), got
    (outcome,) = got
    assert outcome.decisions > 3 and len(outcome.scores) == 3
    assert protocol(result, "searcher")["errors"] == {}


def test_a_client_whose_agent_cannot_play_the_announced_size_leaves() -> None:
    def refusing(port: int) -> Any:
        def check(players: int) -> None:
            if players != 4:
                raise ValueError(f"cannot play a {players}-player table")

        c = TenhouClient(make_agent("efficiency", 0), "127.0.0.1", port, name="four",
                         timeout=60.0, check_players=check)
        return c.play_game()

    config = ServerConfig(games=1, seed=2, fill=("efficiency", "efficiency"),
                          table=TableConfig(rules=SANMA_TONPUU, ready_timeout=1.0,
                                            start=LAST_HAND, scores=LAST_SCORES))
    run = run_table(config, {"four": refusing})
    assert isinstance(run.outcomes["four"], TableSizeError)
    assert "3-player" in str(run.outcomes["four"])
    assert run.failures == [] and len(run.results) == 1  # the table played on without it


def test_cli_client_refuses_an_agent_for_four_players_at_a_three_player_type() -> None:
    agent = _tenpai("tenhou-client", "--agent", "mcts_pg", "--type", "17", "--port", "9")
    assert agent.returncode == 2, agent.stderr
    assert "3-player" in agent.stderr and len(agent.stderr.strip().splitlines()) == 1


def test_cli_table_refuses_three_fill_agents_at_three_seats() -> None:
    fill = _tenpai("tenhou-table", "--preset", "tenhou_sanma", "--port", "0",
                   "--fill", "efficiency", "--fill", "efficiency", "--fill", "efficiency")
    assert fill.returncode == 2
    assert "at most 2 seats" in fill.stderr and len(fill.stderr.strip().splitlines()) == 1


def _north_taker(port: int) -> list[Any]:
    """A raw client that sets a North aside whenever offered, else discards what it drew and
    passes every call, to the end of the game; every tag it received (and its replies)."""
    raw = RawClient(port, "raw")
    raw.login()
    log: list[Any] = []
    while True:
        tag = raw.recv()
        log.append(tag)
        if tag.name == "GO":
            raw.send("<GOK/>", "<NEXTREADY/>")
        elif tag.name in ("AGARI", "RYUUKYOKU"):
            if "owari" in tag.attrs:
                raw.close()
                return log
            raw.send("<NEXTREADY/>")
        elif tag.name == "T" and tag.number is not None:
            if int(tag.get("t", "0") or 0) & M.DRAW_KITA:
                raw.send('<N type="10"/>')
                log.append("kita")
            else:
                raw.send(format_tag("D", {"p": tag.number}))
        elif tag.name in ("E", "F", "G", "e", "f", "g", "N") and "t" in tag.attrs:
            raw.send("<N/>")


def test_the_wire_has_an_empty_fourth_position_and_norths_go_by_n_type_10(
    tmp_path: Path,
) -> None:
    """The forms of Tenhou's three-player lobby (docs/tenhou.md, "Three players"): GO type
    bit 0x10, a blank name, a 0 score and a "0,0" result pair at the empty position, which
    never draws nor discards; ``t`` 128 offers a North, ``<N type="10"/>`` takes it, and the
    table answers with its nukidora meld code and a replacement draw."""
    config = ServerConfig(games=1, seed=4, fill=("efficiency", "defensive"), save=tmp_path,
                          table=TableConfig(rules=SANMA_TONPUU))
    run = run_table(config, {"raw": _north_taker})
    assert run.failures == []
    log = run.outcomes["raw"]
    assert isinstance(log, list), log
    tags = [t for t in log if isinstance(t, Tag)]
    go = next(t for t in tags if t.name == "GO")
    assert go.int_attr("type") & 0x10
    un = next(t for t in tags if t.name == "UN")
    names = [un.get(f"n{i}") for i in range(4)]
    assert names.count("") == 1
    empty = names.index("")
    for t in tags:
        if t.name == "INIT":
            assert len(t.int_list("ten")) == 4 and t.int_list("ten")[empty] == 0
            assert t.int_attr("oya") != empty
        if t.name in ("AGARI", "RYUUKYOKU"):
            sc = t.int_list("sc")
            assert len(sc) == 8 and sc[2 * empty:2 * empty + 2] == [0, 0]
        if "owari" in t.attrs:
            assert (t.get("owari") or "").split(",")[2 * empty:2 * empty + 2] == ["0", "0.0"]
        letters = ("TUVW", "DEFG")
        assert not any(t.name.upper() == pair[empty] for pair in letters), t
    taken = [i for i, x in enumerate(log) if x == "kita"]
    assert taken, "no North was offered to the raw client"
    for i in taken:
        meld, draw = log[i + 1], log[i + 2]
        assert meld.name == "N" and meld.int_attr("who") == 0
        m = decode_meld(meld.int_attr("m"))
        assert m.kind == "nukidora" and m.called is not None and m.called // 4 == 30
        assert draw.name == "T" and draw.number is not None
    assert protocol(run.results[0], "raw")["errors"] == {}
    done = _tenpai("replay", *map(str, saved(tmp_path)))
    assert done.returncode == 0, done.stdout + done.stderr


def _leave_after_a_north(raw: RawClient) -> bool:
    """Take every North offered, discard what was drawn, pass every call; once a North of
    this hand is set aside and two discards followed, leave with a draw unanswered.  False
    if the game ended first."""
    raw.login()
    norths = discards = 0
    while True:
        tag = raw.recv()
        if tag.name == "GO":
            raw.send("<GOK/>", "<NEXTREADY/>")
        elif tag.name == "INIT":
            norths = discards = 0
        elif tag.name in ("AGARI", "RYUUKYOKU"):
            if "owari" in tag.attrs:
                return False
            raw.send("<NEXTREADY/>")
        elif tag.name == "T" and tag.number is not None:
            if int(tag.get("t", "0") or 0) & M.DRAW_KITA:
                raw.send('<N type="10"/>')
                norths += 1
            elif norths and discards >= 2:
                raw.close()
                return True
            else:
                raw.send(format_tag("D", {"p": tag.number}))
                discards += 1
        elif tag.name in ("E", "F", "G", "e", "f", "g", "N") and "t" in tag.attrs:
            raw.send("<N/>")


def test_a_client_comes_back_to_a_three_player_table_after_reinit(tmp_path: Path) -> None:
    """REINIT at a three-player table: the returning client places itself from the dealer
    and rebuilds its North set aside, melds and rivers at three seats, then plays on."""
    lines: list[str] = []

    def leave_and_return(port: int) -> Any:
        assert _leave_after_a_north(RawClient(port, "phoenix"))
        client = TenhouClient(make_agent("efficiency", 5), "127.0.0.1", port, name="phoenix",
                              timeout=60.0, log=lines.append)
        return client.play_game()

    config = ServerConfig(games=1, seed=21, fill=("efficiency", "defensive"), save=tmp_path,
                          table=TableConfig(rules=SANMA_TONPUU))
    run = run_table(config, {"phoenix": leave_and_return})
    outcome = run.outcomes["phoenix"]
    assert isinstance(outcome, GameOutcome), outcome
    assert len(outcome.scores) == 3 and outcome.decisions > 5
    reinit = next(parse_tag(x[2:]) for x in lines if x.startswith("< <REINIT"))
    assert any(decode_meld(m).kind == "nukidora" for m in reinit.int_list("m0"))
    assert run.failures == []
    rec = protocol(run.results[0], "phoenix")
    assert rec["reconnects"] == 1
    assert set(rec["errors"]) <= {"disconnected", "defaulted"}
    done = _tenpai("replay", *map(str, saved(tmp_path)))
    assert done.returncode == 0, done.stdout + done.stderr
