"""The game length our own mjai bot assumes when an arena seats it as ``mjai:COMMAND``.

mjai never says whether a game is a tonpuu or a hanchan, so ``tenpai mjai-bot`` is told with
``--length`` and otherwise assumes its preset's (a hanchan).  The arena plays tonpuu by
default, so ``mjai:tenpai mjai-bot --agent search`` there values East 4 as if South followed —
silently, since the bot cannot know.  The arena reads the seat's command line here and warns at
the start of the run when our bot's length is not the arena's.  It is a warning, not an error
(a user may mean it), and only for our own bot: another program's flags mean nothing to us.
"""

from __future__ import annotations

import os
import re
import shlex

from tenpai.rules.riichi.ruleset import PRESETS

__all__ = ["length_warning", "own_bot_length"]

_PREFIX = "mjai:"
_LENGTHS = ("tonpuu", "hanchan")
#: Python's own options that take a value as the next word (``python -X utf8 -m tenpai``).
_PYTHON_VALUE_OPTIONS = frozenset({"-X", "-W"})


def _bot_arguments(words: list[str]) -> list[str] | None:
    """The arguments after ``mjai-bot`` when ``words`` run our bot — ``tenpai mjai-bot …`` or
    ``python -m tenpai mjai-bot …``, either behind ``env NAME=VALUE …`` — else None."""
    if words and os.path.basename(words[0]) == "env":
        words = words[1:]
        while words and "=" in words[0] and not words[0].startswith("-"):
            words = words[1:]
    if not words:
        return None
    program = os.path.basename(words[0])
    rest = words[1:]
    if re.fullmatch(r"python[0-9.]*", program):
        while rest and rest[0] != "-m" and rest[0] != "-mtenpai":
            if not rest[0].startswith("-") or rest[0] == "-c":
                return None  # a script or -c code: not our bot
            rest = rest[2:] if rest[0] in _PYTHON_VALUE_OPTIONS else rest[1:]
        if rest[:1] == ["-mtenpai"]:
            rest = rest[1:]
        elif rest[:2] == ["-m", "tenpai"]:
            rest = rest[2:]
        else:
            return None
    elif program != "tenpai":
        return None
    return rest[1:] if rest[:1] == ["mjai-bot"] else None


def _option(args: list[str], flag: str) -> str | None:
    """The last value given to ``flag`` (``--flag VALUE`` or ``--flag=VALUE``), as the CLI
    reads a repeated option; None when absent."""
    value = None
    for i, word in enumerate(args):
        if word == flag and i + 1 < len(args):
            value = args[i + 1]
        elif word.startswith(flag + "="):
            value = word[len(flag) + 1 :]
    return value


def _bot_length(name: str) -> tuple[str, bool] | None:
    """(the length our bot assumes, whether ``--length`` says it) for the seat ``name``; None
    for another program or a command line the bot itself refuses (it says so when it starts)."""
    try:
        words = shlex.split(name.removeprefix(_PREFIX))
    except ValueError:
        return None
    args = _bot_arguments(words)
    if args is None:
        return None
    length = _option(args, "--length")
    if length is not None:
        return (length, True) if length in _LENGTHS else None
    preset = PRESETS.get(_option(args, "--preset") or "tenhou")
    return None if preset is None else (preset.length, False)


def own_bot_length(name: str) -> str | None:
    """The game length (``tonpuu`` or ``hanchan``) that the seat ``mjai:COMMAND`` assumes when
    the command runs our own bot: its ``--length``, else its ``--preset``'s (Tenhou's by
    default, a hanchan).  None for another program, or a command line the bot refuses."""
    found = _bot_length(name)
    return None if found is None else found[0]


def length_warning(name: str, arena_length: str) -> str | None:
    """One line for the seat ``name`` when it runs our bot under another game length than the
    arena's (``arena_length``); None when the lengths match or the seat is another program."""
    found = _bot_length(name)
    if found is None or found[0] == arena_length:
        return None
    length, given = found
    why, fix = (("its --length", f"change it to --length {arena_length}") if given else
                ("no --length: its preset's", f"add --length {arena_length} to its command"))
    return (f"seat {name!r} runs tenpai mjai-bot assuming a {length} ({why}) but the arena "
            f"plays {arena_length} games, so agents that value the game's end (search, "
            f"mcts_pg) misjudge it; {fix}")
