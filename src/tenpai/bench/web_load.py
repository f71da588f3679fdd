"""``tenpai bench web-load``: N concurrent bot-driven games through the web app's websocket API.

Starts the app with uvicorn in this process on a free 127.0.0.1 port (nothing else is ever
contacted), opens ``--games`` sessions at once, each creating a Riichi game against three
``efficiency`` agents and answering every decision with a seeded choice among the offered
actions, for at most ``--seconds``.  Reports games finished, decisions answered, errors,
decision latency and the process's peak memory, then stops the server.  Needs the ``web``
extra (FastAPI, uvicorn, websockets).

    tenpai bench web-load --games 50 --seconds 60
"""

from __future__ import annotations

import json
import resource
import socket
import statistics
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from typing import Any

from tenpai.engine.wall import SplitMix64

__all__ = ["run_web_load"]


@dataclass
class Tally:
    """What all clients saw; guarded by ``lock``."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    games: int = 0
    decisions: int = 0
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _client(base: str, n: int, stop_at: float, tally: Tally) -> None:
    from websockets.sync.client import connect

    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    rng = SplitMix64(1000 + n)
    seed = n
    try:
        while time.monotonic() < stop_at:
            body = json.dumps({"rules": "riichi", "opponents": ["efficiency"] * 3,
                               "seed": seed}).encode()
            req = urllib.request.Request(base + "/api/games", data=body,
                                         headers={"content-type": "application/json"})
            gid = json.loads(opener.open(req, timeout=60).read())["id"]
            cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
            url = base.replace("http://", "ws://") + f"/api/games/{gid}/ws"
            with connect(url, additional_headers={"Cookie": cookie}, open_timeout=60) as ws:
                msg = json.loads(ws.recv(timeout=120))
                while not msg.get("done") and time.monotonic() < stop_at:
                    if msg.get("type") != "update":
                        raise RuntimeError(f"game {gid}: {msg}")
                    actions = msg["decision"]["actions"]
                    pick = actions[rng.below(len(actions))]
                    t0 = time.monotonic()
                    ws.send(json.dumps({"decision": msg["decision"]["id"],
                                        "action": pick["index"]}))
                    msg = json.loads(ws.recv(timeout=120))
                    with tally.lock:
                        tally.decisions += 1
                        tally.latencies.append(time.monotonic() - t0)
                if msg.get("done"):
                    with tally.lock:
                        tally.games += 1
            seed += 1000
    except Exception as exc:  # every failure is counted and reported, none is hidden
        with tally.lock:
            tally.errors.append(f"client {n}: {type(exc).__name__}: {exc}")


def run_web_load(games: int = 50, seconds: float = 60.0) -> dict[str, Any]:
    """Serve the app on a free local port, play ``games`` clients at once for at most
    ``seconds`` (capped at 60), stop the server and return the report."""
    import uvicorn

    from tenpai.serve.web.app import create_app
    from tenpai.serve.web.config import WebConfig
    from tenpai.serve.web.sessions import Limits

    seconds = min(seconds, 60.0)
    port = _free_port()
    app = create_app(WebConfig(limits=Limits(max_games=max(64, games))))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tally = Tally()
    start = time.monotonic()
    stop_at = start + seconds
    clients = [threading.Thread(target=_client, args=(base, n, stop_at, tally))
               for n in range(games)]
    for c in clients:
        c.start()
    for c in clients:
        c.join(timeout=seconds + 150)
    elapsed = time.monotonic() - start
    server.should_exit = True
    thread.join(timeout=30)
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    lat = sorted(tally.latencies)
    report: dict[str, Any] = {
        "clients": games,
        "seconds": round(elapsed, 1),
        "games_finished": tally.games,
        "decisions": tally.decisions,
        "decisions_per_second": round(tally.decisions / elapsed, 1),
        "latency_ms_median": round(1000 * statistics.median(lat), 1) if lat else None,
        "latency_ms_p99": round(1000 * lat[int(0.99 * (len(lat) - 1))], 1) if lat else None,
        "errors": len(tally.errors),
        "error_samples": tally.errors[:5],
        "peak_rss_mb_before": round(rss0 / 1024, 1),
        "peak_rss_mb_after": round(rss1 / 1024, 1),
    }
    return report
