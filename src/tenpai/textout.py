"""Where tables and reports go on stdout: a terminal's width, or no width limit in a pipe.

rich assumes 80 columns when stdout is not a terminal, and a table wider than that has its
numbers cut (``win 18.…``); a file or a pipe has no width, so nothing should be cut there.
"""

from __future__ import annotations

import sys
from typing import Final

from rich.console import Console

__all__ = ["PIPE_WIDTH", "stdout_console"]

#: The width used when stdout is not a terminal: wide enough that no table row is cut.
PIPE_WIDTH: Final = 4096


def stdout_console() -> Console:
    """A console for stdout: the terminal's width there, no practical limit in a pipe."""
    return Console(width=None if sys.stdout.isatty() else PIPE_WIDTH)
