"""External programs named on the command line (``mjai:CMD``, ``botzone:CMD`` seats).

Both protocols seat a program given as a shell-quoted command after a prefix; the program is
resolved once, in the parent process, so a typo is one line before any game and every worker
runs the same absolute path whatever its working folder.
"""

from __future__ import annotations

import os
import shlex
import shutil

__all__ = ["resolve_command"]


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
