"""Measure a built-in agent against three tenhou-python-bots at our table.

``python -m tenpai.serve.tenhou.measure --agent sl --games 100 --parallel 8 --out DIR``

The table server runs in this process with the agent filling one seat of every table; the bots
are separate processes (:mod:`.peer`), three per table, ``parallel`` tables at once (the bot
spends most of its time in deliberate sleeps, so tables in parallel cost little CPU).  Each
bot plays one game and exits; a new one takes its place until ``games`` tables have started.
Every game is saved in ``DIR`` (mjlog and ``results.jsonl``), and :func:`summarise` turns
``results.jsonl`` into the agent's average rank with a 95 % interval, the time per game and the
protocol error count — so an interrupted run can be summarised, and continued with a new
``--seed`` into the same directory.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NoReturn

from tenpai.agents.registry import AGENTS, is_known_agent
from tenpai.arena.distributions import student_t_ppf
from tenpai.argtypes import positive_int
from tenpai.rules.riichi.ruleset import PRESETS
from tenpai.serve.tenhou.peer import (
    PeerBot,
    PeerError,
    find_peer,
    peer_dependencies,
    peer_not_found,
    prepare_peer,
)
from tenpai.serve.tenhou.server import ServerConfig, TableServer
from tenpai.serve.tenhou.table import TableConfig

__all__ = ["build_parser", "main", "summarise"]


#: Error kinds that mean a client lost its seat (the game then is not a fair sample).
DROPS = frozenset({"garbage", "illegal", "out_of_turn", "timeout", "disconnected"})


def summarise(results: Path | list[Path], agent: str, *, clean_only: bool = False
              ) -> dict[str, Any]:
    """Average rank of the seats played by ``agent`` (the table's fill agent) in every game
    of ``results`` (results.jsonl files), with a 95 % Student-t interval; ``clean_only``
    leaves out games in which a client was dropped (counted in ``dropped_games``)."""
    paths = results if isinstance(results, list) else [results]
    rows = [json.loads(line) for path in paths
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    dropped = [r for r in rows if any(DROPS & set(p["errors"]) for p in r["protocol"])]
    if clean_only:
        rows = [r for r in rows if r not in dropped]
    ranks: list[int] = []
    peer_ranks: list[int] = []
    seconds: list[float] = []
    errors: dict[str, int] = {}
    hands = 0
    for row in rows:
        seconds.append(float(row["seconds"]))
        hands += int(row["hands"])
        for rec, rank in zip(row["protocol"], row["ranks"], strict=True):
            (ranks if rec["kind"] == "agent" and rec["name"].startswith(agent) else
             peer_ranks).append(rank)
            for kind, n in rec["errors"].items():
                errors[kind] = errors.get(kind, 0) + n
    n = len(ranks)
    mean = sum(ranks) / n if n else float("nan")
    if n > 1:
        sd = math.sqrt(sum((r - mean) ** 2 for r in ranks) / (n - 1))
        half = student_t_ppf(0.975, n - 1) * sd / math.sqrt(n)
    else:
        half = float("nan")
    return {
        "agent": agent,
        "games": len(rows),
        "dropped_games": len(dropped),
        "hands": hands,
        "average_rank": round(mean, 3),
        "ci95": [round(mean - half, 3), round(mean + half, 3)],
        "placings": [ranks.count(k) for k in (1, 2, 3, 4)],
        "peer_average_rank": round(sum(peer_ranks) / len(peer_ranks), 3) if peer_ranks else None,
        "seconds_per_game": round(sum(seconds) / len(seconds), 1) if seconds else None,
        "protocol_errors": errors,
    }


async def _run(args: argparse.Namespace, source: Path, server: TableServer, out: Path) -> None:
    # SIGINT/SIGTERM cancel the run, so the ``finally`` below ends every bot (a background
    # job started by a script ignores SIGINT; SIGTERM would otherwise skip the clean-up).
    main_task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        if main_task is not None:
            loop.add_signal_handler(sig, main_task.cancel)
    deps = peer_dependencies()
    await server.start()
    work = Path(tempfile.mkdtemp(prefix="tenhou-peers-"))
    project = prepare_peer(source, work, "127.0.0.1", server.port)
    bots: list[PeerBot] = []
    launched = 0
    serving = asyncio.create_task(server.serve())
    try:
        while not serving.done():
            alive = []
            for b in bots:
                if b.running():
                    alive.append(b)
                else:
                    b.stop()  # reaps it and closes its log
            bots = alive
            # Three bots per table, ``parallel`` tables at once, no more than the games need
            # (a few more only if bots died before joining and nothing is left running).
            room = 3 * args.parallel - len(bots)
            left = 3 * args.games - launched
            if not bots and left <= 0:
                left = 3
            # At most one table's worth per tick: a burst of starting bots loads the machine,
            # and the bot gives up when the server's HELO answer takes over a second.
            for _ in range(max(min(room, left, 3), 0)):
                bot = PeerBot(project, f"bot{launched:04d}", deps,
                              log=work / f"bot{launched:04d}.log")
                bot.start()
                bots.append(bot)
                launched += 1
            await asyncio.sleep(2.0)
        await serving
    finally:
        for b in bots:
            b.stop()
        if not serving.done():
            serving.cancel()
    print(json.dumps(summarise(out / "results.jsonl", args.agent, clean_only=args.clean_only)),
          flush=True)


#: The table's seconds per decision: the bot sleeps up to five seconds before each of its
#: actions, and a loaded machine must not drop a seat that is only slow.
DECISION_SECONDS = 60.0


class _Parser(argparse.ArgumentParser):
    """argparse whose refusals are one line (exit 2), as every tenpai command's are."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m tenpai.serve.tenhou.measure`` (see the module docstring)."""
    p = _Parser(
        prog="python -m tenpai.serve.tenhou.measure",
        description=__doc__.split("\n\n")[0] + "  Every finished game is written to --out; the "
        "summary (average rank with a 95 % interval) is printed as one JSON line at the end.",
        epilog="The bot is looked for in $TENPAI_PEERS/tenhou-python-bot, then in "
        "../shared/peers/tenhou-python-bot beside the repository.  Each decision has "
        f"{DECISION_SECONDS:g} s at the table.  SIGINT or SIGTERM ends every bot; the games "
        "finished so far stay in results.jsonl.")
    p.add_argument("--agent", default="sl", help="built-in agent (registry name) filling one "
                   "seat of every table; with --summary-only, the name whose seats are counted "
                   "(default: %(default)s)")
    p.add_argument("--games", type=positive_int, default=100, metavar="N",
                   help="games to play in all, a table of the agent and three bots each "
                   "(default: %(default)s)")
    p.add_argument("--parallel", type=positive_int, default=4, metavar="N",
                   help="tables played at once, three bot processes each; the bots mostly sleep, "
                   "so tables at once cost little CPU (default: %(default)s)")
    p.add_argument("--length", default="tonpuu", choices=("tonpuu", "hanchan"),
                   help="game length: tonpuu (East round only) or hanchan (East and South) "
                   "(default: %(default)s)")
    p.add_argument("--seed", type=int, default=1000,
                   help="seed of the first game; game i (from 0) is dealt and seated from "
                   "seed + i, so a run continued into the same --out takes a new seed "
                   "(default: %(default)s)")
    p.add_argument("--out", required=True, action="append", metavar="DIR",
                   help="folder every game is written to (mjlog files and results.jsonl), "
                   "created if absent (its parent must exist); with --summary-only a folder "
                   "holding a results.jsonl, repeated to combine runs")
    p.add_argument("--summary-only", action="store_true",
                   help="start nothing: print the summary of each --out's results.jsonl")
    p.add_argument("--clean-only", action="store_true",
                   help="leave out of the summary the games in which a client lost its seat "
                   "(garbage, illegal or out-of-turn message, timeout, disconnection); they are "
                   "still counted in dropped_games")
    return p


def _on_event(kind: str, info: dict[str, Any]) -> None:
    if kind in ("started", "finished", "failed"):
        shown = {k: info[k] for k in ("game", "final_scores", "seconds", "names", "error")
                 if k in info}
        print(f"{time.strftime('%H:%M:%S')} {kind} {shown}", flush=True)


def main(argv: list[str] | None = None) -> int:
    p = build_parser()
    args = p.parse_args(argv)
    if args.summary_only:
        paths = [Path(o) / "results.jsonl" for o in args.out]
        missing = [str(path) for path in paths if not path.is_file()]
        if missing:
            p.error(f"--summary-only: no {', '.join(missing)}")
        print(json.dumps(summarise(paths, args.agent, clean_only=args.clean_only)))
        return 0
    if len(args.out) != 1:
        p.error("a run writes to one --out folder (repeat --out only with --summary-only)")
    out = Path(args.out[0])
    if out.exists() and not out.is_dir():
        p.error(f"--out {out} is a file, not a folder")
    if not out.parent.is_dir():
        p.error(f"--out {out}: its parent folder {out.parent} does not exist")
    if not is_known_agent(args.agent):
        p.error(f"--agent: unknown agent {args.agent!r}; known: {', '.join(sorted(AGENTS))}")
    source = find_peer()
    if source is None:
        p.error(peer_not_found())
    table = TableConfig(rules=PRESETS["tenhou"].with_(length=args.length),
                        timeout=DECISION_SECONDS)
    config = ServerConfig(port=0, games=args.games, fill=(args.agent,), seed=args.seed,
                          save=out, table=table)
    try:
        server = TableServer(config, _on_event)
    except ValueError as exc:  # the agent cannot play a four-player Riichi table
        p.error(f"--agent {args.agent}: {exc}")
    out.mkdir(exist_ok=True)
    try:
        asyncio.run(_run(args, source, server, out))
    except PeerError as exc:
        sys.stderr.write(f"{p.prog}: error: {exc}\n")
        return 2
    except (KeyboardInterrupt, asyncio.CancelledError):
        sys.stderr.write("stopped; the games finished so far are in results.jsonl\n")
        return 130
    return 0

if __name__ == "__main__":
    sys.exit(main())
