"""Typed errors for game records.

Every reader failure is a :class:`RecordError` (a ``ValueError``) whose message names the file
and the position — round index, element or event index, line — because "bad record" is useless
when a folder holds thousands of games.  Callers catch ``RecordError`` alone; anything else
escaping a reader is a bug.
"""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "NotAGameError",
    "RecordContentError",
    "RecordError",
    "RecordSyntaxError",
    "RecordTooLargeError",
    "RecordTruncatedError",
    "UnknownFormatError",
]


class RecordError(ValueError):
    """A record could not be read or written; ``source`` and ``where`` locate the problem."""

    def __init__(self, message: str, source: str | Path | None = None, where: str = "") -> None:
        self.source = str(source) if source is not None else "<memory>"
        self.where = where
        self.detail = message
        loc = f"{self.source}" + (f" ({where})" if where else "")
        super().__init__(f"{loc}: {message}")


class RecordSyntaxError(RecordError):
    """The bytes are not well-formed XML / JSON / text of the expected format."""


class RecordContentError(RecordError):
    """Well-formed input whose values make no sense (bad tile, unknown call, wrong seat)."""


class RecordTooLargeError(RecordError):
    """The input (or its decompressed form) exceeds the configured size limit."""


class RecordTruncatedError(RecordError):
    """The record stops before its end (a round or the game is unfinished)."""


class UnknownFormatError(RecordError):
    """The format of an input could not be recognised."""


class NotAGameError(UnknownFormatError):
    """A file of a known kind that holds no game by itself (a Botzone match's
    ``_metadata.json`` without its ``_lite.json`` log).

    It subclasses :class:`UnknownFormatError` so that folder scans treat it like any other file
    that is not a game record (skipped, never a broken record), while a file named on its own
    still fails with a message saying what is missing.
    """
