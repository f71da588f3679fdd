"""Issue 39, item 3: an absurd count is refused before any game, within a little memory.

``arena --games 99999999999999999999999``, ``demo --games 10**23`` and ``bench hand --n 10**23``
built their whole schedule or input set first and grew to 1 GB in 40 s.  Each now exits 2 at
once; the arena's schedule is also read lazily (a large, allowed run starts playing at once).
"""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from tenpai.arena.games import ArenaConfigError
from tenpai.arena.runner import MAX_GAMES, make_config, run_tournament
from tenpai.arena.store import ResultsStore

_HUGE = "99999999999999999999999"


def _limited() -> None:
    """Child: 1.5 GB of address space at most (the bug grew past 1 GB)."""
    limit = 1536 * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["arena", "--agents", "random,random,random,random", "--games", _HUGE, "--workers",
          "1", "--no-progress"], "--games"),
        (["demo", "--games", _HUGE, "--fast"], "--games"),
        (["bench", "hand", "--hands", _HUGE], "--hands"),
        (["arena", "--agents", "random,random,random,random", "--games", "4", "--workers",
          "100000000000", "--no-progress"], "--workers"),
    ],
)
def test_absurd_counts_are_refused_up_front(args: list[str], option: str) -> None:
    res = subprocess.run([sys.executable, "-m", "tenpai", *args], capture_output=True,
                         text=True, timeout=60, preexec_fn=_limited)
    assert res.returncode == 2, res.stderr[-2000:]
    assert "Traceback" not in res.stderr and "MemoryError" not in res.stderr
    assert option in res.stderr


def test_make_config_refuses_absurd_games() -> None:
    with pytest.raises(ArenaConfigError, match="at most"):
        make_config("riichi", ("random",) * 4, MAX_GAMES + 1, 0)


def test_a_large_allowed_run_starts_at_once() -> None:
    """The schedule of a run of 100 million games is never built: the first game is played
    and the run interrupted after it without the memory of the whole schedule."""
    config, _ = make_config("riichi", ("random",) * 4, MAX_GAMES, 0, {"length": "tonpuu"})

    def stop(_record: object) -> None:
        raise KeyboardInterrupt

    with ResultsStore(":memory:") as store, pytest.raises(KeyboardInterrupt):
        run_tournament(config, store, workers=1, progress=False, on_game=stop)
    with ResultsStore(":memory:") as store:
        with pytest.raises(ArenaConfigError, match="workers"):
            run_tournament(config, store, workers=10**6, progress=False)
        with pytest.raises(ArenaConfigError, match="tables"):
            run_tournament(config, store, workers=1, tables=10**9, progress=False)
