"""Shared pieces of the web tests: the chromium launch flags, the Houou record, a live server.

The live server runs uvicorn in a thread of the test process (not a subprocess), so it stops
with the test and never outlives it; it binds 127.0.0.1 on a free port.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

from tenpai.serve.web.app import create_app
from tenpai.serve.web.config import WebConfig

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
HOUOU = "riichi/tenhou_mjlog/mjx-project_mjx/tests_py/2020052700gm-00a9-0000-75a4695c.mjlog"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """uvicorn serving an app in a background thread; ``stop()`` waits until it has exited."""

    def __init__(self, config: WebConfig) -> None:
        import uvicorn

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = create_app(config)
        cfg = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(cfg)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
