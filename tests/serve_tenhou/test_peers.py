"""tenhou-python-bot (a real third-party Tenhou client) at our table.

Four copies of the bot play one hand (the game starts at its last hand, East 4, because the bot
sleeps one to five seconds before every action, as a human-looking client would: a whole tonpuu
game takes it about ten minutes), and so do our client plus three bots.  The bot is run from
``../shared/peers/tenhou-python-bot`` (copied to a scratch directory with a settings module, as
its SOURCES.md describes); the test skips when that folder is absent.  Every bot process is
killed on the way out.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tenpai.serve.tenhou.peer import (
    PeerBot,
    PeerError,
    find_peer,
    peer_dependencies,
    peer_not_found,
    prepare_peer,
)
from tenpai.serve.tenhou.server import ServerConfig

from .helpers import our_client, run_table, saved, table_config

PEER = find_peer()
pytestmark = pytest.mark.skipif(PEER is None, reason=peer_not_found())
LIMIT = 900.0  # seconds for one hand of four slow bots on a loaded two-core machine


@pytest.fixture(scope="module")
def deps() -> Path:
    try:
        return peer_dependencies()
    except PeerError as exc:
        pytest.fail(str(exc))


def _peers(tmp: Path, deps: Path, names: list[str]) -> Any:
    """A client function per bot: start it when the server is up, wait for its exit."""
    bots: list[PeerBot] = []
    assert PEER is not None
    for name in names:  # copy now; the launcher only points the copy at the server's port
        prepare_peer(PEER, tmp / name, "127.0.0.1", 0)

    def launcher(name: str) -> Any:
        def run(port: int) -> int | None:
            assert PEER is not None
            project = prepare_peer(PEER, tmp / name, "127.0.0.1", port)
            bot = PeerBot(project, name, deps, log=tmp / f"{name}.log")
            bots.append(bot)
            bot.start()
            return bot.wait(LIMIT)

        return run

    return bots, {n: launcher(n) for n in names}


def _check(run: Any, tmp: Path, bots: list[PeerBot], names: list[str]) -> dict[str, Any]:
    for bot in bots:
        bot.stop()
        assert not bot.running()
    assert run.failures == []
    result: dict[str, Any] = run.results[0]
    assert len(run.results) == 1
    assert result["hands"] >= 1 and sum(result["final_scores"]) == 100_000
    for rec in result["protocol"]:
        # A second bare pass after a ron offer is the bot's habit and is tolerated.
        assert set(rec["errors"]) <= {"stray_pass"}, rec
    for name in names:
        log = (tmp / f"{name}.log").read_text(encoding="utf-8", errors="replace")
        assert "End of the game" in log, log[-2000:]
        assert "Unexpected exception" not in log, log[-2000:]
    done = subprocess.run([sys.executable, "-m", "tenpai", "replay", *map(str, saved(tmp))],
                          capture_output=True, text=True, timeout=120, check=False)
    assert "its complete rounds replay exactly" in done.stdout, done.stdout + done.stderr
    return result


def test_four_tenhou_python_bots_finish_a_game_at_our_table(tmp_path: Path, deps: Path) -> None:
    names = [f"bot{i}" for i in range(4)]
    bots, clients = _peers(tmp_path, deps, names)
    config = ServerConfig(games=1, seed=7, save=tmp_path, table=table_config(all_last=True))
    try:
        run = run_table(config, clients, limit=LIMIT)
    finally:
        for bot in bots:
            bot.stop()
    result = _check(run, tmp_path, bots, names)
    assert result["kinds"] == ["client"] * 4


def test_our_client_and_three_bots_finish_a_game(tmp_path: Path, deps: Path) -> None:
    names = [f"bot{i}" for i in range(3)]
    bots, clients = _peers(tmp_path, deps, names)
    clients["ours"] = our_client("sl", "ours")
    config = ServerConfig(games=1, seed=8, save=tmp_path, table=table_config(all_last=True))
    try:
        run = run_table(config, clients, limit=LIMIT)
    finally:
        for bot in bots:
            bot.stop()
    result = _check(run, tmp_path, bots, names)
    ours = run.outcomes["ours"]
    assert not isinstance(ours, Exception), ours
    seat = result["names"].index("ours")
    assert ours[0].rank == result["ranks"][seat]


@pytest.mark.slow
def test_a_killed_bot_restarted_under_its_name_comes_back(tmp_path: Path, deps: Path) -> None:
    """Kill one bot mid-hand and start it again: it reconnects (GO, UN, REINIT) and plays on
    to the end of the game (``-m slow``: about three minutes)."""
    import asyncio

    from tenpai.serve.tenhou.server import TableServer

    assert PEER is not None
    names = [f"bot{i}" for i in range(4)]
    config = ServerConfig(port=0, games=1, seed=9, save=tmp_path,
                          table=table_config(all_last=True))

    async def main() -> tuple[list[dict[str, Any]], Path]:
        server = TableServer(config)
        await server.start()
        project = prepare_peer(PEER, tmp_path / "copy", "127.0.0.1", server.port)
        bots = {n: PeerBot(project, n, deps, log=tmp_path / f"{n}.log") for n in names}
        for b in bots.values():
            b.start()
        serving = asyncio.create_task(server.serve())
        try:
            while not server.tables:
                await asyncio.sleep(0.5)
            await asyncio.sleep(30)
            victim = server.tables[0].names[0]
            bots[victim].stop()
            await asyncio.sleep(2)
            again = tmp_path / f"{victim}-again.log"
            bots[victim] = PeerBot(project, victim, deps, log=again)
            bots[victim].start()
            results = await asyncio.wait_for(serving, LIMIT)
            for b in bots.values():  # let them log their end before they are stopped
                await asyncio.to_thread(b.wait, 30.0)
        finally:
            for b in bots.values():
                b.stop()
            serving.cancel()
        return results, again

    results, again = asyncio.run(main())
    (result,) = results
    victim_rec = next(p for p in result["protocol"] if p["reconnects"])
    assert victim_rec["errors"].get("disconnected") == 1
    log = again.read_text(encoding="utf-8", errors="replace")
    assert "Successfully reconnected" in log and "<REINIT" in log
    assert "End of the game" in log and "Unexpected exception" not in log
