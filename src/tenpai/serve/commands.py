"""External programs named on the command line (``mjai:CMD``, ``botzone:CMD`` seats).

Both protocols seat a program given as a shell-quoted command after a prefix; the program is
resolved once, in the parent process, so a typo is one line before any game and every worker
runs the same absolute path whatever its working folder.  Each protocol's time per answer comes
from its own variable, read here in one way.
"""

from __future__ import annotations

import os
import shlex
import shutil

__all__ = ["resolve_command", "timeout_from_env"]


def resolve_command(name: str, prefix: str, spec: str) -> str:
    """``prefix`` + ``spec`` with its program made absolute and checked; a one-line
    ValueError naming ``name`` when it cannot be split, is missing or is not executable."""
    try:
        words = shlex.split(spec)
    except ValueError as exc:
        raise ValueError(f"{name}: cannot split the command: {exc}") from None
    if not words:
        raise ValueError(f"{name}: no program after {prefix}")
    prog = words[0]
    if os.sep in prog or prog.startswith("."):
        path = os.path.abspath(os.path.expanduser(prog))
        if not os.path.exists(path):
            raise ValueError(f"{name}: {path} does not exist")
        if os.path.isdir(path) or not os.access(path, os.X_OK):
            raise ValueError(f"{name}: {path} is not an executable file")
    else:
        found = shutil.which(prog)
        if found is None:
            raise ValueError(f"{name}: {prog} is not an executable on PATH")
        path = os.path.abspath(found)
    return prefix + shlex.join([path, *words[1:]])


def timeout_from_env(var: str, default: float) -> float:
    """Seconds per answer from ``$var`` (``default`` when unset or empty); a one-line
    ValueError naming the variable when it is not a positive number."""
    raw = os.environ.get(var)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{var}={raw!r} is not a number of seconds") from None
    if value <= 0:
        raise ValueError(f"{var}={raw!r} must be positive")
    return value
