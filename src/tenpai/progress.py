"""Progress of long commands, always on stderr, whether or not stderr is a terminal.

Rich's live bar hides itself when its console is not a terminal, so a seven-minute
``tenpai dataset build 2>log`` (or under ``nohup``, CI, a pipe) printed nothing at all.  A
:class:`StepProgress` shows rich's bar on a terminal and otherwise writes one plain line at the
start, then at most one every ``every_seconds`` (default 10 s; the ``TENPAI_PROGRESS_SECONDS``
environment variable changes it, 0 writes a line per step), and a last line with the totals
when the task ends normally (after an error or Ctrl-C the command prints its own line).
Nothing ever goes to stdout, which carries results (``--json``).
"""

from __future__ import annotations

import os
import sys
import time
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

__all__ = ["ENV_SECONDS", "StepProgress", "line_interval"]

#: Environment variable: seconds between plain progress lines (0: one line per step).
ENV_SECONDS = "TENPAI_PROGRESS_SECONDS"
_DEFAULT_SECONDS = 10.0


def line_interval(default: float = _DEFAULT_SECONDS) -> float:
    """Seconds between plain lines: ``TENPAI_PROGRESS_SECONDS`` when set to a number ≥ 0."""
    raw = os.environ.get(ENV_SECONDS)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        return default
    return value if value >= 0 else default


def _duration(seconds: float) -> str:
    s = int(seconds + 0.5)
    if s < 60:
        return f"{s} s"
    m, s = divmod(s, 60)
    if m < 60:
        return f"{m} min {s:02d} s"
    h, m = divmod(m, 60)
    return f"{h} h {m:02d} min"


class StepProgress:
    """Counts steps (files, games, shards) of one long task and shows how far it is.

    Use as a context manager; call :meth:`advance` per step (or :meth:`update` with a count).
    ``console`` is a rich console on stderr (its ``is_terminal`` picks the bar); ``stream`` is
    where plain lines go (stderr by default).  ``enabled=False`` shows nothing at all.
    """

    def __init__(
        self,
        description: str,
        total: int | None = None,
        *,
        unit: str = "files",
        completed: int = 0,
        console: Console | None = None,
        stream: TextIO | None = None,
        every_seconds: float | None = None,
        enabled: bool = True,
    ) -> None:
        self.description = description
        self.total = total
        self.unit = unit
        self.completed = completed
        self._start_count = completed
        self._console = console
        self._stream = stream
        self._every = line_interval() if every_seconds is None else every_seconds
        self._enabled = enabled
        self._bar: Progress | None = None
        self._task: TaskID | None = None
        self._start = 0.0
        self._last_line = 0.0
        self._note = ""

    # -- context ---------------------------------------------------------------------------
    def __enter__(self) -> StepProgress:
        self._start = self._last_line = time.monotonic()
        if not self._enabled:
            return self
        if self._is_terminal():
            self._start_bar()
        else:
            self._line()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
        elif self._enabled and exc_type is None:
            self._line(final=True)
        # after an error or Ctrl-C the caller says what happened, in one line of its own

    # -- steps -----------------------------------------------------------------------------
    def advance(self, steps: int = 1, note: str = "") -> None:
        """``steps`` more are done; ``note`` (the last file, a failure count) is shown too."""
        self.update(self.completed + steps, note)

    def update(self, completed: int, note: str = "") -> None:
        """``completed`` steps are done in all."""
        self.completed = completed
        if note:
            self._note = note
        if not self._enabled:
            return
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=completed, note=self._note)
            return
        now = time.monotonic()
        if now - self._last_line >= self._every:
            self._last_line = now
            self._line()

    # -- output ----------------------------------------------------------------------------
    def _is_terminal(self) -> bool:
        if self._stream is not None:
            return False
        if self._console is not None:
            return bool(self._console.is_terminal)
        return sys.stderr.isatty()

    def _start_bar(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._bar = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            TextColumn("{task.fields[note]}"),
            console=self._console or Console(stderr=True),
            transient=True,
        )
        self._bar.start()
        self._task = self._bar.add_task(
            self.description, total=self.total, completed=self.completed, note=""
        )

    def _line(self, *, final: bool = False) -> None:
        elapsed = time.monotonic() - self._start
        count = f"{self.completed:,}"
        if self.total is not None:
            count += f"/{self.total:,}"
        parts = [f"{count} {self.unit}"]
        if self.total and not final:
            parts[0] += f" ({100 * self.completed // self.total}%)"
        if elapsed >= 1 or final:
            parts.append(_duration(elapsed))
        done_now = self.completed - self._start_count
        if not final and self.total and done_now > 0 and elapsed >= 1:
            left = (self.total - self.completed) * elapsed / done_now
            parts.append(f"about {_duration(left)} left")
        if self._note:
            parts.append(self._note)
        state = " done" if final else ""
        stream = self._stream or sys.stderr
        print(f"{self.description}{state}: " + ", ".join(parts), file=stream, flush=True)
