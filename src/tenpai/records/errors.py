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
    "in_record_terms",
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


def in_record_terms(exc: BaseException, context: str = "") -> str:
    """What a Python error met while reading says about the record, for a reader's message.

    Readers catch ``IndexError``, ``KeyError``, ``TypeError`` … from their own indexing and
    conversions; "IndexError: list index out of range" names neither the fault nor where to
    look, so each kind is put in the record's terms, followed by ``context`` (the element or
    value being read) when the reader has it.  Messages the readers raise themselves
    (``ValueError("deal of seat 2 has 12 tiles")``) are already in those terms and kept.
    """
    text = str(exc)
    if isinstance(exc, IndexError):
        msg = "too few values: a list or attribute is shorter than the format requires"
    elif isinstance(exc, KeyError):
        msg = f"a required field is missing: {text}" if text else "a required field is missing"
    elif isinstance(exc, (TypeError, AttributeError)):
        msg = "a value of the wrong kind (a number, text or list where another is required)"
    elif isinstance(exc, AssertionError):
        msg = "a field is missing or contradicts another" + (f" ({text})" if text else "")
    elif text.startswith("invalid literal for int()"):
        msg = f"{text.rsplit(': ', 1)[-1]} is not a whole number"
    elif text.startswith("could not convert string to float"):
        msg = f"{text.rsplit(': ', 1)[-1]} is not a number"
    else:
        msg = text or type(exc).__name__
    return f"{msg} in {context}" if context else msg
